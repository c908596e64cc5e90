// `let (a, b) = (x, y);` binds like `let a = x; let b = y;`: the names flow element by element.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

async fn copies_of_one_name(pods: Api<Pod>, name: String) {
    let (first, second) = (name.clone(), name.clone());
    let _ = tokio::join!( //~ concurrent-same-object
        pods.delete(&first, &DeleteParams::default()),
        pods.patch(&second, &PatchParams::default(), &Patch::Merge(())),
    );
}

// Not the same object: two literals.
async fn two_names(pods: Api<Pod>) {
    let (web, db) = ("web", "db");
    let _ = tokio::join!(
        pods.delete(web, &DeleteParams::default()),
        pods.patch(db, &PatchParams::default(), &Patch::Merge(())),
    );
}

// A swap reads the names it binds: not split, and not proved either way.
async fn swapped(pods: Api<Pod>, web: String, db: String) {
    let (web, db) = (db, web);
    let _ = tokio::join!(
        pods.delete(&web, &DeleteParams::default()),
        pods.patch(&db, &PatchParams::default(), &Patch::Merge(())),
    );
}
