//! The one syntax pass: walks a parsed file and records kube requests, the values that carry them
//! (let-bound futures, `async` blocks) and the concurrency sites that poll them.
//!
//! The flow of futures (collections, closures, batches, spawned tasks, `select!`) and their uses
//! (awaits, drops) live in the child modules.
//!
//! Types are tracked syntactically: a binding is an `Api` handle when its annotation, constructor
//! or parameter type says so. Receivers that might be handles but are not visible here (fields,
//! helper return values) are recorded as [`HandleSource`]s and resolved by `link`.

mod blocking;
mod callbacks;
mod calls;
mod controllers;
mod copies;
mod eval;
mod flow;
#[cfg(test)]
mod flow_tests;
mod functions;
mod handles;
mod items;
mod lazy;
mod loops;
mod macros;
mod names;
mod node_span;
mod precondition;
mod requests;
mod scopes;
mod select;
mod tasks;
mod types;
mod uses;

// foldhash (hashbrown's default hasher): fast, and seeded per run, so that names in a checked
// crate cannot be chosen in advance to collide (rustc-hash's Fx can be).
use foldhash::{HashMap, HashSet};

use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Expr, Pat, Token, Type};

use super::wrappers::WrapperSpec;
use super::{
    sites, FileFacts, HandleSource, NameExpr, OperandForm, Precondition, ReturnedType, Site,
    SiteBinding, SiteKind, SiteUsage,
};
use crate::source::{SourceFile, Span};
use flow::{ClosureValue, Fut};
use node_span::NodeSpan;
use scopes::collect_pattern_idents;

/// Build the facts of one parsed file.
pub fn build(source: &SourceFile, file: &syn::File) -> FileFacts {
    build_with_wrappers(source, file, &[])
}

/// Build the facts of one parsed file; calls of the declared wrappers are always recorded as
/// calls (link turns them into requests), whatever their names.
pub fn build_with_wrappers(
    source: &SourceFile,
    file: &syn::File,
    wrappers: &[WrapperSpec],
) -> FileFacts {
    let mut b = Builder {
        wrapper_names: wrappers
            .iter()
            .filter_map(|w| w.function.rsplit("::").next().map(str::to_string))
            .collect(),
        source,
        facts: FileFacts::default(),
        scopes: vec![HashMap::default()],
        // Binding ids are unique in the crate: summaries carry them across files.
        next_id: (source.id as u64) << 32,
        functions: Vec::new(),
        self_types: Vec::new(),
        module: file_module_path(&source.path),
        generics: Vec::new(),
        consts: HashMap::default(),
        collectors: Vec::new(),
        async_refs: HashMap::default(),
        site_bindings: HashMap::default(),
        site_usages: HashMap::default(),
        request_futures: HashSet::default(),
        closures: HashMap::default(),
        pending_closure: None,
        pending_param_deps: Vec::new(),
        entry_by_span: HashMap::default(),
        element_deps: Vec::new(),
        reps: Vec::new(),
        binding_deps: Vec::new(),
        binding_elements: None,
        sets: Vec::new(),
        set_at: HashMap::default(),
        spawn_at: HashMap::default(),
        spawn_state: Vec::new(),
        branches: Vec::new(),
        loops: Vec::new(),
        next_branch: 0,
        await_usages: HashMap::default(),
        body: 0,
        next_body: 0,
        impl_traits: Vec::new(),
        loop_bodies: Vec::new(),
        loop_labels: Vec::new(),
        channel_loops: Vec::new(),
        receivers: HashSet::default(),
        try_operands: Vec::new(),
        fn_start: tasks::FnStart::default(),
        eval_cache: Default::default(),
        eval_depth: Default::default(),
        cfg: super::Cfg::always().with(super::cfg::of_attrs(&file.attrs)),
        macro_values: HashMap::default(),
        value_macros: HashMap::default(),
        returned_calls: Default::default(),
        struct_values: Default::default(),
        function_aliases: Vec::new(),
        callback_fields: HashSet::default(),
        body_preconditions: HashMap::default(),
    };
    b.facts.bodies.push(super::Body {
        made: None,
        kind: super::BodyKind::Item,
        span: Span {
            file: source.id,
            start: 0,
            end: 0,
        },
        function: None,
    });
    b.index_items(&file.items);
    b.visit_file(file);
    b.finish_fn(tasks::FnStart::default());
    let mut calls: Vec<(u64, ReturnedType)> = b.returned_calls.take().into_iter().collect();
    calls.sort_unstable_by_key(|(id, _)| *id);
    b.facts.returned_values.extend(calls);
    let mut structs: Vec<_> = b.struct_values.take().into_iter().collect();
    structs.sort_unstable_by_key(|(id, _)| *id);
    b.facts.struct_values = structs;
    b.facts.assigned_fields.sort_unstable();
    b.facts.assigned_fields.dedup();
    b.facts
}

