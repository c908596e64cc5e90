//! Whether a write's body carries a `resourceVersion` precondition (see [`Precondition`]):
//! `json!({"metadata": {"resourceVersion": v}})`, `ObjectMeta { resource_version: Some(v), .. }`,
//! in a `Patch::Merge`/`Strategic`/`Apply` or not, written at the call, in a local, or passed
//! in by a parameter (then the callers say, at link time), or returned by a crate function
//! (then that function's tail says, at link time).

use proc_macro2::{TokenStream, TokenTree};
use syn::Expr;

use super::{ident_in, member_is, same_object, sites, strip, Builder};
use crate::model::{Precondition, RawKind};

/// The `Patch` variants whose body is the object's fields: a `resourceVersion` among them is
/// a precondition. (`Patch::Json` is a list of operations.)
const OBJECT_PATCHES: &[&str] = &["Apply", "Merge", "Strategic"];

impl Builder<'_> {
    /// What the body expression of a write carries.
    pub(super) fn precondition_of(&self, body: &Expr) -> Precondition {
        let guarded = |yes: bool| {
            if yes {
                Precondition::ResourceVersion
            } else {
                Precondition::None
            }
        };
        let body = same_object(body);
        match body {
            // `serde_json::to_vec(&obj)?`: the object, serialised with its metadata.
            e if serialised(e).is_some() => {
                serialised(e).map_or(Precondition::None, |o| self.precondition_of(o))
            }
            Expr::Macro(m) if is_json(&m.mac) => guarded(json_sets_resource_version(&m.mac.tokens)),
            Expr::Struct(s) => guarded(struct_sets_resource_version(s)),
            Expr::Call(c) if c.args.len() == 1 && is_object_patch(&c.func) => {
                self.precondition_of(&c.args[0])
            }
            Expr::Path(p) => {
                let Some(b) = p.path.get_ident().and_then(|i| self.lookup(&i.to_string())) else {
                    return Precondition::None;
                };
                if let Some(&p) = self.body_preconditions.get(&b.id) {
                    return self.recorded_precondition(p);
                }
                let function = self.functions.last().map(|&f| &self.facts.functions[f]);
                match function {
                    Some(f) if f.params.contains(&Some(b.id)) => Precondition::Param(b.id),
                    _ => Precondition::None,
                }
            }
            // An object as read carries the `resourceVersion` it was read at.
            e if is_awaited_get(e) => Precondition::ResourceVersion,
            Expr::Field(_) if self.field_precondition(body).is_some() => {
                self.field_precondition(body).unwrap_or_default()
            }
            Expr::Field(_) if self.is_stored_object(body) => Precondition::Stored,
            // `let body = match state { .. => return Ok(()), _ => { ..; lease } }`: what every
            // arm that gives a value gives.
            Expr::Match(m) => agreed(m.arms.iter().map(|a| self.way(&a.body))),
            Expr::If(i) => match &i.else_branch {
                Some((_, other)) => {
                    agreed([self.way_block(&i.then_branch), self.way(other)].into_iter())
                }
                None => Precondition::None,
            },
            Expr::Block(b) => self.way_block(&b.block).unwrap_or_default(),
            // What a crate function returns (`lease_patch(record)`): the callee says, at link time.
            e @ (Expr::Call(_) | Expr::MethodCall(_)) => self.returned_by_call(e),
            _ => Precondition::None,
        }
    }

    /// A call already recorded as a call of a crate function (its arguments are visited
    /// before the write that takes it): the body it returns, resolved by `link`.
    fn returned_by_call(&self, call: &Expr) -> Precondition {
        let span = self.span(call);
        match self.entry_by_span.get(&(span.start, span.end)) {
            Some(&i) if matches!(self.facts.requests[i].kind, RawKind::Helper(_)) => {
                Precondition::Returned(i)
            }
            _ => Precondition::None,
        }
    }

    /// What one way of a `match` or `if` gives; None when it leaves instead (`return`,
    /// `continue`, `break`).
    fn way(&self, expr: &Expr) -> Option<Precondition> {
        match strip(expr) {
            Expr::Return(_) | Expr::Continue(_) | Expr::Break(_) => None,
            Expr::Block(b) => self.way_block(&b.block),
            e => Some(self.precondition_of(e)),
        }
    }

    /// The value a block gives, its tail; None when its last statement leaves. A local given
    /// as the tail is looked up in the scope the visit is in, where the block's own `let`s were
    /// recorded when it was visited (a `let` takes the block as its initialiser afterwards).
    fn way_block(&self, block: &syn::Block) -> Option<Precondition> {
        let span = self.span(block);
        if let Some(&p) = self.block_preconditions.get(&(span.start, span.end)) {
            return Some(p);
        }
        match block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => self.way(tail),
            Some(syn::Stmt::Expr(Expr::Return(_) | Expr::Continue(_) | Expr::Break(_), _)) => None,
            _ => Some(Precondition::None),
        }
    }

    /// Before a block's scope closes: what the local it gives as its value carries.
    pub(super) fn note_block_body(&mut self, block: &syn::Block) {
        let Some(syn::Stmt::Expr(tail @ Expr::Path(_), None)) = block.stmts.last() else {
            return;
        };
        let p = self.precondition_of(tail);
        if p != Precondition::None {
            let span = self.span(block);
            self.block_preconditions.insert((span.start, span.end), p);
        }
    }

    /// `self.last_observed` (through `clone()`): a field whose declared type is a struct of
    /// its own (not JSON, text or a collection), a whole object kept between requests.
    pub(super) fn is_stored_object(&self, field: &Expr) -> bool {
        let ty = self.expr_type(field);
        ty.item.is_none()
            && ty.name.as_deref().is_some_and(|n| {
                n.starts_with(|c: char| c.is_ascii_uppercase())
                    && !matches!(
                        n,
                        "Value"
                            | "Patch"
                            | "String"
                            | "Vec"
                            | "Option"
                            | "Box"
                            | "Arc"
                            | "Rc"
                            | "HashMap"
                            | "BTreeMap"
                            | "Bytes"
                    )
            })
    }

    /// A `let` binding of a body: what it carries, for the writes that are given the binding.
    pub(super) fn note_body_binding(&mut self, id: u64, init: &Expr) {
        self.note_fresh_read(id, init);
        match self.precondition_of(init) {
            Precondition::None => {}
            p => {
                self.body_preconditions.insert(id, p);
            }
        }
    }
}

