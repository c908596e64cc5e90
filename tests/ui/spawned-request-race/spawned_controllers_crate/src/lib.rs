mod source;
mod sync;

use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Service;
use kube::api::Api;
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::Client;

#[derive(Debug)]
pub struct Error;

pub struct Ctx {
    pub client: Client,
    pub sources: std::sync::Mutex<Vec<source::SourceController>>,
}

pub fn error_policy<K>(_: Arc<K>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::await_change()
}

pub async fn run(client: Client, ctx: Arc<Ctx>) {
    Controller::new(Api::<Service>::all(client), watcher::Config::default()) //~ spawned-request-race
        .run(sync::reconcile, error_policy, ctx)
        .for_each(|_| async {})
        .await;
}
