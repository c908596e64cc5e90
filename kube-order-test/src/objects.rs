//! The in-memory server's verbs on its objects, as the Kubernetes API server answers them.

use http::StatusCode;
use serde_json::{json, Map, Value};

use crate::record::Target;
use crate::server::State;

/// The fixed time of every timestamp the server sets.
const NOW: &str = "2026-01-01T00:00:00Z";
/// A Pod's grace period when the delete does not give one.
const DEFAULT_GRACE_SECONDS: u64 = 30;

pub(crate) struct Reply {
    pub(crate) status: StatusCode,
    pub(crate) body: Value,
}

impl Reply {
    fn ok(status: StatusCode, body: Value) -> Reply {
        Reply { status, body }
    }

    /// A failure as a `Status` object, which kube reads into `Error::Api`.
    pub(crate) fn status(status: StatusCode, reason: &str, message: &str) -> Reply {
        let body = json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "code": status.as_u16(),
        });
        Reply { status, body }
    }

    fn not_found(target: &Target, name: &str) -> Reply {
        let message = format!("{} \"{name}\" not found", target.resource);
        Reply::status(StatusCode::NOT_FOUND, "NotFound", &message)
    }

    fn conflict(target: &Target, name: &str) -> Reply {
        let message = format!(
            "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; \
             please apply your changes to the latest version and try again",
            target.resource
        );
        Reply::status(StatusCode::CONFLICT, "Conflict", &message)
    }

    fn bad_request(message: &str) -> Reply {
        Reply::status(StatusCode::BAD_REQUEST, "BadRequest", message)
    }
}

type Key = (String, String, String, String);

fn key(target: &Target, name: &str) -> Key {
    (
        target.api.clone(),
        target.resource.clone(),
        target.namespace.clone().unwrap_or_default(),
        name.to_string(),
    )
}

fn next_revision(state: &mut State) -> String {
    state.revision += 1;
    state.revision.to_string()
}

pub(crate) fn get(state: &State, target: &Target) -> Reply {
    let name = target.name.as_deref().unwrap_or_default();
    match state.objects.get(&key(target, name)) {
        Some(object) => Reply::ok(StatusCode::OK, object.clone()),
        None => Reply::not_found(target, name),
    }
}

pub(crate) fn list(state: &State, target: &Target, query: &str) -> Reply {
    let mut filters = Vec::new();
    for (param, value) in query.split('&').filter_map(|pair| pair.split_once('=')) {
        let value = decode(value);
        match param {
            "labelSelector" => filters.push(Filter::labels(&value)),
            "fieldSelector" => filters.push(Filter::fields(&value)),
            _ => continue,
        }
    }
    let filters = match filters.into_iter().collect::<Result<Vec<_>, _>>() {
        Ok(filters) => filters,
        Err(message) => return Reply::bad_request(&message),
    };
    let items: Vec<Value> = state
        .objects
        .iter()
        .filter(|((api, resource, namespace, _), _)| {
            *api == target.api
                && *resource == target.resource
                && target.namespace.as_ref().map_or(true, |ns| ns == namespace)
        })
        .map(|(_, object)| object)
        .filter(|object| filters.iter().all(|filter| filter.accepts(object)))
        .cloned()
        .collect();
    let (api_version, kind) = state
        .kinds
        .get(&(target.api.clone(), target.resource.clone()))
        .cloned()
        .unwrap_or_else(|| {
            (
                target
                    .api
                    .trim_start_matches("/api/")
                    .trim_start_matches("/apis/")
                    .into(),
                String::new(),
            )
        });
    let body = json!({
        "apiVersion": api_version,
        "kind": format!("{kind}List"),
        "metadata": { "resourceVersion": state.revision.to_string() },
        "items": items,
    });
    Reply::ok(StatusCode::OK, body)
}

