// One controller, many reconciles, each writing the elements of a listing: kube runs the
// reconciles of different objects at the same time, and when what a reconcile lists does not
// depend on the object reconciled (only its namespace, the context, nothing), two reconciles in
// flight list the same objects and write the same ones.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Config, Controller};
use kube::runtime::reflector::Store;
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Stores {
    config_maps: Store<ConfigMap>,
}

impl Stores {
    // The crate's cache: every ConfigMap of a namespace (a plain function).
    fn config_maps_in(&self, namespace: &str) -> Vec<Arc<ConfigMap>> {
        self.config_maps
            .state()
            .into_iter()
            .filter(|cm| cm.metadata.namespace.as_deref() == Some(namespace))
            .collect()
    }

    // Those owned by one object.
    async fn config_maps_of(&self, owner: &str) -> Vec<Arc<ConfigMap>> {
        self.config_maps
            .state()
            .into_iter()
            .filter(|cm| cm.owner_references().iter().any(|o| o.name == owner))
            .collect()
    }
}

struct Ctx {
    client: Client,
    stores: Stores,
}

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// Every ConfigMap of the Secret's namespace gets a condition: two Secrets of one namespace
// reconciled at once write the same ConfigMaps.
async fn reconcile_namespace(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let listed: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_in(&ns);
    for cm in &listed {
        // A condition on the element alone does not tell the reconciles apart.
        if cm.labels().contains_key("skip") {
            continue;
        }
        if cm.data.is_some() {
            let patch = serde_json::json!({ "data": { "checked": obj.name_any() } });
            cms.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(patch)).await.map_err(|_| Error)?; //~ concurrent-same-object
        }
    }
    Ok(Action::await_change())
}

async fn namespace_listing(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_namespace, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the listing is selected by the reconciled object's name (its own ConfigMaps).
async fn reconcile_owned(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let owned: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_of(&obj.name_any()).await;
    for cm in owned.iter() {
        cms.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

async fn owned_listing(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_owned, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: each write carries the resourceVersion of the element it read (a 409 Conflict,
// not an overwrite, when another reconcile wrote it first).
async fn reconcile_guarded(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let listed: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_in(&ns);
    for cm in &listed {
        let patch = serde_json::json!({
            "metadata": { "resourceVersion": cm.resource_version() },
            "data": { "checked": "yes" },
        });
        cms.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(patch)).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

async fn guarded_listing(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_guarded, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: one reconcile at a time.
async fn one_at_a_time(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .with_config(Config::default().concurrency(1))
        .run(reconcile_namespace, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: a listing of another kind than the one written (the Secret's own name is written).
async fn reconcile_other_kind(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &ns);
    let listed: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_in(&ns);
    for cm in &listed {
        secrets.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

async fn other_kind(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_other_kind, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Every reconcile binds the first free ConfigMap of the namespace (and reaps spares): two
// Secrets reconciled at once pick the same one, and both bind it.
async fn reconcile_pick(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let listed: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_in(&ns);
    let Some(free) = listed.iter().find(|cm| !cm.labels().contains_key("bound-to")) else {
        return Ok(Action::await_change());
    };
    let bind = serde_json::json!({ "metadata": { "labels": { "bound-to": obj.name_any() } } });
    cms.patch(&free.name_any(), &PatchParams::default(), &Patch::Merge(bind)).await.map_err(|_| Error)?; //~ concurrent-same-object
    // And reaps the first two unbound ones beyond it: the same ones in every reconcile.
    for spare in listed.iter().filter(|cm| !cm.labels().contains_key("bound-to")).skip(1).take(2) {
        cms.delete(&spare.name_any(), &Default::default()).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

async fn pick_listing(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_pick, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the pick is selected by the reconciled object's name (the ConfigMap named after
// it), and loops over the elements a filter, an `if` or a `continue` by its name passes on.
async fn reconcile_pick_own(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let listed: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_in(&ns);
    let Some(own) = listed.iter().find(|cm| cm.name_any() == obj.name_any()) else {
        return Ok(Action::await_change());
    };
    cms.patch(&own.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    let name = obj.name_any();
    for cm in listed.iter().filter(|cm| cm.labels().get("owner") == Some(&name)) {
        cms.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    }
    for cm in &listed {
        if cm.labels().get("owner") == Some(&name) {
            cms.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
        }
    }
    for cm in listed.iter() {
        if cm.labels().get("owner") != Some(&name) {
            continue;
        }
        cms.patch(&cm.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    }
    Ok(Action::await_change())
}

async fn pick_own(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_pick_own, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
