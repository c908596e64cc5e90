//! Objects a request fetched: `let sync = svcs.get(&name).await?` binds the object the `get`
//! answers, `for sync in svcs.list(&lp).await?.items` each object the `list` answers (see
//! [`FileFacts::fetched_objects`](crate::model::FileFacts::fetched_objects)).

use syn::{Expr, Pat};

use super::{strip, Builder};
use crate::model::{NameExpr, RawKind, Root};

/// The requests whose answer is one object of the handle's kind.
const GETS: &[&str] = &[
    "get",
    "get_opt",
    "get_status",
    "get_metadata",
    "get_metadata_opt",
];

/// The requests whose answer is a list of objects of the handle's kind.
const LISTS: &[&str] = &["list", "list_metadata"];

impl Builder<'_> {
    /// `let sync = svcs.get(&name).await?;` (through `map_err`, `unwrap`, …; `let Ok(sync)`,
    /// `let Some(sync)` of a `get_opt`): the binding holds the object that request fetched.
    /// Also the `if let Some(secret) = secrets.get_opt(..).await?` of a condition and the
    /// `Ok(sync)` arm of a `match` on a `get`. Only a binding of the whole object (`x`,
    /// `Some(x)`, `Ok(x)`): a field destructured out of it (`let Secret { data, .. }`) is not
    /// the object its fields are read from.
    pub(super) fn note_fetched(&mut self, pat: &Pat, init: &Expr) {
        if !binds_whole_value(pat) {
            return;
        }
        let Some(entry) = self.fetching_entry(init, GETS) else {
            return;
        };
        if let Some(id) = self.only_binding(pat) {
            self.facts.fetched_objects.push((id, entry));
        }
    }

    /// `secret.metadata.name = Some(..)`, `secret.metadata = ..`, `secret.meta_mut().name =
    /// ..`: the binding no longer holds the name its fetch was made with, nor (for the whole
    /// metadata) the fields read from it, so it is no longer taken as a fetched object.
    pub(super) fn note_fetched_renamed(&mut self, left: &Expr) {
        let place = match strip(left) {
            // `meta_mut()` is the metadata: `x.meta_mut().name` is `x.metadata.name`.
            Expr::Field(f) => match (strip(&f.base), &f.member) {
                (Expr::MethodCall(m), syn::Member::Named(member))
                    if m.method == "meta_mut" && m.args.is_empty() =>
                {
                    match self.place(&m.receiver) {
                        Some(NameExpr::Path { root, mut fields }) => {
                            fields.extend(["metadata".to_string(), member.to_string()]);
                            Some(NameExpr::Path { root, fields })
                        }
                        _ => None,
                    }
                }
                _ => self.place(left),
            },
            _ => self.place(left),
        };
        let Some(NameExpr::Path {
            root: Root::Binding(b),
            fields,
        }) = place
        else {
            return;
        };
        let renames = ["metadata", "name"]
            .iter()
            .zip(&fields)
            .all(|(want, got)| want == got);
        if renames {
            self.facts.fetched_objects.retain(|(id, _)| *id != b);
        }
    }

    /// `let list = svcs.list(&lp).await?;`: the binding holds the answer of that list request,
    /// whose items a loop may go over.
    pub(super) fn note_fetched_list(&mut self, pat: &Pat, init: &Expr) {
        let Some(entry) = self.fetching_entry(init, LISTS) else {
            return;
        };
        if let Some(id) = self.only_binding(pat) {
            self.fetched_lists.insert(id, entry);
        }
    }

    /// The list request whose answered objects a loop goes over (`svcs.list(&lp).await?.items`,
    /// `&list.items`, `list.items.iter()`, `list`), if it is one. Asked before the pattern's
    /// bindings are in scope.
    pub(super) fn fetched_elements_of(&self, iterated: &Expr) -> Option<usize> {
        match strip(iterated) {
            Expr::Field(f) => self.fetched_elements_of(&f.base),
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(m.method.to_string().as_str(), "iter" | "into_iter") =>
            {
                self.fetched_elements_of(&m.receiver)
            }
            e @ Expr::Path(_) => self.fetched_lists.get(&self.path_binding(e)?).copied(),
            other => self.fetching_entry(other, LISTS),
        }
    }

    /// The bindings of a loop's pattern are objects that list request fetched.
    pub(super) fn note_fetched_elements(&mut self, pat: &Pat, entry: Option<usize>) {
        let Some(entry) = entry else {
            return;
        };
        let mut names = Vec::new();
        super::scopes::collect_pattern_idents(pat, &mut names);
        for name in names {
            if let Some(id) = self.lookup(&name).map(|b| b.id) {
                self.facts.fetched_objects.push((id, entry));
            }
        }
    }

    /// The entry of the request (one of `verbs`, on something that may be an `Api`) whose
    /// awaited answer an expression is, through `?` and the methods that pass a `Result`'s
    /// value on.
    fn fetching_entry(&self, expr: &Expr, verbs: &[&str]) -> Option<usize> {
        match strip(expr) {
            Expr::Try(t) => self.fetching_entry(&t.expr, verbs),
            Expr::MethodCall(m) if passes_value_on(m) => self.fetching_entry(&m.receiver, verbs),
            Expr::Await(a) => {
                let call @ Expr::MethodCall(m) = strip(&a.base) else {
                    return None;
                };
                let method = m.method.to_string();
                if !verbs.contains(&method.as_str()) {
                    return None;
                }
                let span = self.span(call);
                let &entry = self.entry_by_span.get(&(span.start, span.end))?;
                match &self.facts.requests[entry].kind {
                    RawKind::Api(c) if c.verb.method == method => Some(entry),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Whether the pattern's one binding is the whole value matched (`x`, `Some(x)`, `Ok(x)`,
/// `&x`, `Ok(Some(x))`), not a part destructured out of it.
fn binds_whole_value(pat: &Pat) -> bool {
    match pat {
        Pat::Ident(p) => p.subpat.is_none(),
        Pat::Reference(r) => binds_whole_value(&r.pat),
        Pat::Paren(p) => binds_whole_value(&p.pat),
        Pat::Type(t) => binds_whole_value(&t.pat),
        Pat::TupleStruct(t) => {
            t.elems.len() == 1
                && t.path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Some" || s.ident == "Ok")
                && binds_whole_value(&t.elems[0])
        }
        _ => false,
    }
}

/// A method of `Result` or `Option` (or anyhow's `Context`) that gives the value it holds, or
/// fails: `api.get(n).await.map_err(..)?` is the object the `get` answered.
fn passes_value_on(m: &syn::ExprMethodCall) -> bool {
    matches!(
        (m.method.to_string().as_str(), m.args.len()),
        ("unwrap", 0)
            | (
                "expect" | "map_err" | "context" | "with_context" | "ok_or" | "ok_or_else",
                1
            )
    )
}