pub(crate) fn create(state: &mut State, target: &Target, mut object: Value) -> Reply {
    if !object.is_object() || !object["metadata"].is_object() && !object["metadata"].is_null() {
        return Reply::bad_request("the body is not an object");
    }
    let metadata = &mut object["metadata"];
    if metadata["name"].as_str().map_or(true, str::is_empty) {
        let Some(prefix) = metadata["generateName"].as_str() else {
            return Reply::status(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Invalid",
                "name or generateName is required",
            );
        };
        metadata["name"] = format!("{prefix}{:05}", state.revision + 1).into();
    }
    let name = metadata["name"].as_str().unwrap_or_default().to_string();
    match (&target.namespace, metadata["namespace"].as_str()) {
        (Some(ns), Some(given)) if ns != given => {
            return Reply::bad_request("the namespace of the provided object does not match the namespace sent on the request");
        }
        (Some(ns), None) => metadata["namespace"] = ns.clone().into(),
        _ => {}
    }
    let key = key(target, &name);
    if state.objects.contains_key(&key) {
        let message = format!("{} \"{name}\" already exists", target.resource);
        return Reply::status(StatusCode::CONFLICT, "AlreadyExists", &message);
    }
    let revision = next_revision(state);
    let metadata = &mut object["metadata"];
    metadata["resourceVersion"] = revision.clone().into();
    metadata["uid"] = format!("00000000-0000-0000-0000-{revision:0>12}").into();
    metadata["creationTimestamp"] = NOW.into();
    metadata
        .as_object_mut()
        .map(|m| m.remove("deletionTimestamp"));
    if let (Some(api_version), Some(kind)) =
        (object["apiVersion"].as_str(), object["kind"].as_str())
    {
        let kind = (api_version.to_string(), kind.to_string());
        state
            .kinds
            .insert((target.api.clone(), target.resource.clone()), kind);
    }
    state.objects.insert(key, object.clone());
    Reply::ok(StatusCode::CREATED, object)
}

pub(crate) fn update(state: &mut State, target: &Target, object: Value) -> Reply {
    let name = target.name.clone().unwrap_or_default();
    if object["metadata"]["name"]
        .as_str()
        .is_some_and(|given| given != name)
    {
        return Reply::bad_request("the name of the object does not match the name on the URL");
    }
    let Some(stored) = state.objects.get(&key(target, &name)) else {
        return Reply::not_found(target, &name);
    };
    if let Some(expected) = object["metadata"]["resourceVersion"].as_str() {
        if stored["metadata"]["resourceVersion"].as_str() != Some(expected) {
            return Reply::conflict(target, &name);
        }
    }
    let updated = object;
    store_write(state, target, &name, updated)
}

pub(crate) fn patch(state: &mut State, target: &Target, patch: Value, content_type: &str) -> Reply {
    let name = target.name.clone().unwrap_or_default();
    let apply = content_type.starts_with("application/apply-patch");
    if content_type.starts_with("application/json-patch") {
        let message = "JSON patch is not supported by kube-order-test's in-memory server";
        return Reply::status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "UnsupportedMediaType",
            message,
        );
    }
    let Some(stored) = state.objects.get(&key(target, &name)).cloned() else {
        if apply && target.subresource.is_none() {
            return create(
                state,
                &Target {
                    name: None,
                    ..target.clone()
                },
                patch,
            );
        }
        return Reply::not_found(target, &name);
    };
    if let Some(expected) = patch["metadata"]["resourceVersion"].as_str() {
        if stored["metadata"]["resourceVersion"].as_str() != Some(expected) {
            return Reply::conflict(target, &name);
        }
    }
    let mut patched = stored;
    merge(&mut patched, &patch);
    store_write(state, target, &name, patched)
}

/// Stores the new state of an existing object: the subresource rule, identity kept, a new
/// resourceVersion; an object being deleted goes once its last finalizer is removed.
fn store_write(state: &mut State, target: &Target, name: &str, mut object: Value) -> Reply {
    let key = key(target, name);
    let stored = state.objects[&key].clone();
    if target.subresource.as_deref() == Some("status") {
        let status = object["status"].take();
        object = stored.clone();
        object["status"] = status;
    } else if stored.get("status").is_some() {
        object["status"] = stored["status"].clone();
    }
    for field in [
        "name",
        "namespace",
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
    ] {
        match stored["metadata"].get(field) {
            Some(value) => object["metadata"][field] = value.clone(),
            None => {
                object["metadata"].as_object_mut().map(|m| m.remove(field));
            }
        }
    }
    object["metadata"]["resourceVersion"] = next_revision(state).into();
    // Being deleted, and this write removed the last finalizer (a Pod deleted gracefully, which
    // had none, stays: its kubelet would remove it).
    let deleting = object["metadata"].get("deletionTimestamp").is_some();
    if deleting && finalizers(&object).is_empty() && !finalizers(&stored).is_empty() {
        state.objects.remove(&key);
    } else {
        state.objects.insert(key, object.clone());
    }
    Reply::ok(StatusCode::OK, object)
}

