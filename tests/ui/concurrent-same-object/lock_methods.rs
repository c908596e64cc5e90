// Methods of the crate named like `Mutex::lock` or `RwLock::write` are followed when they take
// arguments those do not (reduced from kube-lease-manager's `LeaseState::lock(&params, opts)`);
// a type alias named `Api` is a handle too (reduced from kubert).
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{DeleteParams, Patch, PatchParams};

type Api = kube::Api<Lease>;

struct LeaseState {
    api: Api,
}

impl LeaseState {
    async fn lock(&self, name: &str, _force: bool) -> kube::Result<Lease> {
        self.api.patch(name, &PatchParams::default(), &Patch::Merge(())).await
    }

    async fn release(&self, name: &str, _force: bool) -> kube::Result<()> {
        self.api.delete(name, &DeleteParams::default()).await?;
        Ok(())
    }

    async fn write(&self, name: &str, _force: bool) -> kube::Result<Lease> {
        self.api.patch(name, &PatchParams::default(), &Patch::Merge(())).await
    }
}

async fn lock_and_release(state: &LeaseState) {
    let _ = tokio::join!(state.lock("leader", false), state.release("leader", false)); //~ concurrent-same-object
}

async fn through_the_alias(state: &LeaseState) {
    let _ = tokio::join!( //~ concurrent-same-object
        state.api.delete("leader", &DeleteParams::default()),
        state.api.get("leader"),
    );
}

// Not the crate's `write`: one argument, as `io::Write::write(buf)` takes.
async fn a_socket_write(state: &LeaseState, mut sock: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let _ = tokio::join!(sock.write(b"leader"), state.release("leader", false));
}

// Not the crate's `lock`: no argument, a mutex.
async fn a_mutex(state: &LeaseState, m: std::sync::Mutex<u8>) {
    let _ = tokio::join!(async { *m.lock().unwrap() += 1 }, state.release("leader", false));
}
