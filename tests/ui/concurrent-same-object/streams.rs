// Streams that poll several futures at once: `buffer_unordered`, `buffered` and their `try_`
// forms, `for_each_concurrent` and `try_for_each_concurrent`.
use futures::stream::{self, StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, Patch, PatchParams};

async fn buffered(deploys: Api<Deployment>, name: &str, patches: Vec<Patch<serde_json::Value>>, pp: PatchParams) {
    // Every element patches the same Deployment: the last patch to arrive wins.
    let _: Vec<_> = stream::iter(patches.iter()) //~ concurrent-same-object
        .map(|p| deploys.patch(name, &pp, p))
        .buffer_unordered(4)
        .collect()
        .await;
    let _: Vec<_> = stream::iter(patches.iter()).map(|p| deploys.patch(name, &pp, p)).buffered(4).collect().await; //~ concurrent-same-object
    let _: Vec<_> = stream::iter(patches.iter().map(Ok::<_, kube::Error>)) //~ concurrent-same-object
        .map_ok(|p| deploys.patch(name, &pp, p))
        .try_buffer_unordered(2)
        .try_collect()
        .await
        .unwrap();
}

async fn try_buffered(deploys: Api<Deployment>, names: Vec<String>, pp: PatchParams, p: Patch<()>) {
    // `buffered` keeps the results in order, not the requests.
    let reqs = names.iter().map(|_| deploys.patch_scale("web", &pp, &p));
    let _: Vec<_> = stream::iter(reqs).buffered(8).collect().await; //~ concurrent-same-object
    let _ = stream::iter(names.iter().map(|n| Ok(deploys.get_scale(n)))).try_buffered(8).try_collect::<Vec<_>>().await; // reads: fine
    let _ = stream::iter(names.iter().map(|_| Ok(deploys.patch_scale("web", &pp, &p)))).try_buffered(8).try_collect::<Vec<_>>().await; //~ concurrent-same-object
}

async fn concurrent_closures(deploys: Api<Deployment>, names: Vec<String>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    // The closure reads, then patches, the same Deployment for every element.
    stream::iter(names.iter()) //~ concurrent-same-object
        .for_each_concurrent(4, |_n| async {
            let _ = deploys.get("web").await;
            let _ = deploys.patch("web", &pp, &p).await;
        })
        .await;
    stream::iter(names.iter().map(Ok)) //~ concurrent-same-object
        .try_for_each_concurrent(None, |_| async { deploys.delete("web", &Default::default()).await.map(|_| ()) })
        .await?;
    // Each element patches its own Deployment: not reported.
    stream::iter(names.iter())
        .for_each_concurrent(4, |n| async move {
            let _ = deploys.patch(n, &pp, &p).await;
        })
        .await;
    Ok(())
}

// A limit of one runs one future at a time, in the order of the stream: not reported.
async fn one_at_a_time(deploys: Api<Deployment>, names: Vec<String>, pp: PatchParams, p: Patch<()>) {
    let _: Vec<_> = stream::iter(names.iter()).map(|_| deploys.patch("web", &pp, &p)).buffer_unordered(1).collect().await;
    stream::iter(names.iter())
        .for_each_concurrent(Some(1), |_| async {
            let _ = deploys.patch("web", &pp, &p).await;
        })
        .await;
}
