// `Recorder::publish` writes an Event about the object referenced: a create, or a patch of the
// Event's series when the same reference and reason were published recently. Publishes for one
// reference at once race on that series; publishes for different references do not.
use std::sync::Arc;

use futures::future::join_all;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::{Client, Resource, ResourceExt};

fn event(reason: &str) -> Event {
    Event {
        type_: EventType::Normal,
        reason: reason.into(),
        note: None,
        action: "Reconciling".into(),
        secondary: None,
    }
}

// kube 0.91 and later: the reference is an argument.
async fn same_reference(recorder: &Recorder, pod: Arc<Pod>) {
    let reference = pod.object_ref(&());
    let events = [event("Scaled"), event("Scaled")];
    join_all(events.iter().map(|ev| recorder.publish(ev, &reference))).await; //~ concurrent-same-object
}

async fn same_object_twice(client: Client, reporter: Reporter, pod: &Pod) -> kube::Result<()> {
    let recorder = Recorder::new(client, reporter);
    let ready = event("Ready");
    let again = event("Ready");
    tokio::try_join!( //~ concurrent-same-object
        recorder.publish(&ready, &pod.object_ref(&())),
        recorder.publish(&again, &pod.object_ref(&())),
    )?;
    Ok(())
}

// Different references: different Events.
async fn different_references(recorder: &Recorder, web: &Pod, db: &Pod) -> kube::Result<()> {
    let ev = event("Scaled");
    tokio::try_join!(
        recorder.publish(&ev, &web.object_ref(&())),
        recorder.publish(&ev, &db.object_ref(&())),
    )?;
    Ok(())
}

// One publish per Pod, each about its own Pod.
async fn one_per_object(recorder: &Recorder, pods: Vec<Pod>) {
    let ev = event("Scaled");
    join_all(pods.iter().map(|p| recorder.publish(&ev, &p.object_ref(&())))).await;
}

// An Event is not the object it is about: publishing while patching the Pod is not a conflict
// of one object.
async fn publish_while_patching(recorder: &Recorder, pods: Api<Pod>, pod: &Pod, pp: PatchParams, patch: Patch<Pod>) {
    let ev = event("Patched");
    let _ = tokio::join!(
        recorder.publish(&ev, &pod.object_ref(&())),
        pods.patch(&pod.name_any(), &pp, &patch),
    );
}

struct Ctx {
    recorder: Recorder,
}

// Before kube 0.91: the reference was given to the recorder, `publish(event)`.
async fn one_recorder_per_object(ctx: &Ctx) -> kube::Result<()> {
    tokio::try_join!( //~ concurrent-same-object
        ctx.recorder.publish(event("Started")),
        ctx.recorder.publish(event("Finished")),
    )?;
    Ok(())
}

// A `publish` of something that is not a recorder (a message bus, an `event_bus`) is not an
// Event.
async fn look_alike(bus: &Bus, event_bus: &Bus, pod: &Pod) {
    let _ = tokio::join!(bus.publish("topic", pod), bus.publish("topic", pod));
    let _ = tokio::join!(event_bus.publish("topic", pod), event_bus.publish("topic", pod));
}

struct Bus;
impl Bus {
    async fn publish(&self, _topic: &str, _pod: &Pod) {}
}
