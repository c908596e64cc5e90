// Reduced from kube-lease-manager's tests: a renew cancelled by `select!` and a write of the same
// Lease right after is reported; the same write after waiting for the lease duration is not (the
// wait most likely outlasts the request in flight; `--min-confidence unknown` shows it).
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use std::time::Duration;

async fn renew(leases: &Api<Lease>, name: &str) -> kube::Result<()> {
    loop {
        leases.patch(name, &PatchParams::default(), &Patch::Merge(())).await?;
    }
}

async fn write_right_after(leases: Api<Lease>, stop: tokio::sync::oneshot::Receiver<()>) -> kube::Result<()> {
    tokio::select! {
        _ = stop => {}
        r = renew(&leases, "lease") => r?, //~ cancellable-write
    }
    leases.patch("lease", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

async fn write_after_waiting(leases: Api<Lease>, stop: tokio::sync::oneshot::Receiver<()>) -> kube::Result<()> {
    tokio::select! {
        _ = stop => {}
        r = renew(&leases, "lease") => r?,
    }
    tokio::time::sleep(Duration::from_secs(15)).await;
    leases.patch("lease", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// A patch landing after the delete that follows fails: nothing to report by default. A create
// landing after it brings the Lease back.
async fn patch_then_delete(leases: Api<Lease>, stop: tokio::sync::oneshot::Receiver<()>) -> kube::Result<()> {
    tokio::select! {
        _ = stop => {}
        r = renew(&leases, "lease") => r?,
    }
    leases.delete("lease", &Default::default()).await?;
    Ok(())
}

async fn create_then_delete(leases: Api<Lease>, lease: Lease, stop: tokio::sync::oneshot::Receiver<()>) -> kube::Result<()> {
    tokio::select! {
        _ = stop => {}
        r = leases.create(&Default::default(), &lease) => { r?; } //~ cancellable-write
    }
    leases.delete(&lease.name_any(), &Default::default()).await?;
    Ok(())
}
