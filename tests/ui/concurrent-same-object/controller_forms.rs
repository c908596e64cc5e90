// Two controllers of one kind whose reconciles are written in other forms than a function by
// path: a generic function instantiated for the kind, an associated function, a trait's
// function, a closure that times the reconcile it hands the object to.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, Resource, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

async fn reconcile_status<K>(obj: Arc<K>, ctx: Arc<Ctx>) -> Result<Action, Error>
where
    K: Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let api: Api<K> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    api.patch_status(&obj.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

struct Rollout;

impl Rollout {
    async fn reconcile(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
        let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
        api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
        Ok(Action::await_change())
    }
}

async fn reconcile_health(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &d.namespace().unwrap());
    api.patch_status(&d.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

fn timer() -> std::time::Instant {
    std::time::Instant::now()
}

async fn generic_and_associated(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let status = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_status::<Deployment>, error_policy, ctx.clone())
        .for_each(|_| async {});
    let rollout = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(Rollout::reconcile, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(status, rollout); //~ concurrent-same-object
}

async fn timed_closure(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let rollout = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(Rollout::reconcile, error_policy, ctx.clone())
        .for_each(|_| async {});
    let health = Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(
            |obj, ctx| async move {
                let started = timer();
                let result = reconcile_health(obj, ctx).await;
                println!("reconciled in {:?}", started.elapsed());
                result
            },
            error_policy,
            ctx,
        )
        .for_each(|_| async {});
    tokio::join!(rollout, health); //~ concurrent-same-object
}

// Look-alike: one generic reconcile instantiated for two kinds: different objects.
async fn two_kinds(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let deployments = Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .run(reconcile_status::<Deployment>, error_policy, ctx.clone())
        .for_each(|_| async {});
    let sets = Controller::new(Api::<StatefulSet>::all(client), watcher::Config::default())
        .run(reconcile_status::<StatefulSet>, error_policy, ctx)
        .for_each(|_| async {});
    tokio::join!(deployments, sets);
}

// `Self::reconcile` in the `impl` of the type whose function it is.
struct Health {
    client: Client,
}

impl Health {
    async fn reconcile(d: Arc<Deployment>, ctx: Arc<Ctx>) -> Result<Action, Error> {
        reconcile_health(d, ctx).await
    }

    async fn run_with(&self, rollout_client: Client) {
        let ctx = Arc::new(Ctx { client: self.client.clone() });
        let health = Controller::new(Api::<Deployment>::all(self.client.clone()), watcher::Config::default())
            .run(Self::reconcile, error_policy, ctx.clone())
            .for_each(|_| async {});
        let rollout = Controller::new(Api::<Deployment>::all(rollout_client), watcher::Config::default())
            .run(Rollout::reconcile, error_policy, ctx)
            .for_each(|_| async {});
        tokio::join!(health, rollout); //~ concurrent-same-object
    }
}
