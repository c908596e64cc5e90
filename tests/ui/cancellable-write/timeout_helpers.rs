// A deadline over a call of a crate function drops the function's future, and with it a write it
// may already have sent. Followed by the same write, the first one can land after the retry.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};

struct Ctl {
    pods: Api<Pod>,
}

impl Ctl {
    async fn update_status(&self, name: &str) -> kube::Result<()> {
        self.pods.patch_status(name, &PatchParams::default(), &Patch::Merge(())).await?;
        Ok(())
    }

    // The retry after the deadline writes the status the timed-out call may still write.
    async fn with_retry(&self, name: &str) -> kube::Result<()> {
        if tokio::time::timeout(Duration::from_secs(5), self.update_status(name)).await.is_err() { //~ cancellable-write
            self.update_status(name).await?;
        }
        Ok(())
    }

    // Look-alike: after the deadline, nothing writes the object again (a write through a helper
    // is reported only when one follows).
    async fn give_up(&self, name: &str) -> kube::Result<()> {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.update_status(name)).await;
        Ok(())
    }
}
