// Program order around loops: code written before a spawn in a loop runs after it on the next
// iteration, and the other arm of a `match` in a loop can run on the next one. The look-alikes
// wait for the task in the loop, or leave the loop (or the function) right after the spawn.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

// The status patch of the next iteration runs while the last iteration's task may still write.
async fn poll_and_report(pods: Api<Pod>) -> kube::Result<()> {
    loop {
        pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
        let p = pods.clone();
        tokio::spawn(async move { //~ spawned-request-race
            p.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
        });
    }
}

enum Event {
    Gone,
    Changed,
}

// One message deletes in the background, the next one patches the same Pod.
async fn handle_events(pods: Api<Pod>, mut events: tokio::sync::mpsc::Receiver<Event>) {
    loop {
        match events.recv().await {
            Some(Event::Gone) => {
                let p = pods.clone();
                tokio::spawn(async move { //~ spawned-request-race
                    p.delete("web", &DeleteParams::default()).await
                });
            }
            Some(Event::Changed) => {
                let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
            }
            None => return,
        }
    }
}

// Not a race: without a loop, the other arm never runs after the spawn.
async fn handle_one(pods: Api<Pod>, event: Event) {
    match event {
        Event::Gone => {
            let p = pods.clone();
            tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await });
        }
        Event::Changed => {
            let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
        }
    }
}

// Not a race: the task is awaited before the loop goes round.
async fn poll_and_wait(pods: Api<Pod>) -> kube::Result<()> {
    loop {
        pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
        let p = pods.clone();
        let task = tokio::spawn(async move {
            p.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
        });
        let _ = task.await;
    }
}

// Not a race: the arm that spawns leaves the loop, so the patch never follows the task.
async fn until_gone(pods: Api<Pod>, mut events: tokio::sync::mpsc::Receiver<Event>) {
    while let Some(event) = events.recv().await {
        match event {
            Event::Gone => {
                let p = pods.clone();
                tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await });
                break;
            }
            Event::Changed => {
                let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
            }
        }
    }
}

// Not a race: the spawning arm returns from the function.
async fn until_gone_return(pods: Api<Pod>, mut events: tokio::sync::mpsc::Receiver<Event>) {
    while let Some(event) = events.recv().await {
        if let Event::Gone = event {
            let p = pods.clone();
            tokio::spawn(async move { p.delete("web", &DeleteParams::default()).await });
            return;
        }
        let _ = pods.patch("web", &PatchParams::default(), &Patch::Merge(())).await;
    }
}

// Not reported by default: a timer on every way round the loop most likely outlasts the task's
// request (shown with `--min-confidence unknown`).
async fn poll_every_minute(pods: Api<Pod>) -> kube::Result<()> {
    loop {
        pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
        let p = pods.clone();
        tokio::spawn(async move {
            p.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
        });
        tokio::time::sleep(std::time::Duration::from_secs(60)).await;
    }
}

// A timer that only some iterations wait for is no such evidence.
async fn poll_sometimes_waiting(pods: Api<Pod>, slow: bool) -> kube::Result<()> {
    loop {
        pods.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await?;
        let p = pods.clone();
        tokio::spawn(async move { //~ spawned-request-race
            p.patch_status("web", &PatchParams::default(), &Patch::Merge(())).await
        });
        if slow {
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
        }
    }
}

// Not reported by default: each iteration names its own Pod, made anew from the message.
async fn per_message(pods: Api<Pod>, mut names: tokio::sync::mpsc::Receiver<String>) {
    while let Some(name) = names.recv().await {
        let _ = pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await;
        let p = pods.clone();
        tokio::spawn(async move {
            p.patch(&name, &PatchParams::default(), &Patch::Merge(())).await
        });
    }
}

// Two tasks of one iteration race on its Pod; the second task and the first one of the next
// iteration name the Pods of two messages, and are not reported by default.
async fn two_tasks_per_message(pods: Api<Pod>, mut names: tokio::sync::mpsc::Receiver<String>) {
    while let Some(name) = names.recv().await {
        let (p, n) = (pods.clone(), name.clone());
        tokio::spawn(async move { p.delete(&n, &DeleteParams::default()).await }); //~ spawned-request-race
        let p = pods.clone();
        tokio::spawn(async move {
            p.patch(&name, &PatchParams::default(), &Patch::Merge(())).await
        });
    }
}
