use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

// Futures created first and joined later: the requests are sent when the join polls them.
async fn let_bound(deploys: Api<Deployment>, name: String, patch: serde_json::Value) -> kube::Result<()> {
    let pp = PatchParams::apply("ctl");
    let f1 = deploys.patch(&name, &pp, &Patch::Apply(&patch));
    let f2 = deploys.delete(&name, &DeleteParams::default());
    let (patched, deleted) = tokio::try_join!(f1, f2)?; //~ concurrent-same-object
    Ok(())
}

// Futures wrapped in `Box::pin` and `.boxed()` are the same futures.
async fn boxed(deploys: Api<Deployment>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let scale = Box::pin(deploys.patch_scale("web", &pp, &p));
    let read = deploys.get_scale("web").boxed();
    futures::join!(scale, read); //~ concurrent-same-object
    Ok(())
}

// Awaited at the `let`: the binding holds the result, not a future. Nothing runs concurrently.
async fn awaited_first(deploys: Api<Deployment>, name: String) -> kube::Result<()> {
    let current = deploys.get(&name).await?;
    let other = deploys.get_status(&name);
    tokio::join!(async { current }, other);
    Ok(())
}
