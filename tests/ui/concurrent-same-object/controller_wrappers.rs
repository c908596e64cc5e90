// A controller handed through a function of the crate before `run`: a function that takes a
// `Controller<K>` and returns it (a free function, a trait's provided function, an inherent
// method) passes it on, and its `run` runs the reconciles of different objects at once with the
// limit of the controller handed in. Each reconcile here patches the Secret "user-secret" of the
// reconciled object's namespace, through a helper: every reconcile in flight in one namespace
// patches that one Secret.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Config, Controller};
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

async fn touch_secret(db: &ConfigMap, ctx: &Ctx, key: &str) -> Result<(), Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    let patch = serde_json::json!({ "stringData": { key: "now" } });
    api.patch("user-secret", &PatchParams::default(), &Patch::Merge(patch)).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(())
}

async fn reconcile_wrapped(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    touch_secret(&db, &ctx, "wrapped").await?;
    Ok(Action::await_change())
}

// A free function passing the controller on, with a watch added.
fn watch_secrets(c: Controller<ConfigMap>, client: Client) -> Controller<ConfigMap> {
    c.owns(Api::<Secret>::all(client), watcher::Config::default())
}

async fn wrapped(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let api = Api::<ConfigMap>::all(client.clone());
    watch_secrets(Controller::new(api, watcher::Config::default()), client)
        .run(reconcile_wrapped, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// A trait's provided function, for the kind that implements it (the shape of kube-primary's
// `Primary::setup_watches`).
trait Primary: Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned + std::fmt::Debug + Send + Sync + 'static {
    fn setup_watches<S>(controller: Controller<Self>, client: Client) -> Controller<Self>
    where
        S: Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
    {
        controller.owns(Api::<S>::all(client), watcher::Config::default())
    }
}

impl Primary for ConfigMap {}

async fn reconcile_primary(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    api.patch("user-secret", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(Action::await_change())
}

async fn through_trait(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let api = Api::<ConfigMap>::all(client.clone());
    ConfigMap::setup_watches::<Secret>(Controller::new(api, watcher::Config::default()), client)
        .run(reconcile_primary, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// An inherent method, its result bound by `let` before `run`.
struct Operator {
    client: Client,
}

impl Operator {
    fn watching(&self, c: Controller<ConfigMap>) -> Controller<ConfigMap> {
        c.owns(Api::<Secret>::all(self.client.clone()), watcher::Config::default())
            .shutdown_on_signal()
    }

    async fn start(&self) {
        let ctx = Arc::new(Ctx { client: self.client.clone() });
        let controller = self.watching(Controller::new(Api::all(self.client.clone()), watcher::Config::default()));
        controller.run(reconcile_operator, error_policy, ctx).for_each(|_| async {}).await;
    }
}

async fn reconcile_operator(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    api.patch("user-secret", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(Action::await_change())
}

// Look-alike: the wrapper limits the controller to one reconcile at a time.
fn one_at_a_time(c: Controller<ConfigMap>) -> Controller<ConfigMap> {
    c.with_config(Config::default().concurrency(1))
}

async fn reconcile_limited(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    api.patch("user-secret", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn limited(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    one_at_a_time(Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default()))
        .run(reconcile_limited, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the limit is handed in one at a time, and the wrapper passes it on.
async fn limited_before(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    let limited = Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .with_config(Config::default().concurrency(1));
    watch_secrets(limited, client)
        .run(reconcile_limited, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the wrapper returns another controller than the one it is handed; its limit is
// not the one handed in (`unknown`, not reported by default).
fn replaced(_c: Controller<ConfigMap>, client: Client) -> Controller<ConfigMap> {
    Controller::new(Api::all(client), watcher::Config::default())
}

async fn reconcile_replaced(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    api.patch("user-secret", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn through_replaced(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    replaced(Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default()), client)
        .run(reconcile_replaced, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: a function of a dependency (not declared by the crate) whose body is not seen:
// its limit is not visible (`unknown`, not reported by default).
async fn reconcile_foreign(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    api.patch("user-secret", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn through_dependency(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    kube_primary::attach_watches::<Secret>(Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default()), client)
        .run(reconcile_foreign, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: through the wrapper, a reconcile writing the Secret named after the object it
// reconciles: each reconcile its own.
async fn reconcile_own(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let api: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or_default());
    let name = format!("{}-secret", db.name_any());
    api.patch(&name, &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn own_objects(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    watch_secrets(Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default()), client)
        .run(reconcile_own, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
