// This file makes requests (it is parsed for them); the callback is given its value in
// `watcher.rs`, which names no kube item: it is parsed because it names the field called here.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::Api;

use crate::watcher::Watcher;

// The callback marks the same ConfigMap twice at once.
pub async fn twice(w: Watcher, api: Api<ConfigMap>, name: String) {
    let _ = api.get(&name).await;
    tokio::join!((w.on_change)(name.clone()), (w.on_change)(name)); //~ concurrent-same-object
}

// Look-alike: two ConfigMaps.
pub async fn two(w: Watcher) {
    tokio::join!((w.on_change)("a".into()), (w.on_change)("b".into()));
}
