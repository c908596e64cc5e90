mod worker;

use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

/// Reads a Pod from sync code: its caller in `worker.rs` is suppressed, this file's is not.
pub fn get_sync(pods: &Api<Pod>, name: &str) -> kube::Result<Pod> {
    tokio::runtime::Handle::current().block_on(pods.get(name)) //~ block-on-in-async
}

/// Deletes a Pod from sync code: its only async caller is suppressed, so is its finding.
pub fn delete_sync(pods: &Api<Pod>, name: &str) {
    let dp = Default::default();
    let _ = tokio::runtime::Handle::current().block_on(pods.delete(name, &dp));
}

pub async fn reconcile(pods: Api<Pod>) {
    let _ = get_sync(&pods, "web");
    // kube-order-lint: allow(block-on-in-async) -- runs before the runtime serves requests
    delete_sync(&pods, "web");
}

/// Sync code: this call blocks no async code, so the comment suppresses nothing.
pub fn cleanup(pods: &Api<Pod>) {
    delete_sync(pods, "old"); // kube-order-lint: allow(block-on-in-async) -- nothing to suppress
}
