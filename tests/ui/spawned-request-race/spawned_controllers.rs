// Two controllers of different kinds writing the status of one Service: the sync controller the
// status of each Service it reconciles, the source controller that of the Service its Pod names.
// One controller is spawned while the other runs: bound to a `let` and then spawned, or spawned
// by a constructor of the crate, called beside the other's `run` or in the other's reconcile
// (which returns while the spawned controller goes on). Each is a task running beside the other
// controller, so their writes of one Service race.
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Pod, Service};
use kube::api::{Api, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use tokio::task::JoinHandle;

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
    registered: Mutex<Vec<Registered>>,
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

// Gets the Service its Pod names and writes that Service's status.
async fn reconcile_src(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&sync.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// The source controller's run, bound to a `let` and then spawned beside the sync controller.
async fn bound_then_spawned(client: Client, ctx: Arc<Ctx>) {
    let source = Controller::new(Api::<Pod>::all(client.clone()), watcher::Config::default())
        .run(reconcile_src, error_policy, ctx.clone())
        .for_each(|_| async {});
    tokio::spawn(source); //~ spawned-request-race
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Builds the source controller and spawns it; the handle is kept to stop it when dropped.
struct SourceController {
    handle: JoinHandle<()>,
}

impl SourceController {
    fn new(client: Client, ctx: Arc<Ctx>) -> Self {
        let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
            .run(reconcile_src, error_policy, ctx)
            .for_each(|_| async {});
        let handle = tokio::spawn(fut);
        Self { handle }
    }
}

impl Drop for SourceController {
    fn drop(&mut self) {
        self.handle.abort();
    }
}

// The constructor called beside the sync controller's run: the call returns while the source
// controller runs.
async fn constructor_beside_run(client: Client, ctx: Arc<Ctx>) {
    let _source = SourceController::new(client.clone(), ctx.clone()); //~ spawned-request-race
    Controller::new(Api::<Service>::all(client), watcher::Config::default())
        .run(reconcile_sync, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// The source controller's future, made by a method that returns it in a `Result`.
struct SourceRunner {
    client: Client,
    ctx: Arc<Ctx>,
}

impl SourceRunner {
    fn start(self) -> Result<impl std::future::Future<Output = ()>, Error> {
        let controller = Controller::new(Api::<Pod>::all(self.client), watcher::Config::default());
        Ok(controller.run(reconcile_src, error_policy, self.ctx).for_each(|_| async {}))
    }
}

struct Registered {
    _handle: JoinHandle<()>,
}

impl Registered {
    fn new(client: Client, ctx: Arc<Ctx>) -> Result<Self, Error> {
        let runner = SourceRunner { client, ctx };
        let handle = tokio::spawn(runner.start()?);
        Ok(Self { _handle: handle })
    }
}

impl Ctx {
    async fn register(&self, ctx: Arc<Ctx>) -> Result<(), Error> {
        let registered = Registered::new(self.client.clone(), ctx)?;
        self.registered.lock().unwrap().push(registered);
        Ok(())
    }
}

// The sync controller's reconcile starts the source controller (through `Ctx::register`) and
// writes the status of its Service: the source controller keeps running beside this
// controller's later reconciles.
async fn reconcile_registering(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    ctx.register(ctx.clone()).await?;
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&obj.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn started_in_reconcile(client: Client, ctx: Arc<Ctx>) {
    Controller::new(Api::<Service>::all(client), watcher::Config::default()) //~ spawned-request-race
        .run(reconcile_registering, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
