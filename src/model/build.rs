//! The one syntax pass: walks a parsed file and records kube requests, the values that carry them
//! (let-bound futures, `async` blocks) and the concurrency sites that poll them.
//!
//! The flow of futures (collections, closures, batches, spawned tasks, `select!`) and their uses
//! (awaits, drops) live in the child modules.
//!
//! Types are tracked syntactically: a binding is an `Api` handle when its annotation, constructor
//! or parameter type says so. Receivers that might be handles but are not visible here (fields,
//! helper return values) are recorded as [`HandleSource`]s and resolved by `link`.

mod arms;
mod blocking;
mod callbacks;
mod calls;
mod conditions;
mod controllers;
mod copies;
mod eval;
mod fetched;
mod finalizer;
mod flow;
#[cfg(test)]
mod flow_tests;
mod functions;
mod handlers;
mod handles;
mod items;
mod lazy;
mod listed_names;
mod loops;
mod macros;
mod names;
mod node_span;
mod precondition;
mod refreshed;
mod requests;
mod scopes;
mod select;
mod site;
mod statements;
mod tasks;
mod types;
mod uses;
mod walk;

// foldhash (hashbrown's default hasher): fast, and seeded per run, so that names in a checked
// crate cannot be chosen in advance to collide (rustc-hash's Fx can be).
use foldhash::{HashMap, HashSet};

use syn::visit::Visit;
use syn::{Expr, Pat};

use super::wrappers::WrapperSpec;
use super::{
    sites, FileFacts, HandleSource, NameExpr, Precondition, ReturnedType, SiteBinding, SiteUsage,
};
use crate::source::{SourceFile, Span};
use flow::{ClosureValue, Fut};
use node_span::NodeSpan;

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
        generic_bounds: Vec::new(),
        field_types: HashMap::default(),
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
        mut_params: Vec::new(),
        varying: Default::default(),
        exits: Vec::new(),
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
        list_results: HashMap::default(),
        fetched_lists: HashMap::default(),
        listed_elements: HashMap::default(),
        listings: HashMap::default(),
        listing_elements: HashMap::default(),
        name_listings: HashMap::default(),
        param_elements: HashMap::default(),
        arm_reads: Vec::new(),
        leaving_guards: Vec::new(),
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
        fresh_reads: HashMap::default(),
        field_preconditions: HashMap::default(),
        unrefreshed: Default::default(),
        block_preconditions: HashMap::default(),
        controller_bindings: HashMap::default(),
        selector_bindings: HashSet::default(),
        imports: HashMap::default(),
        glob_imports: Vec::new(),
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
    b.note_uses(&file.items);
    b.visit_file(file);
    b.finish_fn(tasks::FnStart::default());
    let mut calls: Vec<(u64, ReturnedType)> = b.returned_calls.take().into_iter().collect();
    calls.sort_unstable_by_key(|(id, _)| *id);
    b.facts.returned_values.extend(calls);
    let mut structs: Vec<_> = b.struct_values.take().into_iter().collect();
    structs.sort_unstable_by_key(|(id, _)| *id);
    b.facts.struct_values = structs;
    b.facts.assigned_fields.sort_unstable();
    b.facts.fetched_objects.sort_unstable();
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
    /// The event kube-runtime's `finalizer` hands its closure: its `Apply(o)` and `Cleanup(o)`
    /// carry the object given to `finalizer`.
    FinalizerEvent(Box<EventObject>),
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

