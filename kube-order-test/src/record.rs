//! What a request addresses, and the record of what the server saw, in order.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use http::{Method, StatusCode};
use serde_json::Value;

/// The object (or collection) a request path names: `/api/v1/namespaces/default/pods/blog/status`
/// is api `/api/v1`, resource `pods`, namespace `default`, name `blog`, subresource `status`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target {
    /// `/api/v1` for the core group, `/apis/<group>/<version>` otherwise.
    pub api: String,
    /// The resource's plural: `pods`, `configmaps`, `deployments`.
    pub resource: String,
    pub namespace: Option<String>,
    /// `None` for a collection (a list, a create, a delete of a collection).
    pub name: Option<String>,
    pub subresource: Option<String>,
}

impl Target {
    /// Reads a path of the Kubernetes REST API; `None` for other paths (`/version`, `/openapi`).
    pub fn parse(path: &str) -> Option<Target> {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let (api, rest) = match segments.as_slice() {
            ["api", version, rest @ ..] => (format!("/api/{version}"), rest),
            ["apis", group, version, rest @ ..] => (format!("/apis/{group}/{version}"), rest),
            _ => return None,
        };
        let owned = |s: &&str| s.to_string();
        // `namespaces/<ns>/<resource>/..` is namespaced; `namespaces/<name>[/status|/finalize]`
        // is the Namespace itself.
        let (namespace, rest) = match rest {
            ["namespaces", ns, resource, tail @ ..]
                if !matches!(*resource, "status" | "finalize") =>
            {
                (Some(ns.to_string()), [&[*resource][..], tail].concat())
            }
            _ => (None, rest.to_vec()),
        };
        let resource = rest.first().filter(|r| !r.is_empty())?.to_string();
        if rest.len() > 3 {
            return None;
        }
        Some(Target {
            api,
            resource,
            namespace,
            name: rest.get(1).map(owned),
            subresource: rest.get(2).map(owned),
        })
    }
}

/// One request as the layer (or the in-memory server) received it.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: Method,
    pub path: String,
    pub query: Option<String>,
    /// What the path names; for a create, `name` is the created object's (from the body).
    pub target: Option<Target>,
    /// The JSON body, if there is one.
    pub body: Option<Value>,
}

impl Call {
    pub(crate) fn new(parts: &http::request::Parts, body: &[u8]) -> Call {
        let body: Option<Value> = serde_json::from_slice(body).ok();
        let mut target = Target::parse(parts.uri.path());
        if let (Some(target), Some(body)) = (target.as_mut(), body.as_ref()) {
            if parts.method == Method::POST && target.name.is_none() {
                target.name = body["metadata"]["name"].as_str().map(str::to_string);
            }
        }
        Call {
            method: parts.method.clone(),
            path: parts.uri.path().to_string(),
            query: parts
                .uri
                .query()
                .filter(|q| !q.is_empty())
                .map(str::to_string),
            target,
            body,
        }
    }

    /// The Kubernetes verb: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
    /// `deletecollection`, or the method's name for anything else.
    pub fn verb(&self) -> &str {
        let named = self.target.as_ref().is_some_and(|t| t.name.is_some());
        let watch = self.query.as_deref().is_some_and(|q| {
            q.split('&')
                .any(|pair| pair == "watch=true" || pair == "watch=1")
        });
        match self.method {
            Method::GET if watch => "watch",
            Method::GET if named => "get",
            Method::GET => "list",
            Method::POST => "create",
            Method::PUT => "update",
            Method::PATCH => "patch",
            Method::DELETE if named => "delete",
            Method::DELETE => "deletecollection",
            _ => self.method.as_str(),
        }
    }

    /// Whether the request may change state at the server (everything but get, list, watch).
    pub fn is_write(&self) -> bool {
        !matches!(self.verb(), "get" | "list" | "watch")
    }

    /// Whether this is `verb` on the object `name` of `resource` (its plural), on the object
    /// itself or on one of its subresources: `call.is("patch", "pods", "blog")`.
    pub fn is(&self, verb: &str, resource: &str, name: &str) -> bool {
        self.verb() == verb
            && self
                .target
                .as_ref()
                .is_some_and(|t| t.resource == resource && t.name.as_deref() == Some(name))
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method, self.path)?;
        if let Some(query) = &self.query {
            write!(f, "?{query}")?;
        }
        if self.method == Method::POST {
            if let Some(name) = self.target.as_ref().and_then(|t| t.name.as_ref()) {
                write!(f, " ({name})")?;
            }
        }
        Ok(())
    }
}

