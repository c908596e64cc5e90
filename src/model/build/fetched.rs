//! Objects a request fetched: `let sync = svcs.get(&name).await?` binds the object the `get`
//! answers, `for sync in svcs.list(&lp).await?.items` each object the `list` answers (see
//! [`FileFacts::fetched_objects`](crate::model::FileFacts::fetched_objects)).

use syn::{Expr, Pat};

use super::{strip, Builder};
use crate::model::RawKind;

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
    pub(super) fn note_fetched(&mut self, pat: &Pat, init: &Expr) {
        let Some(entry) = self.fetching_entry(init, GETS) else {
            return;
        };
        if let Some(id) = self.only_binding(pat) {
            self.facts.fetched_objects.push((id, entry));
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
