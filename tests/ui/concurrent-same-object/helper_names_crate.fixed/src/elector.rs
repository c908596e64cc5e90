use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

use crate::naming::lease_name;

async fn renew(leases: &Api<Lease>, app: &str) {
    let name = lease_name(app);
    let _ = leases.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
}

async fn release(leases: &Api<Lease>, app: &str) {
    let _ = leases.delete(&lease_name(app), &Default::default()).await;
}

// One app's Lease, renewed and released at once.
pub async fn same_app(leases: Api<Lease>, app: String) {
    renew(&leases, &app).await;
    release(&leases, &app).await; //~ concurrent-same-object
}

// Look-alike: two apps' Leases.
pub async fn two_apps(leases: Api<Lease>) {
    tokio::join!(renew(&leases, "web"), release(&leases, "db"));
}
