//! Statements: what a `let` binds (the value, a site's binding, a request future, computed locals),
//! and the usage a statement gives the site or `.await` it ends with.

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::scopes::collect_pattern_idents;
use super::{strip, strip_parens, strip_pat, Builder, Value};
use crate::model::{sites, NameExpr, SiteBinding, SiteUsage};
use crate::source::Span;

impl Builder<'_> {
    /// `let` statements: the value bound, and what the binding is.
    pub(super) fn visit_local_binding(&mut self, local: &syn::Local) {
        let first = self.facts.requests.len();
        let mut value = Value::Unknown;
        if let Some(init) = &local.init {
            // `let (a, b) = try_join!(x, y)?;` — remember the binding for the site's help.
            if let Some(usage) = self.site_usage(&init.expr) {
                let tuple = match strip_pat(&local.pat) {
                    Pat::Tuple(t) => Some(t),
                    _ => None,
                };
                let elements =
                    tuple.map(|t| t.elems.iter().map(|p| self.text(p)).collect::<Vec<_>>());
                let pattern = match &local.pat {
                    Pat::Type(t) => &*t.pat,
                    p => p,
                };
                let splittable = local.attrs.is_empty()
                    && !matches!(local.pat, Pat::Type(_))
                    && init.diverge.is_none()
                    && tuple.is_some_and(|t| !t.elems.iter().any(|p| matches!(p, Pat::Rest(_))));
                self.site_bindings.insert(
                    usage.site,
                    SiteBinding {
                        stmt: self.span(local),
                        elements,
                        question_mark: usage.question_mark,
                        pattern: self.span(pattern),
                        splittable,
                    },
                );
                self.note_usage(usage, None);
            }
            self.visit_expr(&init.expr);
            if let Some((_, diverge)) = &init.diverge {
                self.visit_let_else(diverge);
            }
            value = self.eval(&init.expr, first);
            value = self.annotated_collection(&local.pat, value, &init.expr);
            if let Some(function) = self.function_value(&init.expr, first) {
                value = function;
            }
            // `let name = name.clone();` (to move it into a task): the same name, unless the
            // copy can be changed afterwards.
            if let (Value::Unknown, Pat::Ident(p)) = (&value, strip_pat(&local.pat)) {
                // A struct literal's binding is a copy of it (see `note_copy`), not a name.
                let literal = matches!(strip(&init.expr), Expr::Struct(_));
                if p.mutability.is_none() && p.by_ref.is_none() && p.subpat.is_none() && !literal {
                    if let name @ NameExpr::Path { .. } = self.name_of(&init.expr) {
                        value = Value::Name(name);
                    }
                }
            }
            let deps = self.deps_of_expr(&init.expr);
            if self.is_request_future(&init.expr, first) {
                if let Pat::Ident(p) = strip_pat(&local.pat) {
                    if p.subpat.is_none() {
                        self.with_deps(deps, |b| b.bind_local(local, value, first));
                        if let Some(b) = self.lookup(&p.ident.to_string()) {
                            self.request_futures.insert(b.id);
                        }
                        // A crate call not awaited may be a plain function (a cache lookup).
                        self.note_listing(&local.pat, &init.expr);
                        return;
                    }
                }
            }
            let inputs = self.referenced_bindings(&init.expr);
            self.with_deps(deps, |b| b.bind_local(local, value, first));
            self.note_list_result(&local.pat, first);
            self.note_fetched(&local.pat, &init.expr);
            self.note_fetched_list(&local.pat, &init.expr);
            self.note_listing(&local.pat, &init.expr);
            self.note_listed_names(&local.pat, &init.expr);
            self.note_copy(local, &init.expr);
            self.note_computed_locals(local, &init.expr, inputs);
            if let Pat::Ident(p) = strip_pat(&local.pat) {
                if let Some(id) = self.lookup(&p.ident.to_string()).map(|b| b.id) {
                    self.note_body_binding(id, &init.expr);
                }
            }
            return;
        }
        self.bind_local(local, value, first);
    }

    /// A statement, under its `cfg`.
    pub(super) fn visit_stmt_here(&mut self, stmt: &syn::Stmt) {
        // `tokio::try_join!(a, b)?;` and `join(a, b).await;`: the statement is the site's usage.
        match stmt {
            syn::Stmt::Expr(e, Some(semi)) if expr_attrs(e).is_empty() => {
                if let Some(usage) = self.site_usage(e) {
                    let start = self.span(e).start;
                    let end = self.span(semi).end;
                    let statement = Span {
                        file: self.source.id,
                        start,
                        end,
                    };
                    self.note_usage(usage, Some(statement));
                }
            }
            syn::Stmt::Macro(m)
                if m.attrs.is_empty()
                    && m.semi_token.is_some()
                    && sites::join_macro(&m.mac.path).is_some() =>
            {
                let span = self.span(&m.mac);
                let statement = self.span(m);
                self.site_usages.insert(
                    (span.start, span.end),
                    SiteUsage {
                        span,
                        awaited: false,
                        question_mark: false,
                        statement: Some(statement),
                    },
                );
            }
            _ => {}
        }
        // `fut.await?;`: the statement is the await's usage.
        if let syn::Stmt::Expr(e, Some(semi)) = stmt {
            let (awaited, question_mark) = match strip_parens(e) {
                Expr::Try(t) => match strip_parens(&t.expr) {
                    Expr::Await(a) => (Some(a), true),
                    _ => (None, false),
                },
                Expr::Await(a) => (Some(a), false),
                _ => (None, false),
            };
            if let Some(a) = awaited.filter(|_| expr_attrs(e).is_empty()) {
                let span = self.span(e);
                let statement = Span {
                    file: self.source.id,
                    start: span.start,
                    end: self.span(semi).end,
                };
                let at = self.span(a);
                self.await_usages.insert(
                    (at.start, at.end),
                    SiteUsage {
                        span,
                        awaited: true,
                        question_mark,
                        statement: Some(statement),
                    },
                );
            }
        }
        match stmt {
            syn::Stmt::Expr(e, Some(_)) => {
                let first = self.facts.requests.len();
                self.visit_expr(e);
                self.statement_drops(e, first);
            }
            _ => visit::visit_stmt(self, stmt),
        }
    }
}

