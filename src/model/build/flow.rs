//! How request futures travel to the place that polls them: collections (`vec![..]`, arrays,
//! `push`), iterator chains mapping a closure over elements (batches), closures called later,
//! wrappers, and the combinators that poll several futures at once.

use super::ident_in;
use proc_macro2::TokenTree;
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{Expr, Pat, Token};

use super::{path_text, strip, Builder, Value};
use crate::model::sites::{self, Collected, SelectFn, SetKind};
use crate::model::{
    Batch, ClosureArgument, Collection, MappedClosure, Operand, OperandForm, SiteKind, SpawnKind,
    Timeout,
};
use crate::source::Span;

/// A future (or a handle of spawned tasks) as this pass follows it.
#[derive(Clone, Debug)]
pub(super) struct Fut {
    /// Where the future is made: the request call, the `async` block, the closure body.
    pub span: Span,
    /// Requests made when it is polled (indices into `facts.requests`).
    pub requests: Vec<usize>,
    /// Some for "one future per element" members of a collection.
    pub batch: Option<Batch>,
    /// Closure parameters bound by the call that made it.
    pub arguments: Vec<ClosureArgument>,
    /// Spawned tasks (indices into `facts.spawns`) whose handles this is.
    pub tasks: Vec<usize>,
    /// What the expression is, for rewrites (set for site operands written as expressions).
    pub form: OperandForm,
}

impl Fut {
    pub fn new(span: Span, requests: Vec<usize>) -> Fut {
        Fut {
            span,
            requests,
            batch: None,
            arguments: Vec::new(),
            tasks: Vec::new(),
            form: OperandForm::Other {
                needs_parens: false,
            },
        }
    }

    pub fn task(span: Span, index: usize) -> Fut {
        Fut {
            tasks: vec![index],
            ..Fut::new(span, Vec::new())
        }
    }

    /// One future, whatever collection it came from.
    pub fn single(mut self) -> Fut {
        self.batch = None;
        self
    }

    /// One future that makes the requests of all of these (a join of them, a chain).
    pub fn union(span: Span, futs: Vec<Fut>) -> Fut {
        let mut out = Fut::new(span, Vec::new());
        for f in futs {
            out.requests.extend(f.requests);
            out.tasks.extend(f.tasks);
            out.arguments.extend(f.arguments);
        }
        out.requests.sort_unstable();
        out.requests.dedup();
        out.tasks.sort_unstable();
        out.tasks.dedup();
        out
    }

    pub fn add_requests(&mut self, more: Vec<usize>) {
        self.requests.extend(more);
        self.requests.sort_unstable();
        self.requests.dedup();
    }

    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.tasks.is_empty()
    }

    pub fn operand(&self) -> Operand {
        Operand {
            span: self.span,
            requests: self.requests.clone(),
            batch: self.batch.clone(),
            arguments: self.arguments.clone(),
            form: self.form,
        }
    }

    /// Repeated once per element of the frames: the batch grows by their elements.
    fn repeated_in(mut self, batch: &Batch) -> Fut {
        self.batch = Some(match self.batch.take() {
            None => batch.clone(),
            Some(inner) => Batch {
                elements: batch
                    .elements
                    .iter()
                    .chain(&inner.elements)
                    .copied()
                    .collect(),
                locals: batch.locals.start.min(inner.locals.start)..u64::MAX,
                over: batch.over.clone(),
            },
        });
        self
    }
}

/// A closure value: its parameters and what calling it gives.
#[derive(Clone, Debug)]
pub(super) struct ClosureValue {
    pub params: Vec<u64>,
    pub locals_start: u64,
    pub output: Value,
}

/// What the visit of a closure recorded.
#[derive(Clone, Debug, Default)]
pub(super) struct ClosureInfo {
    pub params: Vec<u64>,
    pub locals_start: u64,
    /// Requests of futures referenced by name inside the body.
    pub refs: Vec<usize>,
}

/// How the next closure visited is run.
#[derive(Clone, Debug)]
pub(super) enum PendingClosure {
    /// Once per element of `over` (`names.iter().map(|n| ..)`); `element` is what the first
    /// parameter is, when known (an `Api` from a `Vec<Api<K>>`).
    Repeated {
        over: String,
        element: Value,
        /// The type of the first parameter: an item of what is iterated (boxed: rarely known).
        item: Box<super::types::ExprType>,
    },
    /// The body of a thread scope: its first parameter is the scope (index into `sets`).
    ScopeBody { set: usize },
    /// The closure given to kube-runtime's `finalizer`: its first parameter is the event of
    /// this object (see [`Value::FinalizerEvent`]).
    FinalizerEvent(Box<super::EventObject>),
}

/// A loop body or closure run once per element.
#[derive(Clone, Debug)]
pub(super) struct Rep {
    pub elements: Vec<u64>,
    pub locals_start: u64,
    pub over: String,
    pub body: Span,
}

impl Rep {
    pub fn batch(frames: &[Rep]) -> Option<Batch> {
        let first = frames.first()?;
        Some(Batch {
            elements: frames.iter().flat_map(|r| r.elements.clone()).collect(),
            locals: first.locals_start..u64::MAX,
            over: first.over.clone(),
        })
    }
}

impl Builder<'_> {
    /// The futures a value holds or is; the result of a call of a crate function is a future
    /// making the callee's requests.
    pub(super) fn futs(&self, value: Value) -> Vec<Fut> {
        match value {
            Value::Future(f) => vec![f],
            Value::Futures(fs) => fs,
            Value::Call { entry, .. } => {
                vec![Fut::new(self.facts.requests[entry].span, vec![entry])]
            }
            _ => Vec::new(),
        }
    }
}

/// Methods whose receiver is clearly an iterator or stream (not an `Option`).
const ITERATOR_METHODS: &[&str] = &[
    "iter",
    "into_iter",
    "iter_mut",
    "drain",
    "values",
    "values_mut",
    "keys",
    "into_values",
    "into_keys",
    "chunks",
    "chunks_exact",
    "windows",
    "enumerate",
    "lines",
    "split",
    "split_whitespace",
    "step_by",
    "chars",
    "rev",
    "cloned",
    "copied",
    "peekable",
    "skip",
    "skip_while",
    "take_while",
];

