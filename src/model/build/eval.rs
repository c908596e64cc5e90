//! What an expression evaluates to, as far as this pass can tell (a [`Value`]): handles, request
//! futures, helper calls, names and objects.

use syn::Expr;

use super::flow::Fut;
use super::handles::{turbofish_kind, without_origin};
use super::{ident_in, is_wrapper_path, strip, Builder, Value};
use crate::model::{Handle, HandleOrigin, HandleSource, NameExpr, Namespace, RawKind};
use crate::source::Span;

impl Builder<'_> {
    /// What an expression evaluates to. `first_request` is the number of requests recorded
    /// before the expression was visited: requests from that index on lie inside it.
    pub(super) fn eval(&self, expr: &Expr, first_request: usize) -> Value {
        // Evaluations nest (a method chain evaluates its receiver from several rules): remember
        // each sub-expression's value for the duration of one outermost evaluation, so long
        // chains cost linear time, not exponential. The syntax tree is borrowed, unmoved, for
        // the whole pass: a node's address names it.
        let key = (expr as *const Expr as usize, first_request);
        let depth = self.eval_depth.get();
        if depth == 0 {
            self.eval_cache.borrow_mut().clear();
        } else if let Some(v) = self.eval_cache.borrow().get(&key) {
            return v.clone();
        }
        self.eval_depth.set(depth + 1);
        let value = self.eval_uncached(expr, first_request);
        self.eval_depth.set(depth);
        self.eval_cache.borrow_mut().insert(key, value.clone());
        value
    }

    fn eval_uncached(&self, expr: &Expr, first_request: usize) -> Value {
        if let Some(v) = self.eval_flow(expr, first_request) {
            return v;
        }
        if let Some(entry) = self.entry_of(expr) {
            return Value::Entry(Box::new(entry));
        }
        match strip(expr) {
            Expr::Await(a) => self
                .unwrapped(&a.base, first_request)
                .unwrap_or(Value::Unknown),
            Expr::Try(t) => self.eval_try(t, first_request),
            e @ Expr::MethodCall(m) => self.eval_method_call(e, m, first_request),
            e @ Expr::Call(c) => self.eval_call(e, c, first_request),
            e @ Expr::Async(_) => {
                let span = self.span(e);
                let mut requests = self.requests_within(span, first_request);
                if let Some(refs) = self.async_refs.get(&(span.start, span.end)) {
                    requests.extend(refs.iter().copied());
                }
                requests.sort_unstable();
                requests.dedup();
                Value::Future(Fut::new(span, requests))
            }
            Expr::Macro(m) => {
                let last = m.mac.path.segments.last().map(|s| s.ident.to_string());
                match last.as_deref() {
                    Some("json") => Value::Object(self.json_metadata_name(&m.mac)),
                    Some("format") => Value::Name(self.name_of(strip(expr))),
                    _ => Value::Unknown,
                }
            }
            Expr::Struct(s) => match self.struct_metadata_name(s) {
                Some(name) => Value::Object(name),
                None => Value::Unknown,
            },
            e @ Expr::Path(p) => {
                if let Some(ident) = p.path.get_ident() {
                    if let Some(b) = self.lookup(&ident.to_string()) {
                        return b.value.clone();
                    }
                }
                match self.name_of(e) {
                    NameExpr::Unknown => Value::Unknown,
                    name => Value::Name(name),
                }
            }
            e @ Expr::Field(f) => match self.place(e) {
                Some(name) => {
                    // A field may be a handle (`self.pods`) or a name (`obj.metadata.name`).
                    if let syn::Member::Named(field) = &f.member {
                        if self.field_is_api(field) {
                            return Value::Handle(HandleSource::Field {
                                field: field.to_string(),
                                origin: Some(HandleOrigin::Place(self.text(e))),
                            });
                        }
                    }
                    Value::Name(name)
                }
                None => Value::Unknown,
            },
            e @ Expr::Lit(_) => match self.name_of(e) {
                NameExpr::Unknown => Value::Unknown,
                n => Value::Name(n),
            },
            _ => Value::Unknown,
        }
    }

    /// `operand?`: objects, names and collections pass through; a future only when it is not
    /// a request itself.
    fn eval_try(&self, t: &syn::ExprTry, first_request: usize) -> Value {
        match strip(&t.expr) {
            inner @ Expr::Await(_) => self
                .unwrapped(inner, first_request)
                .unwrap_or(Value::Unknown),
            inner => match self.eval(inner, first_request) {
                // `self.api::<Pod>()?`: the handle inside what a crate call gives.
                Value::Call { entry, .. } => unwrapped_handle(entry),
                v @ Value::Handle(HandleSource::Unwrapped { .. }) => v,
                // `Api::namespaced(..)?` is not valid; objects and names from fallible
                // constructors (`serde_json::from_value(..)?`) stay; a future that can be
                // `?`-ed was wrapped in `Option` or `Result` (kube's request futures
                // themselves cannot be `?`-ed).
                v @ (Value::Object(_) | Value::Name(_)) => v,
                // A fallible collect (`collect::<Result<FuturesUnordered<_>, _>>()?`): the
                // collection of futures inside.
                v @ (Value::Set(_) | Value::Futures(_)) => v,
                Value::Future(f) if self.request_at(self.span(inner), first_request).is_none() => {
                    Value::Future(f.single())
                }
                _ => Value::Unknown,
            },
        }
    }

    /// A method call: a request, a handle adapter (`constrain`, `clone`), a future adapter
    /// (`map`, `then`), a name, or a handle the method may return.
    fn eval_method_call(&self, e: &Expr, m: &syn::ExprMethodCall, first_request: usize) -> Value {
        let span = self.span(e);
        let method = m.method.to_string();
        if let Some(i) = self.request_at(span, first_request) {
            return self.entry_value(i, &method);
        }
        if ident_in(&m.method, &["unwrap", "expect", "context", "with_context"]) {
            if let Some(v) = self.unwrapped(&m.receiver, first_request) {
                return v;
            }
        }
        match method.as_str() {
            // kube 5: the same handle, scoped to another namespace.
            "constrain" | "unconstrain" | "constrain_default" => {
                match self.eval(&m.receiver, first_request) {
                    Value::Handle(HandleSource::Known(h)) => {
                        let namespace = match method.as_str() {
                            "constrain" => m
                                .args
                                .first()
                                .map(|ns| Namespace::Named(self.name_of(ns)))
                                .unwrap_or(Namespace::Unknown),
                            "unconstrain" => Namespace::All,
                            _ => Namespace::Default,
                        };
                        Value::Handle(HandleSource::Known(Handle {
                            kind: h.kind,
                            namespace,
                            origin: None,
                            kind_param: h.kind_param,
                        }))
                    }
                    Value::Handle(other) => Value::Handle(without_origin(other)),
                    _ => Value::Unknown,
                }
            }
            "clone" | "to_owned" | "boxed" | "boxed_local" | "fuse" | "into_future" => {
                self.eval(&m.receiver, first_request)
            }

            // FutureExt / TryFutureExt adapters keep the requests of the inner future.
            "map" | "map_ok" | "map_err" | "inspect" | "inspect_err" | "then" | "and_then"
            | "or_else" | "err_into" | "instrument" | "in_current_span" => {
                match self.eval(&m.receiver, first_request) {
                    v @ Value::Future(_) => v,
                    _ => Value::Unknown,
                }
            }
            _ => match self.name_of(e) {
                NameExpr::Unknown => Value::Handle(HandleSource::Returned {
                    name: method,
                    origin: None,
                    kind_arg: turbofish_kind(m.turbofish.as_ref(), &self.generics),
                }),
                name => Value::Name(name),
            },
        }
    }

    /// A call by path: an `Api` constructor, a request, a wrapper of its argument (`Box::pin`,
    /// `Some`), a conversion of an object or name, or a handle the function may return.
    fn eval_call(&self, e: &Expr, c: &syn::ExprCall, first_request: usize) -> Value {
        let Expr::Path(p) = strip(&c.func) else {
            return Value::Unknown;
        };
        if let Some(handle) = self.api_constructor(&p.path, &c.args) {
            return Value::Handle(HandleSource::Known(handle));
        }
        let last = p.path.segments.last().map(|s| s.ident.to_string());
        if let Some(i) = self.request_at(self.span(e), first_request) {
            return self.entry_value(i, last.as_deref().unwrap_or_default());
        }
        match last.as_deref() {
            Some("pin" | "new" | "Left" | "Right" | "Some" | "Ok")
                if c.args.len() == 1 && is_wrapper_path(&p.path) =>
            {
                self.eval(&c.args[0], first_request)
            }
            Some("from_value" | "from" | "from_str") if c.args.len() == 1 => {
                match self.eval(&c.args[0], first_request) {
                    v @ (Value::Object(_) | Value::Name(_)) => v,
                    _ => Value::Unknown,
                }
            }
            Some(name) => Value::Handle(HandleSource::Returned {
                name: name.to_string(),
                origin: None,
                kind_arg: None,
            }),
            None => Value::Unknown,
        }
    }

    /// `call.await`, `call?`, `call.unwrap()` of a call of a crate function: the `Api` handle
    /// inside what it gives, if its callee turns out to return one (see
    /// [`HandleSource::Unwrapped`]); what is unwrapped further (`call.await?`) stays that handle.
    pub(super) fn unwrapped(&self, operand: &Expr, first_request: usize) -> Option<Value> {
        match self.eval(operand, first_request) {
            Value::Call { entry, .. } => Some(unwrapped_handle(entry)),
            v @ Value::Handle(HandleSource::Unwrapped { .. }) => Some(v),
            _ => None,
        }
    }

    fn field_is_api(&self, field: &syn::Ident) -> bool {
        // Only fields declared in this file are known here; `link` resolves the others.
        self.facts.items.api_fields.iter().any(|(f, _)| field == f)
    }

    /// The value of a recorded entry: a request future, or the result of a helper call.
    fn entry_value(&self, entry: usize, callee: &str) -> Value {
        match &self.facts.requests[entry].kind {
            RawKind::Api(_) => {
                Value::Future(Fut::new(self.facts.requests[entry].span, vec![entry]))
            }
            RawKind::Helper(call) => Value::Call {
                entry,
                returned: HandleSource::Returned {
                    name: callee.to_string(),
                    origin: None,
                    kind_arg: match call.type_args.as_slice() {
                        [Some(kind)] => Some(kind.clone()),
                        _ => None,
                    },
                },
            },
        }
    }

    /// The first entry at or after `first` made by the call at `span`.
    pub(super) fn request_at(&self, span: Span, first: usize) -> Option<usize> {
        match self.entry_by_span.get(&(span.start, span.end)) {
            Some(&i) if i >= first => Some(i),
            // The first one is older: only a later one with the same span can be asked for.
            Some(_) => {
                (first..self.facts.requests.len()).find(|&i| self.facts.requests[i].span == span)
            }
            None => None,
        }
    }

    pub(super) fn requests_within(&self, span: Span, first: usize) -> Vec<usize> {
        (first..self.facts.requests.len())
            .filter(|&i| span.contains(&self.facts.requests[i].span))
            .collect()
    }
}

fn unwrapped_handle(entry: usize) -> Value {
    Value::Handle(HandleSource::Unwrapped {
        entry,
        kind: None,
        origin: None,
    })
}
