// Reduced from kube-lease-manager's tests: `select_all` over the renew loops of a collection of
// managers drops the losers mid-request, and `managers[0]` (some element of the same
// collection) writes its Lease right after. Managers of another collection are not related.
use futures::future::select_all;
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

struct LeaseManager {
    leases: Api<Lease>,
    name: String,
}

impl LeaseManager {
    async fn changed(&self) -> kube::Result<bool> {
        loop {
            let pp = PatchParams::default();
            self.leases.patch(&self.name, &pp, &Patch::Merge(())).await?;
        }
    }
}

async fn setup(count: usize) -> Vec<LeaseManager> {
    unimplemented!("{count}")
}

async fn losers_then_first() -> kube::Result<()> {
    let mut managers = setup(3).await;
    let futures: Vec<_> = managers.iter_mut().map(|m| Box::pin(m.changed())).collect(); //~ cancellable-write
    let _ = select_all(futures).await;
    managers[0].changed().await?;
    Ok(())
}

async fn other_collection() -> kube::Result<()> {
    let mut managers = setup(3).await;
    let others = setup(3).await;
    let futures: Vec<_> = managers.iter_mut().map(|m| Box::pin(m.changed())).collect();
    let _ = select_all(futures).await;
    others[0].changed().await?;
    Ok(())
}