/// What a binding holds, as far as this pass can tell.
#[derive(Clone, Debug)]
enum Value {
    /// Possibly a kube `Api` handle.
    Handle(HandleSource),
    /// A future that makes these requests (indices into `facts.requests`) when polled.
    Future(Fut),
    /// A collection, iterator or stream of futures (`vec![..]`, `names.iter().map(|n| ..)`).
    Futures(Vec<Fut>),
    /// A closure: what calling it gives.
    Closure(Box<ClosureValue>),
    /// A function of the crate as a value, by path (`let cb = Arc::new(handle)`).
    Function(Vec<String>),
    /// A `FuturesUnordered`, `FuturesOrdered`, `JoinSet` or thread scope (index into `sets`).
    Set(usize),
    /// The result of calling a function of the crate (maybe): a future that makes the callee's
    /// requests, or an `Api` handle it returns.
    Call {
        entry: usize,
        returned: HandleSource,
    },
    /// A string usable as an object name or namespace.
    Name(NameExpr),
    /// A Kubernetes object (struct literal, `json!`) whose `metadata.name` is known.
    Object(NameExpr),
    /// kube's `Entry` (`api.entry(name).await?`, possibly `.or_insert(..)`): its `commit`
    /// writes that object through that handle.
    Entry(Box<EntryValue>),
    Unknown,
}

/// The object an `Entry` stands for.
#[derive(Clone, Debug)]
struct EntryValue {
    source: HandleSource,
    receiver: String,
    name: NameExpr,
    text: String,
    keyed_by: Vec<u64>,
}

#[derive(Clone, Debug)]
struct Binding {
    id: u64,
    value: Value,
    /// Its type, as far as method resolution needs it (`ctx: Arc<Context>` → `Context`):
    /// resolves method calls on the binding to that type's `impl` (see [`types`]).
    ty_of: types::ExprType,
    /// Closure parameters and loop elements the value is computed from.
    deps: Vec<u64>,
    /// Number of repetition frames (loops, iterator closures) open when it was bound.
    rep_depth: usize,
    /// Index into `facts.bound_futures` when it holds a request future.
    bound: Option<usize>,
    /// Referenced after being bound.
    used: bool,
    /// The place it is a copy of (`let renewer = lock.clone();`) and that place's text: names
    /// and handles through it are that place's (see [`copies`]).
    same_as: Option<Box<(NameExpr, String)>>,
}

struct Builder<'a> {
    source: &'a SourceFile,
    /// Last path segments of user-declared request wrappers.
    wrapper_names: Vec<String>,
    facts: FileFacts,
    scopes: Vec<HashMap<String, Binding>>,
    next_id: u64,
    /// Index into `facts.functions` of the enclosing functions, innermost last.
    functions: Vec<usize>,
    /// `impl` types of the enclosing impl blocks, innermost last (None for trait impls of
    /// non-path types).
    self_types: Vec<Option<String>>,
    /// Module path: from the file path, plus enclosing inline modules.
    module: Vec<String>,
    /// Type parameters of the enclosing items: `Api<K>` with a generic `K` has no known kind.
    generics: Vec<String>,
    /// `const NAME: &str = "..."` items of this file.
    consts: HashMap<String, String>,
    /// Open collectors of futures referenced by path inside an `async` block or site operand.
    collectors: Vec<Vec<usize>>,
    /// Futures referenced by path inside each `async` block, keyed by the block's span.
    async_refs: HashMap<(usize, usize), Vec<usize>>,
    /// `let` statements whose initialiser is a join, keyed by the initialiser's span.
    site_bindings: HashMap<(usize, usize), SiteBinding>,
    /// How sites are used (`.await`, `?`, statement), keyed by the site's span.
    site_usages: HashMap<(usize, usize), SiteUsage>,
    /// Bindings that hold a request future, possibly pinned or boxed (`let f = pods.get(n);`).
    request_futures: HashSet<u64>,
    /// Closures visited so far, keyed by span.
    closures: HashMap<(usize, usize), flow::ClosureInfo>,
    /// What the next closure visited is: repeated per element, or a thread scope's body.
    pending_closure: Option<flow::PendingClosure>,
    /// What the receiver of a method call given a closure is computed from: the closure's
    /// parameters are (`svc.map(|s| ..)`: `s` comes from `svc`).
    pending_param_deps: Vec<u64>,
    /// The extra dependencies of the closure parameters being bound (see `pending_param_deps`).
    element_deps: Vec<u64>,
    /// The first entry of each call span, so that finding a call's entry is not a scan.
    entry_by_span: HashMap<(usize, usize), usize>,
    /// Open repetition frames of the current function: loops and closures run per element.
    reps: Vec<flow::Rep>,
    /// Dependencies given to the bindings made now (see [`Binding::deps`]).
    binding_deps: Vec<u64>,
    /// While binding a loop or closure pattern: the element ids bound so far.
    binding_elements: Option<Vec<u64>>,
    /// Collections of futures and tasks followed by identity.
    sets: Vec<tasks::SetState>,
    /// Expressions that created a set, by span.
    set_at: HashMap<(usize, usize), usize>,
    /// Spawn calls, by span: index into `facts.spawns`.
    spawn_at: HashMap<(usize, usize), usize>,
    /// What is known of each spawn while its function is visited (same indices as
    /// `facts.spawns`).
    spawn_state: Vec<tasks::SpawnState>,
    /// The `if`/`match` branches being visited: (construct id, branch index).
    branches: Vec<(u32, u32)>,
    /// The loops being visited (ids from the same counter as branches).
    loops: Vec<u32>,
    next_branch: u32,
    /// How awaits are used (`?`, a statement of their own), keyed by the `.await` expression's
    /// span: noted before the await is visited.
    await_usages: HashMap<(usize, usize), SiteUsage>,
    /// The function, closure or `async` block being visited (its code runs when it is called
    /// or polled, not where it is written).
    body: u32,
    next_body: u32,
    /// Traits of the enclosing impl blocks, innermost last (None for inherent impls).
    impl_traits: Vec<Option<String>>,
    /// The body of each loop being visited, innermost last.
    loop_bodies: Vec<u32>,
    /// The label of each loop being visited (`'outer: loop`), innermost last.
    loop_labels: Vec<Option<String>>,
    /// The body of each loop being visited that drains a channel receiver.
    channel_loops: Vec<u32>,
    /// Bindings known to be channel receivers (`let (tx, rx) = mpsc::channel(8);`).
    receivers: HashSet<u64>,
    /// The operands of the `?` being visited, with their bodies, innermost last.
    try_operands: Vec<(u32, Span)>,
    /// Where the facts of the current function start.
    fn_start: tasks::FnStart,
    /// Values of sub-expressions during one outermost [`Builder::eval`].
    eval_cache: std::cell::RefCell<HashMap<(usize, usize), Value>>,
    eval_depth: std::cell::Cell<usize>,
    /// The `cfg` of the code being visited: the file's `#![cfg(..)]` and those of the items,
    /// statements, expressions and arms around it (see [`super::cfg`]).
    cfg: super::Cfg,
    /// The argument that is a macro invocation's value (`pin!(fut)`), keyed by its span.
    macro_values: HashMap<(usize, usize), Expr>,
    /// This file's `macro_rules!` whose value is an argument: the argument's index.
    value_macros: HashMap<String, usize>,
    /// Calls whose result names an object (see [`Builder::name_returned_by`]).
    returned_calls: std::cell::RefCell<HashMap<u64, ReturnedType>>,
    /// Struct literals read as names (see [`FileFacts::struct_values`]).
    struct_values: std::cell::RefCell<HashMap<u64, Vec<(String, NameExpr)>>>,
    /// `type Callback = Arc<dyn Fn(..)>;` aliases of this file.
    function_aliases: Vec<String>,
    /// [`super::ItemIndex::callback_fields`], to look up.
    callback_fields: HashSet<String>,
    /// Locals holding a write's body that carries a precondition, or a parameter that may
    /// (see [`Precondition`]).
    body_preconditions: HashMap<u64, Precondition>,
}

