// A task spawned beside a controller that writes the status of objects of the controller's kind,
// named from outside (a message): the controller's reconcile writes the status of each object it
// is handed, so whichever object the task writes, the reconcile writes it too.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use tokio::sync::mpsc;

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

async fn reconcile(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    let status = serde_json::json!({ "status": { "phase": "Queued" } });
    api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(status)).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Marks the Deployment each message names as done.
async fn completions(client: Client, mut rx: mpsc::Receiver<String>) {
    let api: Api<Deployment> = Api::all(client);
    while let Some(name) = rx.recv().await {
        let status = serde_json::json!({ "status": { "phase": "Complete" } });
        let _ = api.patch_status(&name, &PatchParams::default(), &Patch::Merge(status)).await;
    }
}

async fn with_completions(client: Client, rx: mpsc::Receiver<String>) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    tokio::spawn(completions(client.clone(), rx)); //~ spawned-request-race
    Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the task writes objects of another kind.
async fn config_marks(client: Client, mut rx: mpsc::Receiver<String>) {
    let api: Api<ConfigMap> = Api::all(client);
    while let Some(name) = rx.recv().await {
        let _ = api.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
    }
}

async fn with_config_marks(client: Client, rx: mpsc::Receiver<String>) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    tokio::spawn(config_marks(client.clone(), rx));
    Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the task writes the Deployments' spec, the reconcile their status: different parts.
async fn scales(client: Client, mut rx: mpsc::Receiver<String>) {
    let api: Api<Deployment> = Api::all(client);
    while let Some(name) = rx.recv().await {
        let spec = serde_json::json!({ "spec": { "replicas": 0 } });
        let _ = api.patch(&name, &PatchParams::default(), &Patch::Merge(spec)).await;
    }
}

async fn with_scales(client: Client, rx: mpsc::Receiver<String>) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    tokio::spawn(scales(client.clone(), rx));
    Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
