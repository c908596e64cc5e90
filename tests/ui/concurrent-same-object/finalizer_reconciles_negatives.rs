// kube-runtime's `finalizer` hands its closure an event whose `Apply` and `Cleanup` variants
// carry the object the reconcile was handed: writes named after that object, in the closure or
// in a helper it is passed to, are one object per reconcile, as without `finalizer`. Silent
// even with `--min-confidence unknown` (`tests/cli.rs`).
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Secret, Service};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{finalizer, Event};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy(_: Arc<Secret>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// The helper the `Apply` arm passes the event's object to.
async fn expose(owner: &Secret, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = owner.namespace().unwrap_or_default();
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &ns);
    let name = owner.name_any();
    svcs.patch(&name, &PatchParams::apply("keeper"), &Patch::Apply(())).await.map_err(|_| Error)?;
    let deploys: Api<Deployment> = Api::namespaced(ctx.client.clone(), &ns);
    deploys.patch(&format!("{name}-worker"), &PatchParams::apply("keeper"), &Patch::Apply(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn reconcile(secret: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &secret.namespace().unwrap_or_default());
    finalizer(&secrets, "keeper.example.com/cleanup", secret, |event| async {
        match event {
            Event::Apply(current) => expose(&current, ctx.clone()).await,
            // Inline, in the closure.
            Event::Cleanup(current) => {
                let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &current.namespace().unwrap_or_default());
                let keys = format!("{}-keys", current.name_any());
                cms.patch(&keys, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
                cms.delete(&keys, &DeleteParams::default()).await.map_err(|_| Error)?;
                Ok(Action::await_change())
            }
        }
    })
    .await
    .map_err(|_| Error)
}

// A copy of the object given to `finalizer` through a path, `move` closures and `if let`.
async fn reconcile_moved(secret: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::all(ctx.client.clone());
    let ctx = ctx.clone();
    kube::runtime::finalizer(&secrets, "keeper.example.com/moved", secret.clone(), move |event| async move {
        if let Event::Apply(current) = event {
            let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &current.namespace().unwrap_or_default());
            svcs.patch(&current.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
        }
        Ok(Action::await_change())
    })
    .await
    .map_err(|_| Error)
}

pub async fn run(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<Secret>::all(client.clone()), watcher::Config::default())
        .run(reconcile, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_moved, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
