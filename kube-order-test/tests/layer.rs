//! The layer (reordering, cancel-after-send, recording) and the in-memory server, through kube's
//! own `Api`.

use std::time::Duration;

use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube_order_test::{ApiServer, Caller, Order, Recording, Reorder};
use serde_json::json;

fn config_map(name: &str) -> ConfigMap {
    serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": name, "namespace": "default", "labels": { "app": "blog" } },
        "data": { "k": "v" },
    }))
    .unwrap()
}

/// Method and path of each request seen, in order.
fn lines(recording: &Recording) -> Vec<String> {
    recording
        .seen()
        .iter()
        .map(|seen| format!("{} {}", seen.call.verb(), seen.call.path))
        .collect()
}

const CMS: &str = "/api/v1/namespaces/default/configmaps";

async fn three_gets(order: Order) -> Vec<String> {
    let server = ApiServer::new();
    for name in ["a", "b", "c"] {
        server.insert(&config_map(name));
    }
    let layer = Reorder::new(order);
    let cms: Api<ConfigMap> = Api::default_namespaced(layer.client(server, "default"));
    let (a, b, c) = tokio::join!(cms.get("a"), cms.get("b"), cms.get("c"));
    assert!(a.is_ok() && b.is_ok() && c.is_ok());
    lines(&layer.recording())
}

#[tokio::test]
async fn a_join_reaches_the_server_in_the_chosen_order() {
    let get = |name: &str| format!("get {CMS}/{name}");
    assert_eq!(
        three_gets(Order::Arrival).await,
        [get("a"), get("b"), get("c")]
    );
    assert_eq!(
        three_gets(Order::Reverse).await,
        [get("c"), get("b"), get("a")]
    );
    let shuffled = three_gets(Order::Random(7)).await;
    assert_eq!(
        shuffled,
        three_gets(Order::Random(7)).await,
        "a seed gives one order"
    );
    let mut sorted = shuffled.clone();
    sorted.sort();
    assert_eq!(sorted, [get("a"), get("b"), get("c")]);
    let orders: std::collections::BTreeSet<_> = futures_of_seeds(0..8).await.into_iter().collect();
    assert!(
        orders.len() > 1,
        "different seeds give different orders: {orders:?}"
    );
}

async fn futures_of_seeds(seeds: std::ops::Range<u64>) -> Vec<Vec<String>> {
    let mut orders = Vec::new();
    for seed in seeds {
        orders.push(three_gets(Order::Random(seed)).await);
    }
    orders
}

#[tokio::test]
async fn writes_last_lets_a_concurrent_read_see_the_old_state() {
    let server = ApiServer::new();
    server.insert(&config_map("a"));
    let layer = Reorder::new(Order::WritesLast);
    let cms: Api<ConfigMap> = Api::default_namespaced(layer.client(server.clone(), "default"));
    let patch = json!({ "data": { "k": "new" } });
    let pp = PatchParams::default();
    let patch = Patch::Merge(&patch);
    let (patched, read) = tokio::join!(cms.patch("a", &pp, &patch), cms.get("a"));
    assert_eq!(
        lines(&layer.recording()),
        [format!("get {CMS}/a"), format!("patch {CMS}/a")]
    );
    assert_eq!(read.unwrap().data.unwrap()["k"], "v", "the read went first");
    assert_eq!(patched.unwrap().data.unwrap()["k"], "new");
    // Awaited one after another, the same requests keep their order under any order.
    let read = async {
        cms.patch(
            "a",
            &pp,
            &Patch::Merge(&json!({ "data": { "k": "newer" } })),
        )
        .await
        .unwrap();
        cms.get("a").await.unwrap()
    }
    .await;
    assert_eq!(read.data.unwrap()["k"], "newer");
}

#[tokio::test]
async fn reversed_create_and_get_answers_not_found_and_is_recorded() {
    let server = ApiServer::new();
    let layer = Reorder::new(Order::Reverse);
    let cms: Api<ConfigMap> = Api::default_namespaced(layer.client(server.clone(), "default"));
    let (pp, object) = (PostParams::default(), config_map("a"));
    let (created, fetched) = tokio::join!(cms.create(&pp, &object), cms.get("a"));
    assert!(created.is_ok());
    match fetched {
        Err(kube::Error::Api(e)) => assert_eq!((e.code, e.reason.as_str()), (404, "NotFound")),
        other => panic!("expected NotFound, got {other:?}"),
    }
    let seen = layer.recording().seen();
    assert!(seen[0].call.is("get", "configmaps", "a"));
    assert!(
        seen[1].call.is("create", "configmaps", "a"),
        "a create is named from its body"
    );
    assert_eq!(seen[1].call.body.as_ref().unwrap()["data"]["k"], "v");
    assert_eq!(
        seen.iter()
            .map(|s| s.status.unwrap().as_u16())
            .collect::<Vec<_>>(),
        [404, 201]
    );
    assert!(seen.iter().all(|s| s.caller == Caller::Answered));
    assert_eq!(
        layer.recording().to_string(),
        format!("  1. GET {CMS}/a -> 404 Not Found\n  2. POST {CMS} (a) -> 201 Created\n")
    );
    // The server keeps its own record: the same requests.
    assert_eq!(lines(&server.recording()), lines(&layer.recording()));
}

