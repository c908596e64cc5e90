// A cancelled write sent again by the loop is the same object only when its name is the same on
// every pass. A name made anew on each pass (`format!("{base}-{i}")`) is another object on the
// next pass: no retry hazard, and nothing else follows the cancelled write (`unknown`).
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};
use std::time::Duration;

// The same name on every pass: the delete sent again may overtake the cancelled one.
async fn same_name(pods: Api<Pod>, base: String, dp: DeleteParams) {
    for _ in 0..3 {
        tokio::select! {
            _ = pods.delete(&base, &dp) => {} //~ cancellable-write
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}

// A name made anew on each pass: the next pass deletes another object.
async fn name_per_pass(pods: Api<Pod>, base: String, dp: DeleteParams) {
    for i in 0..3 {
        let name = format!("{base}-{i}");
        tokio::select! {
            _ = pods.delete(&name, &dp) => {}
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}
