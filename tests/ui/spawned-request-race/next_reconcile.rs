// A reconcile that leaves a writing task running returns while the task may still write; the
// controller then reconciles the same object again, on a requeue or on the change the task's own
// write makes. That run's requests, and the task it spawns again, race with the old task.
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::{Client, ResourceExt};

#[derive(Debug)]
struct Error;

struct Ctx {
    client: Client,
}

// The next run's status patch, before the spawn, races with the old task's.
async fn reconcile(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let ns = pod.namespace().unwrap();
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), &ns);
    let name = pod.name_any();
    pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    let task_pods = pods.clone();
    tokio::spawn(async move { //~ spawned-request-race
        task_pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await
    });
    Ok(Action::requeue(Duration::from_secs(30)))
}

// Nothing before the spawn: the task spawned again by the next run races with this one.
async fn report_in_background(pod: Arc<Pod>, ctx: Arc<Ctx>) -> kube::Result<Action> {
    let pods: Api<Pod> = Api::default_namespaced(ctx.client.clone());
    tokio::spawn(async move { //~ spawned-request-race
        pods.patch_status(&pod.name_any(), &PatchParams::default(), &Patch::Merge(())).await
    });
    Ok(Action::await_change())
}

// Look-alike: the task is awaited before the reconcile returns.
async fn awaited(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let pods: Api<Pod> = Api::default_namespaced(ctx.client.clone());
    let name = pod.name_any();
    pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await.map_err(|_| Error)?;
    let task = tokio::spawn(async move {
        pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await
    });
    task.await.map_err(|_| Error)?.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Look-alike: not a reconcile (no `Action`): nothing calls it again for the same object.
async fn once(pod: Arc<Pod>, client: Client) -> kube::Result<()> {
    let pods: Api<Pod> = Api::default_namespaced(client);
    tokio::spawn(async move {
        pods.patch_status(&pod.name_any(), &PatchParams::default(), &Patch::Merge(())).await
    });
    Ok(())
}

// Look-alike: the name differs from run to run (computed by a call, not from the object).
async fn fresh_name(pod: Arc<Pod>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let pods: Api<Pod> = Api::default_namespaced(ctx.client.clone());
    let name = next_name(&pod);
    tokio::spawn(async move {
        pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await
    });
    Ok(Action::await_change())
}

fn next_name(pod: &Pod) -> String {
    format!("{}-{}", pod.name_any(), std::process::id())
}
