mod tests;

use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

/// Reads a Pod from sync code.
pub fn get_sync(pods: &Api<Pod>, name: &str) -> kube::Result<Pod> {
    tokio::runtime::Handle::current().block_on(pods.get(name)) //~ block-on-in-async
}

pub async fn reconcile(pods: Api<Pod>) {
    let _ = get_sync(&pods, "web");
}
