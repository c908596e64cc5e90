// The reaper of `background_loop.rs`, with its list made in the loop's head
// (`for pvc in claims.list(..).await?.items`): the names it deletes are still elements of a list
// of the kind through the same handle, so the claim the step extends can be one of them.
use k8s_openapi::api::core::v1::{ConfigMap, PersistentVolumeClaim};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams};

struct Provider {
    claims: Api<PersistentVolumeClaim>,
    maps: Api<ConfigMap>,
}

impl Provider {
    fn spawn_reaper(&self) -> tokio::task::JoinHandle<()> {
        let claims = self.claims.clone();
        tokio::spawn(async move { //~ spawned-request-race
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
                let Ok(list) = claims.list(&ListParams::default()).await else { continue };
                for pvc in list.items {
                    let _ = claims.delete(&pvc.metadata.name.unwrap_or_default(), &DeleteParams::default()).await;
                }
            }
        })
    }

    fn spawn_inline_reaper(&self) -> tokio::task::JoinHandle<()> {
        let claims = self.claims.clone();
        tokio::spawn(async move { //~ spawned-request-race
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
                let _ = reap(&claims).await;
            }
        })
    }

    // Look-alike: a loop over a list of another kind, through another handle.
    fn spawn_map_sweeper(&self) -> tokio::task::JoinHandle<()> {
        let maps = self.maps.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(60)).await;
                let _ = sweep(&maps).await;
            }
        })
    }

    async fn resume(&self, name: &str) -> kube::Result<()> {
        let patch = serde_json::json!({"metadata": {"annotations": {"expires-at": "later"}}});
        self.claims.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
        Ok(())
    }
}

async fn reap(claims: &Api<PersistentVolumeClaim>) -> kube::Result<()> {
    for pvc in claims.list(&ListParams::default()).await?.items {
        claims.delete(&pvc.metadata.name.unwrap_or_default(), &DeleteParams::default()).await?;
    }
    Ok(())
}

async fn sweep(maps: &Api<ConfigMap>) -> kube::Result<()> {
    for cm in maps.list(&ListParams::default()).await?.items {
        maps.delete(&cm.metadata.name.unwrap_or_default(), &DeleteParams::default()).await?;
    }
    Ok(())
}
