// Look-alikes of selected_branches.rs: the helper blocks on one branch only, and the call's
// literal argument selects the other branch (no finding for that caller), or is no literal, or
// the parameter is `mut`, or the test is not of the parameter alone (`unknown`, not shown by
// default).
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::runtime::Handle;

fn fetch(pods: &Api<Pod>, wait: bool) -> Option<Pod> {
    if wait {
        Handle::current().block_on(pods.get("web")).ok()
    } else {
        None
    }
}

fn by_mode(pods: &Api<Pod>, mode: &str) -> Option<Pod> {
    match mode {
        "async" => None,
        "sync" | "blocking" => Handle::current().block_on(pods.get("cache")).ok(),
        _ => None,
    }
}

fn with_timeout(pods: &Api<Pod>, timeout: Option<u64>) -> Option<Pod> {
    if let Some(_) = timeout {
        return Handle::current().block_on(pods.get("queue")).ok();
    }
    None
}

fn by_level(pods: &Api<Pod>, level: u8) -> Option<Pod> {
    match level {
        0 => None,
        _ => Handle::current().block_on(pods.get("log")).ok(),
    }
}

// The parameter may change before the test.
fn changing(pods: &Api<Pod>, mut wait: bool) -> Option<Pod> {
    wait = !wait;
    if wait {
        Handle::current().block_on(pods.get("web")).ok()
    } else {
        None
    }
}

// The test is not of the parameter alone.
fn mixed(pods: &Api<Pod>, wait: bool, retries: u32) -> Option<Pod> {
    if wait && retries > 0 {
        Handle::current().block_on(pods.get("web")).ok()
    } else {
        None
    }
}

// Blocks after an arm that returns: only when that arm is not taken.
fn fetch_unless_cached(pods: &Api<Pod>, cached: bool) -> Option<Pod> {
    if cached {
        return None;
    }
    Handle::current().block_on(pods.get("status")).ok()
}

// The DNS lookup of issue 25: blocks for a host name only, after an early return for an
// address; which one the string is, the tool does not tell (`unknown`).
fn resolve(pods: &Api<Pod>, host: &str) -> Option<Pod> {
    if let Ok(_ip) = host.parse::<std::net::IpAddr>() {
        return None;
    }
    Handle::current().block_on(pods.get(host)).ok()
}

async fn reconcile(pods: Api<Pod>, wait: bool) {
    // The arm that returns.
    let _ = fetch_unless_cached(&pods, true);
    // Not a test of a parameter.
    let _ = resolve(&pods, "127.0.0.1");
    // The other branch.
    let _ = fetch(&pods, false);
    let _ = by_mode(&pods, "async");
    let _ = by_mode(&pods, "other");
    let _ = with_timeout(&pods, None);
    let _ = by_level(&pods, 0);
    // Not a literal.
    let _ = fetch(&pods, wait);
    // Not a test of an unchanged parameter alone.
    let _ = changing(&pods, false);
    let _ = mixed(&pods, true, 3);
}
