// Concurrent requests that are not a hazard: none of these may be reported.
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::api::{Api, DeleteParams, PostParams};
use std::collections::HashMap;

async fn different_kinds(client: kube::Client, pp: PostParams, cm: ConfigMap) -> kube::Result<()> {
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "apps");
    let secrets: Api<Secret> = Api::namespaced(client, "apps");
    tokio::try_join!(cms.create(&pp, &cm), secrets.get("tls"))?;
    tokio::try_join!(cms.delete("x", &DeleteParams::default()), secrets.delete("x", &DeleteParams::default()))?;
    Ok(())
}

async fn different_names(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    tokio::try_join!(pods.delete("web-0", &dp), pods.get("web-1"))?;
    tokio::try_join!(pods.delete(&format!("web-{}", 0), &dp), pods.get(&format!("db-{}", 0)))?;
    Ok(())
}

async fn different_namespaces(client: kube::Client, dp: DeleteParams) -> kube::Result<()> {
    let staging: Api<Pod> = Api::namespaced(client.clone(), "staging");
    let prod: Api<Pod> = Api::namespaced(client, "prod");
    tokio::try_join!(staging.delete("web", &dp), prod.get("web"))?;
    Ok(())
}

async fn reads_only(pods: Api<Pod>, lp: kube::api::ListParams) -> kube::Result<()> {
    tokio::try_join!(pods.get("web"), pods.get("web"), pods.list(&lp))?;
    Ok(())
}

async fn sequential(pods: Api<Pod>, pp: PostParams, pod: Pod) -> kube::Result<()> {
    pods.create(&pp, &pod).await?;
    let fetched = pods.get("web").await?;
    pods.delete("web", &Default::default()).await?;
    Ok(())
}

async fn look_alikes(pods: Api<Pod>, url: &str) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut cache: HashMap<String, String> = HashMap::new();
    let (a, b) = tokio::join!(http.get(url).send(), http.delete(url).send());
    let (c, d) = tokio::join!(async { cache.get("web") }, pods.get("web"));
    let e = futures::future::join(http.patch(url).send(), pods.get("web")).await;
    Ok(())
}
