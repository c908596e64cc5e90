// A crate wrapper generic over the kind (`Api<T>` with `T` a type parameter) writes an object
// of the kind its caller gives it: the argument typed `T` (`obj: &T` given `&*app`, `app:
// Arc<App>`; an `App` fetched by `get`), a turbofish (`patch_status::<App>(..)`) or an `Api<App>`
// argument. Two controllers writing one App's status through it race as they do written with
// a concrete `Api<App>` (holdout 9's P1: spark-k8s-operator's application and driver-Pod
// controllers, both through `apply_patch_status`).
use std::fmt::Debug;
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, CustomResource, Resource, ResourceExt};
use serde::de::DeserializeOwned;
use serde_json::json;

#[derive(CustomResource, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "App", namespaced)]
pub struct AppSpec {
    pub image: String,
}

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// The wrapper: the status of whatever object it is handed, through an `Api` of its type.
async fn patch_status<T>(client: &Client, obj: &T, status: serde_json::Value) -> Result<T, Error>
where
    T: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug,
{
    let api: Api<T> = Api::namespaced(client.clone(), &obj.namespace().unwrap());
    let patch = Patch::Merge(json!({ "status": status }));
    api.patch_status(&obj.name_any(), &PatchParams::apply("op"), &patch).await.map_err(|_| Error)
}

// Controller A: the status of each App it reconciles.
async fn reconcile_app(app: Arc<App>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    patch_status(&ctx.client, &*app, json!({ "phase": "Unknown" })).await?;
    Ok(Action::await_change())
}

// Controller B: the status of the App its Pod names, fetched by `get` (annotated).
async fn reconcile_driver(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let apps: Api<App> = Api::namespaced(ctx.client.clone(), &pod.namespace().unwrap());
    let app: App = apps.get(&pod.labels()["app"]).await.map_err(|_| Error)?;
    let phase = pod.status.clone().and_then(|s| s.phase);
    patch_status(&ctx.client, &app, json!({ "phase": phase })).await?;
    Ok(Action::await_change())
}

async fn app_and_driver(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let apps = Controller::new(Api::<App>::all(client.clone()), watcher::Config::default())
        .run(reconcile_app, error_policy, ctx.clone())
        .for_each(|_| async {});
    let drivers = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_driver, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(apps, drivers); //~ concurrent-same-object
}

// The same, the App fetched without an annotation (its kind is the fetching `Api`'s), and the
// wrapper's kind given by a turbofish in controller A.
async fn reconcile_app_turbofish(app: Arc<App>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    patch_status::<App>(&ctx.client, &app, json!({ "phase": "Unknown" })).await?;
    Ok(Action::await_change())
}

async fn reconcile_driver_fetched(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let apps: Api<App> = Api::namespaced(ctx.client.clone(), &pod.namespace().unwrap());
    let app = apps.get(&pod.labels()["app"]).await.map_err(|_| Error)?;
    patch_status(&ctx.client, &app, json!({ "phase": "Running" })).await?;
    Ok(Action::await_change())
}

async fn turbofish_and_fetched(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let apps = Controller::new(Api::<App>::all(client.clone()), watcher::Config::default())
        .run(reconcile_app_turbofish, error_policy, ctx.clone())
        .for_each(|_| async {});
    let drivers = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_driver_fetched, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(apps, drivers); //~ concurrent-same-object
}

// A wrapper handed the `Api` (`api: &Api<T>`): its kind is the argument's.
async fn set_phase<T>(api: &Api<T>, obj: &T, phase: &str) -> Result<T, Error>
where
    T: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug,
{
    let patch = Patch::Merge(json!({ "status": { "phase": phase } }));
    api.patch_status(&obj.name_any(), &PatchParams::apply("op"), &patch).await.map_err(|_| Error)
}

async fn reconcile_app_handed(app: Arc<App>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let apps: Api<App> = Api::namespaced(ctx.client.clone(), &app.namespace().unwrap());
    set_phase(&apps, &app, "Unknown").await?;
    Ok(Action::await_change())
}

async fn reconcile_driver_handed(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let apps: Api<App> = Api::namespaced(ctx.client.clone(), &pod.namespace().unwrap());
    let app: App = apps.get(&pod.labels()["app"]).await.map_err(|_| Error)?;
    set_phase(&apps, &app, "Running").await?;
    Ok(Action::await_change())
}

async fn handed_apis(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let apps = Controller::new(Api::<App>::all(client.clone()), watcher::Config::default())
        .run(reconcile_app_handed, error_policy, ctx.clone())
        .for_each(|_| async {});
    let drivers = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_driver_handed, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(apps, drivers); //~ concurrent-same-object
}
