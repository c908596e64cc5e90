// Program order follows early returns: code after an `if`/`match` arm that returns never runs
// after the code in that arm.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};

// Look-alike: the task is spawned only on the path that returns at once.
async fn spawn_and_return(pods: Api<Pod>, done: bool) -> kube::Result<()> {
    if done {
        let task_pods = pods.clone();
        tokio::spawn(async move {
            task_pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
        });
        return Ok(());
    }
    pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// Look-alike: a `match` arm that spawns and returns.
async fn match_and_return(pods: Api<Pod>, phase: Option<&str>) -> kube::Result<()> {
    match phase {
        Some(_) => {
            let task_pods = pods.clone();
            tokio::spawn(async move {
                task_pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
            });
            return Ok(());
        }
        None => {}
    }
    pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// The arm does not return: the patch after it races with the task.
async fn spawn_and_go_on(pods: Api<Pod>, done: bool) -> kube::Result<()> {
    if done {
        let task_pods = pods.clone();
        tokio::spawn(async move { //~ spawned-request-race
            task_pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
        });
    }
    pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}
