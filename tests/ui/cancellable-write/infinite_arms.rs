// A write in a `select!` arm is dropped only when another arm can finish first. An arm that never
// finishes (a `loop` nothing leaves, a kube watch stream run by `for_each`) never wins.
use futures::StreamExt;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::watcher;
use tokio::sync::oneshot;

// The other arm is a loop that nothing leaves: the patch always finishes first.
async fn against_an_endless_loop(leases: Api<Lease>, pp: PatchParams, p: Patch<()>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
    tokio::select! {
        r = leases.patch("leader", &pp, &p) => { let _ = r; }
        _ = async { loop { tick.tick().await; } } => {}
    }
}

// The other arm watches Pods forever: kube's watcher retries with backoff and never ends.
async fn against_a_watch(leases: Api<Lease>, pods: Api<Pod>, pp: PatchParams, p: Patch<()>) {
    tokio::select! {
        r = leases.patch("leader", &pp, &p) => { let _ = r; }
        _ = watcher(pods, watcher::Config::default()).for_each(|_| async {}) => {}
    }
}

// Look-alike: the loop can be left with `break`, so it can win and drop the patch.
async fn against_a_loop_that_ends(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, mut stop: oneshot::Receiver<()>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
    tokio::select! {
        r = leases.patch("leader", &pp, &p) => { let _ = r; } //~ cancellable-write
        _ = async {
            loop {
                tick.tick().await;
                if stop.try_recv().is_ok() {
                    break;
                }
            }
        } => {}
    }
    let _ = leases.patch("leader", &pp, &p).await;
}

// Look-alike: one arm never finishes, but a third one (a shutdown signal) can.
async fn against_a_watch_and_a_signal(leases: Api<Lease>, pods: Api<Pod>, pp: PatchParams, p: Patch<()>, stop: oneshot::Receiver<()>) {
    tokio::select! {
        r = leases.patch("leader", &pp, &p) => { let _ = r; } //~ cancellable-write
        _ = watcher(pods, watcher::Config::default()).for_each(|_| async {}) => {}
        _ = stop => {}
    }
    let _ = leases.patch("leader", &pp, &p).await;
}