#[tokio::test]
async fn cancel_after_send_drops_the_future_after_the_server_acted() {
    let server = ApiServer::new();
    server.insert(&config_map("a"));
    let layer =
        Reorder::new(Order::Arrival).cancel_after_send(|call| call.is("patch", "configmaps", "a"));
    let cms: Api<ConfigMap> = Api::default_namespaced(layer.client(server.clone(), "default"));
    let patch = json!({ "data": { "k": "patched" } });
    let (pp, patch) = (PatchParams::default(), Patch::Merge(&patch));
    let write = cms.patch("a", &pp, &patch);
    // The cancellable write: a timeout around it.
    let outcome = tokio::time::timeout(Duration::from_millis(300), write).await;
    assert!(
        outcome.is_err(),
        "the timeout elapsed: the code believes the patch did not happen"
    );
    tokio::time::sleep(Duration::from_millis(10)).await;
    let stored: ConfigMap = server.get(Some("default"), "a").unwrap();
    assert_eq!(
        stored.data.unwrap()["k"],
        "patched",
        "but the server applied it"
    );
    let seen = layer.recording().seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].status.unwrap().as_u16(), seen[0].caller),
        (200, Caller::Dropped)
    );
    // Requests the matcher does not accept are answered.
    assert!(cms.get("a").await.is_ok());
}

#[tokio::test]
async fn a_held_request_is_sent_even_when_its_caller_gives_up() {
    let server = ApiServer::new();
    server.insert(&config_map("a"));
    let layer = Reorder::new(Order::Reverse);
    let cms: Api<ConfigMap> = Api::default_namespaced(layer.client(server.clone(), "default"));
    // Reversed, the get of a missing object fails first and try_join drops the delete's future.
    let dp = DeleteParams::default();
    let result = tokio::try_join!(cms.delete("a", &dp), cms.get("missing"));
    assert!(result.is_err());
    tokio::time::sleep(Duration::from_millis(50)).await;
    let seen = layer.recording().seen();
    assert!(seen[0].call.is("get", "configmaps", "missing"));
    assert!(seen[1].call.is("delete", "configmaps", "a"));
    assert!(
        server.get::<ConfigMap>(Some("default"), "a").is_none(),
        "as a request on the wire, it took effect"
    );
}