impl<'a> Builder<'a> {
    fn span(&self, node: &impl NodeSpan) -> Span {
        let s = node.node_span();
        let (start, end) = (s.start(), s.end());
        let start = self.source.offset_of(start.line, start.column);
        let end = self.source.offset_of(end.line, end.column).max(start);
        Span {
            file: self.source.id,
            start,
            end,
        }
    }

    fn text(&self, node: &impl NodeSpan) -> String {
        let span = self.span(node);
        let text = self.source.snippet(span);
        // Collapse the whitespace of multi-line expressions so messages stay on one line; method
        // chains broken over lines read `names.iter()`, not `names .iter()`.
        collapse_whitespace(text)
    }

    /// Visit code under the `#[cfg(..)]`s among `attrs` (if any).
    fn under_cfg(&mut self, attrs: &[syn::Attribute], f: impl FnOnce(&mut Self)) {
        match super::cfg::of_attrs(attrs) {
            None => f(self),
            Some(e) => {
                let inner = self.cfg.with(Some(e));
                let saved = std::mem::replace(&mut self.cfg, inner);
                f(self);
                self.cfg = saved;
            }
        }
    }

    /// Visit the body of a loop: code that runs any number of times.
    fn in_loop(&mut self, head: loops::LoopHead<'_>, f: impl FnOnce(&mut Self)) {
        let id = self.next_branch();
        let body = self.body;
        let first_local = self.next_id + 1;
        self.loops.push(id);
        self.loop_bodies.push(self.body);
        self.loop_labels
            .push(head.label.map(|l| l.name.ident.to_string()));
        f(self);
        self.loop_labels.pop();
        self.loop_bodies.pop();
        self.loops.pop();
        let locals = first_local..self.next_id + 1;
        self.facts.loops.push(super::order::Loop {
            id,
            span: head.span,
            body,
            locals,
            may_skip: head.may_skip,
        });
    }

    /// Record an arm (of an `if`/`match`, a `let`'s `else`) that leaves its body or a loop at
    /// its end. Leaving a loop by `break` or `continue` leaves the loops inside it too.
    fn note_arm_end(&mut self, arm: Span, end: ArmEnd) {
        let own = self.own_loops();
        let target = |label: &Option<String>| match label {
            None => own.len().checked_sub(1),
            // Not found: the label of a block, which no loop is left for.
            Some(name) => own
                .iter()
                .rposition(|(_, l)| l.as_deref() == Some(name.as_str())),
        };
        let (left, continued) = match &end {
            ArmEnd::Leaves => {
                self.facts.exiting_arms.push((arm, self.body));
                return;
            }
            ArmEnd::Breaks(label) => (target(label), None),
            ArmEnd::Continues(label) => (target(label).map(|t| t + 1), target(label)),
            // Some diverging way not known (a call that never returns, a nested `if`): in a
            // loop, taken to skip only the rest of the pass, which keeps every later pass.
            ArmEnd::Diverges if own.is_empty() => {
                self.facts.exiting_arms.push((arm, self.body));
                return;
            }
            ArmEnd::Diverges => (None, Some(own.len() - 1)),
            ArmEnd::Falls => return,
        };
        if let Some(c) = continued {
            self.facts.continuing_arms.push((arm, own[c].0));
        }
        if let Some(from) = left {
            for (l, _) in &own[from..] {
                self.facts.breaking_arms.push((arm, *l));
            }
        }
    }

