use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, Patch, PatchParams};

pub async fn apply_deployment(deployments: &Api<Deployment>, name: &str) -> kube::Result<Deployment> {
    let desired = serde_json::json!({ "metadata": { "name": name } });
    deployments.patch(name, &PatchParams::apply("ctl"), &Patch::Apply(&desired)).await
}
