// The create-then-read-back idiom: a create of a body whose name the tool cannot see, joined with
// a request by name through the same handle. Reported as `possible`: code that creates one object
// while it reads or writes an unrelated one of the same kind at the same moment is rare.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::ResourceExt;

// The seed's own case: the body is a parameter.
async fn seed(pods: Api<Pod>, pod: Pod) {
    let pp = PostParams::default();
    let _ = tokio::join!(pods.create(&pp, &pod), pods.get("blog")); //~ concurrent-same-object
}

// A write by name joined with the create, on a handle made in the function.
async fn patched(client: kube::Client, pod: Pod, name: &str, patch: Patch<()>) -> kube::Result<()> {
    let pods: Api<Pod> = Api::namespaced(client, "blogs");
    tokio::try_join!( //~ concurrent-same-object
        pods.create(&PostParams::default(), &pod),
        pods.patch(name, &PatchParams::default(), &patch),
    )?;
    Ok(())
}

// The name flows from the body: proved, `definite`.
async fn named_after_the_body(pods: Api<Pod>, pod: Pod, dp: DeleteParams) {
    let pp = PostParams::default();
    let _ = tokio::join!(pods.create(&pp, &pod), pods.get(&pod.name_any())); //~ concurrent-same-object
    let name = pod.metadata.name.clone().unwrap_or_default();
    let _ = tokio::join!(pods.create(&pp, &pod), pods.delete(&name, &dp)); //~ concurrent-same-object
}
