//! The syntax walk: the [`Visit`] impl that goes through items, statements and expressions once,
//! entering functions, scopes, loops and branches and recording the facts of each node.

use foldhash::HashMap;
use syn::visit::{self, Visit};
use syn::{Expr, Type};

use super::arms::{block_tail, ArmEnd};
use super::flow::Fut;
use super::statements::split_tuple_local;
use super::{generic_bounds, generic_names, strip, strip_parens, Builder, Value};
use crate::model::SiteUsage;
use crate::source::Span;

impl<'ast> Visit<'ast> for Builder<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.under_cfg(&f.attrs, |b| {
            b.with_fn(&f.sig, |b| {
                let entry_point = b.self_types.is_empty()
                    && crate::model::is_entry_point(&f.sig.ident.to_string(), &f.attrs);
                b.enter_function(&f.sig, entry_point);
                b.note_visibility(&f.vis);
                b.visit_fn_block(&f.block);
            })
        });
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.under_cfg(&f.attrs, |b| {
            b.with_fn(&f.sig, |b| {
                b.enter_function(&f.sig, false);
                b.note_visibility(&f.vis);
                b.visit_fn_block(&f.block);
            })
        });
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        self.note_struct_literal(s);
        visit::visit_expr_struct(self, s);
        for field in &s.fields {
            if let syn::Member::Named(name) = &field.member {
                self.note_field_value(&name.to_string(), &field.expr);
            }
        }
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.under_cfg(&f.attrs, |b| {
                b.with_fn(&f.sig, |b| {
                    // No `impl` type: `self` is any implementor's.
                    b.self_types.push(None);
                    b.enter_function(&f.sig, false);
                    if let Some(function) = b.facts.functions.last_mut() {
                        function.provided = true;
                        function.exported = true;
                    }
                    b.visit_fn_block(block);
                    b.self_types.pop();
                })
            });
        }
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        // Its provided methods belong to it (see [`FunctionFacts::provided`]).
        self.impl_traits.push(Some(t.ident.to_string()));
        self.under_cfg(&t.attrs, |b| visit::visit_item_trait(b, t));
        self.impl_traits.pop();
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        self.under_cfg(crate::model::cfg::attrs_of_expr(e), |b| {
            visit::visit_expr(b, e)
        });
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let saved = self.generics.len();
        self.generics.extend(generic_names(&i.generics));
        let saved_bounds = self.generic_bounds.len();
        self.generic_bounds.extend(generic_bounds(&i.generics));
        let self_type = match &*i.self_ty {
            Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        self.self_types.push(self_type);
        let trait_name = i
            .trait_
            .as_ref()
            .and_then(|(_, path, _)| path.segments.last())
            .map(|s| s.ident.to_string());
        self.impl_traits.push(trait_name);
        self.under_cfg(&i.attrs, |b| visit::visit_item_impl(b, i));
        self.impl_traits.pop();
        self.self_types.pop();
        self.generics.truncate(saved);
        self.generic_bounds.truncate(saved_bounds);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::default()]);
        self.module.push(m.ident.to_string());
        self.under_cfg(&m.attrs, |b| visit::visit_item_mod(b, m));
        self.module.pop();
        self.scopes = saved;
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.with_scope(|b| {
            visit::visit_block(b, block);
            b.note_block_body(block);
        });
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        // `let (p, n) = (pods.clone(), name.clone());` binds like one `let` per element.
        if let Some(parts) = split_tuple_local(local) {
            for part in &parts {
                self.visit_local(part);
            }
            return;
        }
        // `let task = task.clone()`: the type of the value it shadows, read before it does.
        let shadowed = local.init.as_ref().map(|i| self.expr_type(&i.expr));
        // `let c = c.owns(..)`: the controller it shadows, read before it does.
        let controller = local
            .init
            .as_ref()
            .and_then(|i| self.controller_chain(&i.expr, 0));
        self.visit_local_binding(local);
        self.note_receivers(local);
        self.note_local_type(local, shadowed.unwrap_or_default());
        self.note_controller_binding(local, controller);
    }

    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let attrs = match stmt {
            syn::Stmt::Local(l) => &l.attrs[..],
            syn::Stmt::Expr(e, _) => crate::model::cfg::attrs_of_expr(e),
            syn::Stmt::Macro(m) => &m.attrs[..],
            // Items carry their own.
            syn::Stmt::Item(_) => &[],
        };
        self.under_cfg(attrs, |b| b.visit_stmt_here(stmt));
    }

    fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
        if let Some(usage) = self.usage_under_try(t) {
            self.note_usage(usage, None);
        }
        if let Expr::Await(a) = strip_parens(&t.expr) {
            let at = self.span(a);
            let span = self.span(t);
            self.await_usages
                .entry((at.start, at.end))
                .or_insert(SiteUsage {
                    span,
                    awaited: true,
                    question_mark: true,
                    statement: None,
                });
        }
        self.try_operands.push((self.body, self.span(&t.expr)));
        visit::visit_expr_try(self, t);
        self.try_operands.pop();
    }

    fn visit_expr_await(&mut self, a: &'ast syn::ExprAwait) {
        if let Some(usage) = self.usage_under_await(a, || self.span(a), false) {
            self.note_usage(usage, None);
        }
        let span = self.span(a);
        let usage = self
            .await_usages
            .remove(&(span.start, span.end))
            .unwrap_or(SiteUsage {
                span,
                awaited: true,
                question_mark: false,
                statement: None,
            });
        if is_timer(&a.base) {
            self.facts.timer_waits.push(crate::model::TimerWait {
                span,
                body: self.body,
                branches: self.branches.clone(),
                loops: self.loops.clone(),
            });
        }
        let bound = self.note_await(&a.base, span, usage);
        let first = self.facts.requests.len();
        self.visit_expr(&a.base);
        let value = self.eval(&a.base, first);
        let f = Fut::union(span, self.futs(value));
        self.mark_joined(&f.tasks, span);
        if !f.requests.is_empty() {
            self.facts.awaits.push(crate::model::AwaitedFuture {
                span,
                requests: f.requests,
                bound,
                branches: self.branches.clone(),
                loops: self.loops.clone(),
                body: self.body,
            });
        }
    }

    /// `i += 1`: the binding is assigned (see `Builder::varying`).
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        use syn::BinOp::*;
        let compound = matches!(
            b.op,
            AddAssign(_)
                | SubAssign(_)
                | MulAssign(_)
                | DivAssign(_)
                | RemAssign(_)
                | BitXorAssign(_)
                | BitAndAssign(_)
                | BitOrAssign(_)
                | ShlAssign(_)
                | ShrAssign(_)
        );
        if let (true, Expr::Path(p)) = (compound, strip(&b.left)) {
            if let Some(old) = p.path.get_ident().and_then(|i| self.lookup(&i.to_string())) {
                self.varying.borrow_mut().push(old.id);
            }
        }
        syn::visit::visit_expr_binary(self, b);
    }

    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        self.visit_expr(&assign.right);
        let first = self.facts.requests.len();
        match strip(&assign.left) {
            // `name = other;` — a new value: later uses are a different name.
            Expr::Path(p) => {
                if let Some(ident) = p.path.get_ident() {
                    let value = self.eval(&assign.right, first);
                    if let Some(old) = self.lookup(&ident.to_string()) {
                        self.varying.borrow_mut().push(old.id);
                        let deps = self.deps_of_expr(&assign.right);
                        self.with_deps(deps, |b| {
                            b.bind(ident.to_string(), value);
                        });
                    }
                }
            }
            // `obj.metadata.name = Some(x);`
            Expr::Field(f) => {
                self.note_field_assigned(&assign.left);
                self.note_fetched_renamed(&assign.left);
                self.note_resource_version_assigned(f, &assign.right);
                if let syn::Member::Named(field) = &f.member {
                    self.note_field_value(&field.to_string(), &assign.right);
                }
                let name = self.name_of(&assign.right);
                if let (syn::Member::Named(m), Expr::Field(meta)) = (&f.member, strip(&f.base)) {
                    if m == "name" {
                        if let (syn::Member::Named(mm), Expr::Path(obj)) =
                            (&meta.member, strip(&meta.base))
                        {
                            if mm == "metadata" {
                                if let Some(ident) = obj.path.get_ident() {
                                    if let Some(b) = self.lookup_mut(&ident.to_string()) {
                                        b.value = Value::Object(name);
                                    }
                                }
                            }
                        }
                    }
                }
                self.visit_expr(&assign.left);
            }
            _ => self.visit_expr(&assign.left),
        }
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.visit_closure(c);
    }

    fn visit_expr_async(&mut self, a: &'ast syn::ExprAsync) {
        let span = self.span(a);
        self.collectors.push(Vec::new());
        let saved_body = self.enter_body(
            crate::model::BodyKind::AsyncBlock,
            self.span(&a.async_token),
        );
        self.visit_block(&a.block);
        self.body = saved_body;
        let refs = self.collectors.pop().unwrap_or_default();
        self.async_refs.insert((span.start, span.end), refs);
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        let loop_span = self.span(&f.body);
        let first = self.facts.requests.len();
        self.visit_expr(&f.expr);
        // Iterating over task handles joins them, one after another.
        let iterated = self.eval(&f.expr, first);
        let at = self.span(&f.expr);
        for fut in self.futs(iterated) {
            self.mark_joined(&fut.tasks, at);
        }
        let over = self.text(&f.expr);
        let body = self.span(&f.body);
        let element = self.element_value(&f.expr);
        let drains = self.drains_channel(&f.expr);
        let head = super::loops::LoopHead {
            span: loop_span,
            label: f.label.as_ref(),
            may_skip: true,
        };
        let listed = self.list_result_of(&f.expr);
        let fetched = self.fetched_elements_of(&f.expr);
        let listing = self.listing_element_of(&f.expr);
        let param = self.iterated_param(&f.expr);
        self.in_drain_loop(drains, head, |b| {
            b.with_scope(|b| {
                let item = b.item_type(&f.expr);
                b.repeated(&f.pat, element, over, body, |b| {
                    b.type_pattern(&f.pat, item);
                    b.note_listed_elements(&f.pat, listed);
                    b.note_fetched_elements(&f.pat, fetched);
                    b.note_listing_elements(&f.pat, listing);
                    b.note_param_elements(&f.pat, param);
                    b.visit_block(&f.body)
                });
            });
        });
    }

    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        let loop_span = self.span(&l.body);
        let drains = self.block_drains_channel(&l.body);
        let head = super::loops::LoopHead {
            span: loop_span,
            label: l.label.as_ref(),
            may_skip: false,
        };
        self.in_drain_loop(drains, head, |b| b.visit_block(&l.body));
    }

    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        // The condition runs on every pass, as the body does.
        let loop_span = Span {
            start: self.span(&*w.cond).start,
            ..self.span(&w.body)
        };
        let head = super::loops::LoopHead {
            span: loop_span,
            label: w.label.as_ref(),
            may_skip: true,
        };
        // `while let Some(x) = queue.pop() { .. }`: one iteration per element `x`.
        let drains = self.drains_channel(&w.cond);
        let Expr::Let(l) = strip(&w.cond) else {
            self.in_drain_loop(drains, head, |b| {
                b.visit_expr(&w.cond);
                b.visit_block(&w.body);
            });
            return;
        };
        let over = self.text(&l.expr);
        let body = self.span(&w.body);
        self.in_drain_loop(drains, head, |b| {
            b.visit_expr(&l.expr);
            b.with_scope(|b| {
                b.repeated(&l.pat, Value::Unknown, over, body, |b| {
                    b.visit_block(&w.body)
                });
            });
        });
    }

    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        self.visit_expr(&i.cond);
        let id = self.next_branch();
        self.note_if_conditions(id, &i.cond);
        let reads = self.referenced_bindings(&i.cond);
        self.branches.push((id, 0));
        self.arm_reads.push(reads.clone());
        self.visit_block(&i.then_branch);
        self.branches.pop();
        self.arm_reads.pop();
        let then_arm = self.span(&i.then_branch);
        let then_end = block_tail(&i.then_branch);
        let leaves = |end: &ArmEnd| !matches!(end, ArmEnd::Falls);
        if leaves(&then_end)
            || i.else_branch
                .as_ref()
                .is_some_and(|(_, e)| leaves(&ArmEnd::of(e)))
        {
            self.leaving_guards.extend(reads.iter().copied());
        }
        self.note_arm_end(then_arm, (id, 0), then_end);
        if let Some((_, e)) = &i.else_branch {
            self.branches.push((id, 1));
            self.arm_reads.push(reads);
            self.visit_expr(e);
            self.branches.pop();
            self.arm_reads.pop();
            let arm = self.span(&**e);
            self.note_arm_end(arm, (id, 1), ArmEnd::of(e));
        }
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let deps = self.deps_of_expr(&m.expr);
        let id = self.next_branch();
        self.note_match_conditions(id, &m.expr, &m.arms);
        let scrutinee = self.referenced_bindings(&m.expr);
        for (k, arm) in m.arms.iter().enumerate() {
            self.branches.push((id, k as u32));
            let mut reads = scrutinee.clone();
            if let Some((_, guard)) = &arm.guard {
                reads.extend(self.referenced_bindings(guard));
            }
            self.arm_reads.push(reads);
            self.under_cfg(&arm.attrs, |b| {
                b.with_scope(|b| {
                    b.with_deps(deps.clone(), |b| b.bind_pattern(&arm.pat, Value::Unknown));
                    b.note_event_object(&arm.pat, &m.expr);
                    // `Some(secret) =>` of a `match` on a `get_opt`: the object it fetched.
                    b.note_fetched(&arm.pat, &m.expr);
                    if let Some((_, guard)) = &arm.guard {
                        b.visit_expr(guard);
                    }
                    b.visit_expr(&arm.body);
                })
            });
            self.branches.pop();
            self.arm_reads.pop();
            let span = self.span(&*arm.body);
            self.note_arm_end(span, (id, k as u32), ArmEnd::of(&arm.body));
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.under_cfg(&arm.attrs, |b| {
            b.with_scope(|b| {
                b.bind_pattern(&arm.pat, Value::Unknown);
                if let Some((_, guard)) = &arm.guard {
                    b.visit_expr(guard);
                }
                b.visit_expr(&arm.body);
            })
        });
    }

    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        self.visit_expr(&l.expr);
        // Scoped approximately: the bindings stay visible after the `if let`, which can only
        // shadow outer names (making later comparisons less certain, never wrong).
        let deps = self.deps_of_expr(&l.expr);
        self.with_deps(deps, |b| b.bind_pattern(&l.pat, Value::Unknown));
        self.note_event_object(&l.pat, &l.expr);
        // `if let Some(secret) = secrets.get_opt(..).await?`: the object it fetched.
        self.note_fetched(&l.pat, &l.expr);
        let ty = self.expr_type(&l.expr);
        self.type_pattern(&l.pat, ty);
    }

    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if let Some(ident) = p.path.get_ident() {
            let span = self.span(p);
            self.note_use(&ident.to_string(), span);
        }
        visit::visit_expr_path(self, p);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let first = self.facts.requests.len();
        self.visit_method_call_parts(call);
        let before = self.facts.requests.len();
        if !self.wrapper_names.iter().any(|w| call.method == w) {
            self.record_request(call);
            if self.facts.requests.len() == before {
                self.record_runtime_method(call);
            }
        }
        if self.facts.requests.len() == before {
            self.record_method_call(call);
        }
        self.method_call_flow(call, first);
        self.blocking_method_call(call, first);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if self.call_flow(call) {
            return;
        }
        let first = self.facts.requests.len();
        if !self.visit_finalizer_call(call) {
            visit::visit_expr_call(self, call);
        }
        if self.record_function_value_call(call) {
            return;
        }
        // A closure bound in this function is not a function of the crate.
        let local_closure = matches!(strip(&call.func), Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| self.lookup(&i.to_string()).is_some()));
        if !local_closure {
            self.record_path_call(call);
            self.blocking_path_call(call, first);
        }
    }

    fn visit_expr_macro(&mut self, m: &'ast syn::ExprMacro) {
        let span = self.span(m);
        self.visit_macro_body(&m.mac, span);
    }

    fn visit_stmt_macro(&mut self, m: &'ast syn::StmtMacro) {
        let span = self.span(&m.mac);
        self.visit_macro_body(&m.mac, span);
    }

    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        // `macro_rules!` bodies are patterns, not code: only what an invocation's value is is
        // read from them. Other item macros are left alone.
        self.note_macro_rules(m);
    }
}

/// A timer's future: `sleep(d)`, `tokio::time::sleep_until(t)`, `interval.tick()`, a helper
/// named `sleep_*`.
fn is_timer(expr: &Expr) -> bool {
    let name = match strip(expr) {
        Expr::Call(c) => match strip(&c.func) {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        },
        Expr::MethodCall(m) if m.method == "tick" => return true,
        _ => None,
    };
    name.is_some_and(|n| n == "sleep" || n.starts_with("sleep_") || n.starts_with("delay_"))
}
