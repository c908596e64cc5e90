// Look-alikes of fresh_names.rs: each element's request names its own object, built from the
// element inside the template (`format!("{base}-{i}")`): different elements, different objects,
// not reported (with `batch_checking` they are, as any batch keyed by its element).
use futures::future::join_all;
use futures::stream::{self, FuturesUnordered, StreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

async fn joined(pods: Api<Pod>, base: &str) {
    let dp = DeleteParams::default();
    let mut futs = Vec::new();
    for i in 0..3 {
        let name = format!("{base}-{i}");
        futs.push(pods.delete(&name, &dp));
    }
    join_all(futs).await;
}

async fn mapped(pods: Api<Pod>, base: &str) {
    let dp = DeleteParams::default();
    join_all((0..3).map(|i| pods.delete(&format!("{base}-{i:02}"), &dp))).await;
}

async fn buffered(pods: Api<Pod>, base: &str) {
    let dp = DeleteParams::default();
    let _ = stream::iter(0..3)
        .map(|i| {
            let name = format!("{base}-{i}");
            let pods = pods.clone();
            let dp = dp.clone();
            async move { pods.delete(&name, &dp).await }
        })
        .buffer_unordered(4)
        .collect::<Vec<_>>()
        .await;
}

async fn unordered(pods: Api<Pod>, base: &str) {
    let dp = DeleteParams::default();
    let set = FuturesUnordered::new();
    for i in 0..3 {
        let name = format!("{base}-{i}");
        let pods = pods.clone();
        let dp = dp.clone();
        set.push(async move { pods.delete(&name, &dp).await });
    }
    let _ = set.collect::<Vec<_>>().await;
}
