// A write in the future of a `select!` arm is dropped when another arm finishes first, possibly
// after its request reached the API server.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use tokio::sync::oneshot;

// Raced against a shutdown signal, then renewed again: the first renew may land after the second.
async fn renew_or_stop(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, stop: oneshot::Receiver<()>) {
    tokio::select! {
        _ = stop => {}
        r = leases.patch("leader", &pp, &p) => { let _ = r; } //~ cancellable-write
    }
    let _ = leases.patch("leader", &pp, &p).await;
}

// Look-alike: nothing writes the lease after the select: no second request for a late renew to
// overtake (`unknown`, shown with `--min-confidence unknown`).
async fn renew_or_stop_alone(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, stop: oneshot::Receiver<()>) {
    tokio::select! {
        _ = stop => {}
        r = leases.patch("leader", &pp, &p) => { let _ = r; }
    }
}

// The renewal is dropped by the select, and the same lease is released (deleted) right after: a
// patch landing after the delete fails, so only the weak form is reported.
async fn renew_then_release(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, stop: oneshot::Receiver<()>) -> kube::Result<()> {
    tokio::select! {
        _ = stop => {}
        _ = leases.patch("leader", &pp, &p) => {} //~ cancellable-write
    }
    leases.delete("leader", &DeleteParams::default()).await?;
    Ok(())
}

// The handler of the arm that wins releases the lease (as kube-lease-manager's watch loop does).
async fn release_in_winner(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, closed: oneshot::Receiver<()>) {
    tokio::select! {
        biased;
        _ = closed => {
            let _ = leases.patch("leader", &PatchParams::default(), &Patch::Merge(())).await;
        }
        _ = async { leases.patch("leader", &pp, &p).await } => {} //~ cancellable-write
    }
}

// In a loop: a renew dropped by the tick is sent again, as if it had not happened.
async fn renew_loop(leases: Api<Lease>, pp: PatchParams, p: Patch<()>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = leases.replace("leader", &Default::default(), &Lease::default()) => {} //~ cancellable-write
        }
        let _ = (&pp, &p);
    }
}

// `futures::select!` over fused futures bound earlier; `select_biased!` with `default`.
async fn futures_select(leases: Api<Lease>, pp: PatchParams, p: Patch<()>) {
    use futures::FutureExt;
    let renew = leases.patch("leader", &pp, &p).fuse(); //~ cancellable-write
    let timer = tokio::time::sleep(std::time::Duration::from_secs(1)).fuse();
    futures::pin_mut!(renew, timer);
    futures::select! {
        _ = renew => {},
        _ = timer => {},
    }
    futures::select_biased! {
        _ = leases.delete("leader", &DeleteParams::default()).fuse() => {}, //~ cancellable-write
        default => {},
    }
    let _ = leases.delete("leader", &DeleteParams::default()).await;
}

// A function of the crate in the arm: reported because the same lease is written afterwards.
struct Manager {
    leases: Api<Lease>,
    name: String,
}

impl Manager {
    async fn changed(&self) -> kube::Result<bool> {
        let lease = self.leases.get(&self.name).await?;
        self.leases.patch(&self.name, &PatchParams::default(), &Patch::Merge(())).await?;
        Ok(lease.spec.is_some())
    }

    async fn release(&self) -> kube::Result<()> {
        self.leases.patch(&self.name, &PatchParams::default(), &Patch::Merge(())).await?;
        Ok(())
    }
}

async fn work_while_holding(manager: Manager) -> kube::Result<()> {
    tokio::select! {
        _ = manager.changed() => {} //~ cancellable-write
        _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
            manager.release().await?;
        }
    }
    Ok(())
}
