// Look-alikes of the create-then-read-back idiom, not reported by default (`unknown`): nothing
// but the handle relates the two objects.
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, PostParams};

// Two creates of bodies made elsewhere: a fan-out, normally of different objects.
async fn fan_out(pods: Api<Pod>, web: Pod, db: Pod) {
    let pp = PostParams::default();
    let _ = tokio::join!(pods.create(&pp, &web), pods.create(&pp, &db));
}

// Two handles whose namespaces the tool cannot see: maybe not one collection.
async fn two_handles(pods: Api<Pod>, other: Api<Pod>, pod: Pod) {
    let pp = PostParams::default();
    let _ = tokio::join!(pods.create(&pp, &pod), other.get("blog"));
}

// Different kinds: never the same object.
async fn other_kind(pods: Api<Pod>, cms: Api<ConfigMap>, pod: Pod) {
    let pp = PostParams::default();
    let _ = tokio::join!(pods.create(&pp, &pod), cms.get("blog"));
}
