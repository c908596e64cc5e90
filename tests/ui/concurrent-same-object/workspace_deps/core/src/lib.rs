use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, PostParams};

/// Replaces the Pod `name` with a fresh spec.
pub async fn update(pods: &Api<Pod>, name: &str) -> kube::Result<Pod> {
    let pod = Pod::default();
    pods.replace(name, &PostParams::default(), &pod).await
}
