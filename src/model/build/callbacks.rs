//! Function values: functions and closures stored in fields or bindings
//! (`on_change: Arc::new(handle)`, `let cb: Callback = Arc::new(|o| ..)`) and called later
//! (`(self.on_change)(obj)`, `cb(x)`), and closures handed to a controller's `run`.

use syn::{Expr, Type};

use super::scopes::collect_pattern_idents;
use super::{strip, Builder, Value};
use crate::model::{Argument, Callback, CallbackTarget, Callee, HelperCall, RawKind};

/// How many wrappers (`Arc::new(Box::new(..))`) are looked through to the function value.
const MAX_WRAPPERS: usize = 4;

impl Builder<'_> {
    /// The function value an expression is, looking through `Arc::new`, `Rc::new` and
    /// `Box::new`: a closure written here, a function by path, or a binding holding one.
    pub(super) fn callable(&self, expr: &Expr) -> Option<CallbackTarget> {
        match unwrap_pointers(expr) {
            Expr::Closure(c) => {
                let info = self.closures.get(&{
                    let s = self.span(c);
                    (s.start, s.end)
                })?;
                Some(CallbackTarget::Closure {
                    span: self.span(c),
                    params: closure_params(c, &info.params),
                })
            }
            Expr::Path(p) => {
                if let Some(ident) = p.path.get_ident() {
                    if let Some(b) = self.lookup(&ident.to_string()) {
                        return match &b.value {
                            Value::Function(path) => Some(CallbackTarget::Function(path.clone())),
                            _ => None,
                        };
                    }
                }
                let last = p.path.segments.last()?.ident.to_string();
                // Functions are snake_case; constants, statics and variants are not.
                last.starts_with(|c: char| c.is_lowercase() || c == '_')
                    .then(|| CallbackTarget::Function(crate::model::sites::segments(&p.path)))
            }
            _ => None,
        }
    }

    /// A function value stored in a binding: a function by path (`let cb = Arc::new(handle)`),
    /// or a closure in a pointer (`Arc::new(|o| ..)`), called like one written bare.
    pub(super) fn function_value(&self, expr: &Expr, first: usize) -> Option<Value> {
        if !is_wrapped(expr) {
            return None;
        }
        match self.callable(expr)? {
            CallbackTarget::Function(path) => Some(Value::Function(path)),
            CallbackTarget::Closure { .. } => Some(self.eval(unwrap_pointers(expr), first)),
            CallbackTarget::Opaque => None,
        }
    }

    /// A field given a value (a struct literal's field, `x.field = value`): noted when the
    /// value is a function value, or when the field is declared with a function type (the
    /// value is then some function this pass does not know).
    pub(super) fn note_field_value(&mut self, field: &str, value: &Expr) {
        let target = match self.callable(value) {
            Some(t) => t,
            None if self.is_callback_field(field) => CallbackTarget::Opaque,
            None => return,
        };
        self.facts.callbacks.push(Callback {
            field: field.to_string(),
            target,
        });
    }

    fn is_callback_field(&self, field: &str) -> bool {
        self.callback_fields.contains(field)
    }

    /// `(self.on_change)(obj)`: a call of the function value a field holds; `cb(x)` with `cb`
    /// bound to a function by path: a call of that function.
    pub(super) fn record_function_value_call(&mut self, call: &syn::ExprCall) -> bool {
        let callee = match strip(&call.func) {
            Expr::Field(f) => match &f.member {
                syn::Member::Named(name) => Callee::Field(name.to_string()),
                syn::Member::Unnamed(_) => return false,
            },
            Expr::Path(p) => match p.path.get_ident().and_then(|i| self.lookup(&i.to_string())) {
                Some(b) => match &b.value {
                    Value::Function(path) => Callee::Path(path.clone()),
                    _ => return false,
                },
                None => return false,
            },
            _ => return false,
        };
        let helper = HelperCall {
            callee,
            text: self.text(strip(&call.func)),
            receiver: None,
            args: call.args.iter().map(|a| self.argument(a)).collect(),
            type_args: Vec::new(),
        };
        let keyed_by = self.call_keys(&call.args);
        self.push_entry(self.span(call), RawKind::Helper(helper), keyed_by);
        true
    }

    /// `run(|obj, ctx| async move { reconcile(obj, ctx).await }, ..)`: the function the
    /// closure hands the controller's object to (its first argument must be the closure's
    /// first parameter), and the arguments after it: the closure's second parameter is the
    /// context `run` is given (`ctx`).
    pub(super) fn closure_reconcile(
        &self,
        closure: &syn::ExprClosure,
        ctx: &Expr,
    ) -> Option<(syn::Path, Vec<Argument>)> {
        let params: Vec<Option<String>> = closure.inputs.iter().map(single_ident).collect();
        let call = match tail_call(&closure.body)? {
            Expr::Call(c) => c,
            _ => return None,
        };
        let Expr::Path(f) = strip(&call.func) else {
            return None;
        };
        let is_param = |e: &Expr, i: usize| {
            let e = super::same_object(e);
            matches!((e, params.get(i)), (Expr::Path(p), Some(Some(name))) if p.path.is_ident(name))
        };
        let (first, rest) = call
            .args
            .iter()
            .collect::<Vec<_>>()
            .split_first()
            .map(|(f, r)| (*f, r.to_vec()))?;
        if !is_param(first, 0) {
            return None;
        }
        let args = rest
            .into_iter()
            .map(|a| {
                if is_param(a, 1) {
                    self.argument(ctx)
                } else if params.iter().flatten().any(|p| mentions(a, p)) {
                    // Computed from the closure's parameters, which are gone here.
                    Argument {
                        text: self.text(strip(a)),
                        ..Argument::unknown()
                    }
                } else {
                    self.argument(a)
                }
            })
            .collect();
        Some((f.path.clone(), args))
    }
}