/// The object given to kube-runtime's `finalizer`: its place, its text and its type, which its
/// event's `Apply(o)` and `Cleanup(o)` bind to `o` (see [`finalizer`]).
#[derive(Clone, Debug)]
struct EventObject {
    place: NameExpr,
    text: String,
    ty: types::ExprType,
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
    /// The type parameters in scope with their bounds (see [`types::declared_type`]).
    generic_bounds: Vec<(String, Vec<String>)>,
    /// The declared types of the fields of the file's structs, by (struct, field); None when
    /// two structs of one name declare the field differently.
    field_types: HashMap<(String, String), Option<types::ExprType>>,
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
    /// The binding ids of parameters declared `mut` (their tests are not arm conditions).
    mut_params: Vec<u64>,
    /// The bindings assigned (`i += 1`, `i = next`) and the values of calls (see
    /// `name_returned_by`), in the order met: a loop's are those met while it is visited (see
    /// [`crate::model::order::Loop::varying`]).
    varying: std::cell::RefCell<Vec<u64>>,
    /// The arms that leave their body met so far, with the body and the arm's path of
    /// branches (itself last).
    exits: Vec<(u32, Vec<(u32, u32)>)>,
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
    /// Bindings holding the result of a list request, with the list's receiver text
    /// (`let list = claims.list(&lp).await?;`).
    list_results: HashMap<u64, String>,
    /// Loop elements taken from such a result (`for pvc in &list.items`), with the receiver.
    listed_elements: HashMap<u64, String>,
    /// Bindings holding the answer of a list request, with its entry (see
    /// [`FileFacts::fetched_objects`]).
    fetched_lists: HashMap<u64, usize>,
    /// Bindings holding what a call returned (`let mcs = ctx.stores.machines_in(&ns).await?;`),
    /// with the names of the call's receiver and arguments and its text: a listing when it is a
    /// collection of objects (see [`crate::model::Request::listed`]).
    listings: HashMap<u64, (Vec<NameExpr>, String)>,
    /// Loop elements of such a collection whose element kind is written, with their listing and
    /// how many `if`/`match` arms were being visited and how many leaving guards were seen where
    /// they were bound.
    listing_elements: HashMap<u64, (crate::model::Listed, usize, usize)>,
    /// Bindings holding the names of a listing's elements (`let names: Vec<String> =
    /// mcs.iter().map(|mc| mc.name_any()).collect();`), with the listing.
    name_listings: HashMap<u64, crate::model::Listed>,
    /// Loop elements of a parameter of the function being built (`for name in names`), with the
    /// parameter's binding id.
    param_elements: HashMap<u64, u64>,
    /// The bindings the condition of each `if`/`match` arm being visited reads, innermost last
    /// (what selects, among a listing's elements, those a write in the arm writes).
    arm_reads: Vec<Vec<u64>>,
    /// The bindings read by the conditions of the `if`s seen with an arm that leaves (`if
    /// cm.owner() != name { continue; }`): a filter of what the code after them runs for.
    leaving_guards: Vec<u64>,
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
    /// Locals holding an object as a `get` answered it, or a parameter, or a copy of either
    /// (see [`Precondition::Refreshed`]).
    fresh_reads: HashMap<u64, refreshed::Held>,
    /// Objects kept in fields (`self.obj`, by the function and the path's tokens) into which the
    /// `resourceVersion` of a fresh read was copied (see [`Precondition::Refreshed`]).
    field_preconditions: HashMap<(Option<usize>, String), Precondition>,
    /// Read a body as it was read before copies from a fresh read were told apart: set while
    /// the read copied from is of another object than the one written.
    unrefreshed: std::cell::Cell<bool>,
    /// What the local a block gives as its value carries (`{ let mut l = self.last.clone(); ..;
    /// l }`), read while the block's scope was open, by the block's span.
    block_preconditions: HashMap<(usize, usize), Precondition>,
    /// Locals bound to a controller (`let b = Controller::new(..)`), with what it is made of
    /// (the limit its chain sets, the functions it went through): a `run` on them is a
    /// controller's run.
    controller_bindings: HashMap<u64, controllers::ControllerChain>,
    /// Locals bound to a watcher config with a label or field selector
    /// (`let wc = watcher::Config::default().labels("app=x");`).
    selector_bindings: HashSet<u64>,
    /// The names `use` items bring in, with the paths they stand for (see [`handlers`]).
    imports: HashMap<String, Vec<String>>,
    /// The paths of glob imports (`use axum::routing::*;`).
    glob_imports: Vec<Vec<String>>,
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

fn strip_pat(pat: &Pat) -> &Pat {
    match pat {
        Pat::Paren(p) => strip_pat(&p.pat),
        Pat::Type(t) => strip_pat(&t.pat),
        p => p,
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

/// Is this field member the named field `name` (`x.name`, not `x.0`)?
fn member_is(member: &syn::Member, name: &str) -> bool {
    matches!(member, syn::Member::Named(i) if i == name)
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

/// Each type parameter with the traits it is bound by, inline or in the `where` clause.
fn generic_bounds(generics: &syn::Generics) -> Vec<(String, Vec<String>)> {
    let mut params: Vec<(String, Vec<String>)> = generics
        .type_params()
        .map(|t| (t.ident.to_string(), types::trait_names(&t.bounds)))
        .collect();
    let predicates = generics.where_clause.iter().flat_map(|w| &w.predicates);
    for predicate in predicates {
        let syn::WherePredicate::Type(p) = predicate else {
            continue;
        };
        let syn::Type::Path(ty) = &p.bounded_ty else {
            continue;
        };
        if let Some((_, traits)) = params
            .iter_mut()
            .find(|(name, _)| ty.qself.is_none() && ty.path.is_ident(name))
        {
            traits.extend(types::trait_names(&p.bounds));
        }
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ObjectName, OperandForm, RawKind, Root, Site};

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
    fn fetched_objects_are_the_answers_of_gets_and_lists_and_map_keys_are_fields() {
        let facts = facts(
            "async fn f(svcs: Api<Service>, cms: Api<ConfigMap>, src: Pod) -> Result<(), E> {\n\
             let sync = svcs.get(&src.annotations()[\"sync\"]).await.map_err(|_| E)?;\n\
             cms.delete(&sync.annotations()[\"dest\"], &dp).await;\n\
             for s in svcs.list(&lp).await?.items {\n\
             cms.delete(s.labels().get(\"dest\").unwrap(), &dp).await;\n}\n\
             let made = cms.create(&pp, &cm).await?;\n\
             let listed = svcs.list(&lp).await?;\n\
             Ok(())\n}\n",
        );
        let fetching: Vec<&str> = facts
            .fetched_objects
            .iter()
            .map(|(_, entry)| match &facts.requests[*entry].kind {
                RawKind::Api(call) => call.verb.method,
                RawKind::Helper(_) => "helper",
            })
            .collect();
        // `sync` (a get's answer) and `s` (a list's element); not a create's answer, nor a
        // list's answer itself (a list, not an object).
        assert_eq!(fetching, ["get", "list"]);
        let deletes: Vec<(u64, Vec<String>)> = facts
            .requests
            .iter()
            .filter_map(|r| match &r.kind {
                RawKind::Api(call) if call.verb.method == "delete" => match &call.object {
                    ObjectName::One {
                        name:
                            NameExpr::Path {
                                root: Root::Binding(b),
                                fields,
                            },
                        ..
                    } => Some((*b, fields.clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let key = |map: &str| vec!["metadata".to_string(), map.into(), "[\"dest\"]".into()];
        assert_eq!(deletes.len(), 2, "{deletes:?}");
        assert_eq!(deletes[0].1, key("annotations"));
        assert_eq!(deletes[1].1, key("labels"));
        let bindings: Vec<u64> = facts.fetched_objects.iter().map(|(b, _)| *b).collect();
        assert!(deletes.iter().all(|(b, _)| bindings.contains(b)));
    }

    #[test]
    fn fetched_objects_of_if_let_and_match_arms_are_whole_and_not_renamed() {
        let facts = facts(
            "async fn f(secrets: Api<Secret>) -> Result<(), E> {\n\
             if let Some(kept) = secrets.get_opt(\"a\").await? { use_it(&kept); }\n\
             match secrets.get(\"b\").await { Ok(arm) => use_it(&arm), Err(err) => use_it(&err) }\n\
             let Secret { data, .. } = secrets.get(\"c\").await?;\n\
             let mut renamed = secrets.get(\"d\").await?;\n\
             renamed.metadata.name = Some(other);\n\
             let mut meta = secrets.get(\"e\").await?;\n\
             meta.meta_mut().name = Some(other);\n\
             let mut labelled = secrets.get(\"f\").await?;\n\
             labelled.metadata.labels = None;\n\
             Ok(())\n}\n",
        );
        let fetched_by: Vec<String> = facts
            .fetched_objects
            .iter()
            .map(|(_, entry)| match &facts.requests[*entry].kind {
                RawKind::Api(call) => match &call.object {
                    ObjectName::One {
                        name: NameExpr::Literal(n),
                        ..
                    } => n.clone(),
                    other => format!("{other:?}"),
                },
                RawKind::Helper(_) => "helper".to_string(),
            })
            .collect();
        // `kept` (an `if let Some`), `arm` (an `Ok` arm) and `labelled` (its labels changed,
        // not its name); not the `Err` arm, a destructured field, nor the renamed objects.
        assert_eq!(fetched_by, ["a", "b", "f"]);
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
