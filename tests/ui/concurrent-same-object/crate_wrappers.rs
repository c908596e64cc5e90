// Crate wrappers that hand out `Api<K>`: a generic method takes its kind from the turbofish
// (`ctx.api::<Job>()`), and a wrapper struct's method that forwards its name to a request is a
// request on that name. Look-alike: the turbofish names another kind.
use std::sync::Arc;

use k8s_openapi::api::batch::v1::{CronJob, Job};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::{Client, Resource};

struct Ctx {
    client: Client,
}

impl Ctx {
    fn api<K: Resource<DynamicType = ()>>(&self) -> Api<K> {
        Api::default_namespaced(self.client.clone())
    }

    fn jobs(&self) -> Api<Job> {
        Api::default_namespaced(self.client.clone())
    }
}

struct JobStore {
    inner: Api<Job>,
}

impl JobStore {
    async fn set_status(&self, name: &str, status: &Patch<serde_json::Value>) -> kube::Result<Job> {
        self.inner.patch_status(name, &PatchParams::default(), status).await
    }
}

async fn turbofish(ctx: Arc<Ctx>, p: Patch<serde_json::Value>) -> kube::Result<()> {
    let jobs = ctx.api::<Job>();
    tokio::try_join!(jobs.delete("nightly", &DeleteParams::default()), ctx.jobs().patch("nightly", &PatchParams::default(), &p))?; //~ concurrent-same-object
    Ok(())
}

async fn forwarded(store: JobStore, ctx: Arc<Ctx>, status: Patch<serde_json::Value>) -> kube::Result<()> {
    let jobs = ctx.api::<Job>();
    tokio::try_join!(store.set_status("nightly", &status), jobs.delete("nightly", &DeleteParams::default()))?; //~ concurrent-same-object
    Ok(())
}

// Look-alike: a CronJob and a Job of one name are two objects.
async fn other_kind(ctx: Arc<Ctx>, p: Patch<serde_json::Value>) -> kube::Result<()> {
    let jobs = ctx.api::<Job>();
    let crons = ctx.api::<CronJob>();
    tokio::try_join!(jobs.delete("nightly", &DeleteParams::default()), crons.patch("nightly", &PatchParams::default(), &p))?;
    Ok(())
}
