// Hazards that look like `preconditions.rs`: the helper's body comes from a caller that does not
// carry a resourceVersion, or from callers the crate does not show; a `resourceVersion` of
// `null`, or only in a template's metadata, is no precondition.
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

const API_TIMEOUT: Duration = Duration::from_secs(5);

struct Meta {
    version: String,
}

struct LeaseManager {
    api: Api<Lease>,
    name: String,
}

impl LeaseManager {
    async fn renew(&self, meta: &Meta) -> Result<Lease, Error> {
        self.patch(&Patch::Strategic(serde_json::json!({
            "metadata": { "resourceVersion": meta.version },
            "spec": { "renewTime": null },
        })))
        .await
    }

    // This caller's patch is unconditional: a timed-out one can land after the next.
    async fn release(&self) -> Result<Lease, Error> {
        self.patch(&Patch::Strategic(serde_json::json!({
            "spec": { "holderIdentity": null },
        })))
        .await
    }

    async fn patch<P: serde::Serialize + std::fmt::Debug>(&self, patch: &Patch<P>) -> Result<Lease, Error> {
        let params = PatchParams::default();
        tokio::time::timeout(API_TIMEOUT, self.api.patch(&self.name, &params, patch)) //~ cancellable-write
            .await
            .map_err(|_| Error::Timeout)?
            .map_err(Error::Kube)
    }
}

// The manager renews, then releases: a timed-out renew may land after the release.
async fn hold(manager: &LeaseManager, meta: &Meta) {
    let _ = manager.renew(meta).await;
    let _ = manager.release().await;
}

// Public: callers outside the crate may pass any body.
pub async fn patch_lease(leases: &Api<Lease>, name: &str, patch: &Patch<serde_json::Value>) -> Result<Lease, Error> {
    tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), patch)) //~ cancellable-write
        .await
        .map_err(|_| Error::Timeout)?
        .map_err(Error::Kube)
}

// Patched twice: a timed-out patch may land after the second.
async fn patch_twice(leases: &Api<Lease>, patch: &Patch<serde_json::Value>) {
    let _ = patch_lease(leases, "leader", patch).await;
    let _ = patch_lease(leases, "leader", patch).await;
}

// A null version, and a version in the pod template's metadata only: no precondition.
async fn unconditional(leases: Api<Lease>, deployments: Api<Deployment>, name: &str) {
    let null = Patch::Merge(serde_json::json!({ "metadata": { "resourceVersion": null } }));
    let _ = tokio::time::timeout(API_TIMEOUT, leases.patch(name, &PatchParams::default(), &null)).await; //~ cancellable-write
    let _ = leases.patch(name, &PatchParams::default(), &null).await;
    let template = Patch::Merge(serde_json::json!({
        "spec": { "template": { "metadata": { "resourceVersion": "1" } } },
    }));
    let _ = tokio::time::timeout(API_TIMEOUT, deployments.patch(name, &PatchParams::default(), &template)).await; //~ cancellable-write
    let _ = deployments.patch(name, &PatchParams::default(), &template).await;
}

pub enum Error {
    Timeout,
    Kube(kube::Error),
}
