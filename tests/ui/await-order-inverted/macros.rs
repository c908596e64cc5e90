// Requests and awaits inside macro calls are code: arguments that parse as expressions are read,
// `name = expr` ones too, and an argument that does not parse (`pod = %name`) hides only itself.
// A `macro_rules!` of the file whose single rule's body is one of its `$x:expr` fragments has
// that argument as its value.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

macro_rules! instrumented {
    ($fut:expr, $what:literal $(,)?) => {
        $fut
    };
}

macro_rules! with_backoff {
    ($op:expr, attempts = $n:expr) => {{
        let mut attempt = 1;
        loop {
            match $op {
                Err(_) if attempt < $n => attempt += 1,
                done => break done,
            }
        }
    }};
}

// `logged!` (another module's) awaits the patch and logs the fields.
async fn awaited_in_a_macro(pods: Api<Pod>, pp: PatchParams, p: Patch<()>, name: String) -> kube::Result<()> {
    let read = pods.get("a");
    let patch = pods.patch_status("a", &pp, &p);
    logged!(patch.await, pod = %name)?; //~ await-order-inverted
    read.await?;
    Ok(())
}

async fn bound_through_a_macro(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let read = pods.get("a");
    let delete = instrumented!(pods.delete("a", &dp), "delete");
    delete.await?; //~ await-order-inverted
    read.await?;
    Ok(())
}

// Look-alikes: awaited in the order created.
async fn in_order(pods: Api<Pod>, pp: PatchParams, p: Patch<()>, name: String) -> kube::Result<()> {
    let read = pods.get("a");
    let patch = pods.patch_status("a", &pp, &p);
    read.await?;
    logged!(patch.await, pod = %name)?;
    Ok(())
}

async fn read_first(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let read = pods.get("a");
    read.await?;
    with_backoff!(pods.patch_status("a", &pp, &p).await, attempts = 4)?;
    Ok(())
}

// A request made and awaited inside the macro call, between the creation of `read` and its
// await: sent before the read, as `pods.patch_status(..).await?;` written there would be.
async fn made_and_awaited_in_the_macro(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let read = pods.get("a");
    with_backoff!(pods.patch_status("a", &pp, &p).await, attempts = 4)?; //~ await-order-inverted
    read.await?;
    Ok(())
}
