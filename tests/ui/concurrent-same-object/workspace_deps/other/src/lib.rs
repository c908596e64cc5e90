// `other` does not depend on `core-lib`: its `update` comes from elsewhere (here, a crate not in
// the workspace) and is not taken for `core-lib`'s.
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use vendor_sdk::update;

pub async fn reconcile(pods: Api<Pod>) {
    let _ = tokio::join!(update(&pods, "web"), update(&pods, "web"));
}
