// A cancelled write in a loop is followed, on the next iteration, by the writes written before
// it in the loop. The look-alikes: a write before the loop, and a timer on every way round.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use tokio::sync::watch;

async fn keep_labelled(pods: Api<Pod>, mut stop: watch::Receiver<bool>) {
    loop {
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        tokio::select! {
            _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
            _ = stop.changed() => {}
        }
    }
}

async fn label_once_then_status(pods: Api<Pod>, mut stop: watch::Receiver<bool>) {
    let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
    loop {
        tokio::select! {
            _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
            _ = stop.changed() => return,
        }
    }
}

async fn keep_labelled_slowly(pods: Api<Pod>, mut stop: watch::Receiver<bool>) {
    loop {
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        tokio::select! {
            _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
            _ = stop.changed() => {}
        }
        tokio::time::sleep(std::time::Duration::from_secs(30)).await;
    }
}
