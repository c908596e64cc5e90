use std::sync::Arc;

use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, PostParams};
use kube::runtime::controller::Action;
use kube::ResourceExt;

use crate::source::SourceController;
use crate::{Ctx, Error};

// Registers a source controller, then writes the status of the Service it reconciles.
pub async fn reconcile(obj: Arc<Service>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let source = SourceController::new(ctx.client.clone(), ctx.clone());
    ctx.sources.lock().unwrap().push(source);
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), &obj.namespace().unwrap());
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&obj.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}
