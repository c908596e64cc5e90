//! The request methods of kube's `Api<K>` (kube 0.7x – 5.x) and what each does to which object.

/// Whether a request changes the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    Read,
    Write,
}

/// Where a request takes the name of the object it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The name is argument `n` (0-based).
    NameArg(usize),
    /// `create`: the name is in the metadata of argument `n` (the object to create).
    DataArg(usize),
    /// `list`, `watch`, `delete_collection`: every object of the collection.
    Collection,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Verb {
    pub method: &'static str,
    pub access: Access,
    pub target: Target,
    /// Third person, as in "creates Pod \"blog\"".
    pub does: &'static str,
    /// Noun for messages, as in "the create".
    pub noun: &'static str,
}

impl Verb {
    /// A delete of one object (`Api::delete`, kube-runtime's `delete_and_finalize`).
    pub fn deletes_one(&self) -> bool {
        matches!(self.method, "delete" | "delete_and_finalize")
    }

    /// `Api::create`: it fails with 409 AlreadyExists on an object that exists.
    pub fn creates(&self) -> bool {
        self.method == "create"
    }
}

/// Which part of an object a write changes: its status subresource, its main resource (spec,
/// metadata; the API server ignores status there when the kind has a status subresource), or
/// all of it (a create, a delete, a raw request, a subresource the tool does not tell apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Status,
    Main,
    Whole,
}

impl Verb {
    /// The part of the object this write changes (see [`Part`]).
    pub fn writes_part(&self) -> Part {
        match self.method {
            "patch_status" | "replace_status" => Part::Status,
            "patch" | "replace" | "patch_metadata" => Part::Main,
            _ => Part::Whole,
        }
    }
}

use Access::{Read, Write};
use Target::{Collection, DataArg, NameArg};

const fn v(
    method: &'static str,
    access: Access,
    target: Target,
    does: &'static str,
    noun: &'static str,
) -> Verb {
    Verb {
        method,
        access,
        target,
        does,
        noun,
    }
}

pub static VERBS: &[Verb] = &[
    // reads
    v("get", Read, NameArg(0), "reads", "get"),
    v("get_with", Read, NameArg(0), "reads", "get"),
    v("get_opt", Read, NameArg(0), "reads", "get"),
    v("get_opt_with", Read, NameArg(0), "reads", "get"),
    v("get_metadata", Read, NameArg(0), "reads", "get"),
    v("get_metadata_with", Read, NameArg(0), "reads", "get"),
    v("get_metadata_opt", Read, NameArg(0), "reads", "get"),
    v("get_metadata_opt_with", Read, NameArg(0), "reads", "get"),
    v("get_status", Read, NameArg(0), "reads the status of", "get"),
    v("get_scale", Read, NameArg(0), "reads the scale of", "get"),
    v(
        "get_subresource",
        Read,
        NameArg(1),
        "reads a subresource of",
        "get",
    ),
    v("get_ephemeral_containers", Read, NameArg(0), "reads", "get"),
    v("logs", Read, NameArg(0), "reads the logs of", "log read"),
    v(
        "log_stream",
        Read,
        NameArg(0),
        "streams the logs of",
        "log read",
    ),
    v("entry", Read, NameArg(0), "reads", "get"),
    v("list", Read, Collection, "lists", "list"),
    v("list_metadata", Read, Collection, "lists", "list"),
    v("watch", Read, Collection, "watches", "watch"),
    v("watch_metadata", Read, Collection, "watches", "watch"),
    // writes
    v("create", Write, DataArg(1), "creates", "create"),
    v("replace", Write, NameArg(0), "replaces", "replace"),
    v("patch", Write, NameArg(0), "patches", "patch"),
    v(
        "patch_metadata",
        Write,
        NameArg(0),
        "patches the metadata of",
        "patch",
    ),
    v("delete", Write, NameArg(0), "deletes", "delete"),
    v("delete_collection", Write, Collection, "deletes", "delete"),
    v(
        "patch_status",
        Write,
        NameArg(0),
        "patches the status of",
        "status patch",
    ),
    v(
        "replace_status",
        Write,
        NameArg(0),
        "replaces the status of",
        "status replace",
    ),
    v(
        "patch_scale",
        Write,
        NameArg(0),
        "patches the scale of",
        "scale patch",
    ),
    v(
        "replace_scale",
        Write,
        NameArg(0),
        "replaces the scale of",
        "scale replace",
    ),
    v(
        "create_subresource",
        Write,
        NameArg(1),
        "creates a subresource of",
        "create",
    ),
    v(
        "patch_subresource",
        Write,
        NameArg(1),
        "patches a subresource of",
        "patch",
    ),
    v(
        "replace_subresource",
        Write,
        NameArg(1),
        "replaces a subresource of",
        "replace",
    ),
    v(
        "patch_ephemeral_containers",
        Write,
        NameArg(0),
        "patches",
        "patch",
    ),
    v(
        "replace_ephemeral_containers",
        Write,
        NameArg(0),
        "replaces",
        "replace",
    ),
    v("evict", Write, NameArg(0), "evicts", "eviction"),
    v("restart", Write, NameArg(0), "restarts", "restart"),
    v("cordon", Write, NameArg(0), "cordons", "cordon"),
    v("uncordon", Write, NameArg(0), "uncordons", "uncordon"),
    v(
        "patch_approval",
        Write,
        NameArg(0),
        "patches the approval of",
        "patch",
    ),
];

