use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

use crate::loud::Loud;

pub trait Syncer {
    fn app(&self) -> &str;

    async fn sync(&self, leases: &Api<Lease>) {
        let _ = leases.patch("leader", &PatchParams::default(), &Patch::Merge(())).await;
    }
}

// The provided `sync` runs for both.
pub async fn both(a: &Loud, b: &Loud, leases: Api<Lease>) {
    a.sync(&leases).await;
    b.sync(&leases).await; //~ concurrent-same-object
}
