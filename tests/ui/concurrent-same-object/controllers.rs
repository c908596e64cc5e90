// Two controllers in one process: kube keeps the reconciles of one object apart only within one
// controller. Two controllers of one kind whose reconciles write the same objects race on them.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

async fn reconcile_rollout(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn reconcile_health(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn reconcile_config(c: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &c.namespace().unwrap());
    api.patch(&c.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

async fn two_of_one_kind(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let deployments: Api<Deployment> = Api::all(client.clone());
    let rollout = Controller::new(deployments.clone(), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let health = Controller::new(deployments, watcher::Config::default())
        .run(reconcile_health, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, health); //~ concurrent-same-object
}

// Look-alike: controllers of two kinds, each writing its own objects.
async fn two_kinds(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let config = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_config, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, config);
}

// Look-alike: one controller, cancelled on shutdown: its reconciles are not request futures
// whose cancellation is reported (nor do its reconciles race with each other).
async fn one_with_shutdown(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx)
        .for_each(|_| async {});
    tokio::select! {
        _ = rollout => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}

async fn run_rollout(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

async fn run_health(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile_health, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Through the functions that run them.
async fn helpers_joined(client: Client) {
    tokio::join!(run_rollout(client.clone()), run_health(client)); //~ concurrent-same-object
}

// Reported by spawned-request-race (see its UI tests): one spawned, the other awaited.
async fn spawned(client: Client) {
    tokio::spawn(run_rollout(client.clone())); //~ spawned-request-race
    run_health(client).await;
}

// Look-alike: one controller reads the Deployments the other writes. Level-triggered: the write's
// watch event queues the reader again, nothing is lost.
async fn reader_and_writer(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_rollout, error_policy, ctx.clone())
        .for_each(|_| async {});
    let watch = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile_watch, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, watch);
}

// A read-modify-write in one controller, a write in the other: the two writes race.
async fn read_modify_write(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let scale = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_scale, error_policy, ctx.clone())
        .for_each(|_| async {});
    let health = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile_health, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(scale, health); //~ concurrent-same-object
}

// Reads what the rollout controller writes, and writes nothing of a Deployment.
async fn reconcile_watch(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    api.get(&d.name_any()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Reads the Deployment, then writes it back: a read-modify-write.
async fn reconcile_scale(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    let current = api.get(&d.name_any()).await.map_err(|_| Error)?;
    let _ = current.spec;
    api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Patches the Deployment's spec, never its status.
async fn reconcile_spec(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    api.patch(&d.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Look-alike: one controller patches the spec, the other the status subresource: each endpoint
// ignores the other's part, so neither write undoes the other.
async fn spec_and_status(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let spec = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_spec, error_policy, ctx.clone())
        .for_each(|_| async {});
    let health = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(reconcile_health, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(spec, health);
}
