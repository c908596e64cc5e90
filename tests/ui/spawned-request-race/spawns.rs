// A write sent from a spawned task races with the requests on the same object made while the
// task may still run.
use std::sync::Arc;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use tokio::task::JoinSet;

// Detached: nothing ever waits for the task.
async fn detached(pods: Api<Pod>, pp: PatchParams, status: Patch<()>) -> kube::Result<()> {
    let task_pods = pods.clone();
    let task_pp = pp.clone();
    tokio::spawn(async move { task_pods.patch_status("web", &task_pp, &Patch::Merge(())).await }); //~ spawned-request-race
    pods.patch_status("web", &pp, &status).await?;
    Ok(())
}

// The handle is awaited, but only after the caller's own patch.
async fn awaited_late(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let task_pods = pods.clone();
    let handle = tokio::task::spawn(async move { task_pods.delete("web", &DeleteParams::default()).await }); //~ spawned-request-race
    pods.patch("web", &pp, &p).await?;
    let _ = handle.await;
    Ok(())
}

// `spawn_local`, and the moved name is the same name.
async fn local(pods: Api<Pod>, name: String, pp: PatchParams) -> kube::Result<()> {
    let task_pods = pods.clone();
    let task_name = name.clone();
    let task = tokio::task::spawn_local(async move { //~ spawned-request-race
        task_pods.patch(&task_name, &PatchParams::default(), &Patch::Merge(())).await
    });
    let _ = pods.get(&name).await?;
    let _ = task.await;
    let _ = pp;
    Ok(())
}

// A `JoinSet` task runs until the set is joined.
async fn join_set(pods: Api<Pod>) -> kube::Result<()> {
    let mut set = JoinSet::new();
    let p = pods.clone();
    set.spawn(async move { p.delete("web", &DeleteParams::default()).await.map(|_| ()) }); //~ spawned-request-race
    let _ = pods.get("web").await?;
    while let Some(r) = set.join_next().await {
        let _ = r;
    }
    Ok(())
}

// A thread that blocks on the request, joined after the caller's own request.
async fn thread(pods: Api<Pod>, rt: Arc<tokio::runtime::Runtime>) -> kube::Result<()> {
    let p = pods.clone();
    let worker = std::thread::spawn(move || { //~ spawned-request-race
        let _ = rt.block_on(p.delete("web", &DeleteParams::default()));
    });
    pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await?;
    let _ = worker.join();
    Ok(())
}

// Two tasks, the first detached: the second writes while the first may still run.
async fn two_tasks(pods: Api<Pod>) {
    let (a, b) = (pods.clone(), pods.clone());
    tokio::spawn(async move { a.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await }); //~ spawned-request-race
    tokio::spawn(async move { b.delete("web", &DeleteParams::default()).await });
}

// A detached task per container, each patching the status of the one Pod.
async fn per_container(pods: Api<Pod>, pod: Pod, containers: Vec<String>) {
    let name = pod.metadata.name.clone().unwrap_or_default();
    for _container in &containers {
        let pods = pods.clone();
        let name = name.clone();
        tokio::spawn(async move { //~ spawned-request-race
            pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await
        });
    }
}

// The task is a function of the crate.
mod status {
    use k8s_openapi::api::core::v1::Pod;
    use kube::api::{Api, Patch, PatchParams};

    pub async fn mark(pods: Api<Pod>, name: String) -> kube::Result<Pod> {
        pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await
    }
}

async fn through_helper(pods: Api<Pod>, name: String) -> kube::Result<()> {
    tokio::spawn(status::mark(pods.clone(), name.clone())); //~ spawned-request-race
    pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// The handle is stored where the tool cannot follow it: the caller's patch may race.
struct Reconciler {
    background: Option<tokio::task::JoinHandle<kube::Result<Pod>>>,
}

impl Reconciler {
    async fn kick(&mut self, pods: Api<Pod>) -> kube::Result<()> {
        let p = pods.clone();
        self.background = Some(tokio::spawn(async move { //~ spawned-request-race
            p.patch("web", &PatchParams::default(), &Patch::Merge(())).await
        }));
        pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await?;
        Ok(())
    }
}
