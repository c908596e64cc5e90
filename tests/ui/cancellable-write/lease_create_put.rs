// A PUT of a Lease whose resourceVersion the code cleared only creates the Lease: the API server
// refuses an unconditional update of a Lease (422 once it exists). Landing late, it cannot
// overwrite the write that follows. Other kinds accept an unconditional PUT.
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};
use std::time::Duration;

const D: Duration = Duration::from_secs(5);

// Create-if-absent by PUT, then the holder's patch: the PUT cannot land over the patch.
async fn create_then_patch(leases: Api<Lease>, mut lease: Lease, p: Patch<Lease>) {
    lease.metadata.resource_version = None;
    let _ = tokio::time::timeout(D, leases.replace("leader", &PostParams::default(), &lease)).await;
    let _ = leases.patch("leader", &PatchParams::default(), &p).await;
}

// The same PUT of a ConfigMap is an unconditional update: a late one overwrites the patch.
async fn config_map_put(cms: Api<ConfigMap>, mut cm: ConfigMap, p: Patch<ConfigMap>) {
    cm.metadata.resource_version = None;
    let _ = tokio::time::timeout(D, cms.replace("settings", &PostParams::default(), &cm)).await; //~ cancellable-write
    let _ = cms.patch("settings", &PatchParams::default(), &p).await;
}
