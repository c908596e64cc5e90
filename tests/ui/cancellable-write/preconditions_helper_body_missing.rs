// Hazards that look like `preconditions_helper_body.rs`: the crate function building the body
// writes no resourceVersion, or a null one; a late write silently overwrites the next.
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

const API_TIMEOUT: Duration = Duration::from_secs(5);

struct Record {
    holder: String,
}

fn lease_patch(record: &Record) -> serde_json::Value {
    serde_json::json!({
        "spec": { "holderIdentity": record.holder },
    })
}

fn release_patch() -> serde_json::Value {
    serde_json::json!({
        "metadata": { "resourceVersion": null },
        "spec": { "holderIdentity": null },
    })
}

async fn replace(leases: &Api<Lease>, name: &str, record: &Record) -> Result<Lease, Error> {
    tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), &Patch::Merge(lease_patch(record)))) //~ cancellable-write
        .await
        .map_err(|_| Error::Timeout)?
        .map_err(Error::Kube)
}

async fn release(leases: &Api<Lease>, name: &str) -> Result<Lease, Error> {
    let body = Patch::Merge(release_patch());
    tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), &body)) //~ cancellable-write
        .await
        .map_err(|_| Error::Timeout)?
        .map_err(Error::Kube)
}

async fn tick(leases: &Api<Lease>, record: &Record) {
    let _ = replace(leases, "leader", record).await;
    let _ = replace(leases, "leader", record).await;
    let _ = release(leases, "leader").await;
    let _ = release(leases, "leader").await;
}

pub enum Error {
    Timeout,
    Kube(kube::Error),
}
