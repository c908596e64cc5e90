// kube-runtime's and kube-client's requests that are not `Api` methods: `finalizer` patches
// `/metadata/finalizers`, `Entry::commit` creates or replaces, `await_condition` watches one
// object, `delete_and_finalize` deletes it and waits; `Client::request` goes to an object the
// tool cannot see.
use std::sync::Arc;

use futures::future::join_all;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::controller::Action;
use kube::runtime::finalizer::{finalizer, Event};
use kube::runtime::wait::{await_condition, conditions, delete::delete_and_finalize};
use kube::{Client, ResourceExt};

const FINALIZER: &str = "example.com/cleanup";

async fn finalizer_joined_with_a_patch(pods: Api<Pod>, pod: Arc<Pod>, pp: PatchParams, patch: Patch<Pod>) -> anyhow::Result<()> {
    let name = pod.name_any();
    tokio::join!( //~ concurrent-same-object
        finalizer(&pods, FINALIZER, pod.clone(), |event| async move {
            match event {
                Event::Apply(_) => Ok(Action::await_change()),
                Event::Cleanup(_) => Ok(Action::await_change()),
            }
        }),
        pods.patch_metadata(&name, &pp, &patch),
    );
    Ok(())
}

// Different kinds: the finalizer of a Pod, a patch of a ConfigMap.
async fn finalizer_and_another_kind(pods: Api<Pod>, cms: Api<ConfigMap>, pod: Arc<Pod>, pp: PatchParams, patch: Patch<ConfigMap>) {
    let name = pod.name_any();
    tokio::join!(
        finalizer(&pods, FINALIZER, pod, |_event| async { Ok::<_, kube::Error>(Action::await_change()) }),
        cms.patch(&name, &pp, &patch),
    );
}

async fn commit_joined_with_a_delete(cms: Api<ConfigMap>, pp: PostParams, dp: DeleteParams) -> anyhow::Result<()> {
    let entry = cms.entry("settings").await?.or_insert(ConfigMap::default);
    let _ = tokio::join!(entry.commit(&pp), cms.delete("settings", &dp)); //~ concurrent-same-object
    Ok(())
}

// The commit of one entry, then a delete of another object: different names.
async fn commit_and_other_object(cms: Api<ConfigMap>, pp: PostParams, dp: DeleteParams) -> anyhow::Result<()> {
    let mut entry = cms.entry("settings").await?.or_insert(ConfigMap::default);
    let _ = tokio::join!(entry.commit(&pp), cms.delete("other", &dp));
    Ok(())
}

async fn wait_while_deleting(pods: Api<Pod>, dp: DeleteParams) -> anyhow::Result<()> {
    let _ = tokio::join!( //~ concurrent-same-object
        await_condition(pods.clone(), "web", conditions::is_pod_running()),
        pods.delete("web", &dp),
    );
    Ok(())
}

// Waiting for one Pod while deleting another.
async fn wait_for_another(pods: Api<Pod>, dp: DeleteParams) {
    let _ = tokio::join!(
        await_condition(pods.clone(), "web", conditions::is_pod_running()),
        pods.delete("db", &dp),
    );
}

async fn delete_and_finalize_twice(pods: Api<Pod>, dp: DeleteParams) {
    let _ = join_all([ //~ concurrent-same-object
        delete_and_finalize(pods.clone(), "web", &dp),
        delete_and_finalize(pods.clone(), "web", &dp),
    ])
    .await;
}

async fn delete_and_finalize_then_read(pods: Api<Pod>, dp: DeleteParams) {
    delete_and_finalize(pods.clone(), "web", &dp).await.ok();
    pods.get("web").await.ok();
}

// A raw request goes to an object the tool cannot see: not reported at the default confidence.
async fn raw_requests(client: Client, pods: Api<Pod>, req: http::Request<Vec<u8>>) {
    let _ = tokio::join!(client.request::<Pod>(req), pods.get("web"));
}

// A `send` on a channel, an `entry` of a map and a `commit` of a transaction are not requests.
async fn look_alikes(tx: tokio::sync::mpsc::Sender<String>, pods: Api<Pod>, dp: DeleteParams, tr: sqlx::Transaction<'_, sqlx::Postgres>) {
    let mut map = std::collections::HashMap::new();
    map.entry("web").or_insert(1);
    let _ = tokio::join!(tx.send("web".to_string()), pods.delete("web", &dp), tr.commit());
}
