// Two controllers write the status of one Deployment (see controller_writes_each_reconciled.rs).
// The marker writes through a wrapper that holds an older copy of the Deployment, reads it again
// just before the write, and copies only the fresh `resourceVersion` into its old copy. That
// version guards only the time between the read and the write: a status the rollout wrote before
// the read is overwritten with the old copy's, so the write is not guarded.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, Resource, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// Writes the status of each Deployment it is handed.
async fn reconcile_rollout(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    let status = serde_json::json!({ "status": { "conditions": [] } });
    api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(status)).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// The Deployment a ConfigMap names.
fn target(cm: &ConfigMap) -> String {
    cm.data.as_ref().and_then(|d| d.get("deployment")).cloned().unwrap_or_default()
}

// Holds the Deployment as it was read at the start of the reconcile, changed since.
struct Tracked {
    obj: Deployment,
}

impl Tracked {
    // The fresh version copied into the copy kept in the field.
    async fn write_status(&mut self, api: &Api<Deployment>) -> Result<(), Error> {
        let name = self.obj.name_any();
        let fresh = api.get_status(&name).await.map_err(|_| Error)?;
        self.obj.metadata.resource_version = fresh.metadata.resource_version.clone();
        let body = serde_json::to_vec(&self.obj).map_err(|_| Error)?;
        api.replace_status(&name, &PostParams::default(), body).await.map_err(|_| Error)?;
        Ok(())
    }

    // Look-alike: the body is the fresh object, given the status worked out: its own version.
    async fn write_status_fresh(&self, api: &Api<Deployment>) -> Result<(), Error> {
        let name = self.obj.name_any();
        let mut fresh = api.get_status(&name).await.map_err(|_| Error)?;
        fresh.status = self.obj.status.clone();
        api.replace_status(&name, &PostParams::default(), serde_json::to_vec(&fresh).map_err(|_| Error)?)
            .await
            .map_err(|_| Error)?;
        Ok(())
    }

    // Look-alike: the body is a copy of the fresh object; copying the fresh version into it
    // again changes nothing.
    async fn write_status_fresh_copy(&self, api: &Api<Deployment>) -> Result<(), Error> {
        let name = self.obj.name_any();
        let fresh = api.get_status(&name).await.map_err(|_| Error)?;
        let mut body = fresh.clone();
        body.status = self.obj.status.clone();
        body.metadata.resource_version = fresh.metadata.resource_version.clone();
        api.replace_status(&name, &PostParams::default(), serde_json::to_vec(&body).map_err(|_| Error)?)
            .await
            .map_err(|_| Error)?;
        Ok(())
    }

    // Look-alike: the version comes from a read of another Deployment. That is no evidence
    // either way: the body is read as before, as carrying a `resourceVersion` (guarded).
    async fn write_status_other(&self, api: &Api<Deployment>) -> Result<(), Error> {
        let name = self.obj.name_any();
        let template = api.get_status("template").await.map_err(|_| Error)?;
        let mut body = self.obj.clone();
        body.metadata.resource_version = template.metadata.resource_version;
        api.replace_status(&name, &PostParams::default(), serde_json::to_vec(&body).map_err(|_| Error)?)
            .await
            .map_err(|_| Error)?;
        Ok(())
    }
}

// The fresh version copied into an older copy held in a local, through `meta_mut()`.
async fn write_marked(api: &Api<Deployment>, old: Deployment) -> Result<(), Error> {
    let name = old.name_any();
    let fresh = api.get_status(&name).await.map_err(|_| Error)?;
    let mut body = old;
    body.meta_mut().resource_version = fresh.resource_version();
    api.replace_status(&name, &PostParams::default(), serde_json::to_vec(&body).map_err(|_| Error)?)
        .await
        .map_err(|_| Error)?;
    Ok(())
}

async fn reconcile_marker(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    let old = api.get(&target(&cm)).await.map_err(|_| Error)?;
    let mut t = Tracked { obj: old };
    t.write_status(&api).await?;
    Ok(Action::await_change())
}

async fn marker_and_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let marker = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_marker, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, marker); //~ concurrent-same-object
}

async fn reconcile_local(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    let old = api.get(&target(&cm)).await.map_err(|_| Error)?;
    write_marked(&api, old).await?;
    Ok(Action::await_change())
}

async fn local_and_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let local = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_local, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, local); //~ concurrent-same-object
}

async fn reconcile_fresh(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    let old = api.get(&target(&cm)).await.map_err(|_| Error)?;
    let t = Tracked { obj: old };
    t.write_status_fresh(&api).await?;
    t.write_status_fresh_copy(&api).await?;
    t.write_status_other(&api).await?;
    Ok(Action::await_change())
}

async fn fresh_and_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let fresh = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_fresh, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, fresh);
}
