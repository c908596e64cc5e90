// Every reconcile in flight replaces one ConfigMap (see concurrent_reconciles.rs). A body built
// from an older copy, given the `resourceVersion` of a read made just before the write, is not
// guarded: a reconcile that read the ConfigMap before another one wrote it overwrites that write
// with its older copy (the fresh version only covers the time between the read and the write).
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Service};
use kube::api::{Api, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy(_: Arc<Service>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

const SHARED: &str = "shared-config";

fn register(cm: &mut ConfigMap, svc: &Service) {
    cm.data.get_or_insert_with(Default::default).insert(svc.name_any(), "1".into());
}

// The copy read first is changed, then given the version of a second read.
async fn reconcile(svc: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    let mut seen = cms.get(SHARED).await.map_err(|_| Error)?;
    register(&mut seen, &svc);
    let fresh = cms.get(SHARED).await.map_err(|_| Error)?;
    seen.metadata.resource_version = fresh.metadata.resource_version;
    cms.replace(SHARED, &PostParams::default(), &seen).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(Action::await_change())
}

// Look-alike: the body is a copy of the object read just before the write, changed: its own
// version. A reconcile whose read came before another's write fails with 409 Conflict.
async fn reconcile_fresh(svc: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    let fresh = cms.get(SHARED).await.map_err(|_| Error)?;
    let mut body = fresh.clone();
    register(&mut body, &svc);
    body.metadata.resource_version = fresh.metadata.resource_version.clone();
    cms.replace(SHARED, &PostParams::default(), &body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Look-alike: a body built afresh (not a copy read earlier) given the version just read, as
// garage_rpc's node advertisement does: read as before, guarded.
async fn reconcile_built(svc: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    let mut body = ConfigMap::default();
    register(&mut body, &svc);
    let fresh = cms.get(SHARED).await.map_err(|_| Error)?;
    body.metadata.resource_version = fresh.metadata.resource_version;
    cms.replace(SHARED, &PostParams::default(), &body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn run(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<Service>::all(client.clone()), watcher::Config::default())
        .run(reconcile_fresh, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_built, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
