// kube-runtime's requests are lazy futures too: dropped without `.await`, nothing is sent.
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use kube::runtime::events::{Event, Recorder};
use kube::api::DeleteParams;
use kube::runtime::wait::{await_condition, conditions, delete::delete_and_finalize};
use kube::Resource;

async fn dropped(recorder: &Recorder, pods: Api<Pod>, pod: &Pod, ev: Event) {
    let _ = recorder.publish(&ev, &pod.object_ref(&())); //~ unawaited-request
    let _ = await_condition(pods.clone(), "web", conditions::is_pod_running()); //~ unawaited-request
    let _ = delete_and_finalize(pods, "db", &DeleteParams::default()); //~ unawaited-request
}

// Awaited: sent.
async fn awaited(recorder: &Recorder, pods: Api<Pod>, pod: &Pod, ev: Event) -> anyhow::Result<()> {
    recorder.publish(&ev, &pod.object_ref(&())).await?;
    await_condition(pods, "web", conditions::is_pod_running()).await?;
    Ok(())
}

// A message bus's `publish` is not an Event.
async fn look_alike(bus: &Bus) {
    let _ = bus.publish("topic");
}

struct Bus;
impl Bus {
    async fn publish(&self, _topic: &str) {}
}
