// Look-alikes of `fetched_names.rs`: objects written by the name of an object fetched by a
// name that differs between reconciles, or of an object a list answered (a list names no
// object), or of a fetched object renamed before the write. None is reported by default: the
// first two are silent at every level, the last two stay `unknown`.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
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

// The reconciled object got again by its own name and patched by the fresh copy's name: each
// reconcile writes its own object (silent).
async fn reconcile_refetched(obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "default");
    let fresh = cms.get(&obj.name_any()).await.map_err(|_| Error)?;
    cms.patch(&fresh.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// A Secret got by a name the reconciled object holds (`annotations["secret"]`): the name
// depends on the object reconciled, like a write named by that field (silent).
async fn reconcile_by_field(obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), "default");
    if let Some(secret) = secrets.get_opt(&obj.annotations()["secret"]).await.map_err(|_| Error)? {
        secrets.patch(&secret.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

// A Secret of a list selected by the reconciled object's name: the element's name is its
// own, not a name the list was made with (`unknown`, as before).
async fn reconcile_listed(obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), "default");
    let lp = ListParams::default().labels(&format!("owner={}", obj.name_any()));
    for secret in secrets.list(&lp).await.map_err(|_| Error)?.items {
        secrets.patch(&secret.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

// A template Secret got by a fixed name, renamed after the reconciled object before it is
// written: the write is not of the template (`unknown`: its name is not followed through
// `meta_mut()`, and it is not taken as the template's).
async fn reconcile_copied(obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), "default");
    let mut copy = secrets.get("template").await.map_err(|_| Error)?;
    copy.meta_mut().name = Some(obj.name_any());
    copy.metadata.resource_version = None;
    secrets.replace(&copy.name_any(), &PostParams::default(), &copy).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn controllers(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .run(reconcile_refetched, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .run(reconcile_by_field, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .run(reconcile_listed, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_copied, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