/// Iterator and stream adapters that keep the futures of their receiver.
const KEEPING_ADAPTERS: &[&str] = &[
    "into_iter",
    "iter",
    "iter_mut",
    "drain",
    "filter",
    "skip",
    "take",
    "rev",
    "fuse",
    "peekable",
    "collect",
    "enumerate",
    "by_ref",
    "boxed",
    "into_stream",
    "skip_while",
    "take_while",
    "inspect",
];

/// Whether an expression is syntactically an iterator or stream over several elements.
fn iterator_like(expr: &Expr) -> bool {
    match strip(expr) {
        Expr::Range(_) => true,
        Expr::MethodCall(m) => ident_in(&m.method, ITERATOR_METHODS) || iterator_like(&m.receiver),
        Expr::Call(c) => match strip(&c.func) {
            Expr::Path(p) => p.path.segments.last().is_some_and(|s| {
                ident_in(
                    &s.ident,
                    &["iter", "repeat", "repeat_with", "from_fn", "successors"],
                )
            }),
            _ => false,
        },
        _ => false,
    }
}

/// The last segment of the first type of a turbofish: `collect::<FuturesUnordered<_>>()`.
fn turbofish_type(m: &syn::ExprMethodCall) -> Option<String> {
    let args = m.turbofish.as_ref()?;
    args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(ty) => collected_type_name(ty),
        _ => None,
    })
}

/// The last segment of the type a `collect` builds. A fallible collect
/// (`collect::<Result<TryJoinAll<_>, _>>()`, `Option<JoinAll<_>>`) builds the collection inside:
/// after `?` it is that collection of futures.
pub(super) fn collected_type_name(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    if name != "Result" && name != "Option" {
        return Some(name);
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return Some(name);
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(inner)) => collected_type_name(inner),
        _ => Some(name),
    }
}

fn key(span: Span) -> (usize, usize) {
    (span.start, span.end)
}

impl Builder<'_> {
    /// Enter a new function, closure or `async` block starting at `span`; returns the one to
    /// restore.
    pub(super) fn enter_body(&mut self, kind: crate::model::BodyKind, span: Span) -> u32 {
        self.next_body += 1;
        // Ids are handed out in order: the body's id is its index.
        self.facts.bodies.push(crate::model::Body {
            kind,
            span,
            function: self.functions.last().copied(),
            made: (!matches!(
                kind,
                crate::model::BodyKind::Fn | crate::model::BodyKind::AsyncFn
            ))
            .then(|| crate::model::order::Made {
                body: self.body,
                at: span.start,
                branches: self.branches.clone(),
                loops: self.loops.clone(),
            }),
        });
        std::mem::replace(&mut self.body, self.next_body)
    }

    /// The body is `async`: `.await` can be written in it.
    pub(super) fn is_async_body(&self, body: u32) -> bool {
        self.facts
            .bodies
            .get(body as usize)
            .is_some_and(|b| b.kind.is_async())
    }

    pub(super) fn next_branch(&mut self) -> u32 {
        self.next_branch += 1;
        self.next_branch
    }

    /// Run `f` with `deps` as the dependencies of the bindings it makes.
    pub(super) fn with_deps<R>(&mut self, deps: Vec<u64>, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = std::mem::replace(&mut self.binding_deps, deps);
        let out = f(self);
        self.binding_deps = saved;
        out
    }

    /// Bind a pattern whose identifiers are elements (closure parameters, loop patterns);
    /// returns their ids.
    fn bind_elements(&mut self, f: impl FnOnce(&mut Self)) -> Vec<u64> {
        let saved = self.binding_elements.replace(Vec::new());
        f(self);
        std::mem::replace(&mut self.binding_elements, saved).unwrap_or_default()
    }

    /// Bind `pat` as the element of a repetition over `over` and visit its body with the
    /// repetition frame open.
    pub(super) fn repeated(
        &mut self,
        pat: &Pat,
        value: Value,
        over: String,
        body: Span,
        f: impl FnOnce(&mut Self),
    ) {
        let locals_start = self.next_id + 1;
        let elements = self.bind_elements(|b| b.bind_pattern(pat, value));
        self.reps.push(Rep {
            elements,
            locals_start,
            over,
            body,
        });
        f(self);
        self.reps.pop();
    }

    pub(super) fn visit_closure(&mut self, c: &syn::ExprClosure) {
        let span = self.span(c);
        let body = self.span(&*c.body);
        let pending = self.pending_closure.take();
        let param_deps = std::mem::take(&mut self.pending_param_deps);
        let locals_start = self.next_id + 1;
        let kind = if c.asyncness.is_some() {
            crate::model::BodyKind::AsyncClosure
        } else {
            crate::model::BodyKind::Closure
        };
        let head = Span {
            end: self.span(&c.or2_token).end,
            ..self.span(&c.or1_token)
        };
        let saved_body = self.enter_body(kind, head);
        self.collectors.push(Vec::new());
        self.with_scope(|b| {
            let saved_deps = std::mem::replace(&mut b.element_deps, param_deps);
            let params = b.bind_elements(|b| {
                for (i, input) in c.inputs.iter().enumerate() {
                    let value = match &pending {
                        Some(PendingClosure::ScopeBody { set }) if i == 0 => Value::Set(*set),
                        Some(PendingClosure::Repeated { element, .. }) if i == 0 => element.clone(),
                        Some(PendingClosure::FinalizerEvent(object)) if i == 0 => {
                            Value::FinalizerEvent(object.clone())
                        }
                        _ => Value::Unknown,
                    };
                    b.bind_pattern(input, value);
                }
            });
            b.element_deps = saved_deps;
            if let (Some(PendingClosure::Repeated { item, .. }), Some(first)) =
                (&pending, c.inputs.first())
            {
                b.type_pattern(first, (**item).clone());
            }
            let repeated = match &pending {
                Some(PendingClosure::Repeated { over, .. }) => {
                    b.reps.push(Rep {
                        elements: params.clone(),
                        locals_start,
                        over: over.clone(),
                        body,
                    });
                    true
                }
                _ => false,
            };
            b.visit_expr(&c.body);
            if repeated {
                b.reps.pop();
            }
            b.closures.insert(
                key(span),
                ClosureInfo {
                    params,
                    locals_start,
                    refs: Vec::new(),
                },
            );
        });
        let refs = self.collectors.pop().unwrap_or_default();
        self.body = saved_body;
        if let Some(info) = self.closures.get_mut(&key(span)) {
            info.refs = refs;
        }
    }

    /// Bindings (closure parameters, loop elements) an expression's value is computed from.
    pub(super) fn deps_of_expr(&self, expr: &Expr) -> Vec<u64> {
        let mut deps: Vec<u64> = idents_of(expr)
            .iter()
            .filter_map(|n| self.lookup(n))
            .flat_map(|b| b.deps.iter().copied())
            .collect();
        deps.sort_unstable();
        deps.dedup();
        deps
    }

    /// The bindings in scope that an expression reads, each once, in written order.
    pub(super) fn referenced_bindings(&self, expr: &Expr) -> Vec<u64> {
        let mut out: Vec<u64> = Vec::new();
        for id in idents_of(expr)
            .iter()
            .filter_map(|n| self.lookup(n))
            .map(|b| b.id)
        {
            if !out.contains(&id) {
                out.push(id);
            }
        }
        out
    }
}

