// Program order through `continue`, labelled `break`/`continue`, a `let`'s `else`, a `while`
// condition and a loop that may run no pass. Each hazard has its look-alike next to it: the same code where the way out of the
// spawning arm goes elsewhere.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams};
use std::time::Duration;

// The arm that spawns goes round at once: `continue` skips the timer the other passes wait for,
// and the next status patch can meet the task.
async fn poll_or_retry_at_once(pods: Api<Pod>, retry: bool) -> kube::Result<()> {
    loop {
        pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
        if retry {
            let p = pods.clone();
            tokio::spawn(async move { //~ spawned-request-race
                p.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
            });
            continue;
        }
        tokio::time::sleep(Duration::from_secs(60)).await;
    }
}

// Not reported by default: without the `continue`, the timer is on every way round.
async fn poll_or_retry_later(pods: Api<Pod>, retry: bool) -> kube::Result<()> {
    loop {
        pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
        if retry {
            let p = pods.clone();
            tokio::spawn(async move {
                p.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
            });
        }
        tokio::time::sleep(Duration::from_secs(60)).await;
    }
}

// The spawning arm falls through: the delete of the element's Pod follows while the task may
// still patch it.
async fn refresh_then_delete(pods: Api<Pod>, names: Vec<String>, stale: bool) {
    for name in names {
        if stale {
            let (p, n) = (pods.clone(), name.clone());
            tokio::spawn(async move { p.patch(&n, &PatchParams::default(), &Patch::Merge(())).await }); //~ spawned-request-race
        }
        let _ = pods.delete(&name, &DeleteParams::default()).await;
    }
}

// Not reported by default: the spawning arm goes on to the next element, and the delete it meets
// there names that element's Pod.
async fn refresh_or_delete(pods: Api<Pod>, names: Vec<String>, stale: bool) {
    for name in names {
        if stale {
            let (p, n) = (pods.clone(), name.clone());
            tokio::spawn(async move { p.patch(&n, &PatchParams::default(), &Patch::Merge(())).await });
            continue;
        }
        let _ = pods.delete(&name, &DeleteParams::default()).await;
    }
}

// The `if` that spawns falls through to the delete.
async fn patch_unless_labelled(pods: Api<Pod>, label: Option<String>) {
    if label.is_none() {
        let p = pods.clone();
        tokio::spawn(async move { p.patch("web", &PatchParams::default(), &Patch::Merge(())).await }); //~ spawned-request-race
    }
    let _ = pods.delete("web", &DeleteParams::default()).await;
}

// Not a race: a `let`'s `else` always leaves, and the delete never follows the task.
async fn patch_when_unlabelled(pods: Api<Pod>, label: Option<String>) {
    let Some(_label) = label else {
        let p = pods.clone();
        tokio::spawn(async move { p.patch("web", &PatchParams::default(), &Patch::Merge(())).await });
        return;
    };
    let _ = pods.delete("web", &DeleteParams::default()).await;
}

// `break 'retry` leaves only the inner loop: the next round patches the Pod while the task may
// still delete it.
async fn rounds_of_retries(pods: Api<Pod>, rounds: Vec<u32>, ready: bool) {
    for _ in rounds {
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        'retry: loop {
            if ready {
                let p = pods.clone();
                tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await }); //~ spawned-request-race
                break 'retry;
            }
        }
    }
}

// Not a race: `break 'rounds` leaves both loops, and no round follows the task.
async fn rounds_until_ready(pods: Api<Pod>, rounds: Vec<u32>, ready: bool) {
    'rounds: for _ in rounds {
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        loop {
            if ready {
                let p = pods.clone();
                tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await });
                break 'rounds;
            }
        }
    }
}

// A `break` of the inner loop falls through to the delete of the element's Pod.
async fn scan_then_delete(pods: Api<Pod>, names: Vec<String>, checks: Vec<bool>) {
    for name in names {
        for &stale in &checks {
            if stale {
                let (p, n) = (pods.clone(), name.clone());
                tokio::spawn(async move { p.patch(&n, &PatchParams::default(), &Patch::Merge(())).await }); //~ spawned-request-race
                break;
            }
        }
        let _ = pods.delete(&name, &DeleteParams::default()).await;
    }
}

// Not reported by default: `continue 'names` skips the delete of this element's Pod; the one it
// meets is the next element's.
async fn scan_or_delete(pods: Api<Pod>, names: Vec<String>, checks: Vec<bool>) {
    'names: for name in names {
        for &stale in &checks {
            if stale {
                let (p, n) = (pods.clone(), name.clone());
                tokio::spawn(async move { p.patch(&n, &PatchParams::default(), &Patch::Merge(())).await });
                continue 'names;
            }
        }
        let _ = pods.delete(&name, &DeleteParams::default()).await;
    }
}

// A `while` condition runs on every pass: the next pass reads the Pod while the last pass's task
// may still delete it.
async fn delete_while_present(pods: Api<Pod>) -> kube::Result<()> {
    let mut tasks = tokio::task::JoinSet::new();
    while let Some(_pod) = pods.get_opt("web").await? {
        let p = pods.clone();
        tasks.spawn(async move { p.delete("web", &DeleteParams::default()).await }); //~ spawned-request-race concurrent-same-object
    }
    Ok(())
}

// Not a race with the list: a `for` loop's iterator is made once, before any task.
async fn delete_each_listed(pods: Api<Pod>) -> kube::Result<()> {
    let mut tasks = tokio::task::JoinSet::new();
    for _pod in pods.list(&ListParams::default()).await? {
        let p = pods.clone();
        tasks.spawn(async move { p.delete("web", &DeleteParams::default()).await }); //~ concurrent-same-object
    }
    Ok(())
}

// The `while` may run no pass: when the Pod is ready at once, nothing waits before the delete.
async fn delete_once_ready(pods: Api<Pod>, ready: tokio::sync::watch::Receiver<bool>) {
    let p = pods.clone();
    tokio::spawn(async move { p.patch("web", &PatchParams::default(), &Patch::Merge(())).await }); //~ spawned-request-race
    while !*ready.borrow() {
        tokio::time::sleep(Duration::from_secs(10)).await;
    }
    let _ = pods.delete("web", &DeleteParams::default()).await;
}

// Not reported by default: a `loop` runs at least one pass, and waits before the delete.
async fn delete_after_a_wait(pods: Api<Pod>, ready: tokio::sync::watch::Receiver<bool>) {
    let p = pods.clone();
    tokio::spawn(async move { p.patch("web", &PatchParams::default(), &Patch::Merge(())).await });
    loop {
        tokio::time::sleep(Duration::from_secs(10)).await;
        if *ready.borrow() {
            break;
        }
    }
    let _ = pods.delete("web", &DeleteParams::default()).await;
}
