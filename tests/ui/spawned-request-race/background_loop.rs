// A reaper spawned to loop for as long as the process runs lists the claims and deletes those
// it finds expired, with no precondition; a step elsewhere resumes a claim and extends it. The
// name the reaper deletes comes from its list of the same kind through the same handle: the
// claim the step extends can be one of them, and the delete, decided on the older list, can
// land after the extension.
use k8s_openapi::api::core::v1::PersistentVolumeClaim;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams};

struct Provider {
    claims: Api<PersistentVolumeClaim>,
}

impl Provider {
    fn spawn_reaper(&self) -> tokio::task::JoinHandle<()> {
        let claims = self.claims.clone();
        tokio::spawn(async move { //~ spawned-request-race
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
                let Ok(list) = claims.list(&ListParams::default().labels("env=1")).await else {
                    continue;
                };
                for pvc in &list.items {
                    let Some(name) = pvc.metadata.name.as_deref() else { continue };
                    let _ = claims.delete(name, &DeleteParams::default()).await;
                }
            }
        })
    }

    async fn resume(&self, name: &str) -> kube::Result<()> {
        let patch = serde_json::json!({"metadata": {"annotations": {"expires-at": "later"}}});
        self.claims.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
        Ok(())
    }
}
