// One future per element of a collection: a closure mapped over an iterator, or a future pushed
// in a `for` loop. Different elements normally name different objects; a name that does not
// depend on the element is the same object every time.
use futures::future::{join_all, try_join_all};
use futures::stream::{self, StreamExt};
use k8s_openapi::api::apps::v1::StatefulSet;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::ResourceExt;

// Keyed by the element: not reported (only with batch checking).
async fn keyed(sts: Api<StatefulSet>, objs: Vec<StatefulSet>, names: Vec<String>, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    try_join_all(objs.iter().map(|o| sts.replace(&o.name_any(), &pp, o))).await?;
    try_join_all(names.iter().map(|n| sts.delete(n, &dp))).await?;
    try_join_all(objs.iter().map(|o| sts.create(&pp, o))).await?;
    let mut futs = Vec::new();
    for n in &names {
        futs.push(sts.restart(n));
    }
    join_all(futs).await;
    // Two requests per element, both on the element's object.
    try_join_all(names.iter().map(|n| async move {
        let current = sts.get(n).await?;
        sts.replace(n, &pp, &current).await
    }))
    .await?;
    Ok(())
}

// Not keyed by the element: every future hits the same object.
async fn same_object(sts: Api<StatefulSet>, name: &str, patches: Vec<serde_json::Value>, pp: PatchParams, replicas: usize) -> kube::Result<()> {
    try_join_all(patches.iter().map(|p| sts.patch(name, &pp, &Patch::Merge(p)))).await?; //~ concurrent-same-object
    join_all((0..replicas).map(|_| sts.restart(name))).await; //~ concurrent-same-object
    let mut futs = Vec::new();
    for p in &patches {
        futs.push(sts.patch(name, &pp, &Patch::Merge(p)));
    }
    try_join_all(futs).await?; //~ concurrent-same-object
    Ok(())
}

// Two requests per element on one fixed object: the requests of different elements interleave.
async fn interleaved(sts: Api<StatefulSet>, names: Vec<String>, pp: PostParams) -> kube::Result<()> {
    try_join_all(names.iter().map(|_n| async { //~ concurrent-same-object
        let mut parent = sts.get("parent").await?;
        parent.metadata.labels = None;
        sts.replace("parent", &pp, &parent).await
    }))
    .await?;
    Ok(())
}

// A name made anew for each element is not provably the same: `possible`.
async fn per_element_local(sts: Api<StatefulSet>, names: Vec<String>, dp: DeleteParams) {
    join_all(names.iter().map(|_| { //~ concurrent-same-object
        let generated = uuid();
        sts.delete(&generated, &dp)
    }))
    .await;
}

// Read-only batches, batches awaited one by one, and sequential streams: not reported.
async fn negatives(sts: Api<StatefulSet>, names: Vec<String>, name: &str, dp: DeleteParams) -> kube::Result<()> {
    try_join_all(names.iter().map(|_| sts.get(name))).await?;
    let futs: Vec<_> = names.iter().map(|_| sts.delete(name, &dp)).collect();
    for f in futs {
        f.await?;
    }
    for _ in &names {
        sts.restart(name).await?;
    }
    let _: Vec<_> = stream::iter(names.iter().map(|_| sts.restart(name))).then(|f| f).collect().await;
    Ok(())
}

fn uuid() -> String {
    String::new()
}
