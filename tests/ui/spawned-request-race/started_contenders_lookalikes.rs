// Look-alike of started_contenders.rs: the two started tasks patch the Lease with the
// resourceVersion they read, so whichever lands second fails with 409 Conflict: neither
// overwrites the other, and a read of one against the other's patch feeds only such a patch.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use tokio::task::JoinHandle;

struct Elector {
    _task: JoinHandle<()>,
}

impl Elector {
    fn start(leases: Api<Lease>, me: String) -> Self {
        let task = tokio::spawn(async move {
            loop {
                let Ok(lease) = leases.get("lock").await else { continue };
                let version = lease.metadata.resource_version.clone();
                let holder = lease.spec.and_then(|s| s.holder_identity);
                if holder.is_none() {
                    let patch = serde_json::json!({
                        "metadata": { "resourceVersion": version },
                        "spec": { "holderIdentity": me },
                    });
                    let _ = leases.patch("lock", &PatchParams::default(), &Patch::Merge(&patch)).await;
                }
            }
        });
        Self { _task: task }
    }
}

async fn two_contenders(leases: Api<Lease>) {
    let _a = Elector::start(leases.clone(), "a".into());
    let _b = Elector::start(leases, "b".into());
    std::future::pending::<()>().await;
}

// A task a function makes in a closure it hands out starts when the closure is called, not
// when the function returns: the caller's patch after the call does not race with it.
fn on_timeout(leases: Api<Lease>) -> Box<dyn Fn() + Send + Sync> {
    Box::new(move || {
        let leases = leases.clone();
        tokio::spawn(async move {
            let _ = leases.patch("timer", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await;
        });
    })
}

async fn callback_made(leases: Api<Lease>) {
    let _callback = on_timeout(leases.clone());
    let _ = leases.patch("timer", &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await;
}
