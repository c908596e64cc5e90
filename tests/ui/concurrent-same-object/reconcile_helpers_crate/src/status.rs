// Writes made for the reconciles of `controller.rs`.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};

use crate::controller::Error;

// Look-alike: named after the reconciled object by the caller.
pub async fn mark_own(cms: &Api<ConfigMap>, name: &str) -> Result<(), Error> {
    cms.patch(name, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(())
}

// A fixed name: made by every reconcile of `run_marked`, which is suppressed at its `run`.
pub async fn mark_shared(cms: &Api<ConfigMap>) -> Result<(), Error> {
    cms.patch("marker", &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(())
}

// A fixed name, suppressed here at the write.
pub async fn touch_quiet(cms: &Api<ConfigMap>) -> Result<(), Error> {
    // kube-order-lint: allow(concurrent-same-object) -- the touch carries no data
    cms.patch("touched", &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(())
}
