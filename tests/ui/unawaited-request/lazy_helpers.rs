// A crate function that returns a request future is as lazy as an `async fn`, whether it is
// one or returns `impl Future`, `BoxFuture` or `Pin<Box<dyn Future>>` with an `async` block as
// its tail: dropped unpolled, its request is never sent.
// Look-alikes: a function that sends before it returns its future (the request is outside the
// future it returns), a plain function, and a call awaited.
use std::future::Future;
use std::pin::Pin;

use futures::future::BoxFuture;
use futures::FutureExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

fn delete_later(pods: &Api<Pod>, name: &str) -> impl Future<Output = kube::Result<()>> + '_ {
    let name = name.to_string();
    async move {
        pods.delete(&name, &DeleteParams::default()).await?;
        Ok(())
    }
}

fn patch_boxed<'a>(pods: &'a Api<Pod>, name: &'a str, p: &'a Patch<()>) -> BoxFuture<'a, kube::Result<Pod>> {
    pods.patch(name, &PatchParams::default(), p).boxed()
}

fn patch_pinned<'a>(pods: &'a Api<Pod>, name: &'a str, p: &'a Patch<()>) -> Pin<Box<dyn Future<Output = kube::Result<Pod>> + Send + 'a>> {
    Box::pin(async move { pods.patch(name, &PatchParams::default(), p).await })
}

async fn delete_now(pods: &Api<Pod>, name: &str) -> kube::Result<()> {
    pods.delete(name, &DeleteParams::default()).await?;
    Ok(())
}

async fn dropped(pods: Api<Pod>, p: Patch<()>) {
    let _ = delete_later(&pods, "web"); //~ unawaited-request
    let _ = patch_boxed(&pods, "web", &p); //~ unawaited-request
    let _ = patch_pinned(&pods, "web", &p); //~ unawaited-request
    let _ = delete_now(&pods, "web"); //~ unawaited-request
    patch_pinned(&pods, "web", &p); //~ unawaited-request
}

// Look-alike: the delete is sent by a task spawned before the future is returned.
fn spawn_delete(pods: Api<Pod>, name: String) -> impl Future<Output = ()> {
    let task = tokio::spawn(async move { pods.delete(&name, &DeleteParams::default()).await });
    async move {
        let _ = task.await;
    }
}

// Look-alike: not a future; its work is done when it returns. Its task runs on, and races with
// the delete its caller makes next (spawned-request-race).
fn spawn_patch(pods: Api<Pod>, p: Patch<()>) -> tokio::task::JoinHandle<kube::Result<Pod>> {
    tokio::spawn(async move { pods.patch("web", &PatchParams::default(), &p).await })
}

async fn not_dropped(pods: Api<Pod>, p: Patch<()>) -> kube::Result<()> {
    let _ = spawn_delete(pods.clone(), "web".to_string());
    let _ = spawn_patch(pods.clone(), p.clone()); //~ spawned-request-race
    let _ = delete_later(&pods, "web").await;
    patch_boxed(&pods, "web", &p).await?;
    Ok(())
}

// A lazy method of the crate, dropped on a receiver of its type: never sent.
struct Pods {
    api: Api<Pod>,
}

impl Pods {
    async fn clear(&self, name: &str) -> kube::Result<()> {
        self.api.delete(name, &DeleteParams::default()).await?;
        Ok(())
    }
}

async fn dropped_method(pods: Pods) {
    let _ = pods.clear("web"); //~ unawaited-request
}

// Look-alike: a method of the same name on a receiver of unknown type (a field of a value made
// by another crate) is not the crate's `clear`: its type comes before its name.
async fn same_name_on_a_receiver_of_unknown_type() {
    let mut alert = fixtures::drift_alert("alert-6");
    alert.spec.details.clear();
}
