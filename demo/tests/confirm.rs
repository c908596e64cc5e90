//! Confirms the demo's findings at run time: `cargo test --features confirm`.
//!
//! Each test runs one of the demo's functions, unchanged, with a client whose requests go through
//! kube-order-test's layer to its in-memory API server, in an order the finding says can happen,
//! and checks what the code means to do. On the shipped demo each test fails, naming the finding
//! it confirms and listing what the server saw; after `kube-order-lint --fix --unsafe-fixes demo`
//! they pass: awaited one after another, the requests keep their order whatever the layer does.

// The demo is a binary: its modules are compiled into this test as they are.
#[path = "../src/main.rs"]
#[allow(dead_code)]
mod demo;
#[path = "../src/reconcile.rs"]
mod reconcile;
#[path = "../src/status.rs"]
mod status;

use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::api::Api;
use kube_order_test::{ApiServer, Order, Recording, Reorder, Seen};
use serde_json::{json, Value};

fn object<K: k8s_openapi::serde::de::DeserializeOwned>(value: Value) -> K {
    serde_json::from_value(value).expect("a valid object")
}

fn config_map(name: &str, finalizers: &[&str]) -> ConfigMap {
    object(json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": name, "namespace": "default", "finalizers": finalizers },
        "data": { "title": "blog" },
    }))
}

fn secret(name: &str) -> Secret {
    object(json!({
        "apiVersion": "v1", "kind": "Secret",
        "metadata": { "name": name, "namespace": "default" },
    }))
}

fn blog_pod() -> Pod {
    object(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": { "name": "blog", "namespace": "default" },
        "spec": { "containers": [{ "name": "blog", "image": "clux/blog:0.1.0" }] },
    }))
}

/// The objects `reconcile` expects (ConfigMaps blog, blog-old, blog-new, blog-config; Secrets
/// blog-tls, blog-tls-old), with blog-config's finalizers.
fn cluster(config_finalizers: &[&str]) -> ApiServer {
    let server = ApiServer::new();
    for name in ["blog", "blog-old", "blog-new"] {
        server.insert(&config_map(name, &[]));
    }
    server.insert(&config_map("blog-config", config_finalizers));
    server.insert(&secret("blog-tls"));
    server.insert(&secret("blog-tls-old"));
    server
}

/// A request: (verb, resource, name).
type Req = (&'static str, &'static str, &'static str);

fn position(recording: &Recording, (verb, resource, name): Req) -> Option<(usize, Seen)> {
    let seen = recording.seen();
    let i = seen.iter().position(|s| s.call.is(verb, resource, name))?;
    Some((i, seen[i].clone()))
}

fn describe((verb, resource, name): Req) -> String {
    format!("{verb} {resource}/{name}")
}

/// Fails, naming `finding`, unless the server saw `first` answered with success, and after it
/// `then`.
fn expect_order(recording: &Recording, finding: &str, first: Req, then: Req) {
    let first_seen = position(recording, first);
    let then_seen = position(recording, then);
    let in_order = match (&first_seen, &then_seen) {
        (Some((i, seen)), Some((j, _))) => i < j && seen.status.is_some_and(|s| s.is_success()),
        _ => false,
    };
    assert!(
        in_order,
        "confirmed: {finding}\nexpected the server to see {} (answered with success), then {}; \
         the server saw:\n{recording}",
        describe(first),
        describe(then),
    );
}

#[tokio::test]
async fn main_rs_17_create_and_get_of_the_pod_race() {
    let server = cluster(&[]);
    let layer = Reorder::new(Order::Reverse);
    let result = demo::deploy(layer.client(server.clone(), "default")).await;
    expect_order(
        &layer.recording(),
        "demo/src/main.rs:17:30 concurrent-same-object: create of the Pod of blog.json and get of \
         Pod \"blog\" run concurrently in `tokio::join!` (the get answered NotFound)",
        ("create", "pods", "blog"),
        ("get", "pods", "blog"),
    );
    result.expect("deploy succeeds");
}

#[tokio::test]
async fn reconcile_rs_23_patch_and_delete_of_the_pod_race() {
    let server = cluster(&[]);
    server.insert(&blog_pod());
    let layer = Reorder::new(Order::Reverse);
    let result = reconcile::reconcile(layer.client(server.clone(), "default"), "blog").await;
    expect_order(
        &layer.recording(),
        "demo/src/reconcile.rs:23:5 concurrent-same-object: patch and delete of the same Pod \
         `name` run concurrently in `futures::try_join!` (the relabel reached the Pod after its delete)",
        ("patch", "pods", "blog"),
        ("delete", "pods", "blog"),
    );
    result.expect("reconcile succeeds");
}

#[tokio::test]
async fn reconcile_rs_30_adoption_is_sent_after_the_prune() {
    let server = cluster(&[]);
    server.insert(&blog_pod());
    // Arrival order: the layer changes nothing, the code itself sends the delete first.
    let layer = Reorder::new(Order::Arrival);
    let result = reconcile::reconcile(layer.client(server.clone(), "default"), "blog").await;
    expect_order(
        &layer.recording(),
        "demo/src/reconcile.rs:30:5 await-order-inverted: patch and delete of the same ConfigMap \
         \"blog-config\" are awaited in the reverse of the order they were created",
        ("patch", "configmaps", "blog-config"),
        ("delete", "configmaps", "blog-config"),
    );
    result.expect("reconcile succeeds");
}

#[tokio::test]
async fn reconcile_rs_34_old_secret_is_never_deleted() {
    // blog-config holds a finalizer, so its delete leaves it (terminating) and the inverted
    // awaits above (their own test) do not end the reconcile before line 34.
    let server = cluster(&["demo/keep"]);
    server.insert(&blog_pod());
    let layer = Reorder::new(Order::Arrival);
    let result = reconcile::reconcile(layer.client(server.clone(), "default"), "blog").await;
    let recording = layer.recording();
    assert!(
        position(&recording, ("delete", "secrets", "blog-tls-old")).is_some(),
        "confirmed: demo/src/reconcile.rs:34:13 unawaited-request: the delete of Secret \
         \"blog-tls-old\" is never sent (reconcile returned {}); the server saw:\n{recording}",
        match &result {
            Ok(()) => "Ok".to_string(),
            Err(error) => format!("Err({error:#})"),
        },
    );
    result.expect("reconcile succeeds");
    assert!(server
        .get::<Secret>(Some("default"), "blog-tls-old")
        .is_none());
}

#[tokio::test]
async fn status_rs_11_status_read_races_the_status_patch() {
    let server = ApiServer::new();
    server.insert(&blog_pod());
    let layer = Reorder::new(Order::WritesLast);
    let pods: Api<Pod> = Api::default_namespaced(layer.client(server.clone(), "default"));
    let result = status::publish(&pods, "blog", true).await;
    expect_order(
        &layer.recording(),
        "demo/src/status.rs:11:24 concurrent-same-object: status patch and get of the same Pod \
         `name` run concurrently in `tokio::try_join!` (the read saw the status before the patch)",
        ("patch", "pods", "blog"),
        ("get", "pods", "blog"),
    );
    let current = result.expect("publish succeeds");
    let conditions = current
        .status
        .and_then(|s| s.conditions)
        .unwrap_or_default();
    assert!(conditions
        .iter()
        .any(|c| c.type_ == "DemoReady" && c.status == "true"));
}
