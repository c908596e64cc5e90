//! Where request futures bound by `let` are first used (awaited, polled by a site, moved on),
//! and the futures dropped without being polled.

use foldhash::HashMap;

use proc_macro2::TokenTree;
use syn::{Expr, Pat};

use super::flow::{self, Fut};
use super::{strip, strip_pat, takes_postfix, Binding, Builder, Value};
use crate::model::sites::{self, Collected};
use crate::model::{
    BoundFuture, FutureExpr, FutureUse, SiteKind, SiteUsage, Unpolled, UnpolledFuture, UseKind,
};
use crate::source::Span;

impl Builder<'_> {
    /// Bind the pattern of a `let`; request futures bound to a name are followed from here,
    /// and those bound to `_` are dropped at once.
    pub(super) fn bind_local(&mut self, local: &syn::Local, value: Value, first: usize) {
        let stmt = self.span(local);
        match strip_pat(&local.pat) {
            // `let (a, b) = (pods.clone(), api.get(x));`: element by element.
            Pat::Tuple(t) => {
                if let Some(Expr::Tuple(init)) = local.init.as_ref().map(|i| strip(&i.expr)) {
                    if init.elems.len() == t.elems.len() {
                        for (p, e) in t.elems.iter().zip(&init.elems) {
                            let v = self.eval(e, first);
                            self.bind_pattern(p, v);
                        }
                        return;
                    }
                }
            }
            Pat::Wild(_) => {
                if let (Value::Call { .. }, Some(init)) = (&value, &local.init) {
                    self.helper_call_dropped(&value, &init.expr, stmt, Unpolled::LetUnderscore);
                }
                if let (Value::Future(f), Some(init)) = (&value, &local.init) {
                    // `let _ = place;` neither moves nor drops the place.
                    if !is_place(&init.expr) {
                        let expr = self.future_expr(&init.expr);
                        let typed = matches!(local.pat, Pat::Type(_));
                        let block = matches!(strip(&init.expr), Expr::Async(_));
                        self.dropped(f, (expr, block), stmt, Unpolled::LetUnderscore, typed);
                    }
                }
            }
            Pat::Ident(p) if p.subpat.is_none() => {
                let name = p.ident.to_string();
                let bound = match &value {
                    Value::Future(f) if !f.requests.is_empty() => {
                        let init = match &local.init {
                            Some(init) => self.future_expr(&init.expr),
                            None => FutureExpr {
                                span: f.span,
                                needs_parens: false,
                            },
                        };
                        self.facts.bound_futures.push(BoundFuture {
                            name: name.clone(),
                            stmt,
                            future: f.operand(),
                            first_use: None,
                            body: self.body,
                            init,
                            typed: matches!(local.pat, Pat::Type(_)),
                            branches: self.branches.clone(),
                            loops: self.loops.clone(),
                        });
                        Some(self.facts.bound_futures.len() - 1)
                    }
                    _ => None,
                };
                self.bind_pattern(&local.pat, value);
                if let Some(b) = self.scopes.last_mut().and_then(|s| s.get_mut(&name)) {
                    b.bound = bound;
                }
                return;
            }
            _ => {}
        }
        self.bind_pattern(&local.pat, value);
    }

    /// `expr`: the future as written, and whether it is an `async` block.
    fn dropped(
        &mut self,
        f: &Fut,
        (expr, async_block): (FutureExpr, bool),
        stmt: Span,
        how: Unpolled,
        typed: bool,
    ) {
        self.mark_detached(&f.tasks);
        if !f.requests.is_empty() {
            self.facts.unpolled.push(UnpolledFuture {
                span: expr.span,
                stmt,
                requests: f.requests.clone(),
                how,
                expr,
                typed,
                in_async: self.is_async_body(self.body),
                async_block,
                lazy_callee: false,
            });
        }
    }

    /// A future expression as written.
    pub(super) fn future_expr(&self, expr: &Expr) -> FutureExpr {
        FutureExpr {
            span: self.span(expr),
            needs_parens: !takes_postfix(expr),
        }
    }

    /// What is dropped with a bound future that was never polled.
    fn unpolled_binding(&self, bf: &BoundFuture, stmt: Span, how: Unpolled) -> UnpolledFuture {
        UnpolledFuture {
            span: bf.future.span,
            stmt,
            requests: bf.future.requests.clone(),
            how,
            expr: bf.init,
            typed: bf.typed,
            in_async: self.is_async_body(bf.body),
            async_block: false,
            lazy_callee: false,
        }
    }

    /// A binding goes out of scope (or is shadowed): a request future never used was never
    /// polled; a task handle never used leaves its task detached.
    pub(super) fn retire(&mut self, binding: Binding) {
        if let Some(i) = binding.bound {
            let bf = &self.facts.bound_futures[i];
            if bf.first_use.is_none() {
                let u =
                    self.unpolled_binding(bf, bf.stmt, Unpolled::UnusedBinding(bf.name.clone()));
                self.facts.unpolled.push(u);
            }
        }
        if !binding.used {
            if let Value::Future(f) = &binding.value {
                let tasks = f.tasks.clone();
                self.mark_detached(&tasks);
            }
        }
    }

    pub(super) fn retire_scope(&mut self, scope: HashMap<String, Binding>) {
        let mut bindings: Vec<Binding> = scope.into_values().collect();
        bindings.sort_by_key(|b| b.id);
        for b in bindings {
            self.retire(b);
        }
    }

    fn set_first_use(&mut self, name: &str, span: Span, kind: UseKind, usage: Option<SiteUsage>) {
        let body = self.body;
        // A task handle used here may be awaited from here on.
        let tasks: Vec<usize> = match self.lookup(name).map(|b| &b.value) {
            Some(Value::Future(f)) => f.tasks.clone(),
            Some(Value::Futures(fs)) => fs.iter().flat_map(|f| f.tasks.iter().copied()).collect(),
            _ => Vec::new(),
        };
        self.mark_handle_used(&tasks, span);
        let Some(b) = self.lookup_mut(name) else {
            return;
        };
        b.used = true;
        if let Some(i) = b.bound {
            // Only the first use is kept: the open branches and loops are copied for it alone.
            let (branches, loops) = (&self.branches, &self.loops);
            let bf = &mut self.facts.bound_futures[i];
            bf.first_use.get_or_insert_with(|| FutureUse {
                span,
                kind,
                branches: branches.clone(),
                body,
                loops: loops.clone(),
                usage,
            });
        }
    }

    /// A path naming `name` was visited.
    pub(super) fn note_use(&mut self, name: &str, span: Span) {
        if let Some(Binding {
            value: Value::Future(f),
            ..
        }) = self.lookup(name)
        {
            let reqs = f.requests.clone();
            for c in &mut self.collectors {
                c.extend(reqs.iter().copied());
            }
        }
        self.set_first_use(name, span, UseKind::Other, None);
    }

    /// `base.await`: the first use of a bound future, when `base` names it; returns its index.
    pub(super) fn note_await(&mut self, base: &Expr, at: Span, usage: SiteUsage) -> Option<usize> {
        let name = ident_of(base)?;
        self.set_first_use(&name, at, UseKind::Await, Some(usage));
        self.lookup(&name).and_then(|b| b.bound)
    }

    /// An operand of a site that names a bound future.
    pub(super) fn note_site_use(&mut self, operand: &Expr) {
        if let Some(name) = ident_of(operand) {
            let span = self.span(operand);
            self.set_first_use(&name, span, UseKind::Site, None);
        }
    }

    /// `drop(f)` of a bound future not used before: it is never polled.
    pub(super) fn note_drop(&mut self, arg: &Expr, call: Span) {
        let Some(name) = ident_of(arg) else {
            return;
        };
        let Some(i) = self.lookup(&name).and_then(|b| b.bound) else {
            return;
        };
        if self.facts.bound_futures[i].first_use.is_some() {
            return;
        }
        let u = self.unpolled_binding(
            &self.facts.bound_futures[i],
            call,
            Unpolled::Dropped(name.clone()),
        );
        self.facts.unpolled.push(u);
        self.set_first_use(&name, call, UseKind::Other, None);
    }

    /// Identifiers in a macro body this pass cannot parse: every binding named is used.
    pub(super) fn note_token_uses(&mut self, tokens: proc_macro2::TokenStream) {
        for t in tokens {
            match t {
                TokenTree::Ident(i) => {
                    let span = self.span(&i);
                    self.set_first_use(&i.to_string(), span, UseKind::Other, None);
                }
                TokenTree::Group(g) => self.note_token_uses(g.stream()),
                _ => {}
            }
        }
    }

    /// `expr;`: a request future made and dropped by the statement; a task handle dropped.
    pub(super) fn statement_drops(&mut self, expr: &Expr, first: usize) {
        if matches!(
            strip(expr),
            Expr::Await(_) | Expr::Macro(_) | Expr::Assign(_) | Expr::Path(_)
        ) {
            return;
        }
        match self.eval(expr, first) {
            Value::Future(f) => {
                let block = matches!(strip(expr), Expr::Async(_));
                let expr = self.future_expr(expr);
                self.dropped(&f, (expr, block), expr.span, Unpolled::Statement, false);
            }
            call @ Value::Call { .. } => {
                let stmt = self.span(expr);
                self.helper_call_dropped(&call, expr, stmt, Unpolled::Statement);
            }
            _ => {}
        }
    }

    /// `let s: FuturesUnordered<_> = iter.collect();`, `let all: TryJoinAll<_> = ..`: the
    /// annotation says what `collect` builds.
    pub(super) fn annotated_collection(&mut self, pat: &Pat, value: Value, init: &Expr) -> Value {
        let Pat::Type(t) = pat else {
            return value;
        };
        let Some(name) = flow::collected_type_name(&t.ty) else {
            return value;
        };
        let Value::Futures(futs) = value else {
            return value;
        };
        let span = self.span(init);
        match sites::collected(&name) {
            Some(Collected::JoinAll { fallible }) => {
                self.record_site(
                    SiteKind::JoinAll { fallible },
                    span,
                    format!("`{name}`"),
                    futs.clone(),
                    Vec::new(),
                );
                Value::Future(Fut::union(span, futs))
            }
            Some(Collected::Set(kind)) => {
                let set = self.new_set(kind, format!("`{name}`"), span);
                self.add_to_set(set, futs);
                Value::Set(set)
            }
            None => Value::Futures(futs),
        }
    }
}

/// The identifier an expression names (`f`, `&mut f`, `(f)`).
fn ident_of(expr: &Expr) -> Option<String> {
    match strip(expr) {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

fn is_place(expr: &Expr) -> bool {
    matches!(strip(expr), Expr::Path(_) | Expr::Field(_) | Expr::Index(_))
}
