// A status kept in a field, written back under `timeout` with the `resourceVersion` of a read
// made just before the write (the copy itself is older). For a lost update of an earlier write
// that version is no guard (see concurrent-same-object/refreshed_version_controllers.rs), but a
// cancelled write that lands late still fails with 409 Conflict: the write after it read the
// object before it landed, or it reads the object the late write changed. So the finding stays
// `unknown` (hidden by default), as for a body carrying its own version.
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, PostParams};
use kube::ResourceExt;
use tokio::time::timeout;

pub struct Reporter {
    api: Api<Deployment>,
    obj: Deployment,
}

impl Reporter {
    pub async fn run(mut self) {
        loop {
            let _ = self.report().await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }

    async fn report(&mut self) -> anyhow::Result<()> {
        let name = self.obj.name_any();
        let fresh = self.api.get_status(&name).await?;
        self.obj.metadata.resource_version = fresh.metadata.resource_version.clone();
        let body = serde_json::to_vec(&self.obj)?;
        timeout(Duration::from_secs(5), self.api.replace_status(&name, &PostParams::default(), body)).await??;
        Ok(())
    }

    // The hazard: the same write, its body without any `resourceVersion`.
    pub async fn run_plain(self) {
        loop {
            let _ = self.report_plain().await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }

    async fn report_plain(&self) -> anyhow::Result<()> {
        let name = self.obj.name_any();
        let mut body = Deployment::default();
        body.status = self.obj.status.clone();
        let body = serde_json::to_vec(&body)?;
        timeout(Duration::from_secs(5), self.api.replace_status(&name, &PostParams::default(), body)).await??; //~ cancellable-write
        Ok(())
    }
}
