// Request futures dropped without being polled: the request is never sent.
use futures::future::BoxFuture;
use futures::FutureExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

async fn dropped(pods: Api<Pod>, dp: DeleteParams, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let _ = pods.delete("web", &dp); //~ unawaited-request
    pods.delete("web", &dp); //~ unawaited-request
    let _patch = pods.patch("web", &pp, &p); //~ unawaited-request
    let evict = pods.evict("web", &Default::default()); //~ unawaited-request
    drop(evict);
    let _ = async { //~ unawaited-request
        pods.delete("web", &dp).await?;
        pods.get("web").await
    };
    let cleanup = async move { pods.delete("old", &dp).await }; //~ unawaited-request
    Ok(())
}

// A closure that is not `async` cannot await: the futures it makes are dropped.
fn in_closure(pods: &Api<Pod>, names: &[String], dp: &DeleteParams) {
    names.iter().for_each(|n| {
        pods.delete(n, dp); //~ unawaited-request
    });
}

// From a real operator's integration test: the restart patch is built but never sent.
async fn restart(cluster: Api<Pod>, name: &str) {
    let params = PatchParams::default();
    let patch = Patch::Merge(serde_json::json!({ "metadata": { "annotations": { "restartedAt": "now" } } }));
    let _patch = cluster.patch(name, &params, &patch); //~ unawaited-request
    wait_until_restarted().await;
}

async fn wait_until_restarted() {}

// The fix adds `.await`, in parentheses where the expression needs them; a `let` that names the
// future's type is only shown.
async fn forms(pods: Api<Pod>, dp: DeleteParams) {
    let _ = pods.delete("web", &dp).boxed() as BoxFuture<'_, _>; //~ unawaited-request
    let _typed: BoxFuture<'_, _> = pods.delete("web", &dp).boxed(); //~ unawaited-request
}
