use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use serde_json::json;

pub async fn reconcile(client: kube::Client, name: &str) -> anyhow::Result<()> {
    let pods: Api<Pod> = Api::default_namespaced(client.clone());
    let configs: Api<ConfigMap> = Api::default_namespaced(client.clone());
    let secrets: Api<Secret> = Api::default_namespaced(client.clone());
    let pp = PatchParams::apply("demo-operator");
    let dp = DeleteParams::default();

    // Safe: different kinds, read-only fan-out.
    let (config, secret) = tokio::try_join!(configs.get(name), secrets.get_opt("blog-tls"))?;

    // Safe: different literal names.
    futures::try_join!(configs.delete("blog-old", &dp), configs.get("blog-new"))?;

    // Hazard: the label patch and the delete of the same Pod race each other.
    let label = json!({ "metadata": { "labels": { "config-hash": "42" } } });
    let relabel_patch = Patch::Merge(&label);
    let relabel = pods.patch(name, &pp, &relabel_patch);
    let restart = pods.delete(name, &dp);
    futures::try_join!(relabel, restart)?;

    // Hazard: the adoption is created first but awaited last: the delete is sent before it.
    let owner = json!({ "metadata": { "labels": { "app.kubernetes.io/managed-by": "demo" } } });
    let owner_patch = Patch::Merge(&owner);
    let adopt = async { configs.patch("blog-config", &pp, &owner_patch).await };
    let prune = configs.delete("blog-config", &dp);
    prune.await?;
    adopt.await?;

    // Hazard: the future is dropped, so the old Secret is never deleted.
    let _ = secrets.delete("blog-tls-old", &dp);

    crate::status::publish(&pods, name, config.data.is_some() && secret.is_some()).await?;
    Ok(())
}
