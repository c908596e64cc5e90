// Not reported: blocking calls in sync code, in closures run on blocking threads, in functions
// that check for a runtime, and async functions.
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::runtime::{Handle, Runtime};

fn main() {
    let rt = Runtime::new().unwrap();
    rt.block_on(async {
        let client = kube::Client::try_default().await.unwrap();
        let pods: Api<Pod> = Api::default_namespaced(client);
        let _ = pods.get("web").await;
    });
}

fn sync_helper(pods: &Api<Pod>) {
    let _ = futures::executor::block_on(pods.get("web"));
}

fn sync_caller(pods: &Api<Pod>) {
    sync_helper(pods);
}

#[test]
fn a_test() {
    let _ = tokio_test::block_on(async { 1 });
}

async fn on_blocking_threads(pods: Api<Pod>) {
    let p = pods.clone();
    let _ = tokio::task::spawn_blocking(move || Handle::current().block_on(p.get("web"))).await;
    let p = pods.clone();
    let _ = std::thread::spawn(move || sync_helper(&p)).join();
    let _ = tokio::task::block_in_place(|| Handle::current().block_on(pods.get("web")));
}

// Reduced from kaniop's webhook: a file watcher's callback (a sync closure) blocks on a send.
async fn watch_certs(tx: tokio::sync::mpsc::Sender<()>) {
    let _ = tokio::task::spawn_blocking(move || {
        let rt = Handle::current();
        let _watcher = move |_event: ()| {
            let _ = rt.block_on(tx.send(()));
        };
    });
}

// Knows where it runs: inside a runtime it leaves the worker thread first.
fn run_sync<F: std::future::Future>(f: F) -> F::Output {
    match Handle::try_current() {
        Ok(handle) => tokio::task::block_in_place(|| handle.block_on(f)),
        Err(_) => Runtime::new().unwrap().block_on(f),
    }
}

// The crate's own `block_on` that knows where it runs.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::task::block_in_place(|| Handle::current().block_on(f))
}

async fn runtime_aware(pods: Api<Pod>) {
    let _ = run_sync(pods.get("web"));
    let _ = block_on(pods.get("web"));
}

// An async function that blocks is reported where it blocks, not where it is called.
async fn inner(pods: &Api<Pod>) {
    let _ = pods.get("web").await;
}

async fn outer(pods: Api<Pod>) {
    inner(&pods).await;
}

// `server.run().await`: what is called returns a future, whatever the crate's sync `run` does.
struct Cli;

impl Cli {
    fn run(&self) {
        let _ = futures::executor::block_on(async {});
    }
}

async fn serve(server: impl Sized) {
    server.run().await;
}
