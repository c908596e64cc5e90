// Look-alikes: writes under a deadline whose body carries the resourceVersion the code read. If
// the timed-out write lands late, it (or the write after it) fails with 409 Conflict: the code
// finds out, so nothing is reported (shown as `unknown` with `--min-confidence unknown`).
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, Patch, PatchParams, PostParams};

const API_TIMEOUT: Duration = Duration::from_secs(5);

struct Meta {
    version: String,
}

// Reduced from kubert's lease.rs: the helper sends what its callers build, and every caller
// builds a body with `metadata.resourceVersion`.
struct LeaseManager {
    api: Api<Lease>,
    name: String,
}

impl LeaseManager {
    async fn renew(&self, meta: &Meta) -> Result<Lease, Error> {
        self.patch(&Patch::Strategic(serde_json::json!({
            "apiVersion": "coordination.k8s.io/v1",
            "kind": "Lease",
            "metadata": { "resourceVersion": meta.version },
            "spec": { "renewTime": null },
        })))
        .await
    }

    async fn acquire(&self, meta: &Meta, claimant: &str) -> Result<Lease, Error> {
        let patch = Patch::Apply(serde_json::json!({
            "metadata": { "resourceVersion": meta.version },
            "spec": { "holderIdentity": claimant },
        }));
        self.patch(&patch).await
    }

    async fn patch<P: serde::Serialize + std::fmt::Debug>(&self, patch: &Patch<P>) -> Result<Lease, Error> {
        let params = PatchParams::default();
        tokio::time::timeout(API_TIMEOUT, self.api.patch(&self.name, &params, patch))
            .await
            .map_err(|_| Error::Timeout)?
            .map_err(Error::Kube)
    }
}

// The body written at the call: a struct literal with `resource_version: Some(..)`.
async fn replace_guarded(leases: Api<Lease>, name: &str, version: String) -> Result<(), Error> {
    let lease = Lease {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            resource_version: Some(version),
            ..Default::default()
        },
        spec: None,
    };
    let first = tokio::time::timeout(API_TIMEOUT, leases.replace(name, &PostParams::default(), &lease)).await;
    if first.is_err() {
        leases.replace(name, &PostParams::default(), &lease).await.map_err(Error::Kube)?;
    }
    Ok(())
}

enum Error {
    Timeout,
    Kube(kube::Error),
}
