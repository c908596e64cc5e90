// A write under a deadline is dropped when the deadline passes, possibly after its request
// reached the API server.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams, PostParams};
use tokio::time::{timeout, timeout_at, Instant};

// Look-alike: nothing follows the timed-out create: no second request for it to meet (`unknown`).
async fn bounded(pods: Api<Pod>, pod: Pod) {
    let _ = tokio::time::timeout(Duration::from_secs(5), pods.create(&PostParams::default(), &pod)).await;
}

// The same pod is patched after the deadline: the timed-out patch may land after it.
async fn bounded_at(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) {
    let _ = timeout_at(Instant::now(), pods.patch("web", &pp, &p)).await; //~ cancellable-write
    let _ = pods.patch("web", &pp, &p).await;
}

// On timeout, the status is patched again, as if the first patch had not happened.
async fn patch_again(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    if timeout(Duration::from_secs(5), pods.patch_status("web", &pp, &p)).await.is_err() { //~ cancellable-write
        pods.patch_status("web", &pp, &p).await?;
    }
    Ok(())
}

// A retry loop: a timed-out create is sent again and may fail with AlreadyExists.
async fn retry(pods: Api<Pod>, pod: Pod) {
    for _attempt in 0..3 {
        match timeout(Duration::from_secs(5), pods.create(&PostParams::default(), &pod)).await { //~ cancellable-write
            Ok(Ok(_)) => break,
            _ => continue,
        }
    }
}

// The deadline's error returns at once: nothing follows (`unknown`).
async fn propagated(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) -> Result<(), Box<dyn std::error::Error>> {
    timeout(Duration::from_secs(5), pods.patch_status("web", &pp, &p)).await??;
    pods.patch_status("web", &pp, &p).await?;
    Ok(())
}

// Not reported: a deadline over reads, and over a task's handle (dropping a `JoinHandle` does
// not cancel the task; reduced from kftray's stop with a deadline).
async fn negatives(pods: Api<Pod>) {
    let _ = timeout(Duration::from_secs(5), pods.get("web")).await;
    let p = pods.clone();
    let handle = tokio::spawn(async move { p.delete("web", &Default::default()).await });
    let _ = timeout(Duration::from_secs(5), handle).await;
}

// Look-alike: the function creating the pod is called twice, but of two creates of one pod,
// whichever lands second fails with 409 AlreadyExists: a late one overwrites nothing (`unknown`).
async fn create_bounded(pods: &Api<Pod>, pod: &Pod) {
    let _ = timeout(Duration::from_secs(5), pods.create(&PostParams::default(), pod)).await;
}

async fn create_twice(pods: Api<Pod>, pod: Pod) {
    create_bounded(&pods, &pod).await;
    create_bounded(&pods, &pod).await;
}
