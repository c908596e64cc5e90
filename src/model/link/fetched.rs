//! Names read from an object a request fetched (see [`Request::fetched`]): the fetched object's
//! kind is that of the handle its request is made through, known once the handle is resolved.
//! The name of an object fetched by name is the name it was fetched with.

use super::Linker;
use crate::model::{ApiCall, Argument, Fetched, NameExpr, ObjectName, RawKind, Request, Root};

impl Linker<'_> {
    /// The fetched object `r`'s name is read from, when it is a place rooted at a binding of
    /// file `pos` holding an object a `get` or `list` of that file fetched through an `Api` of
    /// a known kind; `r`'s own when it has one already (seen from a caller, the binding is
    /// gone).
    pub(super) fn fetched_object(&self, pos: usize, r: &Request) -> Option<Box<Fetched>> {
        if r.fetched.is_some() {
            return r.fetched.clone();
        }
        let ObjectName::One {
            name:
                NameExpr::Path {
                    root: Root::Binding(b),
                    fields,
                },
            ..
        } = &r.object
        else {
            return None;
        };
        let call = self.fetching_call(pos, *b)?;
        let kind = self.resolve_handle(pos, &call.source)?.kind?;
        Some(Box::new(Fetched {
            kind,
            by: call.verb.method,
            fields: fields.clone(),
        }))
    }

    /// `r`'s name with the name of each object fetched by name in it (`secret.name_any()`,
    /// `secret.metadata.name`, after `if let Some(secret) = secrets.get_opt("user-secret")`)
    /// replaced by the name the fetch was made with (`"user-secret"`): the server answers a
    /// `get` with the object of that name. Not an element of a list (a list names no object),
    /// nor when the fetch's name is not known (the two writes of `secret.name_any()` still
    /// name one object). Whether a name was replaced.
    pub(super) fn name_fetched_objects(&self, pos: usize, r: &mut Request) -> bool {
        let ObjectName::One { name, .. } = &mut r.object else {
            return false;
        };
        match self.fetched_with(pos, name) {
            Some(fetched_with) => {
                *name = fetched_with;
                true
            }
            None => false,
        }
    }

    /// See [`Linker::name_fetched_objects`]: None when nothing in `name` is replaced.
    fn fetched_with(&self, pos: usize, name: &NameExpr) -> Option<NameExpr> {
        match name {
            NameExpr::Path {
                root: Root::Binding(b),
                fields,
            } if fields == &["metadata", "name"] => {
                let call = self.fetching_call(pos, *b)?;
                // Only a `get` of an `Api`: a crate's own `get` answers what it likes.
                self.resolve_handle(pos, &call.source)?;
                match self.index().resolve_object(&call.object) {
                    ObjectName::One {
                        name: NameExpr::Unknown,
                        ..
                    }
                    | ObjectName::All => None,
                    ObjectName::One { name, .. } => Some(name),
                }
            }
            NameExpr::Format { pieces, parts } => {
                let replaced: Vec<Option<NameExpr>> =
                    parts.iter().map(|p| self.fetched_with(pos, p)).collect();
                if replaced.iter().all(Option::is_none) {
                    return None;
                }
                let parts = parts
                    .iter()
                    .zip(replaced)
                    .map(|(p, r)| r.unwrap_or_else(|| p.clone()))
                    .collect();
                Some(NameExpr::format(pieces.to_vec(), parts))
            }
            _ => None,
        }
    }

    /// The kind of the object an argument is when it is a binding of file `pos` holding an
    /// object fetched through an `Api` of a known kind (`let app = apps.get(..).await?`): what
    /// a generic callee taking it as `obj: &T` makes `T` (see
    /// [`FunctionFacts::typed_by_generic`](crate::model::FunctionFacts::typed_by_generic)).
    pub(super) fn fetched_kind(&self, pos: usize, arg: &Argument) -> Option<String> {
        let NameExpr::Path {
            root: Root::Binding(b),
            fields,
        } = &arg.name
        else {
            return None;
        };
        if !fields.is_empty() {
            return None;
        }
        let call = self.fetching_call(pos, *b)?;
        self.resolve_handle(pos, &call.source)?.kind
    }

    /// The `get` or `list` request of file `pos` whose answer binding `b` holds (see
    /// [`FileFacts::fetched_objects`](crate::model::FileFacts::fetched_objects)).
    fn fetching_call(&self, pos: usize, b: u64) -> Option<&ApiCall> {
        let facts = self.shared.facts(pos);
        let at = facts
            .fetched_objects
            .binary_search_by_key(&b, |(id, _)| *id)
            .ok()?;
        match &facts.requests.get(facts.fetched_objects[at].1)?.kind {
            RawKind::Api(call) => Some(call),
            RawKind::Helper(_) => None,
        }
    }
}
