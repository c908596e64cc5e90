// Look-alikes of spawned_controllers.rs, all silent: a controller spawned beside another (bound
// to a `let`, or by a constructor of the crate, beside the other's `run` or in its reconcile)
// whose writes cannot meet the other's: objects named after each controller's own objects,
// kinds that differ, the status against the main resource; or a controller's future that is
// never spawned, or whose task is aborted or awaited before the function returns; or both
// writes carry the resourceVersion they read.
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Service};
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use tokio::task::JoinHandle;

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
    sources: Mutex<Vec<PodController>>,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// Writes the status of the Service it reconciles.
async fn reconcile_sync(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&obj.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Writes the status of the Pod it reconciles: another kind.
async fn reconcile_pod(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), &pod.namespace().unwrap());
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    pods.replace_status(&pod.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Each controller writes a ConfigMap named after the object it reconciles.
async fn reconcile_pod_config(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &pod.namespace().unwrap());
    let pp = PatchParams::apply("pods").force();
    cms.patch(&pod.name_any(), &pp, &Patch::Apply(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn reconcile_svc_config(svc: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &svc.namespace().unwrap());
    let pp = PatchParams::apply("services").force();
    cms.patch(&svc.name_any(), &pp, &Patch::Apply(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Gets the Service its Pod names and patches that Service itself, not its status.
async fn reconcile_src_main(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let pp = PatchParams::default();
    svcs.patch(&sync.name_any(), &pp, &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Objects named after each controller's own objects: a ConfigMap per Pod, one per Service.
async fn own_objects_bound_then_spawned(client: Client, ctx: Arc<Ctx>) {
    let pods = Controller::new(Api::<Pod>::all(client.clone()), watcher::Config::default())
        .run(reconcile_pod_config, error_policy, ctx.clone())
        .for_each(|_| async {});
    tokio::spawn(pods);
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_svc_config, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Builds and spawns the Pod controller; stops it when dropped.
struct PodController {
    handle: JoinHandle<()>,
}

impl PodController {
    fn new(client: Client, ctx: Arc<Ctx>) -> Self {
        let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
            .run(reconcile_pod, error_policy, ctx)
            .for_each(|_| async {});
        let handle = tokio::spawn(fut);
        Self { handle }
    }
}

impl Drop for PodController {
    fn drop(&mut self) {
        self.handle.abort();
    }
}

// Kinds that cannot meet: the Pod controller writes Pods, the other Services.
async fn other_kind_beside_run(client: Client, ctx: Arc<Ctx>) {
    let _pods = PodController::new(client.clone(), ctx.clone());
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// A reconcile starting the Pod controller and writing its own Service's status.
async fn reconcile_starting_pods(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let pods = PodController::new(ctx.client.clone(), ctx.clone());
    ctx.sources.lock().unwrap().push(pods);
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&obj.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn other_kind_in_reconcile(client: Client, ctx: Arc<Ctx>) {
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_starting_pods, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// The Service itself against its status: disjoint parts.
struct MainWriter {
    _handle: JoinHandle<()>,
}

impl MainWriter {
    fn new(client: Client, ctx: Arc<Ctx>) -> Self {
        let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
            .run(reconcile_src_main, error_policy, ctx)
            .for_each(|_| async {});
        Self { _handle: tokio::spawn(fut) }
    }
}

async fn main_resource_beside_status(client: Client, ctx: Arc<Ctx>) {
    let _main = MainWriter::new(client.clone(), ctx.clone());
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// The same writes as spawned_controllers.rs, but the source controller's future is never
// spawned: kept, boxed, for the caller to poll.
async fn reconcile_src(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&sync.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

struct Pending {
    _fut: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>,
}

impl Pending {
    fn new(client: Client, ctx: Arc<Ctx>) -> Self {
        let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
            .run(reconcile_src, error_policy, ctx)
            .for_each(|_| async {});
        Self { _fut: Box::pin(fut) }
    }
}

async fn never_spawned(client: Client, ctx: Arc<Ctx>) {
    let _pending = Pending::new(client.clone(), ctx.clone());
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Spawned and aborted before the constructor returns.
struct Stopped;

impl Stopped {
    fn new(client: Client, ctx: Arc<Ctx>) -> Self {
        let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
            .run(reconcile_src, error_policy, ctx)
            .for_each(|_| async {});
        let handle = tokio::spawn(fut);
        handle.abort();
        Stopped
    }
}

async fn aborted_in_constructor(client: Client, ctx: Arc<Ctx>) {
    let _stopped = Stopped::new(client.clone(), ctx.clone());
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Spawned and awaited by the function that spawns it: it has ended when the call returns.
async fn run_source(client: Client, ctx: Arc<Ctx>) {
    let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
        .run(reconcile_src, error_policy, ctx)
        .for_each(|_| async {});
    let _ = tokio::spawn(fut).await;
}

async fn awaited_in_callee(client: Client, ctx: Arc<Ctx>) {
    run_source(client.clone(), ctx.clone()).await;
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Both replaces carry the resourceVersion they read (the reconciled Service, the Service just
// got): whichever lands second fails with 409 Conflict instead of overwriting the other.
async fn reconcile_sync_guarded(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let body = serde_json::to_vec(&*obj).unwrap();
    svcs.replace_status(&obj.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn reconcile_src_guarded(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let body = serde_json::to_vec(&sync).unwrap();
    svcs.replace_status(&sync.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn guarded_bound_then_spawned(client: Client, ctx: Arc<Ctx>) {
    let source = Controller::new(Api::<Pod>::all(client.clone()), watcher::Config::default())
        .run(reconcile_src_guarded, error_policy, ctx.clone())
        .for_each(|_| async {});
    tokio::spawn(source);
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync_guarded, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
