// The writes that follow a cancelled one through `continue` and a `let`'s `else`. Each hazard
// has its look-alike next to it, reported only in the weak form (the write may have landed).
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use std::time::Duration;
use tokio::sync::watch;

// The pass that races the status patch goes round at once: `continue` skips the timer, and the
// next pass's patch can land before the cancelled status patch.
async fn keep_labelled_or_retry(pods: Api<Pod>, mut stop: watch::Receiver<bool>, retry: bool) {
    loop {
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        if retry {
            tokio::select! {
                _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
                _ = stop.changed() => {}
            }
            continue;
        }
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
}

// Without the `continue`, the timer is on every way round: no evidence of a reordering.
async fn keep_labelled_slowly(pods: Api<Pod>, mut stop: watch::Receiver<bool>, retry: bool) {
    loop {
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        if retry {
            tokio::select! {
                _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
                _ = stop.changed() => {}
            }
        }
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
}

// The `if` that races the status patch falls through to the patch.
async fn status_unless_labelled(pods: Api<Pod>, mut stop: watch::Receiver<bool>, label: Option<String>) {
    if label.is_none() {
        tokio::select! {
            _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
            _ = stop.changed() => {}
        }
    }
    let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
}

// A `let`'s `else` always leaves: the patch never follows the cancelled status patch, and nothing
// else does (not reported: `unknown`).
async fn status_when_unlabelled(pods: Api<Pod>, mut stop: watch::Receiver<bool>, label: Option<String>) {
    let Some(_label) = label else {
        tokio::select! {
            _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {}
            _ = stop.changed() => {}
        }
        return;
    };
    let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
}
