// Aborted tasks and `Abortable` futures stop at their next `.await`, possibly after a request was
// sent.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use tokio::task::JoinSet;

// A background renewer aborted before the lease is deleted.
async fn stop_renewing(leases: Api<Lease>) -> kube::Result<()> {
    let l = leases.clone();
    let renewer = tokio::spawn(async move {
        loop {
            let _ = l.patch("leader", &PatchParams::default(), &Patch::Merge(())).await; //~ cancellable-write
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        }
    });
    tokio::time::sleep(std::time::Duration::from_secs(60)).await;
    renewer.abort();
    leases.delete("leader", &DeleteParams::default()).await?;
    Ok(())
}

// Through an `AbortHandle`.
async fn abort_handle(leases: Api<Lease>) {
    let l = leases.clone();
    let task = tokio::spawn(async move { l.patch("leader", &PatchParams::default(), &Patch::Merge(())).await }); //~ cancellable-write
    let handle = task.abort_handle();
    handle.abort();
    let _ = leases.patch("leader", &PatchParams::default(), &Patch::Merge(())).await;
}

// `futures::future::abortable`.
async fn abortable(leases: Api<Lease>) {
    let (fut, handle) = futures::future::abortable(leases.delete("leader", &DeleteParams::default())); //~ cancellable-write
    handle.abort();
    let _ = fut.await;
    let _ = leases.delete("leader", &DeleteParams::default()).await;
}

// Every task of a set.
async fn abort_all(leases: Api<Lease>) {
    let mut set = JoinSet::new();
    let l = leases.clone();
    set.spawn(async move { l.patch("leader", &PatchParams::default(), &Patch::Merge(())).await.map(|_| ()) }); //~ cancellable-write
    set.abort_all();
    let _ = leases.patch("leader", &PatchParams::default(), &Patch::Merge(())).await;
}

// Not reported: an aborted task that only reads.
async fn reader(leases: Api<Lease>) {
    let l = leases.clone();
    let task = tokio::spawn(async move { l.get("leader").await });
    task.abort();
}
