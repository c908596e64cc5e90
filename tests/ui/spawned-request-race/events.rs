// A detached publish lands whenever its task runs: the Event can appear after the writes of the
// object it is about that follow it, out of order with them ("post events in the background").
use std::sync::Arc;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::events::{Event, EventType, Recorder};
use kube::{Resource, ResourceExt};

fn event(reason: &str) -> Event {
    Event {
        type_: EventType::Normal,
        reason: reason.into(),
        note: None,
        action: "Reconciling".into(),
        secondary: None,
    }
}

// The Event about the Pod is published in the background; the Pod's status is patched at once.
async fn publish_in_background(recorder: Recorder, pods: Api<Pod>, pod: Arc<Pod>) -> kube::Result<()> {
    let about = pod.clone();
    tokio::spawn(async move { //~ spawned-request-race
        recorder.publish(&event("Scaling"), &about.object_ref(&())).await
    });
    pods.patch_status(&pod.name_any(), &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// Look-alike: the publish is awaited before the patch.
async fn publish_then_patch(recorder: Recorder, pods: Api<Pod>, pod: Arc<Pod>) -> kube::Result<()> {
    let about = pod.clone();
    let task = tokio::spawn(async move {
        recorder.publish(&event("Scaling"), &about.object_ref(&())).await
    });
    let _ = task.await;
    pods.patch_status(&pod.name_any(), &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// Look-alike: the Event is about another Pod than the one patched.
async fn about_another(recorder: Recorder, pods: Api<Pod>, pod: Arc<Pod>, owner: Arc<Pod>) -> kube::Result<()> {
    tokio::spawn(async move {
        recorder.publish(&event("Scaling"), &owner.object_ref(&())).await
    });
    pods.patch_status(&pod.name_any(), &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}
