use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};

/// Holds one Lease, `lease_name`, renewing it while the work runs.
pub struct LeaseManager {
    leases: Api<Lease>,
    status: Api<ConfigMap>,
    lease_name: String,
}

impl LeaseManager {
    /// Renews the lease: a patch of the Lease, sent when the future is first polled.
    pub async fn renew(&self) -> bool {
        let patch = serde_json::json!({ "spec": { "renewTime": "now" } });
        let params = PatchParams::default();
        self.leases
            .patch(&self.lease_name, &params, &Patch::Merge(&patch))
            .await
            .is_ok()
    }

    /// Releases the lease: a patch of the same Lease.
    pub async fn release(&self) {
        let patch = serde_json::json!({ "spec": { "holderIdentity": null } });
        let params = PatchParams::default();
        let _ = self
            .leases
            .patch(&self.lease_name, &params, &Patch::Merge(&patch))
            .await;
    }

    /// Writes what the holder did to its status ConfigMap, not the Lease.
    pub async fn report(&self, what: &str) {
        let patch = serde_json::json!({ "data": { "last": what } });
        let params = PatchParams::default();
        let _ = self
            .status
            .patch("lease-status", &params, &Patch::Merge(&patch))
            .await;
    }
}

/// Renews a Lease by name: a patch of it.
pub async fn renew_lease(leases: &Api<Lease>, name: &str) {
    let patch = serde_json::json!({ "spec": { "renewTime": "now" } });
    let _ = leases
        .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await;
}

/// Releases a Lease by name: a patch of it.
pub async fn release_lease(leases: &Api<Lease>, name: &str) {
    let patch = serde_json::json!({ "spec": { "holderIdentity": null } });
    let _ = leases
        .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await;
}