/// Requests made through user-declared wrappers whose name is not one of kube's methods.
pub static WRAPPER_READ: Verb = v("wrapper read", Read, NameArg(0), "reads", "read");
pub static WRAPPER_WRITE: Verb = v("wrapper write", Write, NameArg(0), "writes", "write");

/// Requests made by kube-runtime's and kube-client's functions and methods other than `Api`'s
/// (see [`lookup_runtime`]). Their `method` is the function's name; `target` says where the
/// object's name is among the call's arguments.
pub static RUNTIME_VERBS: &[Verb] = &[
    // `kube::runtime::finalizer(&api, NAME, obj, reconcile)`: a JSON patch of
    // `/metadata/finalizers` of `obj` (adding the finalizer, or removing it after cleanup).
    v(
        "finalizer",
        Write,
        DataArg(2),
        "patches the finalizers of",
        "finalizer patch",
    ),
    // `Entry::commit(&pp)`: a create (vacant entry) or a replace (occupied entry).
    v("commit", Write, NameArg(0), "commits", "commit"),
    // `kube::runtime::wait::await_condition(api, name, cond)`: watches one object.
    v(
        "await_condition",
        Read,
        NameArg(1),
        "waits for a condition of",
        "condition wait",
    ),
    // `kube::runtime::wait::delete::delete_and_finalize(api, name, &dp)`: a delete, then a
    // watch until the object is gone.
    v(
        "delete_and_finalize",
        Write,
        NameArg(1),
        "deletes and waits for the removal of",
        "delete",
    ),
    // `Client::request`, `Client::send`, …: a raw HTTP request to an object the tool cannot see.
    v(
        "request",
        Write,
        Collection,
        "sends a request to",
        "raw request",
    ),
    v(
        "request_text",
        Write,
        Collection,
        "sends a request to",
        "raw request",
    ),
    v(
        "request_status",
        Write,
        Collection,
        "sends a request to",
        "raw request",
    ),
    v(
        "send",
        Write,
        Collection,
        "sends a request to",
        "raw request",
    ),
    // `Recorder::publish(&event, &reference)` (kube 0.91 and later; older: `publish(event)`,
    // the reference in the `Recorder`): a create of an Event, or a patch of its series.
    v("publish", Write, NameArg(1), "publishes an", "publish"),
];

/// The request method of kube's `Api<K>` of this name.
pub fn lookup(method: &str) -> Option<&'static Verb> {
    VERBS.iter().find(|v| v.method == method)
}

/// The kube-runtime or kube-client request function or method of this name (see
/// [`RUNTIME_VERBS`]): not `Api` methods, so [`lookup`] does not give them.
pub fn lookup_runtime(method: &str) -> Option<&'static Verb> {
    RUNTIME_VERBS.iter().find(|v| v.method == method)
}

/// Where a write takes its body, the object or patch it sends: after the name and the params
/// of `patch`, `patch_status`, `replace`, `replace_status`, … (None for other verbs).
pub fn body_arg(verb: &Verb) -> Option<usize> {
    let sends_body = verb.method.starts_with("patch") || verb.method.starts_with("replace");
    match verb.target {
        Target::NameArg(name) if sends_body && verb.access == Access::Write => Some(name + 2),
        _ => None,
    }
}

/// Is this the verb of an event publish (its object is the Event about a reference)?
pub fn is_event(verb: &Verb) -> bool {
    verb.method == "publish"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_name_the_part_they_change() {
        let part = |m: &str| lookup(m).unwrap().writes_part();
        assert_eq!(part("patch_status"), Part::Status);
        assert_eq!(part("replace_status"), Part::Status);
        assert_eq!(part("patch"), Part::Main);
        assert_eq!(part("patch_metadata"), Part::Main);
        assert_eq!(part("delete"), Part::Whole);
        assert_eq!(part("create"), Part::Whole);
    }

    #[test]
    fn method_names_are_unique() {
        for verbs in [VERBS, RUNTIME_VERBS] {
            for (i, a) in verbs.iter().enumerate() {
                assert!(
                    verbs[i + 1..].iter().all(|b| b.method != a.method),
                    "{}",
                    a.method
                );
            }
        }
        // `lookup` and `lookup_runtime` never give the same name two meanings.
        for r in RUNTIME_VERBS {
            assert!(lookup(r.method).is_none(), "{}", r.method);
            assert_eq!(lookup_runtime(r.method), Some(r));
        }
        assert!(is_event(lookup_runtime("publish").unwrap()));
        assert!(!is_event(lookup("patch").unwrap()));
    }

    #[test]
    fn subresource_calls_take_the_name_second() {
        assert_eq!(lookup("get_subresource").unwrap().target, NameArg(1));
        assert_eq!(lookup("create").unwrap().target, DataArg(1));
        assert!(lookup("send").is_none());
    }

    #[test]
    fn bodies_follow_the_name_and_the_params() {
        let body = |m| body_arg(lookup(m).unwrap());
        assert_eq!(body("patch"), Some(2));
        assert_eq!(body("replace_status"), Some(2));
        assert_eq!(body("patch_subresource"), Some(3));
        assert_eq!(body("delete"), None);
        assert_eq!(body("create"), None);
    }
}