/// The single identifiers an expression mentions (paths, macro tokens and the bindings a
/// `format!` template captures), in written order.
fn idents_of(expr: &Expr) -> Vec<String> {
    {
        struct Idents(Vec<String>);
        impl<'ast> Visit<'ast> for Idents {
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(i) = p.path.get_ident() {
                    self.0.push(i.to_string());
                }
            }
            fn visit_macro(&mut self, m: &'ast syn::Macro) {
                fn walk(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
                    for t in tokens {
                        match t {
                            TokenTree::Ident(i) => out.push(i.to_string()),
                            TokenTree::Group(g) => walk(g.stream(), out),
                            _ => {}
                        }
                    }
                }
                walk(m.tokens.clone(), &mut self.0);
                // `format!("{base}-{i}")` reads `base` and `i` inside its template.
                let formats = ["format", "format_args", "write", "writeln"];
                if m.path
                    .segments
                    .last()
                    .is_some_and(|s| formats.iter().any(|f| s.ident == f))
                {
                    self.0.extend(super::names::format_captures(m));
                }
            }
            // A closure inside the expression has its own parameters.
            fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
                self.visit_expr(&c.body);
            }
        }
        let mut idents = Idents(Vec::new());
        idents.visit_expr(expr);
        idents.0
    }
}

