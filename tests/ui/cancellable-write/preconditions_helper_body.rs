// Look-alikes: the write's body is built by a function of the crate whose returned value
// carries the resourceVersion the code read (reduced from a leader elector's `lease_patch`).
// A late write fails with 409 Conflict: nothing is reported (`unknown` with
// `--min-confidence unknown`).
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

const API_TIMEOUT: Duration = Duration::from_secs(5);

struct Record {
    holder: String,
    resource_version: Option<String>,
}

fn lease_patch(record: &Record) -> serde_json::Value {
    serde_json::json!({
        "metadata": { "resourceVersion": record.resource_version },
        "spec": { "holderIdentity": record.holder },
    })
}

// One crate function returning what another built.
fn renewal(record: &Record) -> serde_json::Value {
    lease_patch(record)
}

// The body written at the call.
async fn replace(leases: &Api<Lease>, name: &str, record: &Record) -> Result<Lease, Error> {
    tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), &Patch::Merge(lease_patch(record))))
        .await
        .map_err(|_| Error::Timeout)?
        .map_err(Error::Kube)
}

// The body in a local, from a chain of two helpers.
async fn renew(leases: &Api<Lease>, name: &str, record: &Record) -> Result<Lease, Error> {
    let body = Patch::Merge(renewal(record));
    tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), &body))
        .await
        .map_err(|_| Error::Timeout)?
        .map_err(Error::Kube)
}

// The body a parameter, every caller passing one a helper built.
async fn send(leases: &Api<Lease>, name: &str, patch: &Patch<serde_json::Value>) -> Result<Lease, Error> {
    tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), patch))
        .await
        .map_err(|_| Error::Timeout)?
        .map_err(Error::Kube)
}

async fn tick(leases: &Api<Lease>, record: &Record) {
    let _ = replace(leases, "leader", record).await;
    let _ = replace(leases, "leader", record).await;
    let _ = renew(leases, "leader", record).await;
    let _ = renew(leases, "leader", record).await;
    let _ = send(leases, "leader", &Patch::Merge(lease_patch(record))).await;
    let _ = send(leases, "leader", &Patch::Merge(renewal(record))).await;
}

pub enum Error {
    Timeout,
    Kube(kube::Error),
}
