// A crate's own wrapper over kube's Controller, generic over the crate's `Reconciler` trait, and
// tasks kept as `Vec<Arc<T>>` with `T: Task`: a method called on a value known only by its
// traits runs the crate's implementors of them. With one implementor of each trait, the call
// runs it: `definite` (see bounded_receivers.rs for several, `possible`).
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
pub struct Error;

pub trait Reconciler: Send + Sync {
    fn reconcile(&self, obj: Arc<ConfigMap>, client: Client) -> impl std::future::Future<Output = Result<Action, Error>> + Send;
}

pub trait Task: Send + Sync {
    fn run(&self, obj: Arc<ConfigMap>, client: Client) -> impl std::future::Future<Output = Result<(), Error>> + Send;
}

struct Context<R: Reconciler> {
    client: Client,
    reconciler: R,
}

pub struct Runner<R: Reconciler> {
    _r: std::marker::PhantomData<R>,
}

impl<R: Reconciler + 'static> Runner<R> {
    pub async fn start(api: Api<ConfigMap>, rec: R, client: Client) {
        let ctx = Arc::new(Context { client, reconciler: rec });
        Controller::new(api, watcher::Config::default())
            .run(Self::reconcile, Self::on_error, ctx)
            .for_each(|_| async {})
            .await;
    }

    fn on_error(_: Arc<ConfigMap>, _: &Error, _: Arc<Context<R>>) -> Action {
        Action::await_change()
    }

    async fn reconcile(obj: Arc<ConfigMap>, ctx: Arc<Context<R>>) -> Result<Action, Error> {
        ctx.reconciler.reconcile(obj, ctx.client.clone()).await
    }
}

pub struct Steps<T: Task> {
    steps: Vec<Vec<Arc<T>>>,
}

impl<T: Task> Reconciler for Steps<T> {
    async fn reconcile(&self, obj: Arc<ConfigMap>, client: Client) -> Result<Action, Error> {
        let first = &self.steps[0];
        for step in first {
            let step = step.clone();
            step.run(obj.clone(), client.clone()).await?;
        }
        Ok(Action::await_change())
    }
}

const POD: &str = "shared-pod";

pub struct RestartPod;

impl RestartPod {
    async fn delete_pod(client: Client) -> Result<(), Error> {
        let pods: Api<Pod> = Api::namespaced(client, "jobs");
        pods.delete(POD, &DeleteParams::default()).await.map_err(|_| Error)?; //~ concurrent-same-object
        Ok(())
    }
}

// Every reconcile deletes one Pod, whatever ConfigMap it reconciles.
impl Task for RestartPod {
    async fn run(&self, _obj: Arc<ConfigMap>, client: Client) -> Result<(), Error> {
        Self::delete_pod(client).await
    }
}

// Look-alike: a bound the crate does not declare gives no crate method, whatever its name.
pub async fn foreign_bound<T: Clone + Send>(value: T) {
    let _ = value.clone();
}