/// The attributes written on an expression statement's expression.
fn expr_attrs(expr: &Expr) -> &[syn::Attribute] {
    match expr {
        Expr::Try(e) => &e.attrs,
        Expr::Await(e) => &e.attrs,
        Expr::Macro(e) => &e.attrs,
        Expr::Call(e) => &e.attrs,
        Expr::MethodCall(e) => &e.attrs,
        Expr::Paren(e) => &e.attrs,
        _ => &[],
    }
}

/// `let (a, b) = (x, y);` as `let a = x; let b = y;`, when that means the same: a tuple
/// pattern without `..` over a tuple of as many elements, none of which reads a name the
/// pattern binds (`let (a, b) = (b, a)` swaps), with no `else` and no attributes.
pub(super) fn split_tuple_local(local: &syn::Local) -> Option<Vec<syn::Local>> {
    let (Pat::Tuple(pats), Some(init)) = (&local.pat, &local.init) else {
        return None;
    };
    let Expr::Tuple(exprs) = &*init.expr else {
        return None;
    };
    if pats.elems.len() != exprs.elems.len()
        || init.diverge.is_some()
        || !local.attrs.is_empty()
        || pats.elems.iter().any(|p| matches!(p, Pat::Rest(_)))
    {
        return None;
    }
    let mut bound = Vec::new();
    collect_pattern_idents(&local.pat, &mut bound);
    let reads_bound = exprs
        .elems
        .iter()
        .any(|e| mentions(quote::ToTokens::to_token_stream(e), &bound));
    if reads_bound {
        return None;
    }
    let parts = pats
        .elems
        .iter()
        .zip(&exprs.elems)
        .map(|(pat, expr)| syn::Local {
            attrs: Vec::new(),
            let_token: local.let_token,
            pat: pat.clone(),
            init: Some(syn::LocalInit {
                eq_token: init.eq_token,
                expr: Box::new(expr.clone()),
                diverge: None,
            }),
            semi_token: local.semi_token,
        });
    Some(parts.collect())
}

/// Whether the tokens name one of `names` anywhere, inside delimiters too.
fn mentions(tokens: proc_macro2::TokenStream, names: &[String]) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => names.iter().any(|n| i == n),
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), names),
        _ => false,
    })
}
