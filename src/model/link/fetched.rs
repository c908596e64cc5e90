//! Names read from an object a request fetched (see [`Request::fetched`]): the fetched object's
//! kind is that of the handle its request is made through, known once the handle is resolved.

use super::Linker;
use crate::model::{Fetched, NameExpr, ObjectName, RawKind, Request, Root};

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
        let facts = self.shared.facts(pos);
        let at = facts
            .fetched_objects
            .binary_search_by_key(b, |(id, _)| *id)
            .ok()?;
        let RawKind::Api(call) = &facts.requests.get(facts.fetched_objects[at].1)?.kind else {
            return None;
        };
        let kind = self.resolve_handle(pos, &call.source)?.kind?;
        Some(Box::new(Fetched {
            kind,
            by: call.verb.method,
            fields: fields.clone(),
        }))
    }
}
