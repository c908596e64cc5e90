// Reduced from ironflow-core's PodCleanup: a delete spawned from `Drop::drop` (when `delete()`
// was interrupted) and the delete of the same Pod in `delete` end with the Pod deleted in
// either order (the second gets NotFound): two deletes of one object are no hazard. Not reported.
// The hazard next to it: the same spawned delete racing with a patch of the Pod, which may land
// before the delete and be lost with it, or after it and fail with NotFound: reported.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

struct PodCleanup {
    pods: Api<Pod>,
    pod_name: String,
}

impl PodCleanup {
    async fn delete(&self) -> kube::Result<()> {
        self.pods.delete(&self.pod_name, &DeleteParams::default()).await?;
        Ok(())
    }
}

impl Drop for PodCleanup {
    fn drop(&mut self) {
        let pods = self.pods.clone();
        let pod_name = self.pod_name.clone();
        tokio::spawn(async move {
            let _ = pods.delete(&pod_name, &DeleteParams::default()).await;
        });
    }
}

struct PodLabeller {
    pods: Api<Pod>,
    pod_name: String,
}

impl PodLabeller {
    async fn label(&self) -> kube::Result<()> {
        let patch = Patch::Merge(());
        self.pods.patch(&self.pod_name, &PatchParams::default(), &patch).await?;
        Ok(())
    }
}

impl Drop for PodLabeller {
    fn drop(&mut self) {
        let pods = self.pods.clone();
        let pod_name = self.pod_name.clone();
        tokio::spawn(async move { //~ spawned-request-race
            let _ = pods.delete(&pod_name, &DeleteParams::default()).await;
        });
    }
}
