// Turbofish kinds are substituted into generic helpers, whether the helper names its handle's
// kind with a turbofish (`Api::<K>::namespaced`) or an annotation (`let api: Api<K>`): purging
// Services and StatefulSets at once touches different collections; purging Services twice does
// not. A kind chosen by a generic parameter (`S::Manifest`) is not shown as a kind.
use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, DeleteParams, ListParams};
use kube::{Client, Resource};

async fn purge<K: Resource>(c: &Client, ns: &str) -> kube::Result<()> {
    let api: Api<K> = Api::namespaced(c.clone(), ns);
    api.delete_collection(&DeleteParams::default(), &ListParams::default()).await?;
    Ok(())
}

async fn different_kinds(c: Client, ns: &str) {
    let _ = tokio::join!(purge::<Service>(&c, ns), purge::<StatefulSet>(&c, ns));
}

async fn same_kind(c: Client, ns: &str) {
    let _ = tokio::join!(purge::<Service>(&c, ns), purge::<Service>(&c, ns)); //~ concurrent-same-object
}

trait State {
    type Manifest: Resource;
}

async fn status<S: State>(api: Api<S::Manifest>, name: &str, pp: &kube::api::PatchParams) {
    let p = kube::api::Patch::Merge(());
    let _ = tokio::join!(api.patch_status(name, pp, &p), api.get_status(name)); //~ concurrent-same-object
}
