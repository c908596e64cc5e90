// A create joined with a list of its collection is `unknown` (a fan-out listing what exists);
// a delete joined with the same list is `possible`: the list shows the object or not, at random.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, ListParams, PostParams};

async fn create_and_list(pods: Api<Pod>, pp: PostParams, pod: Pod) {
    let _ = tokio::join!(pods.create(&pp, &pod), pods.list(&ListParams::default()));
}

async fn delete_and_list(pods: Api<Pod>, dp: DeleteParams) {
    let _ = tokio::join!(pods.delete("blog", &dp), pods.list(&ListParams::default())); //~ concurrent-same-object
}
