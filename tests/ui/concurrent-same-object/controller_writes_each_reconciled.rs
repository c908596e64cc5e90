// A controller whose reconcile writes the object it is handed writes every object of its kind
// that it watches; another controller, reconciling another kind, that writes some object of
// that kind writes one of them: the two writes meet on it, whatever its name.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

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

// Writes the status of the Deployment each ConfigMap names.
async fn reconcile_marker(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    let name = target(&cm);
    let status = serde_json::json!({ "status": { "conditions": [{ "type": "Marked" }] } });
    api.patch_status(&name, &PatchParams::default(), &Patch::Merge(status)).await.map_err(|_| Error)?;
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

// Look-alike: the other controller deletes the Deployment. A status patch after the delete
// fails with NotFound; both orders end with the Deployment deleted.
async fn reconcile_reaper(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    api.delete(&target(&cm), &DeleteParams::default()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn reaper_and_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let reaper = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_reaper, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, reaper);
}

// Look-alike: the other controller's write carries the resourceVersion it read (a 409 Conflict,
// not an overwrite, when the rollout wrote first).
async fn reconcile_guarded(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    let name = target(&cm);
    let d = api.get(&name).await.map_err(|_| Error)?;
    let status = serde_json::json!({
        "metadata": { "resourceVersion": d.resource_version() },
        "status": { "conditions": [{ "type": "Marked" }] },
    });
    api.patch_status(&name, &PatchParams::default(), &Patch::Merge(status)).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn guarded_and_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let guarded = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_guarded, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, guarded);
}

// Look-alike: the other controller writes the Deployment's spec, the rollout its status:
// different parts of the object.
async fn reconcile_scaler(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &cm.namespace().unwrap());
    let spec = serde_json::json!({ "spec": { "replicas": 2 } });
    api.patch(&target(&cm), &PatchParams::default(), &Patch::Merge(spec)).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn scaler_and_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let scaler = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_scaler, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, scaler);
}

// Look-alike: the rollout controller watches only labelled Deployments, so it does not write
// every Deployment: nothing says it writes the one the marker names.
async fn marker_and_selected_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let selected = watcher::Config::default().labels("rollout=managed");
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), selected)
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let marker = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_marker, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, marker);
}

// Look-alike: the rollout controller watches one namespace.
async fn marker_and_namespaced_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::namespaced(client.clone(), "apps"), watcher::Config::default().labels("a=b"))
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let marker = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_marker, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, marker);
}
