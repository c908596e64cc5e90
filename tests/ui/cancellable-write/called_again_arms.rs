// A helper whose write may be cancelled is a hazard when its function is called again after a
// call whose write may still land: not when the calls are in different arms of one `match`, or
// write other objects.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use std::time::Duration;

const D: Duration = Duration::from_secs(5);

async fn renew(leases: &Api<Lease>, pp: &PatchParams, p: &Patch<Lease>) {
    let _ = tokio::time::timeout(D, leases.patch("leader", pp, p)).await; //~ cancellable-write
}

async fn renew_named(leases: &Api<Lease>, name: &str, pp: &PatchParams, p: &Patch<Lease>) {
    let _ = tokio::time::timeout(D, leases.patch(name, pp, p)).await; //~ cancellable-write
}

// One arm runs per call: `renew` is not called again here.
async fn one_arm(leases: Api<Lease>, pp: PatchParams, p: Patch<Lease>, k: u32) {
    match k {
        0 => renew(&leases, &pp, &p).await,
        1 => renew(&leases, &pp, &p).await,
        _ => {}
    }
}

// The loop around the `match` runs an arm again: a timed-out renew may land after the next.
async fn arms_in_a_loop(leases: Api<Lease>, pp: PatchParams, p: Patch<Lease>, ks: Vec<u32>) {
    for k in ks {
        match k {
            0 => renew(&leases, &pp, &p).await,
            _ => {}
        }
    }
}

// Other names: another object each time.
async fn other_names(leases: Api<Lease>, pp: PatchParams, p: Patch<Lease>) {
    renew_named(&leases, "a", &pp, &p).await;
    renew_named(&leases, "b", &pp, &p).await;
}

// The same name twice: the first patch may land after the second.
async fn same_name(leases: Api<Lease>, pp: PatchParams, p: Patch<Lease>) {
    renew_named(&leases, "c", &pp, &p).await;
    renew_named(&leases, "c", &pp, &p).await;
}
