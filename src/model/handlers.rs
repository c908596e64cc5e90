//! Web handlers run once per HTTP request, concurrently with themselves and with the other
//! handlers of their server (see [`HandlerRoute`]): two requests on one object, made by two
//! invocations, race like the operands of a `join!`. Nothing keeps two invocations apart, not
//! even two on the same object (unlike kube's `Controller`), so the question is only whether two
//! invocations name the same object, and whether their writes conflict.

use super::{
    verbs, Confidence, FileModel, HandlerRoute, NameExpr, Namespace, ObjectName, Request, Root,
    Sameness,
};

/// How two writes made by two invocations conflict (see [`Request::conflicts_across_requests`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HandlerConflict {
    /// A delete and a create, patch or replace: whichever lands last decides whether the
    /// object exists afterwards.
    DeleteAndWrite,
    /// A write whose invocation read the object first (a read-modify-write), and another
    /// write: when two interleave, one's update is lost.
    LostUpdate,
}

impl Request {
    /// Whether this request and `other`, made by two invocations of web handlers of one server
    /// (maybe of the same handler: `other` may be this very request), touch one object, and
    /// how surely: `definite` when the name and namespace are fixed (literals, constants);
    /// `possible` when both are built by the same expression from what the server hands the
    /// handlers (two HTTP requests carrying the same value, or the server's state) or from
    /// values of the code registering them. None otherwise: names built in different ways, or
    /// from values each invocation makes anew (a random suffix, a clock), are no evidence.
    pub fn same_object_across_requests(&self, other: &Request) -> Option<Confidence> {
        if !self.can_coexist(other)
            || self.handle.kind.is_none()
            || self.handle.kind != other.handle.kind
        {
            return None;
        }
        let (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) =
            (&self.object, &other.object)
        else {
            return None;
        };
        let name = names_across(a, b);
        let namespace = match (&self.handle.namespace, &other.handle.namespace) {
            (Namespace::Named(x), Namespace::Named(y)) => match names_across(x, y) {
                Sameness::Different => Sameness::Different,
                Sameness::Same => Sameness::Same,
                // Namespaces are few and shared.
                _ => Sameness::Related,
            },
            (x, y) => match x.compare(y) {
                Sameness::Same | Sameness::Different => x.compare(y),
                _ => Sameness::Related,
            },
        };
        let mut confidence = match name.and(namespace) {
            Sameness::Same => Confidence::Definite,
            Sameness::Related => Confidence::Possible,
            Sameness::Maybe | Sameness::Different => return None,
        };
        if self.name_from_get || other.name_from_get {
            confidence = confidence.min(Confidence::Possible);
        }
        Some(confidence.min(self.pair_cap(other)))
    }

    /// How this write and `other`, made by two invocations, overwrite each other: a delete and
    /// another write; or a write whose invocation read the object first (`reads_first`, for
    /// this request and for `other`) and another write (a read-modify-write). None for two
    /// creates (the second fails with AlreadyExists), two plain writes (each is what one HTTP
    /// request asked for; the last one wins, as if they had come one after the other), two
    /// deletes, Events, writes carrying a `resourceVersion` (409 Conflict instead of
    /// overwriting), and a status write with a main-resource write (disjoint fields).
    pub fn conflicts_across_requests(
        &self,
        other: &Request,
        reads_first: (bool, bool),
    ) -> Option<HandlerConflict> {
        let plain = |r: &Request| r.is_write() && !verbs::is_event(r.verb) && !r.is_guarded();
        if !plain(self) || !plain(other) {
            return None;
        }
        let deletes = |r: &Request| r.verb.method == "delete";
        match (deletes(self), deletes(other)) {
            (true, false) | (false, true) => return Some(HandlerConflict::DeleteAndWrite),
            (true, true) => return None,
            (false, false) => {}
        }
        let disjoint = self.writes_other_part_than(other);
        // A create after a read is a get-or-create: it fails when the object exists.
        let creates = |r: &Request| r.verb.creates();
        let read_first = (reads_first.0 && !creates(self)) || (reads_first.1 && !creates(other));
        (read_first && !disjoint).then_some(HandlerConflict::LostUpdate)
    }

    /// Why two invocations are taken to name one object, when not proved, for messages: the
    /// values the name is built from (`requests`: the two requests, as the message says).
    pub fn across_requests_note(&self, requests: &str) -> Option<String> {
        let ObjectName::One { name, text } = &self.object else {
            return None;
        };
        if across(name) == Sameness::Same {
            return None;
        }
        let shown = if text.is_empty() {
            "the name".to_string()
        } else {
            format!("`{text}`")
        };
        let mut roots = Vec::new();
        roots_of(name, &mut roots);
        let from_request = roots.iter().any(|r| match r {
            Root::Handled(ty) => !is_shared_state(ty),
            _ => false,
        });
        Some(if from_request {
            format!(
                "{shown} is built by the same code from what an HTTP request carries: {requests} carrying the same values name the same object (the tool cannot tell whether clients send such requests at once)"
            )
        } else {
            format!(
                "{shown} is built from values every one of {requests} is handed (the server's state, the code registering it): the same for all of them unless they change in between"
            )
        })
    }
}

