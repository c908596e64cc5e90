// Objects fetched by name, written by their own name (`secret.name_any()`): the name is the
// one the fetch was made with. A fetch by a fixed name, written by every reconcile in flight,
// is one object (holdout 8's M1: the demo controller's `reconcile_user_secret`).
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

const STATUS_SECRET: &str = "status-secret";

fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

// M1's shape: the Secret got by a fixed name in the reconciled object's namespace and patched
// by its own name, or created when missing. Reconciles of objects of one namespace meet on it.
async fn reconcile_user_secret(db: &ConfigMap, ctx: Arc<Ctx>) -> Result<(), Error> {
    let secret_name = "user-secret";
    let secret_api: Api<Secret> =
        Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or(String::from("default")));
    if let Some(secret) = secret_api.get_opt(secret_name).await.map_err(|_| Error)? {
        let patch = Patch::Merge(serde_json::json!({ "data": { "timestamp": "now" } }));
        let pp = PatchParams::apply(&db.name_any());
        secret_api.patch(&secret.name_any(), &pp, &patch).await.map_err(|_| Error)?; //~ concurrent-same-object
    } else {
        let secret = Secret {
            metadata: kube::api::ObjectMeta {
                name: Some(String::from(secret_name)),
                ..Default::default()
            },
            ..Default::default()
        };
        secret_api.create(&PostParams::default(), &secret).await.map_err(|_| Error)?;
    }
    Ok(())
}

async fn reconcile_database(db: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    reconcile_user_secret(&db, ctx).await?;
    Ok(Action::await_change())
}

async fn databases(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_database, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// `definite`: got by a constant in a fixed namespace (`match` on a `get_opt`), written by its
// `metadata.name`; and the status of a Secret got with `get_status`, written by
// `name_unchecked()` in a template.
async fn reconcile_fixed(_obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), "operator");
    match secrets.get_opt(STATUS_SECRET).await.map_err(|_| Error)? {
        Some(found) => {
            let name = found.metadata.name.clone().unwrap();
            secrets.patch(&name, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?; //~ concurrent-same-object
        }
        None => {}
    }
    let current = secrets.get_status("audit").await.map_err(|_| Error)?;
    let copy = format!("{}-copy", current.name_unchecked());
    secrets.patch_status(&copy, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(Action::await_change())
}

async fn fixed(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_fixed, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}

// `definite`: the Secret got by a literal handed to a helper that writes it by its name.
async fn touch(api: &Api<Secret>, secret: &Secret) -> Result<(), Error> {
    api.patch(&secret.name_any(), &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(())
}

async fn reconcile_handed(_obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), "operator");
    let shared = secrets.get("shared").await.map_err(|_| Error)?;
    touch(&secrets, &shared).await?;
    Ok(Action::await_change())
}

async fn handed(client: Client) {
    let ctx = Arc::new(Ctx { client: client.clone() });
    Controller::new(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile_handed, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
