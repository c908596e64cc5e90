// Futures pinned on the stack with `std::pin::pin!` (or `core::pin::pin!`) are the futures they
// pin, as with `Box::pin` and `tokio::pin!`: the join polls them together.
use std::pin::pin;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

async fn std_pin(pods: Api<Pod>, dp: DeleteParams) {
    let a = std::pin::pin!(pods.delete("a", &dp));
    let b = pods.get("a");
    tokio::join!(a, b); //~ concurrent-same-object
}

async fn core_pin(pods: Api<Pod>, dp: DeleteParams) {
    let a = core::pin::pin!(pods.delete("a", &dp));
    tokio::join!(a, pods.get("a")); //~ concurrent-same-object
}

async fn imported_pin(pods: Api<Pod>, dp: DeleteParams) {
    let b = pods.get("a");
    tokio::join!(pin!(pods.delete("a", &dp)), b); //~ concurrent-same-object
}

// Look-alikes: pinned, then awaited one after the other, or joined with another object.
async fn awaited_in_turn(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let a = std::pin::pin!(pods.delete("a", &dp));
    a.await?;
    let b = pods.get("a");
    b.await?;
    Ok(())
}

async fn other_object(pods: Api<Pod>, dp: DeleteParams) {
    let a = std::pin::pin!(pods.delete("a", &dp));
    let b = pods.get("b");
    tokio::join!(a, b);
}
