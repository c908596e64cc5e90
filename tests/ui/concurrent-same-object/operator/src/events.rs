use kube::runtime::events::{Event, EventType, Recorder};

/// Publishes a Kubernetes Event (kind Event): never the same object as the reconciled one.
pub async fn publish(recorder: &Recorder, reason: &str) -> kube::Result<()> {
    recorder
        .publish(&Event {
            type_: EventType::Normal,
            reason: reason.into(),
            note: None,
            action: "Reconciling".into(),
            secondary: None,
        })
        .await
}
