// Requests inside macro calls are seen: arguments that parse as expressions are read, and one
// that does not (`pod = %name`) hides only itself. A `macro_rules!` of the file whose single
// rule's body is one of its `$x:expr` fragments has that argument as its value.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

macro_rules! instrumented {
    ($fut:expr, $what:literal $(,)?) => {
        $fut
    };
}

// `logged!` (another module's) awaits the delete and logs the fields.
async fn request_in_a_macro(pods: Api<Pod>, dp: DeleteParams, name: String) {
    let read = pods.get("a");
    tokio::join!(read, async { logged!(pods.delete("a", &dp).await, pod = %name) }); //~ concurrent-same-object
}

async fn bound_through_a_macro(pods: Api<Pod>, dp: DeleteParams) {
    let delete = instrumented!(pods.delete("a", &dp), "delete");
    tokio::join!(delete, pods.get("a")); //~ concurrent-same-object
}

// Look-alikes: another object, or awaited one after the other.
async fn other_object(pods: Api<Pod>, dp: DeleteParams, name: String) {
    let read = pods.get("a");
    tokio::join!(read, async { logged!(pods.delete("b", &dp).await, pod = %name) });
}

async fn in_turn(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let delete = instrumented!(pods.delete("a", &dp), "delete");
    delete.await?;
    pods.get("a").await?;
    Ok(())
}