    /// `let .. else { .. }`: the `else` block is an arm of its own, which always leaves.
    fn visit_let_else(&mut self, diverge: &Expr) {
        let id = self.next_branch();
        self.branches.push((id, 1));
        self.visit_expr(diverge);
        self.branches.pop();
        let end = match ArmEnd::of(diverge) {
            ArmEnd::Falls => ArmEnd::Diverges,
            end => end,
        };
        self.note_arm_end(self.span(diverge), end);
    }

    /// The loops open in this body with their labels, outermost first (closures and `async`
    /// blocks made in a loop do not leave it by `break` or `continue`).
    fn own_loops(&self) -> Vec<(u32, Option<String>)> {
        let open = self
            .loops
            .iter()
            .zip(&self.loop_bodies)
            .zip(&self.loop_labels);
        open.filter(|((_, b), _)| **b == self.body)
            .map(|((l, _), label)| (*l, label.clone()))
            .collect()
    }

    // ----- how sites are used ----------------------------------------------------------------

    /// `expr` is a site followed by `.await` and/or `?`: where the site is and what follows.
    fn site_usage(&self, expr: &Expr) -> Option<FoundUsage> {
        match strip_parens(expr) {
            Expr::Try(t) => self.usage_under_try(t),
            Expr::Await(a) => self.usage_under_await(a, || self.span(expr), false),
            e => self.usage_of(e, || self.span(expr), false, false),
        }
    }

    fn usage_under_try(&self, t: &syn::ExprTry) -> Option<FoundUsage> {
        let span = || self.span(t);
        match strip_parens(&t.expr) {
            Expr::Await(a) => self.usage_under_await(a, span, true),
            e => self.usage_of(e, span, false, true),
        }
    }

    fn usage_under_await(
        &self,
        a: &syn::ExprAwait,
        span: impl FnOnce() -> Span,
        question_mark: bool,
    ) -> Option<FoundUsage> {
        self.usage_of(strip_parens(&a.base), span, true, question_mark)
    }

    fn usage_of(
        &self,
        site: &Expr,
        span: impl FnOnce() -> Span,
        awaited: bool,
        question_mark: bool,
    ) -> Option<FoundUsage> {
        if !is_join(site) {
            return None;
        }
        let site = self.span(site);
        Some(FoundUsage {
            site: (site.start, site.end),
            span: span(),
            awaited,
            question_mark,
        })
    }

    /// Remember a usage; the outermost one (seen first, when the statement is visited) wins.
    fn note_usage(&mut self, usage: FoundUsage, statement: Option<Span>) {
        self.site_usages.entry(usage.site).or_insert(SiteUsage {
            span: usage.span,
            awaited: usage.awaited,
            question_mark: usage.question_mark,
            statement,
        });
    }

    // ----- requests and sites --------------------------------------------------------------

    /// Visit `expr`, an operand of a site, while collecting the futures it references by name;
    /// returns the future it is (its own calls and those of referenced futures) and its form.
    fn operand_fut(&mut self, expr: &Expr) -> Fut {
        let first = self.facts.requests.len();
        self.note_site_use(expr);
        self.collectors.push(Vec::new());
        self.visit_expr(expr);
        let refs = self.collectors.pop().unwrap_or_default();
        let span = self.span(expr);
        let mut fut = match self.eval(expr, first) {
            Value::Future(f) => f,
            v @ (Value::Futures(_) | Value::Call { .. }) => Fut::union(span, self.futs(v)),
            _ => Fut::new(span, self.requests_within(span, first)),
        };
        fut.span = span;
        fut.add_requests(refs);
        fut.form = self.operand_form(expr, first);
        fut
    }

    /// What a future expression is, for rewrites (requests from `first` on are its own).
    fn operand_form(&self, expr: &Expr, first: usize) -> OperandForm {
        if matches!(strip_parens(expr), Expr::Async(_)) {
            OperandForm::AsyncBlock
        } else if self.is_request_future(expr, first) {
            OperandForm::Request
        } else {
            OperandForm::Other {
                needs_parens: !takes_postfix(expr),
            }
        }
    }

