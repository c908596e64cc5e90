// A delete spawned from `Drop::drop` and a create of the same Pod elsewhere: the create can land
// after the delete and make the Pod again (an orphan nothing deletes), or before it and be
// deleted with it. The note must not say the create fails: a create after a delete succeeds.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, ObjectMeta, PostParams};

struct PodGuard {
    pods: Api<Pod>,
    pod_name: String,
}

impl PodGuard {
    async fn start(&self) -> kube::Result<()> {
        let pod = Pod {
            metadata: ObjectMeta { name: Some(self.pod_name.clone()), ..Default::default() },
            ..Default::default()
        };
        self.pods.create(&PostParams::default(), &pod).await?;
        Ok(())
    }
}

impl Drop for PodGuard {
    fn drop(&mut self) {
        let pods = self.pods.clone();
        let pod_name = self.pod_name.clone();
        tokio::spawn(async move { //~ spawned-request-race
            let _ = pods.delete(&pod_name, &DeleteParams::default()).await;
        });
    }
}
