use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Pod, Service};
use kube::api::{Api, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use tokio::task::JoinHandle;

use crate::{error_policy, Ctx, Error};

// Gets the Service its Pod names and writes that Service's status.
async fn reconcile(src: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let svcs: Api<Service> = Api::namespaced(ctx.client.clone(), "default");
    let sync = svcs.get(&src.annotations()["sync"]).await.map_err(|_| Error)?;
    let body = serde_json::to_vec(&serde_json::json!({"status": {"synced": true}})).unwrap(); // no resourceVersion: unconditional
    svcs.replace_status(&sync.name_any(), &PostParams::default(), body).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

pub struct SourceController {
    handle: JoinHandle<()>,
}

impl SourceController {
    pub fn new(client: Client, ctx: Arc<Ctx>) -> Self {
        let fut = Controller::new(Api::<Pod>::all(client), watcher::Config::default())
            .run(reconcile, error_policy, ctx)
            .for_each(|_| async {});
        let handle = tokio::spawn(fut);
        Self { handle }
    }
}

impl Drop for SourceController {
    fn drop(&mut self) {
        self.handle.abort();
    }
}
