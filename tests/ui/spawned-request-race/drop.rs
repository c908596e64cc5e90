// A status patch spawned from `Drop::drop` runs after the value is dropped, whenever that is:
// nothing can await it, and it races with the next reconcile's patch of the same status.
// Not reported by default: that `self.name` is the `name` the guard was built from is a fact of
// name flow through struct fields, which the model does not follow yet, so the two names have
// unrelated origins (`--min-confidence unknown` shows it).
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};

struct StatusGuard {
    pods: Api<Pod>,
    name: String,
}

impl Drop for StatusGuard {
    fn drop(&mut self) {
        let pods = self.pods.clone();
        let name = self.name.clone();
        tokio::spawn(async move {
            pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await
        });
    }
}

async fn reconcile(pods: Api<Pod>, name: String) -> kube::Result<()> {
    let _guard = StatusGuard { pods: pods.clone(), name: name.clone() };
    pods.patch_status(&name, &PatchParams::default(), &Patch::Merge(())).await?;
    Ok(())
}

// Reduced from kube-lease-manager's tests: the thread is joined before `drop` returns.
struct LeaseDropper {
    pods: Api<Pod>,
    name: String,
}

impl Drop for LeaseDropper {
    fn drop(&mut self) {
        let pods = self.pods.clone();
        let name = self.name.clone();
        let _ = std::thread::spawn(move || {
            tokio::runtime::Runtime::new().unwrap().block_on(async {
                let _ = pods.delete(&name, &Default::default()).await;
            });
        })
        .join();
    }
}
