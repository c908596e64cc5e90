// `select!` polls the futures of all its arms at once until one finishes; the handler of that
// arm runs afterwards.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

async fn arms(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, ready: bool) {
    tokio::select! { //~ concurrent-same-object
        r = leases.get("leader") => { let _ = r; }
        r = leases.patch("leader", &pp, &p) => { let _ = r; } //~ cancellable-write
    }
    tokio::select! { //~ concurrent-same-object
        biased;
        r = leases.patch("leader", &pp, &p), if ready => { let _ = r; } //~ cancellable-write
        Ok(l) = leases.get("leader") => { let _ = l; }
        else => {}
    }
    let renew = leases.patch("leader", &pp, &p).fuse(); //~ cancellable-write
    let read = leases.get_opt("leader").fuse();
    futures::pin_mut!(renew, read);
    futures::select! { //~ concurrent-same-object
        r = renew => { let _ = r; },
        r = read => { let _ = r; },
        complete => {},
    }
    futures::select_biased! { //~ concurrent-same-object
        _ = leases.delete("leader", &Default::default()).fuse() => {},
        _ = leases.get("leader").fuse() => {},
        default => {},
    }
}

// Not reported here (the writes raced in arm futures are `cancellable-write` findings when a
// write of the same object follows them; nothing does here): the write
// is in a handler, which runs after the select finished; a timer against
// one renew; different leases.
async fn negatives(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, shutdown: tokio::sync::oneshot::Receiver<()>) {
    tokio::select! {
        current = leases.get("leader") => {
            let _ = current;
            let _ = leases.patch("leader", &pp, &p).await;
        }
        _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
    }
    tokio::select! {
        _ = shutdown => {}
        _ = leases.patch("leader", &pp, &p) => {}
    }
    tokio::select! {
        _ = leases.get("a") => {}
        _ = leases.patch("b", &pp, &p) => {}
    }
}

// Reduced from kube-lease-manager's tests: two managers contend for one lease through a helper
// method that reads and patches it. The names come from each manager, so `possible`.
struct Manager {
    leases: Api<Lease>,
    lease_name: String,
}

impl Manager {
    async fn changed(&self, pp: &PatchParams, p: &Patch<()>) -> kube::Result<()> {
        let _ = self.leases.get(&self.lease_name).await?;
        self.leases.patch(&self.lease_name, pp, p).await?;
        Ok(())
    }
}

async fn contenders(manager0: Manager, manager1: Manager, pp: PatchParams, p: Patch<()>) {
    tokio::select! { // two managers, two unrelated leases: not reported by default
        biased;
        _ = manager0.changed(&pp, &p) => {}
        _ = manager1.changed(&pp, &p) => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
    }
}
