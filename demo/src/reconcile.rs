use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use serde_json::json;

pub async fn reconcile(client: kube::Client, name: &str) -> anyhow::Result<()> {
    let pods: Api<Pod> = Api::default_namespaced(client.clone());
    let configs: Api<ConfigMap> = Api::default_namespaced(client.clone());
    let secrets: Api<Secret> = Api::default_namespaced(client.clone());
    let pp = PatchParams::apply("demo-operator");

    // Safe: different kinds, read-only fan-out.
    let (config, secret) = tokio::try_join!(configs.get(name), secrets.get_opt("blog-tls"))?;

    // Safe: different literal names.
    futures::try_join!(
        configs.delete("blog-old", &DeleteParams::default()),
        configs.get("blog-new"),
    )?;

    // Hazard: the label patch and the delete of the same Pod race each other.
    let label = json!({ "metadata": { "labels": { "config-hash": "42" } } });
    let relabel = pods.patch(name, &pp, &Patch::Merge(&label));
    let restart = pods.delete(name, &DeleteParams::default());
    futures::try_join!(relabel, restart)?;

    crate::status::publish(&pods, name, config.data.is_some() && secret.is_some()).await?;
    Ok(())
}