/// What `Arc::new(Box::new(..))` holds.
fn unwrap_pointers(expr: &Expr) -> &Expr {
    let mut expr = strip(expr);
    for _ in 0..MAX_WRAPPERS {
        match expr {
            Expr::Call(c) if c.args.len() == 1 && is_pointer_new(&c.func) => {
                expr = strip(&c.args[0]);
            }
            _ => break,
        }
    }
    expr
}

/// `Arc::new`, `Rc::new`, `Box::new` (and `std::sync::Arc::new`, ..).
fn is_pointer_new(func: &Expr) -> bool {
    let Expr::Path(p) = strip(func) else {
        return false;
    };
    if !crate::model::sites::last_is(&p.path, &["new"]) {
        return false;
    }
    let segments = crate::model::sites::segments(&p.path);
    matches!(
        segments.as_slice(),
        [.., ty, new] if new == "new" && matches!(ty.as_str(), "Arc" | "Rc" | "Box")
    )
}

/// A function path inside `Arc::new(..)` (a bare path is more often a name or a value).
fn is_wrapped(expr: &Expr) -> bool {
    matches!(strip(expr), Expr::Call(c) if is_pointer_new(&c.func))
}

/// The binding of each closure parameter that is a plain identifier, from the ids its patterns
/// bound in order.
fn closure_params(c: &syn::ExprClosure, bound: &[u64]) -> Vec<Option<u64>> {
    let mut ids = bound.iter();
    c.inputs
        .iter()
        .map(|input| {
            let mut idents = Vec::new();
            collect_pattern_idents(input, &mut idents);
            let mine: Vec<u64> = ids.by_ref().take(idents.len()).copied().collect();
            match mine.as_slice() {
                [one] if single_ident(input).is_some() => Some(*one),
                _ => None,
            }
        })
        .collect()
}

fn single_ident(pat: &syn::Pat) -> Option<String> {
    match pat {
        syn::Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.to_string()),
        syn::Pat::Type(t) => single_ident(&t.pat),
        _ => None,
    }
}

/// The call a closure body ends in: `f(..)`, `f(..).await` in an `async` block, `f(..).boxed()`.
fn tail_call(body: &Expr) -> Option<&Expr> {
    match strip(body) {
        Expr::Async(a) => tail_of_block(&a.block),
        Expr::Block(b) => tail_of_block(&b.block),
        Expr::Await(a) => tail_call(&a.base),
        Expr::MethodCall(m) if m.method == "boxed" && m.args.is_empty() => tail_call(&m.receiver),
        e @ Expr::Call(_) => Some(e),
        _ => None,
    }
}

/// The call a block hands on to: its tail, or, around it, `let`s that time or log it
/// (`let _timer = ..; let r = reconcile(o, c).await; record(&r); r`): the one statement that
/// is a call awaited (its value kept in a `let` or returned).
fn tail_of_block(block: &syn::Block) -> Option<&Expr> {
    if let [syn::Stmt::Expr(e, None)] = block.stmts.as_slice() {
        return tail_call(e);
    }
    let mut calls = block.stmts.iter().filter_map(|stmt| match stmt {
        syn::Stmt::Local(l) => l.init.as_ref().and_then(|i| awaited_call(&i.expr)),
        syn::Stmt::Expr(e, _) => awaited_call(e),
        _ => None,
    });
    let call = calls.next()?;
    calls.next().is_none().then_some(call)
}

/// `f(..).await` or `f(..).await?`: the call.
fn awaited_call(e: &Expr) -> Option<&Expr> {
    let e = match strip(e) {
        Expr::Try(t) => strip(&t.expr),
        e => e,
    };
    match e {
        Expr::Await(a) => match strip(&a.base) {
            c @ Expr::Call(_) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// Whether an expression mentions an identifier.
fn mentions(expr: &Expr, ident: &str) -> bool {
    use syn::visit::Visit;
    struct Finder<'i>(&'i str, bool);
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
            self.1 |= i == self.0;
        }
    }
    let mut finder = Finder(ident, false);
    finder.visit_expr(expr);
    finder.1
}

/// Whether a declared type is a function type: `fn(..)`, `dyn Fn(..)`/`impl FnMut(..)` at any
/// depth (`Arc<dyn Fn(Obj) -> BoxFuture<..> + Send + Sync>`), or one of `aliases`.
pub(super) fn is_function_type(ty: &Type, aliases: &[String]) -> bool {
    use syn::visit::Visit;
    struct Finder<'a>(&'a [String], bool);
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_type_bare_fn(&mut self, _: &'ast syn::TypeBareFn) {
            self.1 = true;
        }
        fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
            let name = s.ident.to_string();
            if matches!(name.as_str(), "Fn" | "FnMut" | "FnOnce") || self.0.contains(&name) {
                self.1 = true;
            }
            syn::visit::visit_path_segment(self, s);
        }
    }
    let mut finder = Finder(aliases, false);
    finder.visit_type(ty);
    finder.1
}
