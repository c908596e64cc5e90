// A reconcile handed to `Controller::run` in a closure (`|obj, ctx| reconcile(obj, ctx)`, an
// `async move` block awaiting it) is followed like one passed by path.
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

// Two controllers of one kind, their reconciles in closures.
async fn two_of_one_kind(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let deployments: Api<Deployment> = Api::all(client.clone());
    let rollout = Controller::new(deployments.clone(), watcher::Config::default())
        .run(|d, ctx| async move { reconcile_rollout(d, ctx).await }, error_policy, ctx.clone())
        .for_each(|_| async {});
    let health = Controller::new(deployments, watcher::Config::default())
        .run(|d, ctx| reconcile_health(d, ctx), error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, health); //~ concurrent-same-object
}

// Look-alike: controllers of two kinds, each writing its own objects.
async fn two_kinds(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(|d, ctx| async move { reconcile_rollout(d, ctx).await }, error_policy, ctx.clone())
        .for_each(|_| async {});
    let config = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(|c, ctx| reconcile_config(c, ctx), error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(rollout, config);
}

// Look-alike: one controller, cancelled on shutdown (its reconciles do not race each other).
async fn one_with_shutdown(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(|d, ctx| async move { reconcile_rollout(d, ctx).await }, error_policy, ctx)
        .for_each(|_| async {});
    tokio::select! {
        _ = rollout => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}