/// What became of the caller of a request the server answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The caller got the answer.
    Answered,
    /// The caller had stopped waiting (its future was dropped) before the answer came.
    Dropped,
    /// The answer is withheld ([`crate::Reorder::cancel_after_send`]) and the caller still waits.
    Waiting,
}

/// One request the server saw, with its answer.
#[derive(Clone, Debug)]
pub struct Seen {
    pub call: Call,
    /// `None` when the service below failed without an HTTP answer.
    pub status: Option<StatusCode>,
    pub caller: Caller,
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> ", self.call)?;
        match self.status {
            Some(status) => write!(f, "{status}")?,
            None => write!(f, "no answer")?,
        }
        match self.caller {
            Caller::Answered => Ok(()),
            Caller::Dropped => write!(f, " (the caller had dropped the request's future)"),
            Caller::Waiting => write!(f, " (answer withheld: the caller still waits)"),
        }
    }
}

/// The requests a server saw, in the order it saw them. Cheap to clone: clones share the record.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Recording {
    pub fn new() -> Recording {
        Recording::default()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Seen>> {
        // A panic elsewhere while holding the lock leaves a usable Vec: keep recording.
        self.seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn push(&self, seen: Seen) -> usize {
        let mut all = self.lock();
        all.push(seen);
        all.len() - 1
    }

    pub(crate) fn set_caller(&self, index: usize, caller: Caller) {
        if let Some(seen) = self.lock().get_mut(index) {
            seen.caller = caller;
        }
    }

    /// Everything seen so far, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.lock().clone()
    }

    /// The position of the first request `matches` accepts.
    pub fn position(&self, matches: impl Fn(&Seen) -> bool) -> Option<usize> {
        self.lock().iter().position(matches)
    }

    /// Forgets what was seen (after a test's set-up, say).
    pub fn clear(&self) {
        self.lock().clear();
    }
}

impl fmt::Display for Recording {
    /// One numbered line per request: `  1. DELETE /api/v1/namespaces/default/pods/blog -> 200 OK`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seen) in self.lock().iter().enumerate() {
            writeln!(f, "{:>3}. {seen}", i + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_their_objects() {
        let t = Target::parse("/api/v1/namespaces/default/pods/blog/status").unwrap();
        assert_eq!(t.api, "/api/v1");
        assert_eq!(t.resource, "pods");
        assert_eq!(t.namespace.as_deref(), Some("default"));
        assert_eq!(t.name.as_deref(), Some("blog"));
        assert_eq!(t.subresource.as_deref(), Some("status"));

        let t = Target::parse("/apis/apps/v1/namespaces/ns/deployments").unwrap();
        assert_eq!(
            (t.api.as_str(), t.resource.as_str()),
            ("/apis/apps/v1", "deployments")
        );
        assert_eq!(t.name, None);

        let ns = Target::parse("/api/v1/namespaces/kube-system").unwrap();
        assert_eq!(
            (ns.resource.as_str(), ns.name.as_deref()),
            ("namespaces", Some("kube-system"))
        );
        assert_eq!(ns.namespace, None);
        let ns = Target::parse("/api/v1/namespaces/kube-system/finalize").unwrap();
        assert_eq!(ns.subresource.as_deref(), Some("finalize"));

        let node = Target::parse("/api/v1/nodes/n1").unwrap();
        assert_eq!((node.resource.as_str(), node.namespace), ("nodes", None));

        assert_eq!(Target::parse("/version"), None);
        assert_eq!(Target::parse("/api/v1/pods/a/b/c"), None);
    }

    fn call(method: Method, uri: &str, body: &str) -> Call {
        let (parts, _) = http::Request::builder()
            .method(method)
            .uri(uri)
            .body(())
            .unwrap()
            .into_parts();
        Call::new(&parts, body.as_bytes())
    }

    #[test]
    fn verbs_follow_method_path_and_query() {
        let pods = "/api/v1/namespaces/default/pods";
        assert_eq!(call(Method::GET, pods, "").verb(), "list");
        assert_eq!(
            call(Method::GET, &format!("{pods}?watch=true"), "").verb(),
            "watch"
        );
        assert_eq!(call(Method::GET, &format!("{pods}/a"), "").verb(), "get");
        assert_eq!(call(Method::DELETE, pods, "").verb(), "deletecollection");
        let create = call(Method::POST, pods, r#"{"metadata":{"name":"a"}}"#);
        assert!(create.is("create", "pods", "a"));
        assert!(create.is_write());
        assert!(!call(Method::GET, &format!("{pods}/a/status"), "").is_write());
        assert_eq!(create.to_string(), format!("POST {pods} (a)"));
    }
}
