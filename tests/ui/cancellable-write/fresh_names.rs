// A write cancelled in a loop and sent again on the next pass, on the same object: the name is
// made before the loop and never changes (issue 25, item 3). The look-alikes, names made anew
// on each pass (a counter, a fresh uuid), are in fresh_names_negatives.rs.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};
use std::time::Duration;

async fn retried(pods: Api<Pod>, base: String) {
    let name = format!("{base}-lock");
    loop {
        tokio::select! {
            _ = pods.delete(&name, &DeleteParams::default()) => {} //~ cancellable-write
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}
