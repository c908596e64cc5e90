// Controllers whose reconciles call helpers of other modules (`index`, `status`).
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::Api;
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
pub struct Error;

pub struct Ctx {
    pub client: Client,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

async fn reconcile(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    crate::index::record(&cms, &obj.name_any()).await?;
    // Look-alike: the helper writes the object named after the reconciled one.
    crate::status::mark_own(&cms, &obj.name_any()).await?;
    Ok(Action::await_change())
}

pub async fn run(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

async fn reconcile_marked(_obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    crate::status::mark_shared(&cms).await?;
    Ok(Action::await_change())
}

// Suppressed at the `run` (the site): the write in `status.rs` is not reported.
pub async fn run_marked(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    // kube-order-lint: allow(concurrent-same-object) -- the marker is only ever set to one value
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_marked, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

async fn reconcile_quiet(_obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    crate::status::touch_quiet(&cms).await?;
    Ok(Action::await_change())
}

// Suppressed at the write, in `status.rs`.
pub async fn run_quiet(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_quiet, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
