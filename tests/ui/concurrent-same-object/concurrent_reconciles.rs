// One controller, many reconciles: kube runs the reconciles of different objects at the same
// time. A write whose object does not depend on the object reconciled is made by every reconcile
// in flight, on one object.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret};
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Config, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
    registry: String,
}

const INDEX: &str = "mapping-index";

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// A read-modify-write of one ConfigMap by every reconcile: updates are lost.
async fn reconcile_shared(obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "kube-system");
    let cm = cms.get("shared-config").await.map_err(|_| Error)?;
    let mut data = cm.data.unwrap_or_default();
    data.insert(obj.name_any(), "seen".into());
    let applied = serde_json::json!({ "apiVersion": "v1", "kind": "ConfigMap", "data": data });
    cms.patch("shared-config", &PatchParams::apply("op").force(), &Patch::Apply(applied)).await.map_err(|_| Error)?; //~ concurrent-same-object concurrent-same-object
    Ok(Action::await_change())
}

async fn shared(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_shared, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// In a helper, by a constant, with a limit above one, the reconcile in a closure.
async fn update_index(cms: &Api<ConfigMap>, entry: &str) -> Result<(), Error> {
    let mut data = cms.get(INDEX).await.map_err(|_| Error)?.data.unwrap_or_default();
    data.insert(entry.to_string(), String::new());
    let index = ConfigMap { data: Some(data), ..Default::default() };
    cms.replace(INDEX, &PostParams::default(), &index).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(())
}

async fn reconcile_indexed(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::default_namespaced(ctx.client.clone());
    update_index(&cms, &obj.name_any()).await?;
    Ok(Action::await_change())
}

async fn indexed(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .with_config(Config::default().concurrency(4))
        .run(|obj, ctx| reconcile_indexed(obj, ctx), error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// `possible`: a fixed name in the reconciled object's namespace (objects of one namespace meet),
// and a name every reconcile is handed in the context.
async fn reconcile_per_namespace(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    cms.patch("pull-secrets", &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?; //~ concurrent-same-object
    let secrets: Api<Secret> = Api::default_namespaced(ctx.client.clone());
    secrets.patch(&ctx.registry, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(Action::await_change())
}

async fn per_namespace(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_per_namespace, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: every write is named after the object reconciled (its name, its owner).
async fn reconcile_own(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    secrets.patch_status(&obj.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    let owner = &obj.owner_references()[0];
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    cms.patch(&format!("{}-config", obj.name_any()), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    let namespaces: Api<Namespace> = Api::all(ctx.client.clone());
    namespaces.patch(&owner.name, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn own(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_own, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: one reconcile at a time.
async fn one_at_a_time(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .with_config(Config::default().concurrency(1))
        .run(reconcile_shared, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: a limit set from elsewhere (it may be one): `unknown`, not reported by default.
async fn configured(client: Client, config: Config) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .with_config(config)
        .run(reconcile_shared, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: a pure create (the second of two fails with AlreadyExists, which is handled), and
// a replace carrying the resourceVersion it read (it fails with 409 Conflict, not overwrites).
async fn reconcile_guarded(_obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::default_namespaced(ctx.client.clone());
    let cm = ConfigMap {
        metadata: kube::api::ObjectMeta { name: Some("defaults".into()), ..Default::default() },
        ..Default::default()
    };
    match cms.create(&PostParams::default(), &cm).await {
        Ok(_) => {}
        Err(kube::Error::Api(e)) if e.code == 409 => {}
        Err(_) => return Err(Error),
    }
    let mut current = cms.get("defaults").await.map_err(|_| Error)?;
    current.data.get_or_insert_with(Default::default).insert("seen".into(), "yes".into());
    cms.replace("defaults", &PostParams::default(), &current).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

async fn guarded(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_guarded, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// The crate's own reconcile loop: the reconciles of a stream's objects run several at once.
async fn reconcile_listed(_obj: Arc<ConfigMap>, client: Client) -> kube::Result<()> {
    let cms: Api<ConfigMap> = Api::namespaced(client, "kube-system");
    cms.patch("listed", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

async fn reconcile_listed_own(obj: Arc<ConfigMap>, client: Client) -> kube::Result<()> {
    let cms: Api<ConfigMap> = Api::namespaced(client, "kube-system");
    cms.patch(&obj.name_any(), &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

async fn own_loop(client: Client, objects: Vec<ConfigMap>) {
    futures::stream::iter(objects.clone()).for_each_concurrent(8, |o| { //~ concurrent-same-object
        let c = client.clone();
        async move {
            let _ = reconcile_listed(Arc::new(o), c).await;
        }
    })
    .await;
    let _: Vec<_> = futures::stream::iter(objects.clone()) //~ concurrent-same-object
        .map(|o| reconcile_listed(Arc::new(o), client.clone()))
        .buffer_unordered(8)
        .collect()
        .await;
    // Look-alike: each reconcile writes the object it is given.
    let _: Vec<_> = futures::stream::iter(objects)
        .map(|o| reconcile_listed_own(Arc::new(o), client.clone()))
        .buffer_unordered(8)
        .collect()
        .await;
}

// The builder bound to a local first, then run (builder calls on either side).
async fn bound_builder(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    let builder = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default());
    builder
        .shutdown_on_signal()
        .run(reconcile_shared, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the limit of one is set where the builder is bound.
async fn bound_builder_one_at_a_time(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone(), registry: "registry".into() });
    let builder = Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .with_config(Config::default().concurrency(1));
    builder
        .shutdown_on_signal()
        .run(reconcile_shared, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
