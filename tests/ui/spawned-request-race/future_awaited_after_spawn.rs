// A request future bound before the spawn is sent where it is awaited, after the spawn: while
// the task may still run (futures are lazy; `let later = api.patch(..)` sends nothing).
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};

pub async fn bound_before(cms: Api<ConfigMap>) -> kube::Result<()> {
    let bg = cms.clone();
    let later = cms.patch("settings", &PatchParams::apply("main"), &Patch::Apply(ConfigMap::default()));
    let task = tokio::spawn(async move { //~ spawned-request-race
        let _ = bg.patch("settings", &PatchParams::apply("task"), &Patch::Apply(ConfigMap::default())).await;
    });
    later.await?;
    let _ = task.await;
    Ok(())
}

// Look-alike: the bound future is awaited before the spawn, so it is sent before the task runs.
pub async fn awaited_before(cms: Api<ConfigMap>) -> kube::Result<()> {
    let bg = cms.clone();
    let first = cms.patch("settings", &PatchParams::apply("main"), &Patch::Apply(ConfigMap::default()));
    first.await?;
    let task = tokio::spawn(async move {
        let _ = bg.patch("settings", &PatchParams::apply("task"), &Patch::Apply(ConfigMap::default())).await;
    });
    let _ = task.await;
    Ok(())
}

// Look-alike: awaited only after the task's handle, when the task has finished.
pub async fn awaited_after_join(cms: Api<ConfigMap>) -> kube::Result<()> {
    let bg = cms.clone();
    let last = cms.patch("settings", &PatchParams::apply("main"), &Patch::Apply(ConfigMap::default()));
    let task = tokio::spawn(async move {
        let _ = bg.patch("settings", &PatchParams::apply("task"), &Patch::Apply(ConfigMap::default())).await;
    });
    let _ = task.await;
    last.await?;
    Ok(())
}
