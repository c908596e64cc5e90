// A site is reported once per object its requests conflict on, not once per pair, nor once per
// site.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

// Two objects, two findings (both at the join): Pod "a" and Pod "b".
async fn two_objects(pods: Api<Pod>, dp: DeleteParams, pp: PatchParams, p: Patch<()>) {
    tokio::join!( //~ concurrent-same-object
        pods.delete("a", &dp),
        pods.get("a"),
        pods.patch("b", &pp, &p),
        pods.get("b"),
    );
}

// Four requests on one object: one finding, naming how many requests touch it.
async fn one_object(pods: Api<Pod>, dp: DeleteParams, pp: PatchParams, p: Patch<()>) {
    tokio::join!( //~ concurrent-same-object
        pods.delete("a", &dp),
        pods.get("a"),
        pods.get("a"),
        pods.patch("a", &pp, &p),
    );
}

// The same requests written again and again: one finding, counting every pair of their copies
// (three gets and two deletes: six get-delete pairs and one delete-delete pair).
async fn copies(pods: Api<Pod>, dp: DeleteParams) {
    tokio::join!( //~ concurrent-same-object
        pods.get("a"),
        pods.delete("a", &dp),
        pods.get("a"),
        pods.delete("a", &dp),
        pods.get("a"),
    );
}

// A delete of a name the tool cannot see may touch either object: it does not make "a" and "b"
// one object, so they are still two findings.
async fn not_tied_by_an_unknown_name(pods: Api<Pod>, dp: DeleteParams, name: &str) {
    tokio::join!( //~ concurrent-same-object
        pods.delete("a", &dp),
        pods.get("a"),
        pods.delete("b", &dp),
        pods.get("b"),
        pods.delete(name, &dp),
    );
}

// Look-alikes: no object is written and read at once.
async fn different_objects(pods: Api<Pod>, dp: DeleteParams) {
    // Each object is touched once.
    tokio::join!(pods.delete("a", &dp), pods.get("b"), pods.delete("c", &dp), pods.get("d"));
    // "a" is only read, "b" only written once.
    tokio::join!(pods.get("a"), pods.get("a"), pods.delete("b", &dp));
}
