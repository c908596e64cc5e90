// A batch built in a loop whose every request names the same object: the name does not change
// from one element to the next (issue 25, item 3). The look-alikes, names built anew from the
// element (`format!("{base}-{i}")`), are in fresh_names_negatives.rs.
use futures::future::join_all;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

async fn same_name_each_pass(pods: Api<Pod>, base: &str) {
    let dp = DeleteParams::default();
    let mut futs = Vec::new();
    for _ in 0..3 {
        let name = format!("{base}-lock");
        futs.push(pods.delete(&name, &dp));
    }
    join_all(futs).await; //~ concurrent-same-object
}