fn finalizers(object: &Value) -> Vec<Value> {
    object["metadata"]["finalizers"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

pub(crate) fn delete(state: &mut State, target: &Target, options: &Value) -> Reply {
    let name = target.name.clone().unwrap_or_default();
    let key = key(target, &name);
    let Some(stored) = state.objects.get(&key).cloned() else {
        return Reply::not_found(target, &name);
    };
    let preconditions = &options["preconditions"];
    for field in ["resourceVersion", "uid"] {
        if let Some(expected) = preconditions[field].as_str() {
            if stored["metadata"][field].as_str() != Some(expected) {
                return Reply::conflict(target, &name);
            }
        }
    }
    let grace = options["gracePeriodSeconds"].as_u64();
    let pod = target.api == "/api/v1" && target.resource == "pods";
    let graceful = pod && grace != Some(0);
    if finalizers(&stored).is_empty() && !graceful {
        state.objects.remove(&key);
        return Reply::ok(StatusCode::OK, stored);
    }
    let mut object = stored;
    if object["metadata"].get("deletionTimestamp").is_none() {
        object["metadata"]["deletionTimestamp"] = NOW.into();
        if graceful {
            object["metadata"]["deletionGracePeriodSeconds"] =
                grace.unwrap_or(DEFAULT_GRACE_SECONDS).into();
        }
        object["metadata"]["resourceVersion"] = next_revision(state).into();
        state.objects.insert(key, object.clone());
    }
    Reply::ok(StatusCode::OK, object)
}

/// RFC 7386 JSON merge patch: objects merge, `null` removes, anything else replaces.
pub(crate) fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let target = target.as_object_mut().expect("made an object above");
    for (field, value) in patch {
        if value.is_null() {
            target.remove(field);
        } else {
            merge(target.entry(field.clone()).or_insert(Value::Null), value);
        }
    }
}

/// A label or field selector, equality-based only.
struct Filter {
    labels: bool,
    terms: Vec<(String, Option<String>, bool)>,
}

impl Filter {
    fn labels(selector: &str) -> Result<Filter, String> {
        Filter::parse(selector, true)
    }

    fn fields(selector: &str) -> Result<Filter, String> {
        let filter = Filter::parse(selector, false)?;
        match filter
            .terms
            .iter()
            .find(|(field, ..)| field != "metadata.name" && field != "metadata.namespace")
        {
            Some((field, ..)) => Err(format!(
                "field selector on `{field}` is not supported by the in-memory server"
            )),
            None => Ok(filter),
        }
    }

    /// Terms `k=v`, `k==v`, `k!=v`, and for labels `k` and `!k`.
    fn parse(selector: &str, labels: bool) -> Result<Filter, String> {
        let mut terms = Vec::new();
        for term in selector.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let parsed = if let Some((k, v)) = term.split_once("!=") {
                (k.trim().to_string(), Some(v.trim().to_string()), false)
            } else if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
                (k.trim().to_string(), Some(v.trim().to_string()), true)
            } else if term.contains(' ') || term.contains('(') {
                return Err(format!("selector `{term}`: only equality selectors are supported by the in-memory server"));
            } else if let Some(k) = term.strip_prefix('!') {
                (k.to_string(), None, false)
            } else {
                (term.to_string(), None, true)
            };
            terms.push(parsed);
        }
        Ok(Filter { labels, terms })
    }

    fn accepts(&self, object: &Value) -> bool {
        self.terms.iter().all(|(key, value, equal)| {
            let actual = if self.labels {
                object["metadata"]["labels"][key.as_str()].as_str()
            } else {
                let field = key.trim_start_matches("metadata.");
                object["metadata"][field].as_str()
            };
            match value {
                Some(value) => (actual == Some(value.as_str())) == *equal,
                None => actual.is_some() == *equal,
            }
        })
    }
}

/// Percent-decoding of a query value (kube encodes `=` and `,` in selectors).
fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_patch_follows_rfc_7386() {
        let mut target = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        merge(&mut target, &json!({"a": "z", "c": {"f": null}}));
        assert_eq!(target, json!({"a": "z", "c": {"d": "e"}}));
        let mut list = json!({"a": [1, 2]});
        merge(&mut list, &json!({"a": [3]}));
        assert_eq!(list, json!({"a": [3]}));
    }

    #[test]
    fn selectors_match_labels_and_names() {
        let object = json!({"metadata": {"name": "a", "labels": {"app": "blog", "tier": "web"}}});
        assert!(Filter::labels("app=blog,tier").unwrap().accepts(&object));
        assert!(!Filter::labels("app!=blog").unwrap().accepts(&object));
        assert!(Filter::labels("!missing").unwrap().accepts(&object));
        assert!(Filter::fields("metadata.name==a").unwrap().accepts(&object));
        assert!(Filter::fields("spec.nodeName=x").is_err());
        assert!(Filter::labels("app in (blog)").is_err());
        assert_eq!(decode("app%3Dblog%2Ctier"), "app=blog,tier");
    }
}
