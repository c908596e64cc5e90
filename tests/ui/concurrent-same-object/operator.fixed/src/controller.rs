use std::sync::Arc;

use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::{ConfigMap, Secret, Service};
use kube::api::{Api, Patch, PatchParams, ResourceExt};
use kube::runtime::events::Recorder;
use serde_json::json;

use crate::events;

pub struct Document;

pub struct Context {
    pub client: kube::Client,
    pub recorder: Recorder,
}

pub async fn reconcile(doc: Arc<Document>, ctx: Arc<Context>) -> kube::Result<()> {
    let ns = doc.namespace().unwrap();
    let name = doc.name_any();
    let docs: Api<Document> = Api::namespaced(ctx.client.clone(), &ns);
    let sets: Api<StatefulSet> = Api::namespaced(ctx.client.clone(), &ns);
    let services: Api<Service> = Api::namespaced(ctx.client.clone(), &ns);
    let configs: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &ns);
    let ps = PatchParams::apply("doc-controller").force();

    // Safe: every request touches a different object (different kinds, or names with different
    // fixed parts), and the event is its own object.
    let status = json!({ "status": { "phase": "Reconciling" } });
    tokio::try_join!(
        events::publish(&ctx.recorder, "Reconciling"),
        docs.patch_status(&name, &ps, &Patch::Apply(&status)),
        sets.patch(&name, &ps, &Patch::Apply(json!({}))),
        services.patch(&format!("{name}-headless"), &ps, &Patch::Apply(json!({}))),
        configs.patch(&format!("{name}-config"), &ps, &Patch::Apply(json!({}))),
        secrets.get(&format!("{name}-tls")),
        secrets.get(&format!("{name}-admin")),
    )?;

    // Safe: the two services have different fixed name parts.
    tokio::try_join!(
        services.patch(&format!("{name}-headless"), &ps, &Patch::Apply(json!({}))),
        services.patch(&format!("{name}-client"), &ps, &Patch::Apply(json!({}))),
    )?;

    // Hazard: the status patch and a read of the same Document's status race.
    let current = docs.get_status(&doc.name_any()).await?;
    let ready = json!({ "status": { "phase": "Ready" } });
    let _ = docs.patch_status(&name, &ps, &Patch::Apply(&ready)).await?;
    let doc_now = current; //~ concurrent-same-object
    let _ = doc_now;
    Ok(())
}
