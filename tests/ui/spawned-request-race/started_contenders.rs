// Two tasks started by a constructor of the crate (which keeps each task's handle) that read
// and patch one Lease, the patch carrying no resourceVersion: each overwrites what the other
// wrote after its read, so a holder can be replaced without seeing the other's renewal.
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
                let holder = lease.spec.and_then(|s| s.holder_identity);
                if holder.is_none() {
                    let patch = serde_json::json!({ "spec": { "holderIdentity": me } });
                    let _ = leases.patch("lock", &PatchParams::default(), &Patch::Merge(&patch)).await;
                }
            }
        });
        Self { _task: task }
    }
}

async fn two_contenders(leases: Api<Lease>) {
    let _a = Elector::start(leases.clone(), "a".into()); //~ spawned-request-race
    let _b = Elector::start(leases, "b".into());
    std::future::pending::<()>().await;
}
