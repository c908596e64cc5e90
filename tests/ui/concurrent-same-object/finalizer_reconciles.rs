// Through kube-runtime's `finalizer`, the event's object is the reconciled one, and nothing
// else is: a write of a fixed name in the `Apply` arm is still made by every reconcile in
// flight, and an `Apply(o)` of another enum than the finalizer's event carries no object the
// reconcile was handed. The event's object has the reconciled object's type: its methods are
// that type's, not guessed by their name (`Keeper::sync`, not `Auditor::sync`).
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{finalizer, Event as Finalizer};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

impl Ctx {
    fn next_step(&self) -> Step {
        Step::Skip
    }
}

enum Step {
    Apply(ConfigMap),
    Skip,
}

fn error_policy(_: Arc<Secret>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// A custom resource of the crate.
struct Keeper;

impl Keeper {
    async fn sync(&self, client: &Client) -> Result<Action, Error> {
        let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "keeper-system");
        cms.patch(&self.name_any(), &PatchParams::apply("keeper"), &Patch::Apply(())).await.map_err(|_| Error)?;
        cms.patch("keeper-index", &PatchParams::apply("keeper"), &Patch::Apply(())).await.map_err(|_| Error)?; //~ concurrent-same-object
        Ok(Action::await_change())
    }
}

struct Auditor;

impl Auditor {
    async fn sync(&self, _client: &Client) -> Result<Action, Error> {
        Ok(Action::await_change())
    }
}

fn keeper_error_policy(_: Arc<Keeper>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

async fn reconcile_keeper(keeper: Arc<Keeper>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let keepers: Api<Keeper> = Api::all(ctx.client.clone());
    finalizer(&keepers, "keeper.example.com/cleanup", keeper, |event| async {
        match event {
            Finalizer::Apply(current) => current.sync(&ctx.client).await,
            Finalizer::Cleanup(_) => Ok(Action::await_change()),
        }
    })
    .await
    .map_err(|_| Error)
}

async fn reconcile(secret: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::all(ctx.client.clone());
    finalizer(&secrets, "keeper.example.com/cleanup", secret, |event| async {
        match event {
            Finalizer::Apply(current) => {
                let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "keeper-system");
                let applied = serde_json::json!({ "data": { "owner": current.name_any() } });
                cms.patch("shared-config", &PatchParams::apply("keeper").force(), &Patch::Apply(applied)).await.map_err(|_| Error)?; //~ concurrent-same-object
                Ok(Action::await_change())
            }
            Finalizer::Cleanup(_) => Ok(Action::await_change()),
        }
    })
    .await
    .map_err(|_| Error)
}

// `Apply(target)` of the crate's own enum, on a value the context gives: not the reconciled
// object (`unknown`: shown with `--min-confidence unknown`, `tests/cli.rs`).
async fn reconcile_steps(_secret: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::default_namespaced(ctx.client.clone());
    let step = ctx.next_step();
    match step {
        Step::Apply(target) => {
            cms.patch(&target.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
        }
        Step::Skip => {}
    }
    Ok(Action::await_change())
}

pub async fn run(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<Secret>::all(client.clone()), watcher::Config::default())
        .run(reconcile, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<Secret>::all(client.clone()), watcher::Config::default())
        .run(reconcile_steps, error_policy, ctx.clone())
        .for_each(|_| async {})
        .await;
    Controller::new(Api::<Keeper>::all(client), watcher::Config::default())
        .run(reconcile_keeper, keeper_error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