impl Builder<'_> {
    /// `obj.metadata.resource_version = old.metadata.resource_version;`: the body `obj` now
    /// carries the version it was read at (garage_rpc's get-then-replace). `= None` clears it.
    pub(super) fn note_resource_version_assigned(&mut self, field: &syn::ExprField, value: &Expr) {
        if self.note_version_refreshed(field, value) {
            return;
        }
        let Expr::Field(meta) = strip(&field.base) else {
            return;
        };
        if !member_is(&field.member, "resource_version") || !member_is(&meta.member, "metadata") {
            return;
        }
        let Some(id) = self.path_binding(strip(&meta.base)) else {
            return;
        };
        if matches!(strip(value), Expr::Path(p) if p.path.is_ident("None")) {
            self.body_preconditions.insert(id, Precondition::Cleared);
        } else {
            self.body_preconditions
                .insert(id, Precondition::ResourceVersion);
        }
    }
}

/// `api.get(name).await?` (through `map_err`, `unwrap`, `expect`, `context` and `?`): the
/// object as the API server answered, with its `resourceVersion`. The `.await` tells a request
/// from `HashMap::get`.
fn is_awaited_get(expr: &Expr) -> bool {
    awaited_get(expr).is_some()
}

/// The `get` request call of an awaited `get` (see [`is_awaited_get`]).
pub(super) fn awaited_get(expr: &Expr) -> Option<&syn::ExprMethodCall> {
    const ADAPTERS: &[&str] = &[
        "map_err",
        "unwrap",
        "expect",
        "context",
        "with_context",
        "wrap_err",
        "with_whatever_context",
    ];
    let Expr::Await(a) = without_adapters(expr, ADAPTERS)? else {
        return None;
    };
    match under_deadline(strip(&a.base)) {
        Expr::MethodCall(m)
            if ident_in(
                &m.method,
                &[
                    "get",
                    "get_with",
                    "get_status",
                    "get_metadata",
                    "get_metadata_with",
                    "get_scale",
                ],
            ) =>
        {
            Some(m)
        }
        _ => None,
    }
}

