// Reduced from k8s-controller: a crate with its own `Recorder`, whose `publish` serialises the
// publishes of one series behind a lock and makes no request itself here. Its publishes are
// calls of the crate's method, not kube-runtime's `Recorder::publish`: concurrent publishes of it
// are not reported. The look-alike joins two writes of the Event that its `publish_now` makes.
use k8s_openapi::api::core::v1::{ConfigMap, Event};
use kube::api::{Api, PostParams};

struct Recorder {
    events: Api<Event>,
}

impl Recorder {
    async fn publish(&self, _resource: &ConfigMap, _note: &str) -> kube::Result<()> {
        Ok(())
    }

    async fn publish_now(&self, event: &Event) -> kube::Result<Event> {
        self.events.create(&PostParams::default(), event).await
    }
}

fn recorder(events: Api<Event>) -> Recorder {
    Recorder { events }
}

async fn own_publishes(events: Api<Event>, cm: ConfigMap) {
    let recorder = recorder(events);
    let _ = futures::future::join_all((0..3).map(|_| recorder.publish(&cm, "it broke"))).await;
}

async fn own_writes(events: Api<Event>, event: Event) {
    let recorder = recorder(events);
    let _ = tokio::join!(recorder.publish_now(&event), recorder.publish_now(&event)); //~ concurrent-same-object
}
