// Reduced from kube-lease-manager: the renew loop `LeaseManager::changed`, cancelled by
// `select!` and followed by a release of the same Lease, is reported. `changed()` on a receiver
// that is not known to be a `LeaseManager` (a tokio `watch::Receiver` returned by `watch()`, or a
// parameter of a foreign type) is not taken for the crate's method by its name alone.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use tokio::sync::watch::Receiver;

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

    async fn release(&self) -> kube::Result<()> {
        let pp = PatchParams::default();
        self.leases.patch(&self.name, &pp, &Patch::Merge(())).await?;
        Ok(())
    }

    async fn watch(self) -> (Receiver<bool>, tokio::task::JoinHandle<()>) {
        unimplemented!()
    }

    async fn run(&self, shutdown: tokio::sync::oneshot::Receiver<()>) -> kube::Result<()> {
        tokio::select! {
            _ = shutdown => {}
            r = self.changed() => { r?; } //~ cancellable-write
        }
        self.release().await
    }
}

// The receiver's type is foreign: never the crate's method.
async fn foreign_receiver(manager: &LeaseManager, mut channel: Receiver<bool>) -> kube::Result<()> {
    tokio::select! {
        _ = channel.changed() => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(3)) => {}
    }
    manager.release().await
}

// The receiver's type is not known, and `changed` is also tokio's `watch::Receiver::changed`:
// no evidence (shown with `--min-confidence unknown`).
async fn unknown_receiver(manager: LeaseManager, other: &LeaseManager) -> kube::Result<()> {
    let (mut channel, _task) = manager.watch().await;
    tokio::select! {
        _ = channel.changed() => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(3)) => {}
    }
    other.release().await
}
