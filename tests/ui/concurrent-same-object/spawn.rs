// Spawned tasks start at once and run in parallel until their handles are joined.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};
use tokio::task::JoinSet;

async fn handles_awaited_later(pods: Api<Pod>, dp: DeleteParams) {
    let (a, b) = (pods.clone(), pods.clone());
    let deleting = tokio::spawn(async move { a.delete("web", &dp).await }); //~ concurrent-same-object
    let reading = tokio::task::spawn(async move { b.get("web").await });
    let _ = deleting.await;
    let _ = reading.await;
}

async fn handles_joined(pods: Api<Pod>, pp: PostParams, pod: Pod, names: Vec<String>) {
    let mut handles = Vec::new();
    for _ in &names {
        let (pods, pp, pod) = (pods.clone(), pp.clone(), pod.clone());
        handles.push(tokio::spawn(async move { pods.create(&pp, &pod).await })); //~ concurrent-same-object
    }
    futures::future::join_all(handles).await;
}

async fn join_set(pods: Api<Pod>, dp: DeleteParams) {
    let mut set = JoinSet::new();
    let p = pods.clone();
    set.spawn(async move { p.delete("web", &dp).await.map(|_| ()) }); //~ concurrent-same-object
    let p = pods.clone();
    set.spawn_on(async move { p.get("web").await.map(|_| ()) }, &tokio::runtime::Handle::current());
    while let Some(r) = set.join_next().await {
        let _ = r;
    }
}

fn threads(pods: Api<Pod>, dp: DeleteParams, rt: tokio::runtime::Runtime) {
    std::thread::scope(|s| { //~ concurrent-same-object
        s.spawn(|| rt.block_on(pods.delete("web", &dp)));
        s.spawn(|| rt.block_on(pods.get("web")));
    });
}

// Not reported: each task awaited before the next starts, a task per element named after it, and
// tasks on different objects.
async fn negatives(pods: Api<Pod>, dp: DeleteParams, names: Vec<String>) {
    let p = pods.clone();
    let first = tokio::spawn(async move { p.delete("web", &dp).await });
    let _ = first.await;
    let p = pods.clone();
    let second = tokio::spawn(async move { p.get("web").await });
    let _ = second.await;
    for _ in &names {
        let p = pods.clone();
        let _ = tokio::spawn(async move { p.delete("web", &Default::default()).await }).await;
    }
    let mut handles = Vec::new();
    for n in names.clone() {
        let p = pods.clone();
        handles.push(tokio::spawn(async move { p.delete(&n, &Default::default()).await }));
    }
    for h in handles {
        let _ = h.await;
    }
    let mut set = JoinSet::new();
    let p = pods.clone();
    set.spawn(async move { p.delete("a", &Default::default()).await.map(|_| ()) });
    let p = pods.clone();
    set.spawn(async move { p.delete("b", &Default::default()).await.map(|_| ()) });
    set.join_all().await;
}
