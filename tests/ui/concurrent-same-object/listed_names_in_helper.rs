// A reconcile hands the names of a listing's elements to a helper, which writes each of them:
// the helper's writes are of the listing's elements, as if the reconcile made them. When the
// listing does not depend on the object reconciled, two reconciles in flight write the same
// objects.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::reflector::Store;
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Stores {
    config_maps: Store<ConfigMap>,
}

impl Stores {
    // Every ConfigMap of a namespace (a plain function of the crate's cache).
    fn config_maps_in(&self, namespace: &str) -> Vec<Arc<ConfigMap>> {
        self.config_maps
            .state()
            .into_iter()
            .filter(|cm| cm.metadata.namespace.as_deref() == Some(namespace))
            .collect()
    }

    // Those owned by one object.
    fn config_maps_of(&self, owner: &str) -> Vec<Arc<ConfigMap>> {
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

// Writes each named ConfigMap: the names are the caller's.
async fn clear_checked(cms: &Api<ConfigMap>, names: &[String]) {
    for name in names {
        let patch = serde_json::json!({ "data": { "checked": null } });
        let _ = cms.patch(name, &PatchParams::default(), &Patch::Merge(patch)).await; //~ concurrent-same-object
    }
}

// Every ConfigMap of the Secret's namespace, by name: two Secrets of one namespace reconciled at
// once clear the same ConfigMaps.
async fn reconcile_namespace(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let listed: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_in(&ns);
    let mut names: Vec<String> = listed.iter().map(|cm| cm.name_any()).collect();
    names.sort();
    clear_checked(&cms, &names).await;
    Ok(Action::await_change())
}

async fn namespace_names(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_namespace, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the listing is selected by the reconciled object's name (its own ConfigMaps).
async fn reconcile_owned(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let owned: Vec<Arc<ConfigMap>> = ctx.stores.config_maps_of(&obj.name_any());
    let names: Vec<String> = owned.iter().map(|cm| cm.name_any()).collect();
    clear_checked(&cms, &names).await;
    Ok(Action::await_change())
}

async fn owned_names(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_owned, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// Look-alike: the helper is handed the reconciled object's own name.
async fn reconcile_own_name(obj: Arc<Secret>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let names = vec![obj.name_any()];
    clear_checked(&cms, &names).await;
    Ok(Action::await_change())
}

async fn own_name(client: Client, stores: Stores) {
    let ctx = Arc::new(Ctx { client: client.clone(), stores });
    Controller::new(Api::<Secret>::all(client), watcher::Config::default())
        .run(reconcile_own_name, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
