//! A small in-memory Kubernetes API server: a tower `Service` that answers kube's requests.

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use http::{Method, Request, Response, StatusCode};
use kube::client::Body;
use kube::Resource;
use serde_json::{json, Value};
use tower::Service;

use crate::objects::{self, Reply};
use crate::record::{Call, Caller, Recording, Seen, Target};

/// The in-memory API server. Clones share the same objects and recording.
///
/// What it does: get, list (with `labelSelector` equalities and `fieldSelector` on
/// `metadata.name`/`metadata.namespace`), create, update (PUT), patch (merge, and strategic merge
/// and server-side apply treated as merge patches; apply creates), delete, for any resource path
/// (core kinds and others alike), namespaced or not; a `resourceVersion` per change (one counter,
/// as etcd's revision), optimistic concurrency on `metadata.resourceVersion` (409 Conflict),
/// delete preconditions, 404 NotFound and 409 AlreadyExists as Status objects; the `status`
/// subresource (writes to it change only `status`, writes to the object keep it); finalizers
/// (delete sets `deletionTimestamp`, the object goes when its last finalizer is removed); Pods
/// are deleted gracefully, as on a node (they stay, with `deletionTimestamp`, unless
/// `gracePeriodSeconds` is 0).
///
/// What it does not: watch, JSON patch, deletecollection (405 or 415), validation, defaulting,
/// controllers (nothing creates Pods for a Deployment), strategic merge's list merging, field
/// managers. Timestamps are a fixed date.
#[derive(Clone, Default)]
pub struct ApiServer {
    state: Arc<Mutex<State>>,
    recording: Recording,
}

#[derive(Default)]
pub(crate) struct State {
    /// (api, resource, namespace or "", name) → object.
    pub(crate) objects: BTreeMap<(String, String, String, String), Value>,
    /// The last resourceVersion given.
    pub(crate) revision: u64,
    /// (api, resource) → (apiVersion, kind), learnt from the objects stored.
    pub(crate) kinds: HashMap<(String, String), (String, String)>,
}

impl ApiServer {
    pub fn new() -> ApiServer {
        ApiServer::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores `object` as if it had been created (a test's starting state), without recording
    /// a request. Namespaced kinds need `metadata.namespace`. Panics if the object has no name
    /// or already exists.
    pub fn insert<K>(&self, object: &K)
    where
        K: Resource<DynamicType = ()> + serde::Serialize,
    {
        let body = serde_json::to_value(object).expect("an object serializes to JSON");
        let target = Target {
            api: api_path(&K::group(&()), &K::version(&())),
            resource: K::plural(&()).into_owned(),
            namespace: object.meta().namespace.clone(),
            name: None,
            subresource: None,
        };
        let reply = objects::create(&mut self.lock(), &target, body);
        assert!(reply.status.is_success(), "insert: {}", reply.body);
    }

    /// The stored object `name` of kind `K` (in `namespace`, for namespaced kinds).
    pub fn get<K>(&self, namespace: Option<&str>, name: &str) -> Option<K>
    where
        K: Resource<DynamicType = ()> + serde::de::DeserializeOwned,
    {
        let key = (
            api_path(&K::group(&()), &K::version(&())),
            K::plural(&()).into_owned(),
            namespace.unwrap_or_default().to_string(),
            name.to_string(),
        );
        let value = self.lock().objects.get(&key)?.clone();
        Some(serde_json::from_value(value).expect("a stored object deserializes as its kind"))
    }

    /// Every request this server answered, in order.
    pub fn recording(&self) -> Recording {
        self.recording.clone()
    }

    /// Answers one request (what the `Service` does, without the body to collect).
    pub fn answer(&self, parts: &http::request::Parts, body: &[u8]) -> Response<Body> {
        let call = Call::new(parts, body);
        let content_type = parts
            .headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let reply = route(&mut self.lock(), &call, content_type);
        self.recording.push(Seen {
            call,
            status: Some(reply.status),
            caller: Caller::Answered,
        });
        Response::builder()
            .status(reply.status)
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(Body::from(reply.body.to_string().into_bytes()))
            .expect("a valid response")
    }
}

fn api_path(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    }
}

fn route(state: &mut State, call: &Call, content_type: &str) -> Reply {
    // The path's target: a create's `call.target` is named after the object in its body.
    let Some(target) = &Target::parse(&call.path) else {
        return Reply::status(
            StatusCode::NOT_FOUND,
            "NotFound",
            "the server could not find the requested resource",
        );
    };
    let body = call.body.clone().unwrap_or(Value::Null);
    let query = call.query.as_deref().unwrap_or("");
    match (&call.method, target.name.is_some()) {
        (&Method::GET, true) => objects::get(state, target),
        (&Method::GET, false) if call.verb() == "watch" => unsupported("watch"),
        (&Method::GET, false) => objects::list(state, target, query),
        (&Method::POST, false) => objects::create(state, target, body),
        (&Method::PUT, true) => objects::update(state, target, body),
        (&Method::PATCH, true) => objects::patch(state, target, body, content_type),
        (&Method::DELETE, true) => objects::delete(state, target, &body),
        _ => unsupported(call.verb()),
    }
}

fn unsupported(verb: &str) -> Reply {
    Reply {
        status: StatusCode::METHOD_NOT_ALLOWED,
        body: json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": format!("{verb} is not supported by kube-order-test's in-memory server"),
            "reason": "MethodNotAllowed", "code": 405,
        }),
    }
}

impl Service<Request<Body>> for ApiServer {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let server = self.clone();
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let response = match body.collect_bytes().await {
                Ok(bytes) => server.answer(&parts, &bytes),
                Err(error) => {
                    let reply =
                        Reply::status(StatusCode::BAD_REQUEST, "BadRequest", &error.to_string());
                    Response::builder()
                        .status(reply.status)
                        .body(Body::from(reply.body.to_string().into_bytes()))
                        .expect("a valid response")
                }
            };
            Ok(response)
        })
    }
}
