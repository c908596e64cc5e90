// `operator` depends on `primary`: its controller goes through the library trait's provided
// `setup_watches`, which returns the controller it is handed: no limit.
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Secret;
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::runtime::{watcher, Controller};
use kube::{Api, Client, CustomResource, ResourceExt};
use primary::PrimaryResourceExt;

#[derive(CustomResource, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Database", namespaced)]
pub struct DatabaseSpec {
    pub replicas: i32,
}

impl PrimaryResourceExt for Database {}

#[derive(Debug)]
pub struct Error;

pub struct Context {
    pub client: Client,
}

pub async fn run(ctx: Arc<Context>) {
    let client = ctx.client.clone();
    let api: Api<Database> = Api::all(client.clone());
    Database::setup_watches::<Secret>(Controller::new(api, watcher::Config::default()), client, None)
        .shutdown_on_signal()
        .run(reconcile, error_policy, ctx)
        .for_each(|_| futures::future::ready(()))
        .await;
}

async fn reconcile(db: Arc<Database>, ctx: Arc<Context>) -> Result<Action, Error> {
    reconcile_user_secret(&db, ctx.clone()).await?;
    Ok(Action::await_change())
}

fn error_policy(_: Arc<Database>, _: &Error, _: Arc<Context>) -> Action {
    Action::await_change()
}

/// Every Database of one namespace stamps the same Secret.
async fn reconcile_user_secret(db: &Database, ctx: Arc<Context>) -> Result<(), Error> {
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &db.namespace().unwrap_or(String::from("default")));
    let patch = Patch::Merge(serde_json::json!({ "stringData": { "timestamp": "now" } }));
    secrets.patch("user-secret", &PatchParams::apply(&db.name_any()), &patch).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(())
}
