use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

/// Marks the Pod ready and returns its refreshed status.
pub async fn publish(pods: &Api<Pod>, name: &str, ready: bool) -> kube::Result<Pod> {
    let status = json!({ "status": { "conditions": [{ "type": "DemoReady", "status": ready.to_string() }] } });
    let patch = Patch::Merge(&status);
    let pp = PatchParams::default();
    // Hazard: the status read may see the object before or after the status patch.
    let (_, current) = tokio::try_join!(
        pods.patch_status(name, &pp, &patch),
        pods.get_status(name),
    )?;
    Ok(current)
}
