use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

// Callers in another file of the unit: notes of the helper's finding.
#[tokio::test]
async fn reads_web() {
    let pods: Api<Pod> = Api::default_namespaced(kube::Client::try_default().await.unwrap());
    let _ = crate::get_sync(&pods, "web");
}

#[tokio::test]
async fn reads_db() {
    let pods: Api<Pod> = Api::default_namespaced(kube::Client::try_default().await.unwrap());
    let _ = crate::get_sync(&pods, "db");
}
