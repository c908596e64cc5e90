// Request futures that are polled one way or another: not reported.
use futures::future::BoxFuture;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

async fn polled(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let _ = pods.delete("a", &dp).await;
    pods.delete("b", &dp).await?;
    let later = pods.get("c");
    later.await?;
    let joined = pods.get("d");
    let _ = tokio::join!(joined, pods.get("e"));
    let spawned = pods.clone();
    let _ = tokio::spawn(async move { spawned.delete("f", &Default::default()).await });
    let logged = pods.get("g");
    tracing::info!(target: "x", "{:?}", logged.await);
    let pinned = pods.get("h");
    tokio::pin!(pinned);
    (&mut pinned).await?;
    Ok(())
}

// Moved on: returned, passed to a function, stored.
fn returned(pods: &Api<Pod>) -> impl std::future::Future<Output = kube::Result<Pod>> + '_ {
    let fut = pods.get("a");
    fut
}

fn passed(pods: &Api<Pod>, sink: &mut Vec<BoxFuture<'static, ()>>) {
    let fut = pods.get("a");
    run(fut);
    sink.push(Box::pin(async {}));
}

fn run<F>(_f: F) {}

// Not kube requests.
async fn look_alikes(map: std::collections::HashMap<String, String>, http: reqwest::Client) {
    let _ = map.get("a");
    map.get("b");
    let _ = http.get("http://x").send();
}
