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
            _ = pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())) => {}
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

// The name is made anew on each iteration: the next iteration's patch is of another Pod, as far
// as the code shows (the weak form is still reported).
async fn label_each(pods: Api<Pod>, mut names: tokio::sync::mpsc::Receiver<String>) {
    while let Some(name) = names.recv().await {
        let _ = pods.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
        tokio::select! {
            _ = pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())) => {} //~ cancellable-write
            _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
        }
    }
}