    /// A request call or a binding of one, possibly pinned, boxed or with its output mapped.
    fn is_request_future(&self, expr: &Expr, first: usize) -> bool {
        match strip_parens(expr) {
            e @ Expr::MethodCall(m) => {
                if self.request_at(self.span(e), first).is_some() {
                    return true;
                }
                // Adapters that run no code of the user's before the inner future completes.
                ident_in(
                    &m.method,
                    &[
                        "boxed",
                        "boxed_local",
                        "fuse",
                        "into_future",
                        "map_err",
                        "err_into",
                        "instrument",
                        "in_current_span",
                    ],
                ) && self.is_request_future(&m.receiver, first)
            }
            Expr::Call(c) => match strip_parens(&c.func) {
                Expr::Path(p) if c.args.len() == 1 && is_wrapper_path(&p.path) => {
                    self.is_request_future(&c.args[0], first)
                }
                _ => false,
            },
            // `std::pin::pin!(fut)`, like `Box::pin(fut)`.
            Expr::Macro(m) => self
                .macro_value(&m.mac)
                .is_some_and(|e| self.is_request_future(e, first)),
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.lookup(&i.to_string()))
                .is_some_and(|b| self.request_futures.contains(&b.id)),
            _ => false,
        }
    }

    /// Record a site; returns its index in `facts.sites`.
    fn record_site(
        &mut self,
        kind: SiteKind,
        node_span: Span,
        spelling: String,
        operands: Vec<Fut>,
        arms: Vec<super::SelectArm>,
    ) -> usize {
        for f in &operands {
            self.mark_joined(&f.tasks, node_span);
        }
        let key = (node_span.start, node_span.end);
        let binding = self.site_bindings.remove(&key);
        let usage = self.site_usages.remove(&key).unwrap_or(SiteUsage {
            span: node_span,
            awaited: false,
            question_mark: false,
            statement: None,
        });
        self.facts.sites.push(Site {
            kind,
            span: node_span,
            spelling,
            operands: operands.iter().map(Fut::operand).collect(),
            binding,
            usage,
            arms,
            collection: None,
            limit: None,
            body: self.body,
            branches: self.branches.clone(),
            loops: self.loops.clone(),
            in_loop: self.is_in_loop(),
            propagated: self.is_propagated(node_span),
        });
        self.facts.sites.len() - 1
    }

    /// Macros arrive as token streams: parse the bodies we understand and visit them.
    fn visit_macro_body(&mut self, mac: &syn::Macro, whole: Span) {
        if let Some(kind) = sites::join_macro(&mac.path) {
            let parsed = mac.parse_body_with(|input: syn::parse::ParseStream| {
                // tokio's `join!(biased; a, b)`.
                if input.peek(syn::Ident) && input.peek2(Token![;]) {
                    let kw: syn::Ident = input.parse()?;
                    if kw == "biased" {
                        input.parse::<Token![;]>()?;
                    }
                }
                Punctuated::<Expr, Token![,]>::parse_terminated(input)
            });
            if let Ok(exprs) = parsed {
                let spelling = format!("`{}!`", path_text(&mac.path));
                let operands = exprs.iter().map(|e| self.operand_fut(e)).collect();
                self.record_site(kind, whole, spelling, operands, Vec::new());
            }
            return;
        }
        if let Some(biased) = sites::select_macro(&mac.path) {
            if self.visit_select(mac, whole, biased) {
                return;
            }
        }
        // Other macros: comma-separated expressions (`vec![..]`, `println!(..)`, a crate's
        // `with_backoff!(.., attempts = 4)`) or statements.
        self.visit_other_macro(mac);
    }
}

