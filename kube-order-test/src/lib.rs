//! Confirms a kube-order-lint finding at run time: runs the code with its
//! concurrent kube requests released in a chosen order, and shows the order the server saw.
//!
//! kube's `Client` is a tower `Service`. [`Reorder`] is a tower layer for it that holds the
//! requests arriving within a short window (20 ms by default) and then sends them on **one at a
//! time, each after the previous one was answered**, in an [`Order`]: as they arrived, reversed,
//! shuffled from a seed, or reads before writes. So "these two requests may reach the API server
//! in either order" becomes a test that runs the bad order. [`Reorder::cancel_after_send`] makes
//! a request's future be dropped after the server acted on it (the cancellable-write case).
//! [`Recording`] lists what the server saw: method, path, object, answer, and whether the
//! caller was still waiting.
//!
//! [`ApiServer`] is a small in-memory API server (get, list, create, update, patch, delete with
//! resourceVersion, 404 and 409), so a test needs no cluster.
//!
//! ```
//! use k8s_openapi::api::core::v1::Pod;
//! use kube::api::{Api, PostParams};
//! use kube_order_test::{ApiServer, Order, Reorder};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = ApiServer::new();
//! let layer = Reorder::new(Order::Reverse);
//! let pods: Api<Pod> = Api::default_namespaced(layer.client(server.clone(), "default"));
//! let pod: Pod = serde_json::from_value(serde_json::json!({
//!     "apiVersion": "v1", "kind": "Pod", "metadata": { "name": "blog" },
//! }))
//! .unwrap();
//! let pp = PostParams::default();
//! // The code under test, unchanged:
//! let (created, fetched) = tokio::join!(pods.create(&pp, &pod), pods.get("blog"));
//! // Reversed, the get reached the server first and answered NotFound:
//! assert!(created.is_ok() && fetched.is_err());
//! assert_eq!(
//!     layer.recording().to_string(),
//!     "  1. GET /api/v1/namespaces/default/pods/blog -> 404 Not Found\n  \
//!        2. POST /api/v1/namespaces/default/pods (blog) -> 201 Created\n"
//! );
//! # }
//! ```
//!
//! # Against a real API server
//!
//! [`Reorder::wrap`] puts the layer in front of an existing client, which keeps its
//! configuration, credentials and connection: the requests reach the cluster in the chosen
//! order. Use a namespace of its own (the test changes real objects), and a longer window if the
//! code awaits something else between two requests meant to race:
//!
//! ```no_run
//! # async fn run() -> kube::Result<()> {
//! use kube_order_test::{Order, Reorder};
//! let layer = Reorder::new(Order::WritesLast).window(std::time::Duration::from_millis(100));
//! let client = layer.wrap(kube::Client::try_default().await?);
//! // … run the code under test with `client`, then:
//! print!("{}", layer.recording());
//! # Ok(())
//! # }
//! ```
//!
//! Other controllers act on the cluster meanwhile (a Deployment's Pods come and go), so the
//! in-memory server gives the reproducible test; the real one shows the effect on real
//! controllers.
//!
//! # How it orders
//!
//! The order of arrival is the order in which the client's service is called: within one task,
//! the order in which a `join!` polls its futures. A request waits for its window to close and
//! for the windows before it to be sent: windows are released one after another. A request whose caller stopped waiting is still sent, as one
//! already on the wire would be. Requests awaited one after another never share a window, so
//! code without the race behaves the same under every order: that is what a confirming test
//! checks after the fix.
//!
//! This crate is for tests. kube-order-lint itself never runs it, nor anything of the checked
//! crate.

mod layer;
mod objects;
mod record;
mod server;

pub use layer::{Order, Reorder, ReorderService};
pub use record::{Call, Caller, Recording, Seen, Target};
pub use server::ApiServer;
