// `futures::future::{select, try_select, select_all, select_ok}` poll their futures together
// until one (or, for `select_ok`, one success) finishes.
use futures::future::{select, select_all, select_ok, try_select, FutureExt, TryFutureExt};
use k8s_openapi::api::core::v1::Secret;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

async fn selects(secrets: Api<Secret>, dp: DeleteParams, pp: PatchParams, p: Patch<()>) {
    let _ = select(secrets.delete("tls", &dp).boxed(), secrets.get("tls").boxed()).await; //~ concurrent-same-object cancellable-write
    let _ = futures::future::try_select(secrets.patch("tls", &pp, &p).boxed(), secrets.get("tls").boxed()).await; //~ concurrent-same-object cancellable-write
    let _ = select_all(vec![secrets.get("tls").boxed(), secrets.delete("tls", &dp).map(|_| ()).boxed()]).await; //~ concurrent-same-object cancellable-write
    // The first mirror that answers wins: reads only, fine.
    let _ = select_ok(vec![secrets.get("tls").boxed(), secrets.get("tls-backup").boxed()]).await;
    let _ = try_select(secrets.get("a").boxed(), secrets.delete("b", &dp).boxed()).await;
    // The first to succeed wins, but every request was sent.
    let _ = select_ok(vec![secrets.delete("tls", &dp).map_ok(|_| ()).boxed(), secrets.get("tls").map_ok(|_| ()).boxed()]).await; //~ concurrent-same-object
}
