// Not races: the handle is awaited before the next request on the object, the task is the
// single consumer of a channel, different objects, different branches, a retry loop.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use tokio::sync::mpsc;
use tokio_retry::strategy::ExponentialBackoff;
use tokio_retry::Retry;

async fn awaited_first(pods: Api<Pod>) -> kube::Result<()> {
    let p = pods.clone();
    let handle = tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await });
    let _ = handle.await;
    pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await?;
    let p = pods.clone();
    let _ = tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await }).await;
    pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// The task drains a channel: every status write is sent to it, one at a time.
async fn single_writer(pods: Api<Pod>, names: Vec<String>) {
    let (tx, mut rx) = mpsc::channel::<String>(16);
    let writer = pods.clone();
    tokio::spawn(async move {
        while let Some(name) = rx.recv().await {
            let _ = writer.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await;
        }
    });
    for name in names {
        let _ = tx.send(name).await;
    }
}

// The same, with the drain loop in a function of the crate (reduced from kdash).
async fn drain(pods: Api<Pod>, mut rx: mpsc::Receiver<String>) {
    loop {
        let Some(name) = rx.recv().await else { break };
        let _ = pods.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
    }
}

async fn helper_writer(pods: Api<Pod>, rx: mpsc::Receiver<String>, tx: mpsc::Sender<String>) {
    tokio::spawn(drain(pods.clone(), rx));
    let _ = tx.send("web".to_string()).await;
    let _ = pods.get("web").await;
}

// `Retry::spawn` (tokio-retry) runs the action again until it succeeds: a loop, not a task.
async fn retried(pods: Api<Pod>) -> kube::Result<()> {
    let strategy = ExponentialBackoff::from_millis(10).take(3);
    Retry::spawn(strategy, || pods.patch("web", &PatchParams::default(), &Patch::Merge(()))).await?;
    pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

async fn other_objects(pods: Api<Pod>) {
    let p = pods.clone();
    tokio::spawn(async move { p.delete("a", &DeleteParams::default()).await });
    let _ = pods.patch("b", &PatchParams::default(), &Patch::Merge(())).await;
}

// One task per element, each on its own object.
async fn per_element(pods: Api<Pod>, names: Vec<String>) {
    for name in names {
        let p = pods.clone();
        tokio::spawn(async move { p.delete(&name, &DeleteParams::default()).await });
    }
}

async fn branches(pods: Api<Pod>, background: bool) {
    if background {
        let p = pods.clone();
        tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await });
    } else {
        let _ = pods.delete("web", &DeleteParams::default()).await;
    }
}

// Reads only, and a request made before the spawn.
async fn reads(pods: Api<Pod>) {
    let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
    let p = pods.clone();
    tokio::spawn(async move { p.get("web").await });
    let _ = pods.get("web").await;
}

// Reduced from kftray's tests: each task is aborted when its guard is dropped, at the end of its
// iteration.
struct AbortOnDropHandle<T>(tokio::task::JoinHandle<T>);

async fn guarded(pods: Api<Pod>) {
    for _round in [1, 2, 3] {
        let p = pods.clone();
        let _guard = AbortOnDropHandle(tokio::spawn(async move {
            p.delete("proxy", &DeleteParams::default()).await
        }));
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

// Reduced from kftray's stop with a deadline: one task per config, each on its own objects; the
// tasks still running at the deadline are left detached on purpose.
async fn stop_config(pods: Api<Pod>, id: i64) -> kube::Result<()> {
    pods.delete(&format!("proxy-{id}"), &DeleteParams::default()).await?;
    Ok(())
}

async fn stop_all(pods: Api<Pod>, ids: Vec<i64>) {
    let handles: Vec<(i64, tokio::task::JoinHandle<kube::Result<()>>)> = ids
        .iter()
        .map(|&id| {
            let pods = pods.clone();
            let handle = tokio::spawn(async move { stop_config(pods, id).await });
            (id, handle)
        })
        .collect();
    for (_id, handle) in handles {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), handle).await;
    }
}
