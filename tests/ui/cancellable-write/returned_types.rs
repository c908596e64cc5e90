// Receivers typed by what crate functions return, as in kube-lease-manager's tests: a manager
// built by `LeaseManagerBuilder::build`, taken from the `Vec<LeaseManager>` a helper returns, or
// the `watch::Receiver` in the tuple `watch()` returns. The first two are managers whose renew
// loop a `select!` cancels before the same Lease is released; the third makes no request.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use tokio::sync::watch::Receiver;

struct LeaseManager {
    leases: Api<Lease>,
    name: String,
}

struct LeaseManagerBuilder {
    leases: Api<Lease>,
}

impl LeaseManagerBuilder {
    fn new(leases: Api<Lease>) -> Self {
        LeaseManagerBuilder { leases }
    }

    async fn build(self) -> kube::Result<LeaseManager> {
        Ok(LeaseManager { leases: self.leases, name: "lease".to_string() })
    }
}

impl LeaseManager {
    async fn changed(&self) -> kube::Result<bool> {
        loop {
            let pp = PatchParams::default();
            self.leases.patch(&self.name, &pp, &Patch::Merge(())).await?;
        }
    }

    async fn release(&self) -> kube::Result<()> {
        let pp = PatchParams::default();
        self.leases.patch(&self.name, &pp, &Patch::Merge(())).await?;
        Ok(())
    }

    async fn watch(self) -> (Receiver<bool>, tokio::task::JoinHandle<()>) {
        unimplemented!()
    }
}

async fn managers(leases: Api<Lease>) -> Vec<LeaseManager> {
    vec![LeaseManagerBuilder::new(leases).build().await.unwrap()]
}

async fn built(leases: Api<Lease>) -> kube::Result<()> {
    let manager = LeaseManagerBuilder::new(leases).build().await?;
    tokio::select! {
        _ = manager.changed() => {} //~ cancellable-write
        _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
    }
    manager.release().await
}

async fn popped(leases: Api<Lease>) -> kube::Result<()> {
    let mut all = managers(leases).await;
    let manager = all.pop().unwrap();
    tokio::select! {
        _ = manager.changed() => {} //~ cancellable-write
        _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
    }
    manager.release().await
}

async fn watched(leases: Api<Lease>, other: &LeaseManager) -> kube::Result<()> {
    let manager = LeaseManagerBuilder::new(leases).build().await?;
    let (mut channel, _task) = manager.watch().await;
    tokio::select! {
        _ = channel.changed() => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
    }
    other.release().await
}
