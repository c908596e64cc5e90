// Look-alikes of `fetched_fields.rs`: writes named by fields of objects that nothing shows to
// be one object, or writes that cannot undo each other. None is reported at the default
// confidence.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret, Service};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
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

async fn reconcile_sync(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    cms.delete(&obj.annotations()["dest"], &DeleteParams::default()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Another field of the fetched Service: `annotations["other"]`, not `annotations["dest"]`.
async fn reconcile_other_field(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let pp = PatchParams::apply("syncer");
    cms.patch(&sync.annotations()["other"], &pp, &Patch::Apply(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn different_fields(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_other_field, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source);
}

// The fetched object is a Secret, not a Service: another object than the one reconciled.
async fn reconcile_other_kind(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = secrets.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let pp = PatchParams::apply("syncer");
    cms.patch(&sync.annotations()["dest"], &pp, &Patch::Apply(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn fetched_of_another_kind(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_other_kind, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source);
}

// The field of the Pod reconciled, not of a fetched Service: objects of two kinds.
async fn reconcile_own_field(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let pp = PatchParams::apply("syncer");
    cms.patch(&src.annotations()["dest"], &pp, &Patch::Apply(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn two_reconciled_kinds(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_own_field, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source);
}

// Both delete the destination: a delete after a delete fails with NotFound, both orders end
// alike.
async fn reconcile_delete(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    cms.delete(&sync.annotations()["dest"], &DeleteParams::default()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn two_deletes(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_delete, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source);
}

// A write carrying the `resourceVersion` of the object it read: landing late, it fails with 409
// Conflict instead of overwriting.
async fn reconcile_guarded(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let dest = cms.get(&sync.annotations()["dest"]).await.map_err(|_| Error)?;
    let mut data = dest.clone();
    data.data = None;
    cms.replace(&sync.annotations()["dest"], &PostParams::default(), &data).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn guarded_write(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_guarded, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source);
}

// The Service controller watches one namespace only: the Service the Pod controller fetches may
// not be among those it reconciles.
async fn reconcile_source(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::all(ctx.client.clone());
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let pp = PatchParams::apply("syncer");
    cms.patch(&sync.annotations()["dest"], &pp, &Patch::Apply(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn selecting_watcher(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let sync = Controller::new(
        Api::<Service>::namespaced(client.clone(), "sync-system"),
        watcher::Config::default(),
    )
        .run(reconcile_sync, error_policy, ctx.clone())
        .for_each(|_| async {});
    let source = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_source, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(sync, source);
}
