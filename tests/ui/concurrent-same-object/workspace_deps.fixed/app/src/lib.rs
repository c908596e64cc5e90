// `app` depends on `core-lib`: `update` is its helper, and both calls replace Pod "web".
use core_lib::update;
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

pub async fn reconcile(pods: Api<Pod>) {
    let _ = (update(&pods, "web").await, update(&pods, "web").await); //~ concurrent-same-object
}