#[tokio::test]
async fn the_server_keeps_resource_versions_and_conflicts() {
    let server = ApiServer::new();
    let client = Reorder::new(Order::Arrival)
        .window(Duration::ZERO)
        .client(server.clone(), "default");
    let cms: Api<ConfigMap> = Api::default_namespaced(client);
    let pp = PostParams::default();
    let created = cms.create(&pp, &config_map("a")).await.unwrap();
    let rv = created.metadata.resource_version.clone().unwrap();
    let again = cms.create(&pp, &config_map("a")).await.unwrap_err();
    assert!(
        matches!(again, kube::Error::Api(ref e) if e.code == 409 && e.reason == "AlreadyExists"),
        "{again:?}"
    );

    let patched = cms
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"x": "y"}})),
        )
        .await
        .unwrap();
    let new_rv = patched.metadata.resource_version.clone().unwrap();
    assert_ne!(rv, new_rv);
    // A replace with the old resourceVersion conflicts; with the new one it succeeds.
    let stale = cms.replace("a", &pp, &created).await.unwrap_err();
    assert!(
        matches!(stale, kube::Error::Api(ref e) if e.code == 409 && e.reason == "Conflict"),
        "{stale:?}"
    );
    assert!(cms.replace("a", &pp, &patched).await.is_ok());

    cms.create(
        &pp,
        &ConfigMap {
            metadata: kube::api::ObjectMeta {
                name: Some("other".into()),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let listed = cms
        .list(&ListParams::default().labels("app=blog"))
        .await
        .unwrap();
    assert_eq!(
        listed
            .items
            .iter()
            .map(|c| c.metadata.name.clone().unwrap())
            .collect::<Vec<_>>(),
        ["a"]
    );
    assert_eq!(
        cms.list(&ListParams::default()).await.unwrap().items.len(),
        2
    );

    cms.delete("a", &DeleteParams::default()).await.unwrap();
    let gone = cms.get("a").await.unwrap_err();
    assert!(
        matches!(gone, kube::Error::Api(ref e) if e.code == 404),
        "{gone:?}"
    );
    assert!(cms.get_opt("a").await.unwrap().is_none());
}

#[tokio::test]
async fn pods_are_deleted_gracefully_and_status_is_a_subresource() {
    let server = ApiServer::new();
    let client = Reorder::new(Order::Arrival)
        .window(Duration::ZERO)
        .client(server.clone(), "default");
    let pods: Api<Pod> = Api::default_namespaced(client);
    let pod: Pod = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": { "name": "p" },
        "spec": { "containers": [{ "name": "c", "image": "i" }] },
    }))
    .unwrap();
    pods.create(&PostParams::default(), &pod).await.unwrap();
    let status =
        json!({ "status": { "phase": "Running" }, "metadata": { "labels": { "ignored": "yes" } } });
    let pp = PatchParams::default();
    pods.patch_status("p", &pp, &Patch::Merge(&status))
        .await
        .unwrap();
    let stored = pods.get_status("p").await.unwrap();
    assert_eq!(stored.status.unwrap().phase.as_deref(), Some("Running"));
    assert!(
        stored.metadata.labels.is_none(),
        "a status write changes only the status"
    );
    // A write to the object keeps its status.
    pods.patch(
        "p",
        &pp,
        &Patch::Merge(json!({ "status": { "phase": "Failed" } })),
    )
    .await
    .unwrap();
    assert_eq!(
        pods.get("p")
            .await
            .unwrap()
            .status
            .unwrap()
            .phase
            .as_deref(),
        Some("Running")
    );

    pods.delete("p", &DeleteParams::default()).await.unwrap();
    let terminating = pods.get("p").await.unwrap();
    assert!(terminating.metadata.deletion_timestamp.is_some());
    pods.delete(
        "p",
        &DeleteParams {
            grace_period_seconds: Some(0),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(pods.get_opt("p").await.unwrap().is_none());
}

#[tokio::test]
async fn finalizers_hold_a_deleted_object_until_removed() {
    let server = ApiServer::new();
    let mut held = config_map("a");
    held.metadata.finalizers = Some(vec!["example.com/keep".into()]);
    server.insert(&held);
    let client = Reorder::new(Order::Arrival)
        .window(Duration::ZERO)
        .client(server.clone(), "default");
    let cms: Api<ConfigMap> = Api::default_namespaced(client);
    cms.delete("a", &DeleteParams::default()).await.unwrap();
    let deleting = cms.get("a").await.unwrap();
    assert!(deleting.metadata.deletion_timestamp.is_some());
    let pp = PatchParams::default();
    cms.patch(
        "a",
        &pp,
        &Patch::Merge(json!({ "data": { "k": "still writable" } })),
    )
    .await
    .unwrap();
    assert!(cms.get_opt("a").await.unwrap().is_some());
    cms.patch(
        "a",
        &pp,
        &Patch::Merge(json!({ "metadata": { "finalizers": null } })),
    )
    .await
    .unwrap();
    assert!(
        cms.get_opt("a").await.unwrap().is_none(),
        "gone with its last finalizer"
    );
}

#[tokio::test]
async fn wrap_reorders_the_requests_of_an_existing_client() {
    // The existing client stands for one built from a kubeconfig: here, on the in-memory server.
    let server = ApiServer::new();
    for name in ["a", "b"] {
        server.insert(&config_map(name));
    }
    let existing = Reorder::new(Order::Arrival)
        .window(Duration::ZERO)
        .client(server.clone(), "default");
    let layer = Reorder::new(Order::Reverse);
    let cms: Api<ConfigMap> = Api::default_namespaced(layer.wrap(existing));
    let (a, b) = tokio::join!(cms.get("a"), cms.get("b"));
    assert!(a.is_ok() && b.is_ok());
    let expected = [format!("get {CMS}/b"), format!("get {CMS}/a")];
    assert_eq!(lines(&layer.recording()), expected);
    assert_eq!(
        lines(&server.recording()),
        expected,
        "what the server behind the client saw"
    );
    let missing = cms.get("missing").await.unwrap_err();
    assert!(
        matches!(missing, kube::Error::Api(ref e) if e.code == 404),
        "{missing:?}"
    );
}
