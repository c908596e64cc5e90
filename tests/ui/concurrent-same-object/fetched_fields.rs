// Two controllers of different kinds writing one object named by a field of a third kind's
// object: the Service controller deletes the ConfigMap its Service names in
// `annotations["dest"]`; the Pod controller gets the Service its Pod names and applies that
// Service's destination. A Service named by a Pod's data can be the one reconciled, so the two
// writes can meet on one ConfigMap.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Service};
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

// Deletes the destination its Service names.
async fn reconcile_sync(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    cms.delete(&obj.annotations()["dest"], &DeleteParams::default()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Gets the Service its Pod names, and writes that Service's destination.
async fn reconcile_source(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let pp = PatchParams::apply("syncer");
    let data = serde_json::json!({ "data": { "from": src.name_any() } });
    cms.patch(&sync.annotations()["dest"], &pp, &Patch::Apply(data)).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn sync_and_source(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_source, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source); //~ concurrent-same-object
}

// The same, the Service listed rather than got: each element of a list of Services can be the
// one reconciled.
async fn reconcile_listed(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let pp = PatchParams::apply("syncer");
    for sync in svcs.list(&Default::default()).await.map_err(|_| Error)?.items {
        let data = serde_json::json!({ "data": { "from": src.name_any() } });
        cms.patch(&sync.annotations()["dest"], &pp, &Patch::Apply(data)).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

async fn sync_and_listed(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let listed = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_listed, error_policy, ctx)
        .for_each(|_| async {});
    tokio::select! { //~ concurrent-same-object
        _ = sync => {}
        _ = listed => {}
    }
}

// The same through a label read with `get`, the fetched Service handed to a helper that writes.
async fn reconcile_sync_label(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let dest = obj.labels().get("dest").cloned().unwrap_or_default();
    cms.delete(&dest, &DeleteParams::default()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn write_destination(cms: &Api<ConfigMap>, sync: &Service) -> Result<(), Error> {
    let pp = PatchParams::apply("syncer");
    let dest = sync.labels().get("dest").cloned().unwrap_or_default();
    cms.patch(&dest, &pp, &Patch::Apply(())).await.map_err(|_| Error)?;
    Ok(())
}

async fn reconcile_source_helper(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    write_destination(&cms, &sync).await?;
    Ok(Action::await_change())
}

async fn label_through_helper(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync_label, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_source_helper, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source); //~ concurrent-same-object
}
