// Look-alikes of fresh_names.rs: the write on the next pass is of another object, its name made
// anew on each pass: from a counter the loop increments, from a fresh uuid. Not reported by
// default (`unknown`: nothing else writes the object after the cancellation).
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};
use std::time::Duration;

async fn counted(pods: Api<Pod>, base: String) {
    let mut i = 0;
    loop {
        let name = format!("{base}-{i}");
        tokio::select! {
            _ = pods.delete(&name, &DeleteParams::default()) => {}
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
        i += 1;
    }
}

async fn fresh(pods: Api<Pod>) {
    loop {
        let name = format!("job-{}", uuid::Uuid::new_v4());
        tokio::select! {
            _ = pods.delete(&name, &DeleteParams::default()) => {}
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}
