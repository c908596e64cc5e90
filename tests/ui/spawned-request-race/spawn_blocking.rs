// A blocking task that sends a write with `block_on` is a spawned write like any other: it races
// with the requests on the same object made while it may still run. `block_on` inside the
// closure of `spawn_blocking` is the correct way to block, so `block-on-in-async` is silent.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use tokio::runtime::Handle;

// Detached: the handle of the blocking task is dropped.
async fn detached(pods: Api<Pod>) -> kube::Result<()> {
    let handle = Handle::current();
    let p = pods.clone();
    tokio::task::spawn_blocking(move || handle.block_on(p.patch("web", &PatchParams::default(), &Patch::Merge(())))); //~ spawned-request-race
    pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// `futures::executor::block_on`, awaited only after the caller's own request.
async fn awaited_late(pods: Api<Pod>) -> kube::Result<()> {
    let p = pods.clone();
    let task = tokio::task::spawn_blocking(move || { //~ spawned-request-race
        futures::executor::block_on(p.delete("web", &DeleteParams::default()))
    });
    let _ = pods.get("web").await?;
    let _ = task.await;
    Ok(())
}

// A runtime made in the task, `Runtime::block_on`.
async fn own_runtime(pods: Api<Pod>) -> kube::Result<()> {
    let p = pods.clone();
    let task = tokio::task::spawn_blocking(move || { //~ spawned-request-race
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        rt.block_on(p.patch_status("web", &PatchParams::default(), &Patch::Merge(())))
    });
    pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
    let _ = task.await;
    Ok(())
}

// The method of a runtime handle, and `Handle::block_on(&h, ..)`.
async fn on_a_handle(pods: Api<Pod>) -> kube::Result<()> {
    let h = Handle::current();
    let inner = h.clone();
    let p = pods.clone();
    let task = h.spawn_blocking(move || Handle::block_on(&inner, p.delete("web", &DeleteParams::default()))); //~ spawned-request-race
    let _ = pods.get("web").await?;
    let _ = task.await;
    Ok(())
}

// A sync helper of the crate that blocks on the write, run on a blocking thread.
fn patch_sync(pods: &Api<Pod>, name: &str) -> kube::Result<Pod> {
    Handle::current().block_on(pods.patch(name, &PatchParams::default(), &Patch::Merge(())))
}

async fn through_helper(pods: Api<Pod>) -> kube::Result<()> {
    let p = pods.clone();
    let task = tokio::task::spawn_blocking(move || patch_sync(&p, "web")); //~ spawned-request-race
    let _ = pods.get("web").await?;
    let _ = task.await;
    Ok(())
}

// Not reported: the handle is awaited before the next request on the object.
async fn awaited_first(pods: Api<Pod>) -> kube::Result<()> {
    let h = Handle::current();
    let p = pods.clone();
    let task = tokio::task::spawn_blocking(move || h.block_on(p.delete("web", &DeleteParams::default())));
    let _ = task.await;
    let _ = pods.get("web").await?;
    Ok(())
}

// Not reported: another object.
async fn other_object(pods: Api<Pod>) -> kube::Result<()> {
    let h = Handle::current();
    let p = pods.clone();
    let task = tokio::task::spawn_blocking(move || h.block_on(p.delete("cache", &DeleteParams::default())));
    let _ = pods.get("web").await?;
    let _ = task.await;
    Ok(())
}

// Not reported: `block_in_place` runs the closure on this task, in order.
async fn in_place(pods: Api<Pod>) -> kube::Result<()> {
    let h = Handle::current();
    let p = pods.clone();
    let _ = tokio::task::block_in_place(move || h.block_on(p.delete("web", &DeleteParams::default())));
    let _ = pods.get("web").await?;
    Ok(())
}
