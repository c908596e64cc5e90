use blocking_units_case::get_sync;
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

#[tokio::main]
async fn main() {
    let pods: Api<Pod> = Api::default_namespaced(kube::Client::try_default().await.unwrap());
    let _ = get_sync(&pods, "web");
}
