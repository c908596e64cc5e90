// A sync helper that blocks on a future, called from async code. Blocking on every path through
// it is reported; blocking on one branch only (a DNS lookup for a host name, not for an
// address) blocks this caller only if its arguments select that branch, which the tool does not
// tell: `unknown`, not reported by default.
use std::net::IpAddr;

async fn lookup(host: &str) -> IpAddr {
    tokio::net::lookup_host((host, 0)).await.unwrap().next().unwrap().ip()
}

// Blocks on every path.
fn resolve_always(host: &str) -> IpAddr {
    tokio::runtime::Handle::current().block_on(lookup(host)) //~ block-on-in-async
}

// Blocks only for a host name.
fn resolve(host: &str) -> IpAddr {
    match host.parse::<IpAddr>() {
        Ok(ip) => ip,
        Err(_) => tokio::runtime::Handle::current().block_on(lookup(host)),
    }
}

#[tokio::test]
async fn connects_by_name() {
    let _ = resolve_always("example.com");
}

#[tokio::test]
async fn connects_by_address() {
    let _ = resolve("127.0.0.1");
}

#[tokio::test]
async fn connects_by_address_again() {
    let _ = resolve("10.0.0.1");
}