/// `expr` without the `?` and the `adapters` (`map_err(..)`, `unwrap()`, …) around the value
/// they pass on; None past a chain of 16 (a chain of adapters is short; the bound keeps a
/// pathological one linear).
fn without_adapters<'e>(expr: &'e Expr, adapters: &[&str]) -> Option<&'e Expr> {
    let mut expr = strip(expr);
    for _ in 0..16 {
        match expr {
            Expr::Try(t) => expr = strip(&t.expr),
            Expr::MethodCall(m) if ident_in(&m.method, adapters) => expr = strip(&m.receiver),
            _ => return Some(expr),
        }
    }
    None
}

/// `serde_json::to_vec(&obj)?` (`to_vec_pretty`, `to_value`, `to_string`, through the error
/// adapters of a read): `obj`, the body as the API server receives it.
fn serialised(expr: &Expr) -> Option<&Expr> {
    const ADAPTERS: &[&str] = &[
        "map_err",
        "unwrap",
        "expect",
        "context",
        "with_context",
        "wrap_err",
    ];
    let Expr::Call(c) = without_adapters(expr, ADAPTERS)? else {
        return None;
    };
    if c.args.len() != 1 {
        return None;
    }
    let Expr::Path(p) = strip(&c.func) else {
        return None;
    };
    match sites::segments(&p.path).as_slice() {
        [.., krate, f]
            if krate == "serde_json"
                && matches!(
                    f.as_str(),
                    "to_vec" | "to_vec_pretty" | "to_value" | "to_string" | "to_string_pretty"
                ) =>
        {
            Some(&c.args[0])
        }
        _ => None,
    }
}

/// The future a deadline is put on (`timeout(d, api.get(name))`, `tokio::time::timeout_at(..)`):
/// what it answers in time is that future's output, so the adapters after the `.await` reach it.
fn under_deadline(future: &Expr) -> &Expr {
    match future {
        Expr::Call(c) if c.args.len() == 2 => match strip(&c.func) {
            Expr::Path(p) if sites::timeout_fn(&p.path) => strip(&c.args[1]),
            _ => future,
        },
        _ => future,
    }
}

/// What the ways that give a value give, when they all agree; otherwise nothing known.
fn agreed(ways: impl Iterator<Item = Option<Precondition>>) -> Precondition {
    let mut given = ways.flatten();
    let Some(first) = given.next() else {
        return Precondition::None;
    };
    if given.all(|p| p == first) {
        first
    } else {
        Precondition::None
    }
}

fn is_json(mac: &syn::Macro) -> bool {
    mac.path.segments.last().is_some_and(|s| s.ident == "json")
}

/// `Patch::Merge`, `kube::api::Patch::Apply`, …
fn is_object_patch(func: &Expr) -> bool {
    let Expr::Path(p) = strip(func) else {
        return false;
    };
    if !sites::last_is(&p.path, OBJECT_PATCHES) {
        return false;
    }
    match sites::segments(&p.path).as_slice() {
        [.., patch, variant] => patch == "Patch" && OBJECT_PATCHES.contains(&variant.as_str()),
        _ => false,
    }
}

/// `Lease { metadata: ObjectMeta { resource_version: Some(v), .. }, .. }`, or the `ObjectMeta`
/// itself (the body of `patch_metadata`).
fn struct_sets_resource_version(s: &syn::ExprStruct) -> bool {
    s.fields.iter().any(|field| {
        let syn::Member::Named(member) = &field.member else {
            return false;
        };
        match strip(&field.expr) {
            Expr::Struct(meta) if member == "metadata" => struct_sets_resource_version(meta),
            Expr::Call(c) if member == "resource_version" => {
                matches!(strip(&c.func), Expr::Path(p) if p.path.is_ident("Some"))
            }
            _ => false,
        }
    })
}

/// `json!({ .., "metadata": { .., "resourceVersion": v } })`, `v` not `null` or `None` (which
/// serialise to no precondition). Only the object's own metadata counts, not a template's.
fn json_sets_resource_version(tokens: &TokenStream) -> bool {
    let Some(TokenTree::Group(object)) = tokens.clone().into_iter().next() else {
        return false;
    };
    let Some(TokenTree::Group(metadata)) = value_of(object.stream(), "metadata").first().cloned()
    else {
        return false;
    };
    let version = value_of(metadata.stream(), "resourceVersion");
    let null = |t: &TokenTree| matches!(t, TokenTree::Ident(i) if i == "null" || i == "None");
    !version.is_empty() && !version.last().is_some_and(null)
}

