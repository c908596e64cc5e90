// Blocking on a future inside async code: tokio's `block_on` panics inside a runtime, other
// executors block a worker thread.
use std::sync::Arc;

use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::runtime::{Handle, Runtime};

async fn reconcile(pods: Api<Pod>) -> kube::Result<Pod> {
    let pod = futures::executor::block_on(pods.get("web"))?; //~ block-on-in-async
    Ok(pod)
}

async fn in_block(pods: Api<Pod>) {
    let work = async {
        let _ = Handle::current().block_on(pods.get("web")); //~ block-on-in-async
    };
    work.await;
}

async fn runtimes(pods: Api<Pod>, rt: Arc<Runtime>, handle: Handle) {
    let _ = rt.block_on(pods.get("a")); //~ block-on-in-async
    let _ = Runtime::new().unwrap().block_on(pods.get("b")); //~ block-on-in-async
    let _ = Handle::block_on(&handle, pods.get("c")); //~ block-on-in-async
    let mut fut = Box::pin(pods.get("d"));
    let _ = pollster::block_on(&mut fut); //~ block-on-in-async
}

#[tokio::test]
async fn a_test() {
    let _ = tokio_test::block_on(async { 1 }); //~ block-on-in-async
}

async fn closure(pods: Api<Pod>) {
    let get = async move |name: &str| futures::executor::block_on(pods.get(name)); //~ block-on-in-async
    let _ = get("web").await;
}

// The receiver does more than name a runtime (it returns early on error): not rewritten.
async fn fallible(pods: Api<Pod>) -> std::io::Result<()> {
    let _ = Runtime::new()?.block_on(pods.get("web")); //~ block-on-in-async
    Ok(())
}
