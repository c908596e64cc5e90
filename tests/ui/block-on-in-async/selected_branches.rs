// A sync helper that blocks on one branch only, selected by a parameter: a call whose literal
// argument selects that branch blocks its async caller (`possible`: the tool reads the literal,
// not what the code does before the test); the look-alikes are in
// selected_branches_negatives.rs.
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::runtime::Handle;

fn fetch(pods: &Api<Pod>, wait: bool) -> Option<Pod> {
    if wait {
        Handle::current().block_on(pods.get("web")).ok() //~ block-on-in-async
    } else {
        None
    }
}

fn fetch_unless(pods: &Api<Pod>, cached: bool) -> Option<Pod> {
    if !cached {
        Handle::current().block_on(pods.get("db")).ok() //~ block-on-in-async
    } else {
        None
    }
}

fn by_mode(pods: &Api<Pod>, mode: &str) -> Option<Pod> {
    match mode {
        "async" => None,
        "sync" | "blocking" => Handle::current().block_on(pods.get("cache")).ok(), //~ block-on-in-async
        _ => None,
    }
}

fn with_timeout(pods: &Api<Pod>, timeout: Option<u64>) -> Option<Pod> {
    if let Some(_) = timeout {
        return Handle::current().block_on(pods.get("queue")).ok(); //~ block-on-in-async
    }
    None
}

fn by_level(pods: &Api<Pod>, level: u8) -> Option<Pod> {
    match level {
        0 => None,
        _ => Handle::current().block_on(pods.get("log")).ok(), //~ block-on-in-async
    }
}

// Blocks after an arm that returns: only when that arm is not taken.
fn fetch_unless_cached(pods: &Api<Pod>, cached: bool) -> Option<Pod> {
    if cached {
        return None;
    }
    Handle::current().block_on(pods.get("status")).ok() //~ block-on-in-async
}

async fn reconcile(pods: Api<Pod>) {
    let _ = fetch_unless_cached(&pods, false);
    let _ = fetch(&pods, true);
    let _ = fetch_unless(&pods, false);
    let _ = by_mode(&pods, "blocking");
    let _ = with_timeout(&pods, Some(5));
    let _ = by_level(&pods, 3);
}
