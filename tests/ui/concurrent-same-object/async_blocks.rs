use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};

// Each `async` block is one operand: its requests are sequential inside it, but concurrent with
// the other operand's.
async fn blocks(cms: Api<ConfigMap>, cm: ConfigMap, pp: PatchParams, patch: Patch<()>) -> kube::Result<()> {
    let name = cm.name_any();
    tokio::try_join!( //~ concurrent-same-object
        async {
            let current = cms.get(&name).await?;
            Ok::<_, kube::Error>(current)
        },
        async move {
            cms.patch(&name, &pp, &patch).await
        }
    )?;
    Ok(())
}

// A let-bound `async` block referenced as an operand.
async fn bound_block(cms: Api<ConfigMap>, pp: PostParams, cm: ConfigMap) -> kube::Result<()> {
    let write = async {
        cms.replace("settings", &pp, &cm).await?;
        Ok::<_, kube::Error>(())
    };
    let read = async { cms.get_opt("settings").await };
    futures::try_join!(write, read)?; //~ concurrent-same-object
    Ok(())
}

// Requests inside one operand are sequential: nothing to report.
async fn one_operand(cms: Api<ConfigMap>, pp: PostParams, cm: ConfigMap) -> kube::Result<()> {
    let (a, b) = tokio::join!(
        async {
            cms.create(&pp, &cm).await?;
            cms.get("settings").await
        },
        std::future::ready(1)
    );
    Ok(())
}
