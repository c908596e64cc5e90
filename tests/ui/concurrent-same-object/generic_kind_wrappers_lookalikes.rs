// Look-alikes of `generic_kind_wrappers.rs`: the wrapper generic over the kind, called by two
// controllers that do not write one object through it. Silent.
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

#[derive(CustomResource, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Job", namespaced)]
pub struct JobSpec {
    pub app: String,
}

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

async fn patch_status<T>(client: &Client, obj: &T, status: serde_json::Value) -> Result<T, Error>
where
    T: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug,
{
    let api: Api<T> = Api::namespaced(client.clone(), &obj.namespace().unwrap());
    let patch = Patch::Merge(json!({ "status": status }));
    api.patch_status(&obj.name_any(), &PatchParams::apply("op"), &patch).await.map_err(|_| Error)
}

async fn reconcile_app(app: Arc<App>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    patch_status(&ctx.client, &*app, json!({ "phase": "Unknown" })).await?;
    Ok(Action::await_change())
}

// Two kinds: the Pod controller writes the status of a Job it fetched, not of an App.
async fn reconcile_job_driver(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let jobs: Api<Job> = Api::namespaced(ctx.client.clone(), &pod.namespace().unwrap());
    let job: Job = jobs.get(&pod.labels()["job"]).await.map_err(|_| Error)?;
    patch_status(&ctx.client, &job, json!({ "phase": "Running" })).await?;
    Ok(Action::await_change())
}

async fn app_and_job_driver(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let apps = Controller::new(Api::<App>::all(client.clone()), watcher::Config::default())
        .run(reconcile_app, error_policy, ctx.clone())
        .for_each(|_| async {});
    let drivers = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_job_driver, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(apps, drivers);
}

// Each controller's own object: the App controller the App it is handed, the Pod controller
// the Pod it is handed (another kind).
async fn reconcile_pod(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    patch_status(&ctx.client, &*pod, json!({ "conditions": [] })).await?;
    Ok(Action::await_change())
}

async fn app_and_pod(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let apps = Controller::new(Api::<App>::all(client.clone()), watcher::Config::default())
        .run(reconcile_app, error_policy, ctx.clone())
        .for_each(|_| async {});
    let pods = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_pod, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(apps, pods);
}

// Each controller's own object, both through the turbofish: a Job controller writing its Job.
async fn reconcile_job(job: Arc<Job>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    patch_status::<Job>(&ctx.client, &job, json!({ "phase": "Done" })).await?;
    Ok(Action::await_change())
}

async fn app_and_job(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let apps = Controller::new(Api::<App>::all(client.clone()), watcher::Config::default())
        .run(reconcile_app, error_policy, ctx.clone())
        .for_each(|_| async {});
    let jobs = Controller::new(Api::<Job>::all(client), watcher::Config::default())
        .run(reconcile_job, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(apps, jobs);
}
