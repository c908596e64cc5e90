// hadron's lease renewal (holdout 8): the body sent under `timeout` is the Lease the elector
// keeps from the API server's last answer, so it may carry the `resourceVersion` it was stored
// with; a late landing then fails with 409 Conflict. The tool does not follow what was stored:
// no evidence either way (`unknown`, hidden by default).
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use tokio::time::timeout;

pub struct Elector {
    api: Api<Lease>,
    name: String,
    last_observed: Lease,
    leading: bool,
}

impl Elector {
    pub async fn run(mut self) {
        loop {
            let _ = self.try_renew().await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }

    async fn try_renew(&mut self) -> anyhow::Result<()> {
        let body = match self.leading {
            false => return Ok(()),
            true => {
                let mut lease = self.last_observed.clone();
                lease.metadata.managed_fields = None;
                lease
            }
        };
        let pp = PatchParams::apply("me").force();
        let lease = timeout(Duration::from_secs(5), self.api.patch(&self.name, &pp, &Patch::Apply(body))).await??;
        self.last_observed = lease;
        Ok(())
    }

    // The hazard: a body built here, without a `resourceVersion`, under the same deadline.
    pub async fn run_fresh(self) {
        loop {
            let _ = self.renew_fresh().await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }

    async fn renew_fresh(&self) -> anyhow::Result<()> {
        let body = Lease::default();
        let pp = PatchParams::apply("me").force();
        timeout(Duration::from_secs(5), self.api.patch(&self.name, &pp, &Patch::Apply(body))).await??; //~ cancellable-write
        Ok(())
    }
}