impl Builder<'_> {
    /// What one element of an iterated expression is, when known: the elements of a
    /// `Vec<Api<K>>` are `Api` handles (each its own: no shared origin or namespace).
    pub(super) fn element_value(&self, iterated: &Expr) -> Value {
        let mut root = strip(iterated);
        loop {
            root = match root {
                Expr::MethodCall(m) => strip(&m.receiver),
                Expr::Call(c) if c.args.len() == 1 => strip(&c.args[0]),
                _ => break,
            };
        }
        match self.eval(root, self.facts.requests.len()) {
            Value::Handle(crate::model::HandleSource::Known(h)) => {
                Value::Handle(crate::model::HandleSource::Known(crate::model::Handle {
                    kind: h.kind,
                    namespace: crate::model::Namespace::Unknown,
                    origin: None,
                    kind_param: None,
                }))
            }
            _ => Value::Unknown,
        }
    }

    // ----- values ----------------------------------------------------------------------------

    /// The value of expressions that carry futures; None to let [`Builder::eval`] decide.
    pub(super) fn eval_flow(&self, expr: &Expr, first: usize) -> Option<Value> {
        match strip(expr) {
            Expr::MethodCall(m) => self.eval_method_flow(m, first),
            Expr::Call(c) => self.eval_call_flow(c, first),
            // `Box::pin(fut) as BoxFuture<..>`.
            Expr::Cast(c) => Some(self.eval(&c.expr, first)),
            Expr::Array(a) => Some(Value::Futures(
                a.elems
                    .iter()
                    .flat_map(|e| self.futs(self.eval(e, first)))
                    .collect(),
            )),
            Expr::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "vec") => {
                let elems = m
                    .mac
                    .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                    .ok()?;
                Some(Value::Futures(
                    elems
                        .iter()
                        .flat_map(|e| self.futs(self.eval(e, first)))
                        .collect(),
                ))
            }
            // `std::pin::pin!(fut)`: the argument's value.
            Expr::Macro(m) => self.macro_value(&m.mac).map(|e| self.eval(e, first)),
            Expr::Block(b) => match b.block.stmts.last() {
                Some(syn::Stmt::Expr(tail, None)) => match self.eval(tail, first) {
                    v @ (Value::Future(_) | Value::Futures(_)) => Some(v),
                    _ => None,
                },
                _ => None,
            },
            e @ Expr::If(i) => {
                let mut futs = Vec::new();
                if let Some(syn::Stmt::Expr(tail, None)) = i.then_branch.stmts.last() {
                    futs.extend(self.futs(self.eval(tail, first)));
                }
                if let Some((_, other)) = &i.else_branch {
                    futs.extend(self.futs(self.eval(other, first)));
                }
                (!futs.is_empty()).then(|| Value::Future(Fut::union(self.span(e), futs)))
            }
            e @ Expr::Match(m) => {
                let futs: Vec<Fut> = m
                    .arms
                    .iter()
                    .flat_map(|a| self.futs(self.eval(&a.body, first)))
                    .collect();
                (!futs.is_empty()).then(|| Value::Future(Fut::union(self.span(e), futs)))
            }
            e @ Expr::Closure(c) => {
                let span = self.span(e);
                let info = self.closures.get(&key(span))?;
                let body_span = self.span(&*c.body);
                let output = match self.eval(&c.body, first) {
                    Value::Future(mut f) => {
                        f.add_requests(info.refs.clone());
                        f.form = self.operand_form(&c.body, first);
                        Value::Future(f)
                    }
                    v @ Value::Futures(_) => v,
                    // A block without a tail returns `()`: its request futures were dropped.
                    _ if matches!(&*c.body, Expr::Block(b)
                        if !matches!(b.block.stmts.last(), Some(syn::Stmt::Expr(_, None)))) =>
                    {
                        Value::Unknown
                    }
                    _ => {
                        // `|n| wrap(api.get(n))`: a future made of the requests inside.
                        let mut requests = self.requests_within(body_span, first);
                        requests.extend(info.refs.iter().copied());
                        if requests.is_empty() {
                            Value::Unknown
                        } else {
                            let mut f = Fut::new(body_span, Vec::new());
                            f.add_requests(requests);
                            Value::Future(f)
                        }
                    }
                };
                Some(Value::Closure(Box::new(ClosureValue {
                    params: info.params.clone(),
                    locals_start: info.locals_start,
                    output,
                })))
            }
            _ => None,
        }
    }

    fn eval_method_flow(&self, m: &syn::ExprMethodCall, first: usize) -> Option<Value> {
        let span = self.span(m);
        // A request call; a method recorded as a possible crate helper (`map_ok`) is still
        // followed as an adapter here.
        if let Some(i) = self.request_at(span, first) {
            if matches!(self.facts.requests[i].kind, crate::model::RawKind::Api(_)) {
                return None;
            }
        }
        if let Some(&i) = self.spawn_at.get(&key(span)) {
            return Some(Value::Future(Fut::task(span, i)));
        }
        if let Some(&set) = self.set_at.get(&key(span)) {
            return Some(Value::Set(set));
        }
        let method = m.method.to_string();
        let method = method.as_str();
        match method {
            "map" | "map_ok" | "flat_map" | "filter_map" | "then" | "and_then" => {
                let receiver = self.eval(&m.receiver, first);
                let closure = m.args.first().map(|a| self.eval(a, first));
                if let Value::Future(f) = receiver {
                    // FutureExt: `then`/`and_then` run the closure's future after this one.
                    let mut futs = vec![f];
                    if matches!(method, "then" | "and_then") {
                        if let Some(Value::Closure(c)) = closure {
                            futs.extend(self.futs(c.output.clone()));
                        }
                    }
                    return Some(Value::Future(Fut::union(span, futs)));
                }
                let (output, params, locals_start) = match closure {
                    Some(Value::Closure(c)) => {
                        let c = *c;
                        (self.futs(c.output.clone()), c.params, c.locals_start)
                    }
                    _ => (Vec::new(), Vec::new(), 0),
                };
                let output: Vec<Fut> = output.into_iter().filter(|f| !f.is_empty()).collect();
                if matches!(method, "then" | "and_then") {
                    // A stream's `then` polls one future at a time, in order.
                    let mut futs = self.futs(receiver.clone());
                    futs.extend(output);
                    return (!futs.is_empty()).then(|| Value::Future(Fut::union(span, futs)));
                }
                if !output.is_empty() {
                    if iterator_like(&m.receiver) || matches!(receiver, Value::Futures(_)) {
                        let batch = Batch {
                            elements: params,
                            locals: locals_start..u64::MAX,
                            over: self.text(&m.receiver),
                        };
                        return Some(Value::Futures(
                            output.into_iter().map(|f| f.repeated_in(&batch)).collect(),
                        ));
                    }
                    // `Option::map`: at most one future.
                    return Some(Value::Future(Fut::union(span, output)));
                }
                match receiver {
                    v @ Value::Futures(_) => Some(v),
                    _ => None,
                }
            }
            "chain" => {
                let mut futs = self.futs(self.eval(&m.receiver, first));
                futs.extend(
                    m.args
                        .first()
                        .map(|a| self.futs(self.eval(a, first)))
                        .unwrap_or_default(),
                );
                (!futs.is_empty()).then_some(Value::Futures(futs))
            }
            // `handle.abort_handle()` aborts the same task.
            "abort_handle" => match self.eval(&m.receiver, first) {
                Value::Future(f) if !f.tasks.is_empty() => Some(Value::Future(Fut {
                    tasks: f.tasks,
                    ..Fut::new(span, Vec::new())
                })),
                _ => None,
            },
            "unwrap" | "expect" | "ok" | "ok_or" | "ok_or_else" | "timeout" => {
                match self.eval(&m.receiver, first) {
                    Value::Future(f) => Some(Value::Future(f.single())),
                    _ => None,
                }
            }
            "buffer_unordered" | "buffered" | "try_buffer_unordered" | "try_buffered" => {
                let futs = self.futs(self.eval(&m.receiver, first));
                Some(Value::Future(Fut::union(span, futs)))
            }
            "for_each" | "try_for_each" | "for_each_concurrent" | "try_for_each_concurrent" => {
                let mut futs = self.futs(self.eval(&m.receiver, first));
                if let Some(Value::Closure(c)) = m.args.last().map(|a| self.eval(a, first)) {
                    futs.extend(self.futs(c.output.clone()));
                }
                (!futs.is_empty()).then(|| Value::Future(Fut::union(span, futs)))
            }
            _ if method == "collect" => {
                let receiver = self.eval(&m.receiver, first);
                match turbofish_type(m).as_deref().and_then(sites::collected) {
                    Some(Collected::JoinAll { .. }) => {
                        Some(Value::Future(Fut::union(span, self.futs(receiver.clone()))))
                    }
                    _ => match receiver {
                        v @ Value::Futures(_) => Some(v),
                        _ => None,
                    },
                }
            }
            _ if KEEPING_ADAPTERS.contains(&method) => match self.eval(&m.receiver, first) {
                v @ Value::Futures(_) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    fn eval_call_flow(&self, c: &syn::ExprCall, first: usize) -> Option<Value> {
        let span = self.span(c);
        if let Some(&i) = self.spawn_at.get(&key(span)) {
            return Some(Value::Future(Fut::task(span, i)));
        }
        if let Some(&set) = self.set_at.get(&key(span)) {
            return Some(Value::Set(set));
        }
        let Expr::Path(p) = strip(&c.func) else {
            return None;
        };
        let args: Vec<&Expr> = c.args.iter().collect();
        let all_args = || {
            args.iter()
                .flat_map(|a| self.futs(self.eval(a, first)))
                .collect::<Vec<_>>()
        };
        if sites::join_fn(&p.path).is_some() && args.len() >= 2 {
            return Some(Value::Future(Fut::union(span, all_args())));
        }
        if sites::join_all_fn(&p.path).is_some() || sites::select_fn(&p.path).is_some() {
            return Some(Value::Future(Fut::union(span, all_args())));
        }
        if sites::timeout_fn(&p.path) && args.len() == 2 {
            return match self.eval(args[1], first) {
                Value::Future(f) => Some(Value::Future(f.single())),
                _ => None,
            };
        }
        let last = p.path.segments.last()?.ident.to_string();
        match last.as_str() {
            // `stream::iter(futures)`, `futures::stream::iter(..)`.
            "iter" if args.len() == 1 => match self.eval(args[0], first) {
                v @ Value::Futures(_) => Some(v),
                _ => None,
            },
            "new" | "with_capacity" | "default"
                if p.path.segments.len() >= 2 && {
                    let ty = p.path.segments[p.path.segments.len() - 2].ident.to_string();
                    ty == "Vec" || ty == "VecDeque"
                } =>
            {
                Some(Value::Futures(Vec::new()))
            }
            _ => {
                // A closure bound earlier, called now.
                let ident = p.path.get_ident()?;
                let binding = self.lookup(&ident.to_string())?;
                let Value::Closure(closure) = &binding.value else {
                    return None;
                };
                let Value::Future(mut f) = closure.output.clone() else {
                    return Some(closure.output.clone());
                };
                f.span = span;
                f.arguments = closure
                    .params
                    .iter()
                    .zip(args.iter())
                    .map(|(&param, arg)| ClosureArgument {
                        param,
                        name: self.name_of(arg),
                        keyed_by: self.deps_of_expr(arg),
                    })
                    .collect();
                Some(Value::Future(f))
            }
        }
    }

    // ----- visiting -------------------------------------------------------------------------

    /// Visit a method call's receiver and arguments; closures given to iterator adapters are
    /// visited as repeated per element.
    pub(super) fn visit_method_call_parts(&mut self, call: &syn::ExprMethodCall) {
        self.visit_expr(&call.receiver);
        let method = call.method.to_string();
        let repeats = matches!(
            method.as_str(),
            "map"
                | "map_ok"
                | "flat_map"
                | "filter_map"
                | "for_each"
                | "try_for_each"
                | "for_each_concurrent"
                | "try_for_each_concurrent"
                | "then"
                | "and_then"
        ) && (iterator_like(&call.receiver)
            || sites::is_for_each_concurrent(&method)
            || matches!(
                self.eval(&call.receiver, self.facts.requests.len()),
                Value::Futures(_)
            ));
        for arg in &call.args {
            if repeats && matches!(strip(arg), Expr::Closure(_)) {
                self.pending_closure = Some(PendingClosure::Repeated {
                    over: self.text(&call.receiver),
                    element: match self.element_value(&call.receiver) {
                        Value::Unknown => self.element_name(&call.receiver),
                        known => known,
                    },
                    item: Box::new(self.item_type(&call.receiver)),
                });
            } else if matches!(strip(arg), Expr::Closure(_)) {
                // `opt.map(|x| ..)`, `res.and_then(|x| ..)`: `x` is computed from the receiver.
                self.pending_param_deps = self.deps_of_expr(&call.receiver);
            }
            self.visit_expr(arg);
            self.pending_closure = None;
            self.pending_param_deps.clear();
        }
    }

    /// After a method call was visited: the sites, collections, spawns and timeouts it makes.
    pub(super) fn method_call_flow(&mut self, call: &syn::ExprMethodCall, first: usize) {
        let method = call.method.to_string();
        let span = self.span(call);
        if let Some(kind) = sites::buffered_method(&method) {
            if call.args.first().is_some_and(is_one) {
                // One future at a time: the stream's order.
                return;
            }
            let futs = self.futs(self.eval(&call.receiver, first));
            let site = self.record_site(kind, span, format!("`{method}`"), futs, Vec::new());
            self.facts.sites[site].limit = call.args.first().map(|a| self.span(a));
            return;
        }
        if sites::is_for_each_concurrent(&method) {
            self.for_each_concurrent_flow(call, first, &method, span);
            return;
        }
        if method == "collect" {
            if let Some(ty) = turbofish_type(call) {
                match sites::collected(&ty) {
                    Some(Collected::JoinAll { fallible }) => {
                        let futs = self.futs(self.eval(&call.receiver, first));
                        self.record_site(
                            SiteKind::JoinAll { fallible },
                            span,
                            format!("`{ty}`"),
                            futs,
                            Vec::new(),
                        );
                    }
                    Some(Collected::Set(kind)) => {
                        let futs = self.futs(self.eval(&call.receiver, first));
                        let set = self.new_set(kind, format!("`{ty}`"), span);
                        self.add_to_set(set, futs);
                    }
                    None => {}
                }
                return;
            }
        }
        // Only these methods add to, spawn on, poll or join what their receiver holds.
        if !matches!(
            method.as_str(),
            "push"
                | "push_back"
                | "push_front"
                | "extend"
                | "append"
                | "insert"
                | "spawn"
                | "spawn_on"
                | "spawn_local"
                | "spawn_local_on"
                | "spawn_blocking"
                | "spawn_blocking_on"
                | "join"
                | "timeout"
                | "abort"
                | "abort_all"
                | "shutdown"
        ) && !SET_POLLS.contains(&method.as_str())
        {
            return;
        }
        let receiver = self.eval(&call.receiver, first);
        match receiver {
            Value::Set(set) => self.set_method(set, call, &method, first, span),
            Value::Futures(_) => {
                let added = match method.as_str() {
                    "push" | "push_back" | "push_front" | "extend" | "append" => call.args.first(),
                    "insert" => call.args.iter().nth(1),
                    _ => None,
                };
                if let (Some(arg), Expr::Path(p)) = (added, strip(&call.receiver)) {
                    let mut futs = self.futs(self.eval(arg, first));
                    if let ([f], false) = (futs.as_mut_slice(), method.as_str() == "extend") {
                        f.form = self.operand_form(arg, first);
                    }
                    if let Some(ident) = p.path.get_ident() {
                        self.push_to_binding(&ident.to_string(), futs);
                    }
                }
            }
            Value::Future(f) => match method.as_str() {
                // `std::thread::JoinHandle::join`.
                "join" => self.mark_joined(&f.tasks, span),
                // `JoinHandle::abort`, `AbortHandle::abort`.
                "abort" => self.mark_aborted(&f.tasks, span),
                "timeout" => {
                    self.facts.timeouts.push(Timeout {
                        span,
                        spelling: "`.timeout`".to_string(),
                        future: f.operand(),
                        body: self.body,
                        branches: self.branches.clone(),
                        loops: self.loops.clone(),
                        in_loop: self.is_in_loop(),
                        propagated: self.is_propagated(span),
                    });
                }
                _ => {}
            },
            _ => {
                // `Handle::current().spawn(fut)`, `runtime.spawn(fut)`, and
                // `handle.spawn_blocking(move || handle.block_on(write))`: a task like the others.
                if matches!(
                    method.as_str(),
                    "spawn" | "spawn_local" | "spawn_on" | "spawn_blocking"
                ) {
                    if let Some(arg) = call.args.first() {
                        let task = match self.eval(arg, first) {
                            Value::Future(f) => Some(f),
                            v @ Value::Call { .. } => Some(Fut::union(span, self.futs(v))),
                            Value::Closure(c) => Some(self.closure_task(span, arg, &c, first)),
                            _ => None,
                        };
                        if let Some(f) = task {
                            if !f.requests.is_empty() {
                                let spelling = format!("`.{method}`");
                                self.record_spawn(SpawnKind::Task, span, spelling, f);
                            }
                        }
                    }
                }
            }
        }
    }

    /// `for_each_concurrent(limit, f)` and its `try_` form: the closure's futures, one per
    /// element, polled at once (none when the limit is one).
    fn for_each_concurrent_flow(
        &mut self,
        call: &syn::ExprMethodCall,
        first: usize,
        method: &str,
        span: Span,
    ) {
        if call.args.len() == 2 && call.args.first().is_some_and(is_one) {
            return;
        }
        let futs = match call.args.last().map(|a| self.eval(a, first)) {
            Some(Value::Closure(c)) => {
                let c = *c;
                let batch = Batch {
                    elements: c.params,
                    locals: c.locals_start..u64::MAX,
                    over: self.text(&call.receiver),
                };
                self.futs(c.output)
                    .into_iter()
                    .map(|f| f.repeated_in(&batch))
                    .collect()
            }
            _ => Vec::new(),
        };
        let site = self.record_site(
            SiteKind::ForEachConcurrent,
            span,
            format!("`{method}`"),
            futs,
            Vec::new(),
        );
        // `for_each_concurrent(limit, f)`.
        if call.args.len() == 2 {
            self.facts.sites[site].limit = call.args.first().map(|a| self.span(a));
        }
    }

    /// The task a closure makes when a thread (or `spawn_blocking`) runs it: the future it
    /// returns, and the requests written in it (sent with `block_on`).
    fn closure_task(&self, span: Span, arg: &Expr, c: &ClosureValue, first: usize) -> Fut {
        let mut task = Fut::union(span, self.futs(c.output.clone()));
        let within = self.requests_within(self.span(arg), first);
        task.add_requests(within);
        task
    }

    /// Append futures to a `Vec` of futures bound to `name`; pushed inside a loop since the
    /// binding, they are one per element.
    fn push_to_binding(&mut self, name: &str, futs: Vec<Fut>) {
        let Some(depth) = self.lookup(name).map(|b| b.rep_depth) else {
            return;
        };
        let batch = Rep::batch(&self.reps[depth.min(self.reps.len())..]);
        let futs: Vec<Fut> = futs
            .into_iter()
            .map(|f| match &batch {
                Some(b) => f.repeated_in(b),
                None => f,
            })
            .collect();
        if let Some(b) = self.lookup_mut(name) {
            if let Value::Futures(members) = &mut b.value {
                members.extend(futs);
            }
        }
    }

    /// What a spawn's argument is: `spawn(runner.start(rx)?)` spawns the future a crate call
    /// gives inside a `Result` (`fn start(self) -> Result<impl Future<..>, E>`), whose requests
    /// are the call's; any other argument as it evaluates.
    fn spawned_value(&self, arg: &Expr, first: usize) -> Value {
        if let Expr::Try(t) = strip(arg) {
            if !matches!(strip(&t.expr), Expr::Await(_)) {
                if let v @ Value::Call { .. } = self.eval(&t.expr, first) {
                    return v;
                }
            }
        }
        self.eval(arg, first)
    }

    /// A call: the sites, spawns, scopes and sets it makes. True when its arguments were
    /// visited here.
    pub(super) fn call_flow(&mut self, call: &syn::ExprCall) -> bool {
        let Expr::Path(p) = strip(&call.func) else {
            return false;
        };
        let span = self.span(call);
        // Made only for the calls that are sites, spawns or sets.
        let spelling = || format!("`{}`", path_text(&p.path));
        let args: Vec<&Expr> = call.args.iter().collect();
        if let Some(kind) = sites::join_fn(&p.path) {
            if args.len() >= 2 {
                let operands = args.iter().map(|e| self.operand_fut(e)).collect();
                self.record_site(kind, span, spelling(), operands, Vec::new());
                return true;
            }
        }
        let collection_site = match (sites::join_all_fn(&p.path), sites::select_fn(&p.path)) {
            (Some(kind), _) => Some(kind),
            (None, Some(SelectFn::Collection)) => Some(SiteKind::SelectFn),
            (None, Some(SelectFn::Pair)) if args.len() == 2 => {
                let operands = args.iter().map(|e| self.operand_fut(e)).collect();
                self.record_site(SiteKind::SelectFn, span, spelling(), operands, Vec::new());
                return true;
            }
            _ => None,
        };
        if let (Some(kind), [arg]) = (collection_site, args.as_slice()) {
            let first = self.facts.requests.len();
            self.note_site_use(arg);
            self.visit_expr(arg);
            let futs = self.futs(self.eval(arg, first));
            let site = self.record_site(kind, span, spelling(), futs, Vec::new());
            if matches!(kind, SiteKind::JoinAll { .. }) {
                self.facts.sites[site].collection = self.collection(arg, first);
            }
            return true;
        }
        if let Some(kind) = sites::spawn_fn(&p.path) {
            let first = self.facts.requests.len();
            for a in &args {
                self.visit_expr(a);
            }
            let task = match args.first().map(|a| (a, self.spawned_value(a, first))) {
                Some((_, Value::Future(f))) => f,
                Some((_, v @ Value::Call { .. })) => Fut::union(span, self.futs(v)),
                // A thread's closure: what it makes when run (its requests are sent with
                // `block_on`), and the future it returns.
                Some((a, Value::Closure(c))) => self.closure_task(span, a, &c, first),
                _ => return true,
            };
            // A bare `spawn(..)` of something that makes no request may be anything.
            if p.path.segments.len() > 1 || !task.requests.is_empty() {
                self.record_spawn(kind, span, spelling(), task);
            }
            return true;
        }
        if sites::thread_scope_fn(&p.path) {
            let set = self.new_set(SetKind::ThreadScope, spelling(), span);
            for a in &args {
                if matches!(strip(a), Expr::Closure(_)) {
                    self.pending_closure = Some(PendingClosure::ScopeBody { set });
                }
                self.visit_expr(a);
                self.pending_closure = None;
            }
            self.finish_set(set);
            return true;
        }
        if sites::timeout_fn(&p.path) && args.len() == 2 {
            let first = self.facts.requests.len();
            for a in &args {
                self.visit_expr(a);
            }
            // A request future, or a call of a crate function (`timeout(d, self.update_status())`).
            let future = match self.eval(args[1], first) {
                value @ (Value::Future(_) | Value::Call { .. }) => self.futs(value).pop(),
                _ => None,
            };
            if let Some(f) = future {
                self.facts.timeouts.push(Timeout {
                    span,
                    spelling: spelling(),
                    future: f.operand(),
                    body: self.body,
                    branches: self.branches.clone(),
                    loops: self.loops.clone(),
                    in_loop: self.is_in_loop(),
                    propagated: self.is_propagated(span),
                });
            }
            return true;
        }
        if let Some((kind, with_futures)) = sites::set_constructor(&p.path) {
            let first = self.facts.requests.len();
            for a in &args {
                self.visit_expr(a);
            }
            let name = p
                .path
                .segments
                .iter()
                .rev()
                .nth(1)
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            let set = self.new_set(kind, format!("`{name}`"), span);
            if with_futures {
                if let Some(a) = args.first() {
                    let futs = self.futs(self.eval(a, first));
                    self.add_to_set(set, futs);
                }
            }
            return true;
        }
        if sites::abortable_fn(&p.path) && !args.is_empty() {
            let first = self.facts.requests.len();
            for a in &args {
                self.visit_expr(a);
            }
            let future = Fut::union(span, self.futs(self.eval(args[0], first)));
            if !future.requests.is_empty() {
                self.facts.abortables.push(crate::model::Abortable {
                    span,
                    spelling: spelling(),
                    future: future.operand(),
                    body: self.body,
                    branches: self.branches.clone(),
                    loops: self.loops.clone(),
                });
            }
            return true;
        }
        if is_drop(&p.path) {
            if let [arg] = args.as_slice() {
                self.note_drop(arg, span);
            }
        }
        false
    }

    /// How the collection given to `join_all` is written, when a rewrite understands it
    /// (requests from `first` on are its own).
    fn collection(&self, arg: &Expr, first: usize) -> Option<Collection> {
        let listed = |elems: Vec<&Expr>| {
            let operands = elems
                .into_iter()
                .map(|e| {
                    let span = self.span(e);
                    let mut f = Fut::union(span, self.futs(self.eval(e, first)));
                    f.form = self.operand_form(e, first);
                    f.operand()
                })
                .collect();
            Some(Collection::Listed(operands))
        };
        match super::strip_parens(arg) {
            Expr::Array(a) => listed(a.elems.iter().collect()),
            Expr::Macro(m) if m.mac.path.is_ident("vec") => {
                let elems = m
                    .mac
                    .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                    .ok()?;
                // Spans of the re-parsed body are those of the original tokens.
                listed(elems.iter().collect())
            }
            e => {
                let mapped = match e {
                    Expr::MethodCall(m) => self.mapped_closure(m, first),
                    _ => None,
                };
                Some(match mapped {
                    Some(m) => Collection::Mapped(m),
                    None => Collection::Iterable(crate::model::FutureExpr {
                        span: self.span(e),
                        needs_parens: has_bare_struct(e),
                    }),
                })
            }
        }
    }

    /// `iter.map(|pat| body)`, possibly followed by `.collect()`.
    fn mapped_closure(&self, m: &syn::ExprMethodCall, first: usize) -> Option<MappedClosure> {
        if m.method == "collect" && m.args.is_empty() {
            return match super::strip_parens(&m.receiver) {
                Expr::MethodCall(inner) => self.mapped_closure(inner, first),
                _ => None,
            };
        }
        let (true, [Expr::Closure(c)]) = (
            m.method == "map",
            m.args.iter().collect::<Vec<_>>().as_slice(),
        ) else {
            return None;
        };
        let [param] = c.inputs.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        if c.asyncness.is_some() || !iterator_like(&m.receiver) {
            return None;
        }
        let pattern = match param {
            Pat::Type(t) => &*t.pat,
            p => p,
        };
        let iter = super::strip_parens(&m.receiver);
        let tail = match &*c.body {
            Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                match b.block.stmts.last() {
                    Some(syn::Stmt::Expr(tail, None)) => Some(self.future_expr(tail)),
                    _ => None,
                }
            }
            _ => None,
        };
        Some(MappedClosure {
            tail,
            iter: self.span(iter),
            iter_needs_parens: has_bare_struct(iter),
            pattern: self.span(pattern),
            body: self.span(&*c.body),
            body_form: self.operand_form(&c.body, first),
        })
    }

    /// A method call on a followed set: adds futures, spawns, or polls.
    fn set_method(
        &mut self,
        set: usize,
        call: &syn::ExprMethodCall,
        method: &str,
        first: usize,
        span: Span,
    ) {
        let kind = self.sets[set].kind;
        match method {
            "push" | "push_back" | "push_front" | "extend" => {
                if let Some(a) = call.args.first() {
                    let futs = self.futs(self.eval(a, first));
                    self.add_to_set(set, futs);
                }
            }
            "spawn" | "spawn_on" | "spawn_local" | "spawn_local_on" | "spawn_blocking"
            | "spawn_blocking_on"
                if matches!(kind, SetKind::JoinSet | SetKind::ThreadScope) =>
            {
                let task = match call.args.first().map(|a| (a, self.eval(a, first))) {
                    Some((_, Value::Future(f))) => f,
                    Some((_, v @ Value::Call { .. })) => Fut::union(span, self.futs(v)),
                    Some((a, Value::Closure(c))) => self.closure_task(span, a, &c, first),
                    _ => Fut::new(span, Vec::new()),
                };
                let spawn_kind = match kind {
                    SetKind::JoinSet => SpawnKind::JoinSet,
                    _ => SpawnKind::ScopedThread,
                };
                let spelling = match kind {
                    SetKind::JoinSet => format!("`JoinSet::{method}`"),
                    _ => format!("`Scope::{method}`"),
                };
                let mut task = task;
                task.span = span;
                let index = self.record_spawn(spawn_kind, span, spelling, task.clone());
                let mut member = task;
                member.tasks = vec![index];
                let members = self.add_to_set(set, vec![member]);
                if let Some(batch) = members.first().and_then(|m| m.batch.clone()) {
                    self.facts.spawns[index].task.batch = Some(batch);
                }
            }
            m if SET_POLLS.contains(&m) => {
                let state = &mut self.sets[set];
                state.first_poll.get_or_insert(span);
                if kind == SetKind::JoinSet {
                    self.mark_set_joined(set, span, false);
                }
            }
            "abort_all" | "shutdown" if kind == SetKind::JoinSet => {
                self.mark_set_joined(set, span, true);
            }
            _ => {}
        }
    }
}

/// Methods that poll a `FuturesUnordered`/`FuturesOrdered` (or join a `JoinSet`).
const SET_POLLS: &[&str] = &[
    "next",
    "try_next",
    "collect",
    "try_collect",
    "for_each",
    "try_for_each",
    "for_each_concurrent",
    "try_for_each_concurrent",
    "select_next_some",
    "next_item",
    "fold",
    "try_fold",
    "count",
    "concat",
    "join_next",
    "join_all",
    "try_join_next",
    "poll_next",
    "poll_join_next",
];

/// A limit of one future at a time: `1`, `1usize`, `Some(1)`.
fn is_one(expr: &Expr) -> bool {
    match strip(expr) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_digits() == "1",
        Expr::Call(c) => {
            matches!(strip(&c.func), Expr::Path(p) if p.path.is_ident("Some"))
                && c.args.len() == 1
                && is_one(&c.args[0])
        }
        _ => false,
    }
}

