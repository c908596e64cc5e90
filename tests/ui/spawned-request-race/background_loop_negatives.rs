// Look-alikes of a looping background writer, all silent by default.
use k8s_openapi::api::core::v1::{ConfigMap, PersistentVolumeClaim};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams};

struct Provider {
    claims: Api<PersistentVolumeClaim>,
    maps: Api<ConfigMap>,
}

impl Provider {
    // Only reads in its loop: nothing to race with.
    fn spawn_watcher(&self) -> tokio::task::JoinHandle<()> {
        let claims = self.claims.clone();
        tokio::spawn(async move {
            loop {
                let _ = claims.list(&ListParams::default()).await;
                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            }
        })
    }

    // Writes another kind than the step below: ConfigMaps, not claims.
    fn spawn_map_reaper(&self) -> tokio::task::JoinHandle<()> {
        let maps = self.maps.clone();
        tokio::spawn(async move {
            loop {
                let Ok(list) = maps.list(&ListParams::default()).await else { continue };
                for cm in &list.items {
                    let Some(name) = cm.metadata.name.as_deref() else { continue };
                    let _ = maps.delete(name, &DeleteParams::default()).await;
                }
            }
        })
    }

    // Deletes by a name of unrelated origin, not one from a list: no evidence that it is the
    // claim `resume` extends.
    fn spawn_named_reaper(&self, name: String) -> tokio::task::JoinHandle<()> {
        let claims = self.claims.clone();
        tokio::spawn(async move {
            loop {
                let _ = claims.delete(&name, &DeleteParams::default()).await;
                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            }
        })
    }

    // Awaited where it is spawned: not a background writer.
    async fn reap_once(&self) {
        let claims = self.claims.clone();
        let task = tokio::spawn(async move {
            for _ in 0..3 {
                let Ok(list) = claims.list(&ListParams::default()).await else { continue };
                for pvc in &list.items {
                    let Some(name) = pvc.metadata.name.as_deref() else { continue };
                    let _ = claims.delete(name, &DeleteParams::default()).await;
                }
            }
        });
        let _ = task.await;
    }

    async fn resume(&self, name: &str) -> kube::Result<()> {
        let patch = serde_json::json!({"metadata": {"annotations": {"expires-at": "later"}}});
        self.claims.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
        Ok(())
    }
}