/// The tokens of the value of `"key": value` at the top level of a JSON object's tokens.
fn value_of(object: TokenStream, key: &str) -> Vec<TokenTree> {
    let tokens: Vec<TokenTree> = object.into_iter().collect();
    let quoted = format!("{key:?}");
    let is_comma = |t: &TokenTree| matches!(t, TokenTree::Punct(p) if p.as_char() == ',');
    let mut entries = tokens.split(is_comma);
    entries
        .find_map(|entry| match entry {
            [TokenTree::Literal(k), TokenTree::Punct(colon), value @ ..]
                if k.to_string() == quoted && colon.as_char() == ':' =>
            {
                Some(value.to_vec())
            }
            _ => None,
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(src: &str) -> bool {
        let mac: syn::Macro = syn::parse_str(src).unwrap();
        json_sets_resource_version(&mac.tokens)
    }

    fn literal(src: &str) -> bool {
        let s: syn::ExprStruct = syn::parse_str(src).unwrap();
        struct_sets_resource_version(&s)
    }

    #[test]
    fn json_bodies_carry_the_object_metadata_resource_version() {
        assert!(json(
            r#"json!({"kind": "Lease", "metadata": {"name": n, "resourceVersion": meta.version}, "spec": {}})"#
        ));
        assert!(json(
            r#"serde_json::json!({"metadata": {"resourceVersion": "42"}})"#
        ));
        // No precondition: none written, a null one, one in a template's metadata, a key
        // only mentioned in a value.
        assert!(!json(r#"json!({"metadata": {"name": n}, "spec": {}})"#));
        assert!(!json(
            r#"json!({"metadata": {"resourceVersion": Option::<()>::None}})"#
        ));
        assert!(!json(r#"json!({"metadata": {"resourceVersion": null}})"#));
        assert!(!json(
            r#"json!({"spec": {"template": {"metadata": {"resourceVersion": v}}}})"#
        ));
        assert!(!json(
            r#"json!({"note": "resourceVersion", "metadata": {}})"#
        ));
    }

    #[test]
    fn struct_literals_carry_some_resource_version() {
        assert!(literal(
            "Lease { metadata: ObjectMeta { name: Some(n), resource_version: Some(v), ..Default::default() }, spec: None }"
        ));
        assert!(literal(
            "ObjectMeta { resource_version: Some(v.clone()), ..Default::default() }"
        ));
        assert!(!literal("Lease { metadata: ObjectMeta { resource_version: None, ..Default::default() }, spec: None }"));
        assert!(!literal("Lease { metadata: meta, spec: None }"));
        assert!(!literal(
            "Deployment { spec: Some(DeploymentSpec { template: PodTemplateSpec { metadata: Some(ObjectMeta { resource_version: Some(v), ..Default::default() }), ..Default::default() }, ..Default::default() }), ..Default::default() }"
        ));
    }

    #[test]
    fn objects_read_carry_their_resource_version() {
        let read = |src: &str| is_awaited_get(&syn::parse_str::<Expr>(src).unwrap());
        assert!(read("cms.get(\"a\").await?"));
        assert!(read("cms.get_status(&name).await.map_err(Error::Kube)?"));
        assert!(read("api.get(n).await.unwrap()"));
        // Under a deadline: the timeout's error, then the request's, are taken off.
        assert!(read(
            "timeout(T, api.get(n)).await.context(\"t\")?.context(\"g\")?"
        ));
        assert!(read("tokio::time::timeout(T, api.get(n)).await??"));
        assert!(!read("timeout(T, api.list(&lp)).await??"));
        assert!(!read("my::deadline(T, api.get(n)).await??"));
        assert!(!read("map.get(&k)"));
        assert!(!read("cms.get_opt(\"a\").await?"));
        assert!(!read("cms.list(&lp).await?"));
    }

    #[test]
    fn object_patches_are_read_through() {
        let func = |src: &str| is_object_patch(&syn::parse_str::<Expr>(src).unwrap());
        assert!(func("Patch::Strategic"));
        assert!(func("kube::api::Patch::Apply"));
        assert!(!func("Patch::Json"));
        assert!(!func("Strategic"));
    }
}