/// A route with the requests one invocation of its handler makes.
pub type RouteRequests<'m> = (&'m HandlerRoute, &'m [Request]);

impl FileModel {
    /// The web handlers registered here, by server: the routes registered by one function (or
    /// closure) are taken to be one server's, each with the requests one invocation makes.
    pub fn handler_servers(&self) -> Vec<Vec<RouteRequests<'_>>> {
        let mut servers: Vec<(u32, Vec<RouteRequests<'_>>)> = Vec::new();
        for (route, requests) in &self.handlers {
            let entry = (route, requests.as_slice());
            match servers.iter_mut().find(|(body, _)| *body == route.raw.body) {
                Some((_, routes)) => routes.push(entry),
                None => servers.push((route.raw.body, vec![entry])),
            }
        }
        servers.into_iter().map(|(_, routes)| routes).collect()
    }
}

/// Whether a handler parameter's type is the server's shared state (`State<S>`,
/// `Extension<S>`, actix-web's `Data<S>`), handed alike to every invocation.
fn is_shared_state(ty: &str) -> bool {
    let outer = ty.split('<').next().unwrap_or(ty);
    let last = outer.rsplit("::").next().unwrap_or(outer);
    matches!(last, "State" | "Extension" | "Data")
}

/// Two names, made by two invocations: the same expression is as sure as [`across`] says;
/// two fixed names are compared; anything else is not evidence.
fn names_across(a: &NameExpr, b: &NameExpr) -> Sameness {
    if a == b {
        return across(a);
    }
    match (across(a), across(b)) {
        (Sameness::Same, Sameness::Same) => match a.compare(b) {
            Sameness::Different => Sameness::Different,
            Sameness::Same => Sameness::Same,
            _ => Sameness::Maybe,
        },
        _ => Sameness::Maybe,
    }
}

/// A name as made by two invocations of web handlers: `Same` when fixed (a literal, a
/// constant, a template of them), `Related` when made from what the server hands each
/// invocation or from the registering code's values (the same expression on the same inputs:
/// evidence, not proof), `Maybe` when not known or made anew by each invocation.
fn across(name: &NameExpr) -> Sameness {
    match name {
        NameExpr::Literal(_) => Sameness::Same,
        NameExpr::Path { root, .. } => match root {
            Root::Const(_) => Sameness::Same,
            Root::Handled(_) | Root::Binding(_) | Root::SelfValue(_) => Sameness::Related,
            Root::Reconciled(_) => Sameness::Maybe,
        },
        NameExpr::Format { parts, .. } => {
            parts.iter().map(across).fold(Sameness::Same, Sameness::and)
        }
        // Computed from nothing the tool sees (a clock, a counter, a random suffix): made anew.
        NameExpr::Computed { inputs, .. } if inputs.is_empty() => Sameness::Maybe,
        NameExpr::Computed { inputs, .. } => inputs
            .iter()
            .map(across)
            .fold(Sameness::Related, Sameness::and),
        NameExpr::Unknown => Sameness::Maybe,
    }
}

/// The roots a name is built from.
fn roots_of<'n>(name: &'n NameExpr, out: &mut Vec<&'n Root>) {
    match name {
        NameExpr::Path { root, .. } => out.push(root),
        NameExpr::Format { parts, .. } => parts.iter().for_each(|p| roots_of(p, out)),
        NameExpr::Computed { inputs, .. } => inputs.iter().for_each(|p| roots_of(p, out)),
        NameExpr::Literal(_) | NameExpr::Unknown => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handled(ty: &str, field: &str) -> NameExpr {
        NameExpr::Path {
            root: Root::Handled(ty.into()),
            fields: vec![field.into()],
        }
    }

    #[test]
    fn fixed_names_are_the_same_across_invocations() {
        let lit = NameExpr::Literal("cfg".into());
        assert_eq!(names_across(&lit, &lit), Sameness::Same);
        let other = NameExpr::Literal("other".into());
        assert_eq!(names_across(&lit, &other), Sameness::Different);
    }

    #[test]
    fn the_same_expression_of_the_request_is_related() {
        let a = NameExpr::format(
            vec![Some("pr-".into()), None],
            vec![handled("Json<E>", "n")],
        );
        assert_eq!(names_across(&a, &a.clone()), Sameness::Related);
        // Built differently from the request: no evidence.
        let b = handled("Json<E>", "n");
        assert_eq!(names_across(&a, &b), Sameness::Maybe);
        assert_eq!(
            names_across(&NameExpr::Unknown, &NameExpr::Unknown),
            Sameness::Maybe
        );
    }

    #[test]
    fn shared_state_is_told_from_the_request() {
        assert!(is_shared_state("State<AppState>"));
        assert!(is_shared_state("web::Data<Ctx>"));
        assert!(!is_shared_state("Json<Hook>"));
        assert!(!is_shared_state("web::Path<String>"));
    }
}