impl Builder<'_> {
    /// `let` statements: the value bound, and what the binding is.
    fn visit_local_binding(&mut self, local: &syn::Local) {
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
                        return;
                    }
                }
            }
            let inputs = self.referenced_bindings(&init.expr);
            self.with_deps(deps, |b| b.bind_local(local, value, first));
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
    fn visit_stmt_here(&mut self, stmt: &syn::Stmt) {
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

impl<'ast> Visit<'ast> for Builder<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.under_cfg(&f.attrs, |b| {
            b.with_fn(&f.sig, |b| {
                let entry_point = b.self_types.is_empty()
                    && super::is_entry_point(&f.sig.ident.to_string(), &f.attrs);
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
        self.under_cfg(super::cfg::attrs_of_expr(e), |b| visit::visit_expr(b, e));
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let saved = self.generics.len();
        self.generics.extend(generic_names(&i.generics));
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
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::default()]);
        self.module.push(m.ident.to_string());
        self.under_cfg(&m.attrs, |b| visit::visit_item_mod(b, m));
        self.module.pop();
        self.scopes = saved;
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.with_scope(|b| visit::visit_block(b, block));
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        // `let (p, n) = (pods.clone(), name.clone());` binds like one `let` per element.
        if let Some(parts) = split_tuple_local(local) {
            for part in &parts {
                self.visit_local(part);
            }
            return;
        }
        self.visit_local_binding(local);
        self.note_receivers(local);
        self.note_local_type(local);
    }

    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let attrs = match stmt {
            syn::Stmt::Local(l) => &l.attrs[..],
            syn::Stmt::Expr(e, _) => super::cfg::attrs_of_expr(e),
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
            self.facts.awaits.push(super::AwaitedFuture {
                span,
                requests: f.requests,
                bound,
                branches: self.branches.clone(),
                loops: self.loops.clone(),
                body: self.body,
            });
        }
    }

    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        self.visit_expr(&assign.right);
        let first = self.facts.requests.len();
        match strip(&assign.left) {
            // `name = other;` — a new value: later uses are a different name.
            Expr::Path(p) => {
                if let Some(ident) = p.path.get_ident() {
                    let value = self.eval(&assign.right, first);
                    if self.lookup(&ident.to_string()).is_some() {
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
        let saved_body = self.enter_body(super::BodyKind::AsyncBlock, self.span(&a.async_token));
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
        let head = loops::LoopHead {
            span: loop_span,
            label: f.label.as_ref(),
            may_skip: true,
        };
        self.in_drain_loop(drains, head, |b| {
            b.with_scope(|b| {
                let item = b.item_type(&f.expr);
                b.repeated(&f.pat, element, over, body, |b| {
                    b.type_pattern(&f.pat, item);
                    b.visit_block(&f.body)
                });
            });
        });
    }

    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        let loop_span = self.span(&l.body);
        let drains = self.block_drains_channel(&l.body);
        let head = loops::LoopHead {
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
        let head = loops::LoopHead {
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
        self.branches.push((id, 0));
        self.visit_block(&i.then_branch);
        self.branches.pop();
        let then_arm = self.span(&i.then_branch);
        self.note_arm_end(then_arm, block_tail(&i.then_branch));
        if let Some((_, e)) = &i.else_branch {
            self.branches.push((id, 1));
            self.visit_expr(e);
            self.branches.pop();
            let arm = self.span(&**e);
            self.note_arm_end(arm, ArmEnd::of(e));
        }
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let deps = self.deps_of_expr(&m.expr);
        let id = self.next_branch();
        for (k, arm) in m.arms.iter().enumerate() {
            self.branches.push((id, k as u32));
            self.under_cfg(&arm.attrs, |b| {
                b.with_scope(|b| {
                    b.with_deps(deps.clone(), |b| b.bind_pattern(&arm.pat, Value::Unknown));
                    if let Some((_, guard)) = &arm.guard {
                        b.visit_expr(guard);
                    }
                    b.visit_expr(&arm.body);
                })
            });
            self.branches.pop();
            let span = self.span(&*arm.body);
            self.note_arm_end(span, ArmEnd::of(&arm.body));
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
        visit::visit_expr_call(self, call);
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

// ----- small syntactic helpers ------------------------------------------------------------------

/// Look through parentheses, references, derefs and invisible groups.
fn strip(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Group(g) => strip(&g.expr),
        Expr::Reference(r) => strip(&r.expr),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => strip(&u.expr),
        e => e,
    }
}

/// `obj.clone()`, `Arc::clone(&obj)`: `obj`, the same object.
fn same_object(expr: &Expr) -> &Expr {
    let expr = strip(expr);
    match expr {
        Expr::MethodCall(m)
            if m.args.is_empty()
                && ident_in(&m.method, &["clone", "to_owned", "as_ref", "borrow"]) =>
        {
            same_object(&m.receiver)
        }
        Expr::Call(c) if c.args.len() == 1 => match strip(&c.func) {
            Expr::Path(p)
                if {
                    let s = sites::segments(&p.path);
                    s.len() == 2
                        && matches!(
                            (s[0].as_str(), s[1].as_str()),
                            ("Arc" | "Rc" | "Clone", "clone") | ("ToOwned", "to_owned")
                        )
                } =>
            {
                same_object(&c.args[0])
            }
            _ => expr,
        },
        _ => expr,
    }
}

/// Look through parentheses and invisible groups only.
fn strip_parens(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        e => e,
    }
}

/// A site found under `.await` / `?`, keyed by the site's span.
struct FoundUsage {
    site: (usize, usize),
    span: Span,
    awaited: bool,
    question_mark: bool,
}

/// `.await` can follow the expression as written, also at the start of a statement.
fn takes_postfix(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Path(_)
            | Expr::Call(_)
            | Expr::MethodCall(_)
            | Expr::Macro(_)
            | Expr::Field(_)
            | Expr::Index(_)
            | Expr::Paren(_)
            | Expr::Async(_)
            | Expr::Await(_)
            | Expr::Try(_)
    )
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

fn strip_pat(pat: &Pat) -> &Pat {
    match pat {
        Pat::Paren(p) => strip_pat(&p.pat),
        Pat::Type(t) => strip_pat(&t.pat),
        p => p,
    }
}

/// A join whose value rewrites need to know the usage of: `join!`, the join functions,
/// `join_all`.
/// A site whose value's use is recorded ([`SiteUsage`], [`SiteBinding`]): the joins, and the
/// select functions (whether the futures they hand back are thrown away).
fn is_join(expr: &Expr) -> bool {
    match expr {
        Expr::Macro(m) => sites::join_macro(&m.mac.path).is_some(),
        Expr::Call(c) => matches!(strip(&c.func), Expr::Path(p)
            if sites::join_fn(&p.path).is_some()
                || (c.args.len() == 1 && sites::join_all_fn(&p.path).is_some())
                || sites::select_fn(&p.path).is_some()),
        _ => false,
    }
}

fn path_text(path: &syn::Path) -> String {
    let segs = crate::model::sites::segments(path);
    let joined = segs.join("::");
    if path.leading_colon.is_some() {
        format!("::{joined}")
    } else {
        joined
    }
}

/// Whether `ident` is one of `names`, compared without making its string.
fn ident_in(ident: &syn::Ident, names: &[&str]) -> bool {
    names.iter().any(|n| ident == n)
}

/// Runs of whitespace as one space, none before a `.`: `text.split_whitespace()` joined by spaces,
/// then `" ."` replaced by `"."`, built in one string.
fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.contains(" .") {
        out = out.replace(" .", ".");
    }
    out
}

/// `Box::pin`, `Either::Left`, `Some`, `Ok`: wrappers whose content is the value.
fn is_wrapper_path(path: &syn::Path) -> bool {
    let segs: Vec<&syn::Ident> = path.segments.iter().map(|s| &s.ident).collect();
    match segs.as_slice() {
        [.., a, b] => {
            (*a == "Box" && (*b == "pin" || *b == "new"))
                || (*a == "Either" && (*b == "Left" || *b == "Right"))
                || (*a == "Pin" && *b == "from")
        }
        [one] => ["Some", "Ok", "Left", "Right"].iter().any(|n| *one == n),
        _ => false,
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

/// Module path of a file from its path: `src/a/b.rs` → `a::b`, `src/a/mod.rs` → `a`.
fn file_module_path(path: &std::path::Path) -> Vec<String> {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let start = parts
        .iter()
        .rposition(|p| p == "src")
        .map_or(parts.len().saturating_sub(1), |i| i + 1);
    let mut module: Vec<String> = parts[start.min(parts.len())..]
        .iter()
        .map(|p| p.strip_suffix(".rs").unwrap_or(p).to_string())
        .collect();
    if module
        .last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        module.pop();
    }
    module
}

fn generic_names(generics: &syn::Generics) -> impl Iterator<Item = String> + '_ {
    generics.type_params().map(|t| t.ident.to_string())
}

/// How an arm ends, when it leaves (closures and `async` blocks are other bodies, and are not
/// looked into).
#[derive(Clone, PartialEq, Eq)]
enum ArmEnd {
    /// `return`, a panic: the function, closure or `async` block is left.
    Leaves,
    /// `break`: the innermost loop, or the one labelled so, is left.
    Breaks(Option<String>),
    /// `continue`: the rest of the pass of the innermost loop, or the one labelled so, is
    /// skipped.
    Continues(Option<String>),
    /// A `let`'s `else` not ending in one of these: it diverges some other way.
    Diverges,
    Falls,
}

impl ArmEnd {
    fn of(expr: &Expr) -> ArmEnd {
        let label = |l: &Option<syn::Lifetime>| l.as_ref().map(|l| l.ident.to_string());
        match expr {
            Expr::Return(_) => ArmEnd::Leaves,
            Expr::Break(b) => ArmEnd::Breaks(label(&b.label)),
            Expr::Continue(c) => ArmEnd::Continues(label(&c.label)),
            Expr::Block(b) => block_tail(&b.block),
            Expr::Macro(m) if is_panic_macro(&m.mac) => ArmEnd::Leaves,
            _ => ArmEnd::Falls,
        }
    }
}

fn block_tail(block: &syn::Block) -> ArmEnd {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(e, _)) => ArmEnd::of(e),
        Some(syn::Stmt::Macro(m)) if is_panic_macro(&m.mac) => ArmEnd::Leaves,
        _ => ArmEnd::Falls,
    }
}

/// `panic!`, `unreachable!`, `todo!`, `unimplemented!`: code after them does not run.
pub(super) fn is_panic_macro(mac: &syn::Macro) -> bool {
    mac.path
        .segments
        .last()
        .is_some_and(|s| ident_in(&s.ident, &["panic", "unreachable", "todo", "unimplemented"]))
}

/// `let (a, b) = (x, y);` as `let a = x; let b = y;`, when that means the same: a tuple
/// pattern without `..` over a tuple of as many elements, none of which reads a name the
/// pattern binds (`let (a, b) = (b, a)` swaps), with no `else` and no attributes.
fn split_tuple_local(local: &syn::Local) -> Option<Vec<syn::Local>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ObjectName, RawKind, Root};

    fn sites(code: &str) -> (SourceFile, Vec<Site>) {
        let source = SourceFile::new(0, "t.rs".into(), code.to_string());
        let file = syn::parse_file(code).expect("parses");
        let facts = build(&source, &file);
        (source, facts.sites)
    }

    #[test]
    fn collapsed_text_is_the_words_joined_without_spaces_before_dots() {
        let reference = |t: &str| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(" .", ".")
        };
        for text in [
            "",
            "   ",
            "a",
            "names\n    .iter()\n    .map(|n| pods.get(n))",
            "  a \t b\r\n  c  ",
            "x . y .. z",
            "f( a,\n\n b )\u{a0}.await",
            ". leading and trailing .",
        ] {
            assert_eq!(collapse_whitespace(text), reference(text), "{text:?}");
        }
    }

    const HEAD: &str = "async fn f(pods: Api<Pod>, dp: DeleteParams) {\n";

    fn facts(code: &str) -> FileFacts {
        let source = SourceFile::new(0, "t.rs".into(), code.to_string());
        build(&source, &syn::parse_file(code).expect("parses"))
    }

    /// The object names of a file's requests, in order.
    fn request_names(code: &str) -> Vec<NameExpr> {
        facts(code)
            .requests
            .iter()
            .filter_map(|r| match &r.kind {
                RawKind::Api(call) => match &call.object {
                    ObjectName::One { name, .. } => Some(name.clone()),
                    ObjectName::All => None,
                },
                RawKind::Helper(_) => None,
            })
            .collect()
    }

    #[test]
    fn format_holes_take_their_arguments_and_specs_hide_them() {
        let names = request_names(
            "async fn f(pods: Api<Pod>, app: String, n: u32) {\n\
             pods.get(&format!(\"{app}-{}\", \"x\")).await;\n\
             pods.get(&format!(\"{1}-{0}\", app, \"y\")).await;\n\
             pods.get(&format!(\"{a}-{n:>4}\", a = \"z\")).await;\n\
             pods.get(&format!(\"{}\", app)).await;\n}\n",
        );
        let app = |names: &[NameExpr]| match &names[3] {
            p @ NameExpr::Path { .. } => p.clone(),
            other => panic!("{other:?}"),
        };
        let app = app(&names);
        assert_eq!(
            names[0],
            NameExpr::format(vec![None, Some("-x".into())], vec![app.clone()])
        );
        assert_eq!(
            names[1],
            NameExpr::format(vec![Some("y-".into()), None], vec![app])
        );
        // A spec changes the text: that part is not followed.
        assert_eq!(
            names[2],
            NameExpr::format(vec![Some("z-".into()), None], vec![NameExpr::Unknown])
        );
    }

    #[test]
    fn a_call_in_a_name_gets_a_binding_of_its_own_and_tails_give_names() {
        let facts = facts(
            "fn lease(app: &str) -> String {\n    format!(\"{app}-lease\")\n}\n\
             fn early(app: &str) -> String {\n    if app.is_empty() { return String::new(); }\n    format!(\"{app}\")\n}\n\
             async fn f(pods: Api<Pod>) {\n    pods.get(&lease(\"a\")).await;\n    pods.get(&lease(\"a\")).await;\n}\n",
        );
        let tail = facts.functions[0].returned_name.clone();
        assert!(matches!(tail, Some(NameExpr::Format { .. })), "{tail:?}");
        assert_eq!(
            facts.functions[1].returned_name, None,
            "a `return` elsewhere"
        );
        let roots: Vec<u64> = facts
            .requests
            .iter()
            .filter_map(|r| match &r.kind {
                RawKind::Api(call) => match &call.object {
                    ObjectName::One {
                        name:
                            NameExpr::Path {
                                root: Root::Binding(b),
                                ..
                            },
                        ..
                    } => Some(*b),
                    _ => None,
                },
                RawKind::Helper(_) => None,
            })
            .collect();
        // Two calls, two values: each has its binding, and both are returned values.
        assert_eq!(roots.len(), 2);
        assert_ne!(roots[0], roots[1]);
        assert!(roots
            .iter()
            .all(|b| facts.returned_values.iter().any(|(id, _)| id == b)));
    }

    #[test]
    fn statement_usage_covers_await_question_mark_and_semicolon() {
        let code = format!(
            "{HEAD}    futures::future::try_join(pods.delete(\"a\", &dp), pods.get(\"a\")).await?;\n    tokio::join!(pods.delete(\"a\", &dp), pods.get(\"a\"));\n}}\n"
        );
        let (source, sites) = sites(&code);
        let join_fn = &sites[0];
        assert!(join_fn.usage.awaited && join_fn.usage.question_mark);
        assert!(source.snippet(join_fn.usage.span).ends_with(".await?"));
        let stmt = join_fn.usage.statement.expect("statement");
        assert!(source.snippet(stmt).ends_with(".await?;"));
        let mac = &sites[1];
        assert!(!mac.usage.awaited && !mac.usage.question_mark);
        assert!(source
            .snippet(mac.usage.statement.expect("statement"))
            .ends_with("));"));
    }

    #[test]
    fn let_bindings_say_whether_they_can_be_split() {
        let code = format!(
            "{HEAD}    let (a, b) = try_join(pods.delete(\"a\", &dp), pods.get(\"a\")).await?;\n    let (c, ..) = tokio::join!(pods.delete(\"a\", &dp), pods.get(\"a\"));\n    let (d, e): (A, B) = tokio::join!(pods.delete(\"a\", &dp), pods.get(\"a\"));\n    println!(\"{{:?}}\", tokio::join!(pods.delete(\"a\", &dp), pods.get(\"a\")));\n}}\n"
        );
        let (source, sites) = sites(&code);
        let b = sites[0].binding.as_ref().expect("binding");
        assert!(b.splittable && b.question_mark);
        assert_eq!(source.snippet(b.pattern), "(a, b)");
        assert!(sites[0].usage.statement.is_none());
        assert!(!sites[1].binding.as_ref().expect("binding").splittable);
        let typed = sites[2].binding.as_ref().expect("binding");
        assert!(!typed.splittable);
        assert_eq!(source.snippet(typed.pattern), "(d, e)");
        // Inside an expression: neither a `let` nor a statement.
        assert!(sites[3].binding.is_none() && sites[3].usage.statement.is_none());
    }

    #[test]
    fn operand_forms() {
        let code = format!(
            "{HEAD}    let f = Box::pin(pods.get(\"a\"));\n    let g = async {{ pods.get(\"a\").await }};\n    tokio::join!(pods.delete(\"a\", &dp), f, g, &mut h, helper(), pods.get(\"a\").map_err(E::from), pods.get(\"a\").then(x));\n}}\n"
        );
        let (_, sites) = sites(&code);
        let forms: Vec<OperandForm> = sites[0].operands.iter().map(|o| o.form).collect();
        assert_eq!(
            forms,
            [
                OperandForm::Request,
                OperandForm::Request,
                OperandForm::Other {
                    needs_parens: false
                },
                OperandForm::Other { needs_parens: true },
                OperandForm::Other {
                    needs_parens: false
                },
                OperandForm::Request,
                OperandForm::Other {
                    needs_parens: false
                },
            ]
        );
    }
}
