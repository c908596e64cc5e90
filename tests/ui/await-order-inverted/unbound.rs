// When the later await is a statement of its own, its value was dropped there: the fix awaits
// the future where it is created and drops the binding too, which would be unused.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

async fn async_block(configs: Api<ConfigMap>, pp: PatchParams, dp: DeleteParams) -> kube::Result<()> {
    let owner = serde_json::json!({});
    let patch = Patch::Merge(&owner);
    let adopt = async { configs.patch("blog", &pp, &patch).await };
    let prune = configs.delete("blog", &dp);
    prune.await?; //~ await-order-inverted
    adopt.await?;
    Ok(())
}

async fn mutable_binding(configs: Api<ConfigMap>, dp: DeleteParams) {
    let mut read = configs.get("blog");
    let remove = configs.delete("blog", &dp);
    let _ = remove.await; //~ await-order-inverted
    read.await;
}

async fn block_like(configs: Api<ConfigMap>, dp: DeleteParams, fast: bool) -> kube::Result<()> {
    let read = match fast {
        true => configs.get("blog"),
        false => configs.get("blog"),
    };
    let remove = configs.delete("blog", &dp);
    remove.await?; //~ await-order-inverted
    read.await?;
    Ok(())
}
