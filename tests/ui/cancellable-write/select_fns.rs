// `futures::future::{select, select_all, select_ok}` hand the futures that lose back; thrown away,
// they are dropped, possibly after their request was sent.
use futures::future::{select, select_all, select_ok, Either, FutureExt};
use k8s_openapi::api::core::v1::Secret;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

async fn thrown_away(secrets: Api<Secret>, stop: tokio::sync::oneshot::Receiver<()>) -> kube::Result<()> {
    let rotate = secrets.patch("tls", &PatchParams::default(), &Patch::Merge(())).boxed(); //~ cancellable-write
    select(rotate, stop).await;
    secrets.delete("tls", &DeleteParams::default()).await?;
    Ok(())
}

// The first mirror to answer wins; the result (and the futures that lose) is kept: they may be
// polled again, so the finding stays `possible`.
async fn kept(secrets: Api<Secret>) {
    let (first, _index, rest) = select_all(vec![
        secrets.delete("tls", &DeleteParams::default()).boxed(), //~ cancellable-write
        secrets.delete("tls-backup", &DeleteParams::default()).boxed(), //~ cancellable-write
    ])
    .await;
    let _ = (first, rest);
    let _ = secrets.delete("tls", &DeleteParams::default()).await;
    let _ = secrets.delete("tls-backup", &DeleteParams::default()).await;
    let _ = select_ok(vec![secrets.get("tls").boxed(), secrets.get("tls-backup").boxed()]).await;
    match select(secrets.get("a").boxed(), secrets.patch("a", &PatchParams::default(), &Patch::Merge(())).boxed()).await { //~ cancellable-write concurrent-same-object
        Either::Left(_) | Either::Right(_) => {}
    }
    let _ = secrets.patch("a", &PatchParams::default(), &Patch::Merge(())).await;
}