/// The expression holds a struct literal outside any delimiters (`S { .. }.items()`): in the
/// head of a `for` loop it must be put in parentheses.
fn has_bare_struct(expr: &Expr) -> bool {
    match expr {
        Expr::Struct(_) => true,
        Expr::MethodCall(m) => has_bare_struct(&m.receiver),
        Expr::Field(f) => has_bare_struct(&f.base),
        Expr::Index(i) => has_bare_struct(&i.expr),
        Expr::Try(t) => has_bare_struct(&t.expr),
        Expr::Await(a) => has_bare_struct(&a.base),
        Expr::Cast(c) => has_bare_struct(&c.expr),
        Expr::Binary(b) => has_bare_struct(&b.left) || has_bare_struct(&b.right),
        Expr::Range(r) => {
            r.start.as_deref().is_some_and(has_bare_struct)
                || r.end.as_deref().is_some_and(has_bare_struct)
        }
        Expr::Unary(u) => has_bare_struct(&u.expr),
        Expr::Reference(r) => has_bare_struct(&r.expr),
        _ => false,
    }
}

fn is_drop(path: &syn::Path) -> bool {
    if !crate::model::sites::last_is(path, &["drop"]) {
        return false;
    }
    let segs = crate::model::sites::segments(path);
    matches!(
        segs.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["drop"] | ["mem", "drop"] | ["std", "mem", "drop"] | ["core", "mem", "drop"]
    )
}
