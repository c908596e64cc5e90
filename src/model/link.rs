//! Linking the files of one crate:
//! - receivers that were not visibly `Api` handles in their own file (fields, helper return
//!   values) are resolved against item facts from every file;
//! - calls of the crate's own functions are replaced by the requests those functions make
//!   (their summaries, computed on demand, recursion-safe), with the caller's arguments
//!   substituted for the parameters.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

mod blocking;
mod callers;

use super::units::UnitScopes;
use super::verbs::{self, Access};
use super::wrappers::WrapperSpec;
use super::{
    Argument, Blocking, BlockingCall, CallbackTarget, Callee, Cfg, ComputedLocal, FileFacts,
    FileModel, FunctionFacts, Handle, HandleOrigin, HandleSource, HelperCall, ItemIndex, NameExpr,
    Namespace, ObjectName, Precondition, RawKind, RawRequest, Request, Resolution, ReturnedType,
    Root, UnpolledFuture,
};
use crate::prefilter::{Name, NameUse};
use crate::source::{FileId, Span};

/// A function: its file's position in [`Linker::files`] and its index in that file's functions.
type FunctionRef = (usize, usize);

/// A closure: its file's position and its span's start and end.
type ClosureRef = (usize, usize, usize);

/// The requests a function or closure makes, in its own terms.
type Summary = Rc<Vec<Request>>;

/// Helpers calling helpers deeper than this are not followed (a bound, not a semantic rule).
const MAX_DEPTH: usize = 12;

/// How many names crate calls returned one name follows at most, in all.
const MAX_RETURNED_NAMES: usize = 32;

/// How many names a name built by following returned names may be made of.
const MAX_NAME_SIZE: usize = 64;

fn small_enough(name: &NameExpr) -> bool {
    name.size() <= MAX_NAME_SIZE
}

/// Item facts of every file of a run, by name, each with its file's link unit: a unit's code
/// sees those of its scope ([`IndexView`]).
#[derive(Debug, Default)]
pub struct CrateIndex {
    /// Field name → kinds declared for fields of that name with an `Api<K>` type.
    api_fields: HashMap<String, Vec<(usize, Option<String>)>>,
    /// Function or method name → kinds of the `Api<K>` it returns.
    api_fns: HashMap<String, Vec<(usize, Option<String>)>>,
    /// `const` name → its string values (several when different items share the name).
    consts: HashMap<String, Vec<(usize, String)>>,
    /// Traits declared, with the units declaring them.
    traits: HashMap<String, Vec<usize>>,
    /// `type Leases = Api<Lease>;`: alias → kinds declared for it.
    aliases: HashMap<String, Vec<(usize, Option<String>)>>,
    /// Field name → the types, maybe aliases of `Api<K>`, of fields of that name.
    alias_fields: HashMap<String, Vec<(usize, String)>>,
    /// Trait → the types implementing it (`impl Trait for Type`), with repeats.
    implementors: HashMap<String, Vec<(usize, String)>>,
}

impl CrateIndex {
    /// The items of a file of link unit `unit`.
    pub fn add(&mut self, unit: usize, items: &ItemIndex) {
        group_into(&mut self.api_fields, unit, &items.api_fields);
        group_into(&mut self.api_fns, unit, &items.api_returning_fns);
        group_into(&mut self.consts, unit, &items.consts);
        for t in &items.traits {
            self.traits.entry(t.clone()).or_default().push(unit);
        }
        group_into(&mut self.aliases, unit, &items.api_aliases);
        group_into(&mut self.alias_fields, unit, &items.alias_fields);
        group_into(&mut self.implementors, unit, &items.trait_impls);
    }

    /// The items `scope` sees.
    pub fn view<'i>(&'i self, scope: Scope<'i>) -> IndexView<'i> {
        IndexView {
            index: self,
            top: None,
            scope,
        }
    }
}

/// Which link units' facts a linker sees: all (one crate, or files linked together), or a
/// unit's scope.
#[derive(Clone, Copy, Debug)]
pub enum Scope<'s> {
    All,
    Of { unit: usize, scopes: &'s UnitScopes },
}

impl Scope<'_> {
    fn sees(&self, unit: usize) -> bool {
        match self {
            Scope::All => true,
            Scope::Of { unit: own, scopes } => scopes.contains(*own, unit),
        }
    }
}

/// The items of a [`CrateIndex`] one scope sees.
#[derive(Clone, Copy)]
pub struct IndexView<'i> {
    index: &'i CrateIndex,
    /// The items of a file laid on top of the run's (see [`LinkIndex::with_file`]).
    top: Option<&'i CrateIndex>,
    scope: Scope<'i>,
}

impl<'i> IndexView<'i> {
    /// The values declared for `name` in units of the scope, in the order they were added.
    fn seen<V: 'i>(
        &self,
        map: impl Fn(&'i CrateIndex) -> &'i HashMap<String, Vec<(usize, V)>>,
        name: &str,
    ) -> Vec<&'i V> {
        std::iter::once(self.index)
            .chain(self.top)
            .flat_map(|index| map(index).get(name))
            .flatten()
            .filter(|(unit, _)| self.scope.sees(*unit))
            .map(|(_, v)| v)
            .collect()
    }

    /// The type (last segment) the crate declares its fields of this name with, when every such
    /// field has the same plain type (`op: oplib::OpClient`, `&OpClient`); None otherwise.
    pub fn field_type(&self, field: &str) -> Option<&'i str> {
        let types = self.seen(|i| &i.alias_fields, field);
        let first = types.first()?;
        types.iter().all(|t| t == first).then_some(first.as_str())
    }

    fn implements(&self, ty: &str, trait_name: &str) -> bool {
        self.implementors_of(trait_name).iter().any(|t| *t == ty)
    }

    /// The types implementing a trait (`impl Trait for Type`) in the scope, with repeats.
    fn implementors_of(&self, trait_name: &str) -> Vec<&'i String> {
        self.seen(|i| &i.implementors, trait_name)
    }

    fn has_trait(&self, name: &str) -> bool {
        let declared = |index: &CrateIndex| {
            let units = index.traits.get(name).map_or(&[][..], Vec::as_slice);
            units.iter().any(|u| self.scope.sees(*u))
        };
        declared(self.index) || self.top.is_some_and(declared)
    }

    /// One kind when every declaration agrees, None (unknown) when they differ.
    fn kind(decls: &[&Option<String>]) -> Option<String> {
        let first = *decls.first()?;
        decls
            .iter()
            .all(|k| *k == first)
            .then(|| first.clone())
            .flatten()
    }

    pub fn resolve(&self, source: &HandleSource) -> Option<Handle> {
        let (decls, origin) = match source {
            HandleSource::Known(h) => {
                return Some(Handle {
                    namespace: self.resolve_namespace(&h.namespace),
                    ..h.clone()
                })
            }
            HandleSource::Field { field, origin } => {
                let mut decls = self.seen(|i| &i.api_fields, field);
                for alias in self.seen(|i| &i.alias_fields, field) {
                    decls.extend(self.seen(|i| &i.aliases, alias));
                }
                if decls.is_empty() {
                    return None;
                }
                (decls, origin)
            }
            HandleSource::Returned {
                name,
                origin,
                kind_arg,
            } => {
                let decls = self.non_empty(self.seen(|i| &i.api_fns, name))?;
                // Every function of the name generic over the kind: the turbofish names it.
                if let (Some(kind), true) = (kind_arg, decls.iter().all(|k| k.is_none())) {
                    return Some(Handle {
                        kind: Some(kind.clone()),
                        namespace: Namespace::Unknown,
                        origin: origin.clone(),
                        kind_param: None,
                    });
                }
                (decls, origin)
            }
            HandleSource::Aliased { alias, origin } => {
                (self.non_empty(self.seen(|i| &i.aliases, alias))?, origin)
            }
        };
        Some(Handle {
            kind: Self::kind(&decls),
            namespace: Namespace::Unknown,
            origin: origin.clone(),
            kind_param: None,
        })
    }

    /// A name without declarations is not indexed: as if it had no entry.
    fn non_empty<V>(&self, decls: Vec<V>) -> Option<Vec<V>> {
        (!decls.is_empty()).then_some(decls)
    }

    /// A `const` of another file, when the scope has exactly one value for its name.
    fn resolve_name(&self, name: &NameExpr) -> NameExpr {
        if let NameExpr::Path {
            root: Root::Const(c),
            fields,
        } = name
        {
            if let ([value], true) = (self.seen(|i| &i.consts, c).as_slice(), fields.is_empty()) {
                return NameExpr::Literal((*value).clone());
            }
        }
        name.clone()
    }

    fn resolve_namespace(&self, ns: &Namespace) -> Namespace {
        match ns {
            Namespace::Named(n) => Namespace::Named(self.resolve_name(n)),
            other => other.clone(),
        }
    }

    fn resolve_object(&self, object: &ObjectName) -> ObjectName {
        match object {
            ObjectName::One { name, text } => ObjectName::One {
                name: self.resolve_name(name),
                text: text.clone(),
            },
            ObjectName::All => ObjectName::All,
        }
    }
}

/// Declarations by name: each `(name, value)` of `unit` added to the values declared for that
/// name.
fn group_into<V: Clone>(
    index: &mut HashMap<String, Vec<(usize, V)>>,
    unit: usize,
    declared: &[(String, V)],
) {
    for (name, value) in declared {
        index
            .entry(name.clone())
            .or_default()
            .push((unit, value.clone()));
    }
}

/// The names through which the files parsed so far depend on files not parsed yet: what the
/// linker resolves across files, for the prefilter's later passes ([`crate::prefilter`]). A file
/// holds a request only if it names an `Api` (a trigger word), uses one of these names, or
/// calls a declared wrapper:
///
/// * fields and functions typed `Api<K>`: files *using* them (`.pods`, `pods(`) may make
///   requests through them;
/// * functions that make requests (directly, through a wrapper or through other such functions,
///   by name as the linker resolves calls), and sync functions that block on a future: files
///   *calling* them make those requests (or block) too, and files *declaring* a function of the
///   same name change how the linker resolves such calls;
/// * consts that requests, or calls of such functions, name: files *declaring* a const of that
///   name give (or make ambiguous) its value.
///
/// By induction on the call chain, every file holding a request, directly or through helpers,
/// is parsed once no new name appears. Keep this in step with what [`Linker`] looks up by name.
pub fn linked_names<'f>(
    files: impl Iterator<Item = &'f FileFacts> + Clone,
    wrappers: &'f [WrapperSpec],
) -> HashSet<Name> {
    let name = |text: &str, used_as| Name::new(text, used_as);
    let mut index = CrateIndex::default();
    let mut names = HashSet::new();
    for facts in files.clone() {
        index.add(0, &facts.items);
        for (field, _) in &facts.items.api_fields {
            names.insert(name(field, NameUse::Field));
        }
        for (function, _) in &facts.items.api_returning_fns {
            names.insert(name(function, NameUse::Call));
        }
        // Files typing a value or a field by an alias of `Api<K>` make requests through it.
        for (alias, _) in &facts.items.api_aliases {
            names.insert(name(alias, NameUse::Anywhere));
        }
    }
    let is_wrapper = |call: &HelperCall| wrappers.iter().any(|w| wrapper_matches(w, call));
    let files: Vec<&FileFacts> = files.collect();
    let linker = Linker::new(
        files.iter().enumerate().map(|(i, f)| (i, *f)).collect(),
        HashMap::new(),
        wrappers,
    );
    let makers = linker.linked_functions();
    // A method of a trait no parsed file declares is not resolved by its name alone (see
    // `Linker::fits`): the file declaring the trait, if the crate has one, changes that.
    for t in linker.undeclared_traits_of_linked_functions() {
        names.insert(name(t, NameUse::DeclaredTrait));
    }
    let index = index.view(Scope::All);
    // A provided method runs for the implementors that do not override it: the files naming
    // its trait (`impl Syncer for Loud {}`) say which types those are.
    for t in linker.traits_of_linked_provided_methods() {
        names.insert(name(t, NameUse::Anywhere));
    }
    let mut consts: HashSet<&str> = HashSet::new();
    let mut found_name_makers: HashSet<&str> = HashSet::new();
    for facts in &files {
        let mut request_names: Vec<&NameExpr> = Vec::new();
        for raw in &facts.requests {
            match &raw.kind {
                // `map.get(KEY)` is not a request: only calls on an `Api` count.
                RawKind::Api(call) if index.resolve(&call.source).is_some() => {
                    const_of(&call.source, &mut consts);
                    if let ObjectName::One { name, .. } = &call.object {
                        const_root(name, &mut consts);
                        request_names.push(name);
                    }
                }
                RawKind::Api(_) => {}
                RawKind::Helper(call)
                    if is_wrapper(call) || makers.contains_key(callee_name(call)) =>
                {
                    for arg in call.receiver.iter().chain(&call.args) {
                        const_root(&arg.name, &mut consts);
                        request_names.push(&arg.name);
                        if let Some(h) = &arg.handle {
                            const_of(h, &mut consts);
                        }
                    }
                }
                RawKind::Helper(_) => {}
            }
        }
        let returned = returned_entries(facts);
        returned_name_callees(
            facts,
            &returned,
            request_names.into_iter(),
            &mut found_name_makers,
        );
    }
    for f in name_makers(&files, found_name_makers) {
        names.insert(name(f, NameUse::DeclaredFunction));
    }
    // Fields holding function values (see `Linker::callback`): the files giving them values,
    // wherever a file calls the field, and the files calling them, wherever a file gives the
    // field a function that makes requests.
    for facts in &files {
        // Only calls in async code: a request future is made there (sync function tables,
        // such as COM vtables called by the thousand, do not make requests).
        let in_async = |raw: &RawRequest| {
            facts
                .bodies
                .get(raw.body as usize)
                .is_some_and(|b| b.kind.is_async())
        };
        let called = facts.requests.iter().filter_map(|raw| match &raw.kind {
            RawKind::Helper(HelperCall {
                callee: Callee::Field(f),
                ..
            }) if in_async(raw) => Some(f.as_str()),
            _ => None,
        });
        let makes_requests = |target: &CallbackTarget| match target {
            CallbackTarget::Function(path) => {
                path.last().is_some_and(|f| makers.contains_key(f.as_str()))
            }
            CallbackTarget::Closure { span, .. } => {
                facts.requests.iter().any(|raw| span.contains(&raw.span))
            }
            CallbackTarget::Opaque => false,
        };
        let given = facts
            .callbacks
            .iter()
            .filter(|c| makes_requests(&c.target))
            .map(|c| c.field.as_str());
        for field in called.chain(given) {
            names.insert(name(field, NameUse::Anywhere));
        }
    }
    for (m, companions) in makers {
        for with in companions {
            for used_as in [NameUse::Call, NameUse::DeclaredFunction] {
                names.insert(Name {
                    with: with.map(str::to_string),
                    ..name(m, used_as)
                });
            }
        }
    }
    for c in consts {
        names.insert(name(c, NameUse::DeclaredConst));
    }
    names
}

/// The functions called where this file builds a name from what a call returns
/// (`api.get(&lease_name(app))`, `let n = lease_name(app)`), in `names`: a file declaring one
/// gives the name.
fn returned_name_callees<'f>(
    facts: &'f FileFacts,
    returned: &HashMap<u64, usize>,
    names: impl Iterator<Item = &'f NameExpr>,
    out: &mut HashSet<&'f str>,
) {
    let mut names: Vec<&NameExpr> = names.collect();
    while let Some(n) = names.pop() {
        match n {
            NameExpr::Path {
                root: Root::Binding(b),
                ..
            } => {
                let call = returned.get(b).and_then(|&e| facts.requests.get(e));
                if let Some(RawKind::Helper(call)) = call.map(|r| &r.kind) {
                    out.insert(callee_name(call));
                }
            }
            NameExpr::Format { parts, .. } => names.extend(parts.iter()),
            _ => {}
        }
    }
}

/// The functions whose tails give the names requests use (see [`Linker::returned_field`]),
/// from the callees of `direct` through the tails of the functions of those names.
fn name_makers<'f>(files: &[&'f FileFacts], mut found: HashSet<&'f str>) -> HashSet<&'f str> {
    let mut todo: Vec<&str> = found.iter().copied().collect();
    let mut tails: HashMap<&str, Vec<(usize, &NameExpr)>> = HashMap::new();
    for (i, facts) in files.iter().enumerate() {
        for f in &facts.functions {
            if let Some(n) = &f.returned_name {
                tails.entry(f.name.as_str()).or_default().push((i, n));
            }
        }
    }
    let returned: Vec<HashMap<u64, usize>> = files.iter().map(|f| returned_entries(f)).collect();
    while let Some(function) = todo.pop() {
        for &(i, tail) in tails.get(function).into_iter().flatten() {
            let mut more = HashSet::new();
            returned_name_callees(files[i], &returned[i], std::iter::once(tail), &mut more);
            for m in more {
                if found.insert(m) {
                    todo.push(m);
                }
            }
        }
    }
    found
}

/// [`FileFacts::returned_values`]: binding → the entry whose call returned its value.
fn returned_entries(facts: &FileFacts) -> HashMap<u64, usize> {
    facts
        .returned_values
        .iter()
        .map(|(id, r)| (*id, r.entry))
        .collect()
}

fn callee_name(call: &HelperCall) -> &str {
    match &call.callee {
        Callee::Path(segments) => segments.last().map_or("", String::as_str),
        Callee::Method { name, .. } | Callee::Field(name) => name.as_str(),
    }
}

fn const_root<'f>(name: &'f NameExpr, consts: &mut HashSet<&'f str>) {
    if let NameExpr::Path {
        root: Root::Const(c),
        ..
    } = name
    {
        consts.insert(c);
    }
}

fn const_of<'f>(source: &'f HandleSource, consts: &mut HashSet<&'f str>) {
    if let HandleSource::Known(Handle {
        namespace: Namespace::Named(n),
        ..
    }) = source
    {
        const_root(n, consts);
    }
}

/// The facts of the files of a run, indexed once: the linkers of all its units share them. One
/// more file can be laid on top ([`LinkIndex::with_file`]): a doc example, linked in the scope
/// of the unit it documents without indexing that unit again.
pub struct LinkIndex<'a> {
    run: Arc<Layer<'a>>,
    /// Its positions follow the run's; it hides the run's file of its id from [`Self::position`].
    top: Option<Layer<'a>>,
}

/// Files indexed together: the run's, or a file on top of them (see [`LinkIndex`]).
struct Layer<'a> {
    index: CrateIndex,
    wrappers: &'a [WrapperSpec],
    files: Vec<(FileId, &'a FileFacts)>,
    /// Each file's link unit (same positions as `files`).
    units: Vec<usize>,
    /// Each file's position in `files`, by id.
    positions: HashMap<FileId, usize>,
    /// Per file (same positions as `files`): its entries by function, and its entries and
    /// blocking calls by body, so that a summary does not scan the whole file.
    entries_by_function: Vec<HashMap<usize, Vec<usize>>>,
    entries_by_body: Vec<HashMap<u32, Vec<usize>>>,
    blocking_by_body: Vec<HashMap<u32, Vec<usize>>>,
    /// Per file: [`FileFacts::returned_values`] by binding.
    returned_values: Vec<HashMap<u64, ReturnedType>>,
    displays: HashMap<FileId, String>,
    /// Function name → (file position in `files`, function index).
    by_name: HashMap<&'a str, Vec<(usize, usize)>>,
    /// The same functions by the calls that can mean them (see [`Overload`]): a name like
    /// `new` or `get` has thousands of functions in a big unit, and a call fits few of them.
    by_overload: HashMap<Overload<'a>, Vec<FunctionRef>>,
    /// (trait, type, method) of the methods `impl Trait for Type` blocks define.
    trait_methods: HashSet<(String, String, String)>,
    /// Field → where the crate gives it a function value (file position, index into that
    /// file's [`FileFacts::callbacks`]).
    callbacks: HashMap<&'a str, Vec<(usize, usize)>>,
    /// Names of the functions whose result can give a name: a tail name or struct literals.
    name_givers: HashSet<&'a str>,
    /// Calls by the callee's name, made when a write's body is a parameter (see
    /// [`callers`]): most runs never need it.
    calls_by_name: OnceLock<callers::CallsByName>,
}

/// Files linked together, for resolving helper calls across them: those of a [`LinkIndex`] its
/// scope sees.
pub struct Linker<'a> {
    shared: Arc<LinkIndex<'a>>,
    scope: Scope<'a>,
    /// Summaries of closures stored in fields, by file position and span.
    closure_summaries: RefCell<HashMap<ClosureRef, Summary>>,
    closures_in_progress: RefCell<HashSet<ClosureRef>>,
    /// The implementor type of the provided method whose requests or names are being followed
    /// (see [`Linker::summary_as`]); None in other functions.
    summarised_for: RefCell<Option<String>>,
    /// Summaries by function, and by the implementor's type a provided method runs for.
    summaries: RefCell<HashMap<(FunctionRef, Option<String>), Summary>>,
    in_progress: RefCell<HashSet<(FunctionRef, Option<String>)>>,
    /// How each sync function blocks the thread, if it does (see [`Linker::blocking_chain`]).
    blocking_chains: RefCell<HashMap<FunctionRef, Option<Rc<BlockingChain>>>>,
    blocking_in_progress: RefCell<HashSet<FunctionRef>>,
    /// The types of values returned by calls (see [`Linker::receiver_type`]).
    returned_types: RefCell<HashMap<(usize, ReturnedType), Option<String>>>,
    /// Whether every caller of a function passes a guarded body for a parameter (see
    /// [`callers`]).
    guarded_params: RefCell<HashMap<(FunctionRef, u64), bool>>,
    /// [`Linker::candidates`] by call: a big unit asks for one name and shape thousands of
    /// times, and each answer scans the functions of the name.
    candidates: RefCell<HashMap<CandidatesKey, Rc<[FunctionRef]>>>,
}

/// What [`Linker::candidates`] depends on: the callee's name, the call's shape (the receiver's
/// type found) and the caller's `cfg`.
#[derive(PartialEq, Eq, Hash)]
struct CandidatesKey {
    name: String,
    shape: ShapeKey,
    cfg: Cfg,
}

/// A [`CallShape`] that owns its strings.
#[derive(PartialEq, Eq, Hash)]
enum ShapeKey {
    Bare(usize),
    Qualified(String, usize),
    Method(Option<String>, usize),
}

/// `Recorder::new(..)` of a type whose functions are not the crate's: by convention, that type.
fn foreign_constructor(call: &HelperCall) -> Option<String> {
    match &call.callee {
        Callee::Path(segments) => super::sites::constructed_type(segments).map(str::to_string),
        Callee::Method { .. } | Callee::Field(_) => None,
    }
}

/// How many returned values a receiver's type is followed through.
const MAX_TYPE_DEPTH: usize = 16;

/// How a sync function blocks: the functions on the way (it first) and the blocking call.
#[derive(Debug)]
struct BlockingChain {
    /// The file of the blocking call.
    file: usize,
    via: Vec<String>,
    spelling: String,
    defined_at: (String, usize),
    unconditional: bool,
    by_name_only: bool,
}

/// A method call whose receiver's type is not known: resolved by the method's name alone.
/// How surely a call that resolved is the function it resolved to (see [`Resolution`]).
fn resolution_of(call: &HelperCall, typed: bool) -> Resolution {
    match &call.callee {
        Callee::Method {
            self_type: None,
            name,
            ..
        } if !typed && is_library_method_name(name) => Resolution::AmbiguousName,
        Callee::Method {
            self_type: None, ..
        } if !typed => Resolution::ByName,
        _ => Resolution::Typed,
    }
}

/// Method names of common library types (tokio's channels and tasks, web servers, streams)
/// that crates also give their own methods: on a receiver of unknown type, the name says
/// nothing about which one is called (`rx.changed()` on a `watch::Receiver` and
/// `LeaseManager::changed`; actix's `HttpServer::run` and a controller's `run`).
fn is_library_method_name(name: &str) -> bool {
    #[rustfmt::skip]
    const NAMES: &[&str] = &[
        "changed", "run", "start", "stop", "wait", "notified", "tick", "closed", "cancelled",
        "call", "ready", "shutdown", "close", "flush", "reset", "acquire", "wait_for", "listen",
        "serve", "poll", "handle", "process", "execute", "exec", "connect", "accept", "bind",
        "join_next", "recv_many", "send_timeout", "reserve", "update", "refresh", "sync",
    ];
    NAMES.contains(&name)
}

fn by_name_only(call: &HelperCall) -> bool {
    matches!(
        call.callee,
        Callee::Method {
            self_type: None,
            ..
        }
    )
}

impl<'a> LinkIndex<'a> {
    /// `files`: every file's facts with its id and link unit; `displays`: the path shown for
    /// each file.
    pub fn new(
        files: Vec<(FileId, &'a FileFacts, usize)>,
        displays: HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        LinkIndex {
            run: Arc::new(Layer::new(files, displays, wrappers)),
            top: None,
        }
    }

    /// The run's files and `facts` on top, a file of link unit `unit` (replacing the file on
    /// top, if any): the run's files are shared, not indexed again.
    pub fn with_file(
        &self,
        file: FileId,
        facts: &'a FileFacts,
        unit: usize,
        display: &str,
    ) -> Self {
        let displays = HashMap::from([(file, display.to_string())]);
        LinkIndex {
            run: self.run.clone(),
            top: Some(Layer::new(
                vec![(file, facts, unit)],
                displays,
                self.run.wrappers,
            )),
        }
    }

    /// The layer holding position `pos`, and the position in it.
    fn layer(&self, pos: usize) -> (&Layer<'a>, usize) {
        match &self.top {
            Some(top) if pos >= self.run.files.len() => (top, pos - self.run.files.len()),
            _ => (&self.run, pos),
        }
    }

    /// Each layer with the position of its first file.
    fn layers(&self) -> impl Iterator<Item = (&Layer<'a>, usize)> {
        std::iter::once((&*self.run, 0)).chain(self.top.iter().map(|t| (t, self.run.files.len())))
    }

    fn len(&self) -> usize {
        self.layers().map(|(l, _)| l.files.len()).sum()
    }

    #[inline]
    fn facts(&self, pos: usize) -> &'a FileFacts {
        match self.run.files.get(pos) {
            Some((_, facts)) => facts,
            None => {
                let (layer, at) = self.layer(pos);
                layer.files[at].1
            }
        }
    }

    /// A file of the run (not a file laid on top of it: a doc example).
    fn in_run(&self, pos: usize) -> bool {
        pos < self.run.files.len()
    }

    #[inline]
    fn unit(&self, pos: usize) -> usize {
        match self.run.units.get(pos) {
            Some(&unit) => unit,
            None => {
                let (layer, at) = self.layer(pos);
                layer.units[at]
            }
        }
    }

    /// A file's position: the file on top first.
    fn position(&self, file: FileId) -> Option<usize> {
        let on_top = self.top.as_ref().and_then(|t| t.positions.get(&file));
        match on_top {
            Some(at) => Some(self.run.files.len() + at),
            None => self.run.positions.get(&file).copied(),
        }
    }

    /// The path shown for the file at `pos`.
    fn display(&self, pos: usize) -> Option<&String> {
        let (layer, at) = self.layer(pos);
        layer.displays.get(&layer.files[at].0)
    }

    /// The function references one lookup gives in each layer, the top layer's moved past the
    /// run's positions. A hot path: two slices, no boxing.
    #[inline]
    fn in_layers<'s>(
        &'s self,
        lookup: impl Fn(&'s Layer<'a>) -> &'s [FunctionRef],
    ) -> impl Iterator<Item = FunctionRef> + 's {
        let first = self.run.files.len();
        let on_top = self.top.as_ref().map_or(&[][..], &lookup);
        lookup(&self.run)
            .iter()
            .copied()
            .chain(on_top.iter().map(move |&(p, k)| (first + p, k)))
    }

    /// The functions of a name, as (file position, function index).
    #[inline]
    fn functions_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = FunctionRef> + 's {
        self.in_layers(move |layer| layer.by_name.get(name).map_or(&[], Vec::as_slice))
    }

    /// The functions named `name` that a call of this shape may mean, a superset of those it
    /// fits (in every file of the run: the caller checks which its scope sees).
    #[inline]
    fn overloads<'s>(
        &'s self,
        name: &'s str,
        shape: CallShape<'s>,
    ) -> impl Iterator<Item = FunctionRef> + 's {
        let overload = Overload::of_call(name, shape);
        self.in_layers(move |layer| {
            // The map is covariant in its keys: looked up with the call's shorter-lived strings.
            let by_overload: &HashMap<Overload<'s>, Vec<FunctionRef>> = &layer.by_overload;
            by_overload.get(&overload).map_or(&[], Vec::as_slice)
        })
    }

    /// The calls of a name, as (file position, entry index), in both layers (see
    /// [`callers`]); indexed the first time a write's body is a parameter.
    fn calls_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = (usize, usize)> + 's {
        self.layers().flat_map(move |(l, first)| {
            l.calls_by_name()
                .get(name)
                .into_iter()
                .flatten()
                .map(move |&(p, i)| (first + p, i))
        })
    }

    /// Where the files give a field a function value (file position, callback index).
    fn callbacks_of<'s>(&'s self, field: &'s str) -> impl Iterator<Item = (usize, usize)> + 's {
        self.layers().flat_map(move |(l, first)| {
            l.callbacks
                .get(field)
                .into_iter()
                .flatten()
                .map(move |&(p, i)| (first + p, i))
        })
    }

    fn gives_names(&self, name: &str) -> bool {
        self.layers().any(|(l, _)| l.name_givers.contains(name))
    }

    fn defines_trait_method(&self, key: &(String, String, String)) -> bool {
        self.layers().any(|(l, _)| l.trait_methods.contains(key))
    }

    /// Whether a field of the binding is assigned (see [`FileFacts::assigned_fields`]).
    fn fields_assigned(&self, binding: u64) -> bool {
        self.position((binding >> 32) as FileId).is_some_and(|pos| {
            self.facts(pos)
                .assigned_fields
                .binary_search(&binding)
                .is_ok()
        })
    }

    fn returned_value(&self, pos: usize, binding: &u64) -> Option<&ReturnedType> {
        let (layer, at) = self.layer(pos);
        layer.returned_values[at].get(binding)
    }

    fn entries_of_function(&self, pos: usize, k: usize) -> &[usize] {
        let (layer, at) = self.layer(pos);
        layer.entries_by_function[at]
            .get(&k)
            .map_or(&[], Vec::as_slice)
    }

    fn entries_of_body(&self, pos: usize, body: u32) -> &[usize] {
        let (layer, at) = self.layer(pos);
        layer.entries_by_body[at]
            .get(&body)
            .map_or(&[], Vec::as_slice)
    }

    fn blocking_of_body(&self, pos: usize, body: u32) -> &[usize] {
        let (layer, at) = self.layer(pos);
        layer.blocking_by_body[at]
            .get(&body)
            .map_or(&[], Vec::as_slice)
    }

    fn view<'i>(&'i self, scope: Scope<'i>) -> IndexView<'i> {
        IndexView {
            index: &self.run.index,
            top: self.top.as_ref().map(|t| &t.index),
            scope,
        }
    }
}

impl<'a> Layer<'a> {
    fn new(
        files: Vec<(FileId, &'a FileFacts, usize)>,
        displays: HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        let mut index = CrateIndex::default();
        let mut by_name: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        let mut by_overload: HashMap<Overload<'a>, Vec<FunctionRef>> = HashMap::new();
        let mut entries_by_function = Vec::with_capacity(files.len());
        let mut entries_by_body = Vec::with_capacity(files.len());
        let mut blocking_by_body = Vec::with_capacity(files.len());
        let mut returned_values = Vec::with_capacity(files.len());
        let mut trait_methods = HashSet::new();
        let mut name_givers = HashSet::new();
        let mut callbacks: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (pos, (_, facts, unit)) in files.iter().enumerate() {
            returned_values.push(facts.returned_values.iter().copied().collect());
            for (i, c) in facts.callbacks.iter().enumerate() {
                callbacks
                    .entry(c.field.as_str())
                    .or_default()
                    .push((pos, i));
            }
            index.add(*unit, &facts.items);
            for (k, f) in facts.functions.iter().enumerate() {
                by_name.entry(f.name.as_str()).or_default().push((pos, k));
                for overload in Overload::of_function(f) {
                    by_overload.entry(overload).or_default().push((pos, k));
                }
                if f.returned_name.is_some() || !f.struct_literals.is_empty() {
                    name_givers.insert(f.name.as_str());
                }
                if let (Some(t), Some(ty), false) = (&f.trait_name, &f.self_type, f.provided) {
                    trait_methods.insert((t.clone(), ty.clone(), f.name.clone()));
                }
            }
            let mut by_function: HashMap<usize, Vec<usize>> = HashMap::new();
            let mut by_body: HashMap<u32, Vec<usize>> = HashMap::new();
            for (i, r) in facts.requests.iter().enumerate() {
                if let Some(k) = r.function {
                    by_function.entry(k).or_default().push(i);
                }
                by_body.entry(r.body).or_default().push(i);
            }
            let mut blocking: HashMap<u32, Vec<usize>> = HashMap::new();
            for (i, b) in facts.blocking.iter().enumerate() {
                blocking.entry(b.body).or_default().push(i);
            }
            entries_by_function.push(by_function);
            entries_by_body.push(by_body);
            blocking_by_body.push(blocking);
        }
        let positions = files
            .iter()
            .enumerate()
            .map(|(pos, (id, _, _))| (*id, pos))
            .collect();
        Layer {
            index,
            wrappers,
            units: files.iter().map(|(_, _, unit)| *unit).collect(),
            files: files
                .into_iter()
                .map(|(id, facts, _)| (id, facts))
                .collect(),
            positions,
            entries_by_function,
            entries_by_body,
            blocking_by_body,
            returned_values,
            displays,
            by_name,
            by_overload,
            trait_methods,
            callbacks,
            name_givers,
            calls_by_name: OnceLock::new(),
        }
    }

    fn calls_by_name(&self) -> &callers::CallsByName {
        self.calls_by_name
            .get_or_init(|| callers::calls_by_name(&self.files))
    }
}

impl<'a> Linker<'a> {
    /// `files`: every file's facts with its id; `displays`: the path shown for each file.
    pub fn new(
        files: Vec<(FileId, &'a FileFacts)>,
        displays: HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        let files = files.into_iter().map(|(id, f)| (id, f, 0)).collect();
        Self::scoped(
            Arc::new(LinkIndex::new(files, displays, wrappers)),
            Scope::All,
        )
    }

    /// A linker over the files of `shared` that `scope` sees: building it costs nothing, so each
    /// unit of a workspace gets its own without indexing its dependencies again.
    pub fn scoped(shared: Arc<LinkIndex<'a>>, scope: Scope<'a>) -> Self {
        Linker {
            shared,
            scope,
            closure_summaries: Default::default(),
            closures_in_progress: Default::default(),
            summarised_for: Default::default(),
            summaries: Default::default(),
            in_progress: Default::default(),
            blocking_chains: Default::default(),
            blocking_in_progress: Default::default(),
            returned_types: RefCell::new(HashMap::new()),
            guarded_params: RefCell::new(HashMap::new()),
            candidates: RefCell::new(HashMap::new()),
        }
    }

    /// A linker of `facts` in this linker's scope, as one more file of the scope's own unit: a
    /// doc example (with the id of the file it is written in), which calls the unit's functions
    /// as the crate rustdoc builds it does, while no function of the unit calls it. The run's
    /// files are shared, not indexed again; summaries are made afresh.
    pub fn with_file<'e>(&self, file: FileId, facts: &'e FileFacts, display: &str) -> Linker<'e>
    where
        'a: 'e,
    {
        let unit = match self.scope {
            Scope::All => 0,
            Scope::Of { unit, .. } => unit,
        };
        let shared: &LinkIndex<'e> = &self.shared;
        let index = shared.with_file(file, facts, unit, display);
        Linker::scoped(Arc::new(index), self.scope)
    }

    /// The items this linker's scope sees.
    fn index(&self) -> IndexView<'_> {
        self.shared.view(self.scope)
    }

    /// Whether the file at `pos` is in this linker's scope.
    fn sees(&self, pos: usize) -> bool {
        self.scope.sees(self.shared.unit(pos))
    }

    /// The functions whose calls other files' findings can rest on, by name, each with the
    /// identifiers a calling file must have ([`Linker::callable_with`]): those that make
    /// requests, directly or through others (their summaries are not empty), and the sync
    /// functions that block the thread on a future. Functions no call can resolve to (tests,
    /// `main`, `Drop::drop`, methods other methods of their name make ambiguous) are left out.
    pub fn linked_functions(&self) -> HashMap<&'a str, Vec<Option<&'a str>>> {
        let mut out: HashMap<&'a str, Vec<Option<&'a str>>> = HashMap::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            if !self.sees(pos) {
                continue;
            }
            for (k, f) in facts.functions.iter().enumerate() {
                if !self.is_linked(pos, k) {
                    continue;
                }
                let with = self.callable_with(pos, k);
                let known = out.entry(f.name.as_str()).or_default();
                for w in with {
                    if !known.contains(&w) {
                        known.push(w);
                    }
                }
            }
        }
        for with in out.values_mut() {
            if with.contains(&None) {
                *with = vec![None];
            }
        }
        out
    }

    /// The wrappers calls are resolved with (declared, and found in dependencies).
    pub fn wrappers(&self) -> &'a [WrapperSpec] {
        self.shared.run.wrappers
    }

    /// The helpers of dependencies a call is: free functions by the end of the call's path,
    /// methods by the receiver's type, when it is known (written, or what the call giving the
    /// receiver returns); never by a method's name alone.
    fn dependency_helpers(&self, pos: usize, call: &HelperCall) -> Vec<&'a WrapperSpec> {
        let method = match &call.callee {
            Callee::Path(_) => None,
            Callee::Method {
                name, self_type, ..
            } => match self_type
                .clone()
                .or_else(|| self.receiver_type(pos, call, 0))
                .or_else(|| self.receiver_field_type(call))
            {
                Some(t) => Some((name, t)),
                None => return Vec::new(),
            },
            Callee::Field(_) => return Vec::new(),
        };
        self.wrappers()
            .iter()
            .filter(|w| w.from_dependency.is_some())
            .filter(|w| match (&method, &w.method_of) {
                (None, None) => wrapper_matches(w, call),
                (Some((name, t)), Some(of)) => {
                    of == t && w.function.rsplit("::").next() == Some(name.as_str())
                }
                _ => false,
            })
            .collect()
    }

    /// The declared type of a receiver that is a field (`ctx.op`, `self.op`), by the field's
    /// name (see [`IndexView::field_type`]).
    fn receiver_field_type(&self, call: &HelperCall) -> Option<String> {
        match &call.receiver.as_ref()?.name {
            NameExpr::Path { fields, .. } => {
                let field = fields.last()?;
                self.index().field_type(field).map(str::to_string)
            }
            _ => None,
        }
    }

    /// Is this a call of one of the wrappers (see [`wrapper_matches`])?
    fn is_wrapper_call(&self, call: &HelperCall) -> bool {
        self.wrappers().iter().any(|w| wrapper_matches(w, call))
    }

    /// Every request function `k` of file `file` makes, directly or through helpers, in its own
    /// terms (its parameters' bindings): how a dependency's helpers are summarised
    /// ([`crate::deps`]).
    pub fn requests_of(&self, file: FileId, k: usize) -> Vec<Request> {
        match self.shared.position(file) {
            Some(pos) => self.summary(pos, k, 0).as_ref().clone(),
            None => Vec::new(),
        }
    }

    /// Whether other files' findings can rest on calls of this function: it makes requests,
    /// directly or through others (its summary is not empty), or it is sync and blocks the
    /// thread on a future. Tests and `main` are called by no one.
    fn is_linked(&self, pos: usize, k: usize) -> bool {
        !self.shared.facts(pos).functions[k].entry_point
            && (!self.summary(pos, k, 0).is_empty() || self.blocking_chain(pos, k, 1).is_some())
    }

    /// The traits of linked functions (see [`Linker::linked_functions`]) that no file declares.
    fn undeclared_traits_of_linked_functions(&self) -> HashSet<&'a str> {
        let mut out = HashSet::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            if !self.sees(pos) {
                continue;
            }
            for (k, f) in facts.functions.iter().enumerate() {
                let Some(t) = f.trait_name.as_deref() else {
                    continue;
                };
                if !self.index().has_trait(t) && self.is_linked(pos, k) {
                    out.insert(t);
                }
            }
        }
        out
    }

    /// The traits of linked provided methods (see [`FunctionFacts::provided`]).
    fn traits_of_linked_provided_methods(&self) -> HashSet<&'a str> {
        let mut out = HashSet::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            for (k, f) in facts.functions.iter().enumerate() {
                if let (true, Some(t)) = (f.provided, f.trait_name.as_deref()) {
                    if self.is_linked(pos, k) {
                        out.insert(t);
                    }
                }
            }
        }
        out
    }

    /// The model of one file.
    pub fn link(&self, file: FileId) -> FileModel {
        let Some(pos) = self.shared.position(file) else {
            return FileModel {
                file,
                ..FileModel::default()
            };
        };
        let facts = self.shared.facts(pos);
        let requests = facts
            .requests
            .iter()
            .map(|raw| {
                let mut requests = self.resolve_entry(pos, raw, 0);
                self.resolve_preconditions(pos, raw, &mut requests);
                requests
            })
            .collect();
        let unresolved = facts
            .requests
            .iter()
            .enumerate()
            .filter(|(_, raw)| !self.resolves(pos, raw))
            .map(|(i, _)| i)
            .collect();
        FileModel {
            file,
            requests,
            unresolved,
            sites: facts.sites.clone(),
            spawns: facts.spawns.clone(),
            timeouts: facts.timeouts.clone(),
            bound_futures: facts.bound_futures.clone(),
            unpolled: self.unpolled_of(pos),
            awaits: facts.awaits.clone(),
            raw: facts.requests.clone(),
            functions: facts.functions.clone(),
            bodies: facts.bodies.clone(),
            blocking: self.blocking_of(pos),
            blocking_helpers: self.blocking_helpers_of(pos),
            abortables: facts.abortables.clone(),
            timer_waits: facts.timer_waits.clone(),
            timer_index: super::order::PointIndex::new(facts.timer_waits.iter().map(|w| w.point())),
            flow: super::order::ControlFlow::new(
                facts.exiting_arms.clone(),
                facts.breaking_arms.clone(),
                facts.continuing_arms.clone(),
                facts.loops.clone(),
                facts.bodies.iter().map(|b| b.made.clone()).collect(),
            ),
        }
    }

    /// Whether an entry's receiver is known to be a kube `Api`, or its callee is a function of
    /// the crate or a declared wrapper (whether or not it makes requests).
    fn resolves(&self, pos: usize, raw: &RawRequest) -> bool {
        match &raw.kind {
            RawKind::Api(call) => {
                self.index().resolve(&call.source).is_some()
                    || call
                        .as_method
                        .as_ref()
                        .is_some_and(|m| self.resolve_callee(pos, raw, m).is_some())
            }
            RawKind::Helper(call) => {
                self.is_wrapper_call(call)
                    || !self.callees(pos, raw, call).is_empty()
                    || !self.dependency_helpers(pos, call).is_empty()
                    || matches!(&call.callee, Callee::Field(f)
                        if matches!(self.callback(f), Some((_, CallbackTarget::Closure { .. }))))
            }
        }
    }

    /// The blocking calls of a file: those written in it, and the calls of sync functions of
    /// the crate that block.
    fn blocking_of(&self, pos: usize) -> Vec<Blocking> {
        let facts = self.shared.facts(pos);
        let mut out = Vec::new();
        for b in &facts.blocking {
            if self.calls_crate_function(pos, b) {
                continue;
            }
            out.push(Blocking {
                span: b.span,
                spelling: b.spelling.clone(),
                via: Vec::new(),
                defined_at: None,
                unconditional: true,
                on_every_path: true,
                by_name_only: false,
                body: b.body,
                direct: Some(b.clone()),
            });
        }
        for raw in &facts.requests {
            let RawKind::Helper(call) = &raw.kind else {
                continue;
            };
            if self.is_wrapper_call(call) {
                continue;
            }
            // `x.run().await`: what is called returns a future, it is not a sync function.
            if facts.awaits.iter().any(|w| w.span.start == raw.span.start) {
                continue;
            }
            let Some((cpos, k)) = self.resolve_callee(pos, raw, call) else {
                continue;
            };
            if let Some(chain) = self.blocking_chain(cpos, k, 1) {
                if self.reported_at_helper(pos, chain.file) {
                    continue;
                }
                out.push(Blocking {
                    span: raw.span,
                    spelling: chain.spelling.clone(),
                    via: chain.via.clone(),
                    defined_at: Some(chain.defined_at.clone()),
                    unconditional: raw.branches.is_empty() && chain.unconditional,
                    on_every_path: chain.unconditional,
                    by_name_only: by_name_only(call) || chain.by_name_only,
                    body: raw.body,
                    direct: None,
                });
            }
        }
        out.sort_by_key(|b| (b.span.start, b.span.end));
        out
    }

    /// A bare `block_on(..)` that calls the crate's own function of that name.
    fn calls_crate_function(&self, pos: usize, b: &BlockingCall) -> bool {
        let facts = self.shared.facts(pos);
        let Some(raw) = b.entry.and_then(|e| facts.requests.get(e)) else {
            return false;
        };
        match &raw.kind {
            RawKind::Helper(call) => self.resolve_callee(pos, raw, call).is_some(),
            _ => false,
        }
    }

    /// How a sync function of the crate blocks the thread, when it does: a blocking call in its
    /// own body (not in a closure or `async` block of it), directly or through the sync
    /// functions it calls. Functions that check for a runtime (`Handle::try_current`) know
    /// where they run and are not followed.
    fn blocking_chain(&self, pos: usize, k: usize, depth: usize) -> Option<Rc<BlockingChain>> {
        if let Some(c) = self.blocking_chains.borrow().get(&(pos, k)) {
            return c.clone();
        }
        if depth > MAX_DEPTH || !self.blocking_in_progress.borrow_mut().insert((pos, k)) {
            return None;
        }
        let facts = self.shared.facts(pos);
        let f = &facts.functions[k];
        let mut found: Option<BlockingChain> = None;
        let mut consider = |c: BlockingChain| {
            // The first unconditional way wins, else the first way.
            let better = match &found {
                None => true,
                Some(old) => c.unconditional && !old.unconditional,
            };
            if better {
                found = Some(c);
            }
        };
        if !f.is_async && !f.checks_runtime {
            let display = self.shared.display(pos).cloned();
            let blocking = self.shared.blocking_of_body(pos, f.body);
            for b in blocking.iter().map(|&i| &facts.blocking[i]) {
                if self.calls_crate_function(pos, b) {
                    continue;
                }
                consider(BlockingChain {
                    file: pos,
                    via: vec![display_name(f)],
                    spelling: b.spelling.clone(),
                    defined_at: (display.clone().unwrap_or_default(), b.line),
                    unconditional: b.branches.is_empty(),
                    by_name_only: false,
                });
            }
            let entries = self.shared.entries_of_body(pos, f.body);
            for raw in entries.iter().map(|&i| &facts.requests[i]) {
                let RawKind::Helper(call) = &raw.kind else {
                    continue;
                };
                if self.is_wrapper_call(call) {
                    continue;
                }
                let Some((cpos, ck)) = self.resolve_callee(pos, raw, call) else {
                    continue;
                };
                if let Some(inner) = self.blocking_chain(cpos, ck, depth + 1) {
                    let mut via = vec![display_name(f)];
                    via.extend(inner.via.iter().cloned());
                    consider(BlockingChain {
                        file: inner.file,
                        via,
                        spelling: inner.spelling.clone(),
                        defined_at: inner.defined_at.clone(),
                        unconditional: raw.branches.is_empty() && inner.unconditional,
                        by_name_only: by_name_only(call) || inner.by_name_only,
                    });
                }
            }
        }
        self.blocking_in_progress.borrow_mut().remove(&(pos, k));
        let chain = found.map(Rc::new);
        self.blocking_chains
            .borrow_mut()
            .insert((pos, k), chain.clone());
        chain
    }

    /// The requests one entry makes when polled, in the terms of its own function.
    fn resolve_entry(&self, pos: usize, raw: &RawRequest, depth: usize) -> Vec<Request> {
        match &raw.kind {
            RawKind::Api(call) => {
                // `recorder.publish(..)`, `entry.commit(..)` are taken for kube-runtime's by
                // their names; a method of the crate they resolve to (its own `Recorder`) wins.
                if verbs::lookup(call.verb.method).is_none() {
                    let typed = |m: &&HelperCall| {
                        resolution_of(m, self.receiver_type(pos, m, 0).is_some())
                            == Resolution::Typed
                    };
                    if let Some(method) = call
                        .as_method
                        .as_ref()
                        .filter(typed)
                        .filter(|m| self.resolve_callee(pos, raw, m).is_some())
                    {
                        return self.resolve_helper(pos, raw, method, depth, false);
                    }
                }
                let Some(handle) = self.index().resolve(&call.source) else {
                    return match &call.as_method {
                        Some(method) => self.resolve_helper(pos, raw, method, depth, true),
                        None => Vec::new(),
                    };
                };
                let mut request = Request {
                    span: raw.span,
                    verb: call.verb,
                    handle,
                    receiver: call.receiver.clone(),
                    object: self.index().resolve_object(&call.object),
                    via: Vec::new(),
                    defined_at: self.shared.display(pos).map(|d| (d.clone(), raw.line)),
                    keyed_by: raw.keyed_by.clone(),
                    in_channel_loop: raw.in_channel_loop,
                    resolution: Resolution::Typed,
                    may_create: call.may_create,
                    cfg: raw.cfg.clone(),
                    name_from_get: call.name_from_get,
                    precondition: call.precondition,
                    controller: None,
                };
                self.follow_returned_values(pos, &mut request, depth);
                vec![request]
            }
            RawKind::Helper(call) => self.resolve_helper(pos, raw, call, depth, false),
        }
    }

    /// The requests a call of a crate function makes, in the caller's terms. `verb_named`: a
    /// request method's name on a receiver that is not an `Api` (`manager.watch()`), which by
    /// its name alone says nothing.
    fn resolve_helper(
        &self,
        pos: usize,
        raw: &RawRequest,
        call: &HelperCall,
        depth: usize,
        verb_named: bool,
    ) -> Vec<Request> {
        let declared = |w: &&WrapperSpec| w.from_dependency.is_none() && wrapper_matches(w, call);
        if let Some(spec) = self.shared.run.wrappers.iter().find(declared) {
            return vec![self.wrapper_request(pos, raw, call, spec)];
        }
        if depth >= MAX_DEPTH {
            return Vec::new();
        }
        if let Some(requests) = self.closure_callback_requests(pos, raw, call, depth) {
            return requests;
        }
        let callees = self.callees(pos, raw, call);
        // A helper of a dependency answers only calls no function of the crate answers; one
        // function may make several requests (a get, then a patch).
        if callees.is_empty() {
            let found = self.dependency_helpers(pos, call);
            if !found.is_empty() {
                return found
                    .into_iter()
                    .map(|spec| self.wrapper_request(pos, raw, call, spec))
                    .collect();
            }
        }
        let known_type = match &call.callee {
            Callee::Method {
                self_type: Some(t), ..
            } => Some(t.clone()),
            _ => self.receiver_type(pos, call, 0),
        };
        let mut resolution = resolution_of(call, known_type.is_some());
        if verb_named && resolution != Resolution::Typed {
            resolution = Resolution::AmbiguousName;
        }
        let mut out = Vec::new();
        for (cpos, k) in callees {
            let callee = &self.shared.facts(cpos).functions[k];
            // A provided method run for a known type calls that type's methods on `self`.
            let impl_type = callee.provided.then_some(known_type.as_deref()).flatten();
            let summary = self.summary_as(cpos, k, impl_type, depth + 1);
            let handed;
            let call = match raw.controller {
                Some(_) => {
                    handed = handed_reconciled_object(call, callee);
                    &handed
                }
                None => call,
            };
            let subst = Substitution::new(self.index(), callee, call);
            out.extend(summary.iter().map(|r| {
                let via = display_name(callee);
                self.at_call(pos, raw, subst.apply(r), via, resolution, depth)
            }));
        }
        out
    }

    /// A name that is a field of a value a crate function returned (`web.pod`, with
    /// `let web = fleet.start("web-1")` and `start` returning `Worker { pod: name.to_string() }`)
    /// is that field's name in the callee, in the terms of the call's arguments (`"web-1"`); a
    /// name a crate function returned (`lease_name(&self.app)`, its tail `format!("{app}-lease")`)
    /// is that name in the terms of the call's arguments (`format!("{}-lease", self.app)`).
    fn follow_returned_values(&self, pos: usize, r: &mut Request, depth: usize) {
        if let ObjectName::One { name, .. } = &mut r.object {
            let budget = Cell::new(MAX_RETURNED_NAMES);
            if let Some(followed) = self.follow_name(pos, name, depth, &budget) {
                *name = followed;
            }
        }
    }

    /// A name with the values crate calls returned in it replaced by what they are; None when
    /// nothing in it is followed. `budget`: how many more returned values may be followed (a
    /// helper whose template inserts several calls of another would otherwise make this
    /// exponential in [`MAX_DEPTH`]).
    fn follow_name(
        &self,
        pos: usize,
        name: &NameExpr,
        depth: usize,
        budget: &Cell<usize>,
    ) -> Option<NameExpr> {
        match name {
            NameExpr::Path { .. } => self.returned_field(pos, name, depth, budget),
            NameExpr::Format { pieces, parts } => {
                let followed: Vec<Option<NameExpr>> = parts
                    .iter()
                    .map(|p| self.follow_name(pos, p, depth, budget))
                    .collect();
                if followed.iter().all(Option::is_none) {
                    return None;
                }
                let parts = parts
                    .iter()
                    .zip(followed)
                    .map(|(p, f)| f.unwrap_or_else(|| p.clone()))
                    .collect();
                Some(NameExpr::format(pieces.to_vec(), parts)).filter(small_enough)
            }
            _ => None,
        }
    }

    fn returned_field(
        &self,
        pos: usize,
        name: &NameExpr,
        depth: usize,
        budget: &Cell<usize>,
    ) -> Option<NameExpr> {
        let NameExpr::Path {
            root: Root::Binding(b),
            fields,
        } = name
        else {
            return None;
        };
        if self.shared.fields_assigned(*b) {
            return None;
        }
        if let Some(followed) = self.struct_value_field(*b, fields, depth, budget) {
            return Some(followed);
        }
        let returned = self.shared.returned_value(pos, b)?;
        if returned.element.is_some() || depth >= MAX_DEPTH || budget.get() == 0 {
            return None;
        }
        budget.set(budget.get() - 1);
        let raw = self.shared.facts(pos).requests.get(returned.entry)?;
        // In a provided method summarised for a type, `self.app()` is that type's.
        let summarised_for = self.summarised_for.borrow().clone();
        let typed = summarised_for.and_then(|t| on_self_as(raw, &t));
        let raw = typed.as_ref().unwrap_or(raw);
        let RawKind::Helper(call) = &raw.kind else {
            return None;
        };
        // Most calls in names (`to_string`, `get`) are of no function of the crate that gives a
        // name: resolving them against every function of their name costs much in a big crate.
        if !self.shared.gives_names(callee_name(call)) {
            return None;
        }
        let (cpos, k) = self.resolve_callee(pos, raw, call)?;
        let callee = &self.shared.facts(cpos).functions[k];
        if let Some((field, rest)) = fields.split_first() {
            if let Some(n) = self.struct_literal_field(callee, call, field) {
                // The argument may itself be a struct literal or a returned value.
                let n = extend(&n, rest);
                return Some(self.follow_name(pos, &n, depth + 1, budget).unwrap_or(n));
            }
        }
        // A name the callee's tail gives, followed only through calls resolved by type: a
        // method found by its name alone may be another type's.
        let tail = callee.returned_name.as_ref()?;
        if resolution_of(call, self.receiver_type(pos, call, 0).is_some()) != Resolution::Typed {
            return None;
        }
        let callee_for = match &call.callee {
            Callee::Method {
                self_type: Some(t), ..
            } if callee.provided => Some(t.clone()),
            _ => None,
        };
        let inner = self.summarising(callee_for, || {
            self.follow_name(cpos, tail, depth + 1, budget)
        });
        let followed =
            Substitution::new(self.index(), callee, call).name(inner.as_ref().unwrap_or(tail));
        match extend(&followed, fields) {
            NameExpr::Unknown => None,
            n => Some(n).filter(small_enough),
        }
    }

    /// A field of a struct literal read as a name (`params.lease_name`, with `params` given
    /// `LeaseParams { lease_name: LEASE.into(), .. }`; see [`FileFacts::struct_values`]): the
    /// name the literal gives it, followed further; Unknown for a field it gives no known name.
    /// None when `binding` is no struct literal or the whole value is named.
    fn struct_value_field(
        &self,
        binding: u64,
        fields: &[String],
        depth: usize,
        budget: &Cell<usize>,
    ) -> Option<NameExpr> {
        let (field, rest) = fields.split_first()?;
        let pos = self.shared.position((binding >> 32) as FileId)?;
        let values = &self.shared.facts(pos).struct_values;
        let at = values.binary_search_by_key(&binding, |(id, _)| *id).ok()?;
        let Some((_, name)) = values[at].1.iter().find(|(f, _)| f == field) else {
            return Some(NameExpr::Unknown);
        };
        if depth >= MAX_DEPTH || budget.get() == 0 {
            return Some(NameExpr::Unknown);
        }
        budget.set(budget.get() - 1);
        let name = extend(name, rest);
        Some(
            self.follow_name(pos, &name, depth + 1, budget)
                .unwrap_or(name),
        )
    }

    /// The name a field of the value `callee` returns has, in the terms of `call`'s arguments:
    /// every literal of the returned type must give the field the same name.
    fn struct_literal_field(
        &self,
        callee: &FunctionFacts,
        call: &HelperCall,
        field: &str,
    ) -> Option<NameExpr> {
        let ty = callee.returns.name.as_deref()?;
        let mut values = callee
            .struct_literals
            .iter()
            .filter(|(t, _)| t == ty)
            .map(|(_, fs)| fs.iter().find(|(f, _)| f == field).map(|(_, n)| n));
        let first = values.next()??;
        if values.any(|v| v != Some(first)) {
            return None;
        }
        match Substitution::new(self.index(), callee, call).name(first) {
            NameExpr::Unknown => None,
            n => Some(n),
        }
    }

    /// A call of a user-declared wrapper, as the request it makes.
    fn wrapper_request(
        &self,
        pos: usize,
        raw: &RawRequest,
        call: &HelperCall,
        spec: &WrapperSpec,
    ) -> Request {
        let method = spec
            .verb
            .as_deref()
            .unwrap_or_else(|| spec.function.rsplit("::").next().unwrap_or_default());
        let verb = verbs::lookup(method)
            .filter(|v| v.access == spec.access)
            .unwrap_or(match spec.access {
                Access::Read => &verbs::WRAPPER_READ,
                Access::Write => &verbs::WRAPPER_WRITE,
            });
        let kind = spec.kind.clone().or_else(|| {
            spec.kind_param
                .and_then(|i| call.type_args.get(i).cloned().flatten())
        });
        let namespace = match spec.namespace_arg.and_then(|i| call.args.get(i)) {
            Some(arg) => Namespace::Named(self.index().resolve_name(&arg.name)),
            None => Namespace::Unknown,
        };
        let object = match (spec.name_arg, spec.object_arg) {
            _ if spec.fixed_name.is_some() => ObjectName::One {
                name: NameExpr::Literal(spec.fixed_name.clone().unwrap_or_default()),
                text: format!("{:?}", spec.fixed_name.as_deref().unwrap_or_default()),
            },
            (Some(i), _) => wrapper_name(call.args.get(i), &[], |n| self.index().resolve_name(n)),
            (None, Some(i)) => wrapper_name(call.args.get(i), &["metadata", "name"], |n| {
                self.index().resolve_name(n)
            }),
            (None, None) => ObjectName::All,
        };
        // The `Api` passed: the request's kind and namespace are its own.
        let passed_handle = spec
            .api_arg
            .and_then(|i| call.args.get(i))
            .and_then(|a| a.handle.as_ref())
            .and_then(|h| self.index().resolve(h));
        let handle = match passed_handle {
            Some(h) => Handle {
                kind: kind.or(h.kind.clone()),
                ..h
            },
            None => Handle {
                kind,
                namespace,
                origin: None,
                kind_param: None,
            },
        };
        Request {
            span: raw.span,
            verb,
            handle,
            receiver: call
                .receiver
                .as_ref()
                .map(|r| r.text.clone())
                .unwrap_or_default(),
            object,
            via: spec
                .from_dependency
                .iter()
                .map(|_| spec.function.clone())
                .collect(),
            // A dependency's helper is not a file of the run.
            defined_at: match spec.from_dependency {
                Some(_) => None,
                None => self.shared.display(pos).map(|d| (d.clone(), raw.line)),
            },
            keyed_by: raw.keyed_by.clone(),
            in_channel_loop: raw.in_channel_loop,
            resolution: Resolution::Typed,
            may_create: true,
            cfg: raw.cfg.clone(),
            name_from_get: false,
            precondition: Precondition::None,
            controller: None,
        }
    }

    /// Every request a function makes, directly or through helpers, in its own terms.
    fn summary(&self, pos: usize, k: usize, depth: usize) -> Rc<Vec<Request>> {
        self.summary_as(pos, k, None, depth)
    }

    /// A function's summary; for a trait's provided method run for an implementor of a known
    /// type (`impl_type`), with its calls of methods on `self` resolved to that type's methods.
    fn summary_as(
        &self,
        pos: usize,
        k: usize,
        impl_type: Option<&str>,
        depth: usize,
    ) -> Rc<Vec<Request>> {
        let key = ((pos, k), impl_type.map(str::to_string));
        if let Some(s) = self.summaries.borrow().get(&key) {
            return s.clone();
        }
        // Recursion: a function being summarised contributes nothing more to itself.
        if !self.in_progress.borrow_mut().insert(key.clone()) {
            return Rc::new(Vec::new());
        }
        let facts = self.shared.facts(pos);
        let entries = self.shared.entries_of_function(pos, k);
        let requests: Vec<Request> = self.summarising(impl_type.map(str::to_string), || {
            entries
                .iter()
                .flat_map(|&i| {
                    let raw = &facts.requests[i];
                    match impl_type.and_then(|t| on_self_as(raw, t)) {
                        Some(typed) => self.resolve_entry(pos, &typed, depth),
                        None => self.resolve_entry(pos, raw, depth),
                    }
                })
                .collect()
        });
        self.in_progress.borrow_mut().remove(&key);
        let summary = Rc::new(requests);
        self.summaries.borrow_mut().insert(key, summary.clone());
        summary
    }

    /// `f` run with `impl_type` as the type a provided method being followed runs for (None:
    /// the function being followed is not one), restored after.
    fn summarising<R>(&self, impl_type: Option<String>, f: impl FnOnce() -> R) -> R {
        let saved = self.summarised_for.replace(impl_type);
        let out = f();
        self.summarised_for.replace(saved);
        out
    }

    /// The crate function a call refers to, when it can be told syntactically: the only
    /// function of the name that fits the call's shape, else the only one of the caller's file.
    /// Only functions compiled with the call count (see [`visible_from`]); test code prefers
    /// functions compiled for tests only (an in-memory impl of a trait in a `#[cfg(test)] mod`).
    /// The file's unpolled futures; a dropped call of a crate function only when its callee is
    /// lazy (an `async fn`, or [`FunctionFacts::lazy_future`]): a call of any other function
    /// has done its work when it returns.
    fn unpolled_of(&self, pos: usize) -> Vec<UnpolledFuture> {
        let facts = self.shared.facts(pos);
        let lazy = |entry: usize| {
            let raw = &facts.requests[entry];
            let RawKind::Helper(call) = &raw.kind else {
                return false;
            };
            // A method on a receiver of unknown type may be any library's (`v.clear()` on a
            // Vec): dropping its result says nothing unless the receiver's type is known.
            if by_name_only(call) && self.receiver_type(pos, call, 0).is_none() {
                return false;
            }
            self.resolve_callee(pos, raw, call)
                .is_some_and(|(cpos, k)| {
                    let callee = &self.shared.facts(cpos).functions[k];
                    callee.is_async || callee.lazy_future
                })
        };
        facts
            .unpolled
            .iter()
            .filter(|u| !u.lazy_callee || u.requests.iter().all(|&e| lazy(e)))
            .cloned()
            .collect()
    }

    fn resolve_callee(
        &self,
        caller: usize,
        raw: &RawRequest,
        call: &HelperCall,
    ) -> Option<FunctionRef> {
        self.resolve_callee_at(caller, &raw.cfg, call, 0)
    }

    fn resolve_callee_at(
        &self,
        caller: usize,
        cfg: &Cfg,
        call: &HelperCall,
        depth: usize,
    ) -> Option<FunctionRef> {
        pick(caller, &self.candidates(caller, cfg, call, depth))
    }

    /// The functions of the call's name that fit its shape and are compiled with it (see
    /// [`visible_from`]); in test code, the test-only ones when there are some.
    fn candidates(
        &self,
        caller: usize,
        cfg: &Cfg,
        call: &HelperCall,
        depth: usize,
    ) -> Rc<[FunctionRef]> {
        let typed = self.receiver_type(caller, call, depth);
        let Some((name, shape)) = CallShape::of(call, typed.as_deref()) else {
            return Rc::new([]);
        };
        let key = CandidatesKey {
            name: name.to_string(),
            shape: shape.key(),
            cfg: cfg.clone(),
        };
        if let Some(found) = self.candidates.borrow().get(&key) {
            return found.clone();
        }
        let found: Rc<[FunctionRef]> = self.scan_candidates(name, shape, cfg).into();
        self.candidates.borrow_mut().insert(key, found.clone());
        found
    }

    /// [`Linker::candidates`], found by scanning the functions that may fit.
    fn scan_candidates(&self, name: &str, shape: CallShape<'_>, cfg: &Cfg) -> Vec<FunctionRef> {
        let mut fits: Vec<FunctionRef> = Vec::new();
        for (p, k) in self.shared.overloads(name, shape) {
            let f = &self.shared.facts(p).functions[k];
            if self.fits(shape, f) && self.sees(p) && visible_from(cfg, f) {
                fits.push((p, k));
            }
        }
        self.with_provided_methods(name, shape, cfg, &mut fits);
        if fits.len() > 1 && cfg.is_test() {
            let tests: Vec<FunctionRef> = fits
                .iter()
                .copied()
                .filter(|&(p, k)| self.shared.facts(p).functions[k].cfg.is_test())
                .collect();
            if !tests.is_empty() {
                fits = tests;
            }
        }
        fits
    }

    /// The one function value the crate gives a field, with the file it is written in; None
    /// when it gives it several, or one this pass does not know.
    fn callback(&self, field: &str) -> Option<(usize, &'a CallbackTarget)> {
        let mut given = self.shared.callbacks_of(field);
        match (given.next(), given.next()) {
            (Some((apos, i)), None) => Some((apos, &self.shared.facts(apos).callbacks[i].target)),
            _ => None,
        }
    }

    /// The crate function a field holds (`on_change: Arc::new(handle)`), resolved where the
    /// field is given it.
    fn callback_function(&self, field: &str, cfg: &Cfg) -> Option<FunctionRef> {
        let (apos, CallbackTarget::Function(path)) = self.callback(field)? else {
            return None;
        };
        let call = HelperCall {
            callee: Callee::Path(path.clone()),
            text: path.join("::"),
            receiver: None,
            args: Vec::new(),
            type_args: Vec::new(),
        };
        // Any arity: the value is the function, not a call of it.
        let name = path.last()?;
        let fits: Vec<FunctionRef> = self
            .shared
            .functions_named(name.as_str())
            .filter(|&(p, k)| {
                let f = &self.shared.facts(p).functions[k];
                let arity = f.params.len() + usize::from(f.has_self);
                let shape = CallShape::of(&call, None).map(|(_, s)| s.with_arity(arity));
                shape.is_some_and(|s| self.fits(s, f)) && visible_from(cfg, f)
            })
            .collect();
        match fits.as_slice() {
            [one] => Some(*one),
            several => several
                .iter()
                .copied()
                .find(|(p, _)| *p == apos)
                .filter(|_| several.iter().filter(|(p, _)| *p == apos).count() == 1),
        }
    }

    /// The requests of the closure a field holds (`on_change: Arc::new(|o| ..)`), called with
    /// `call`'s arguments; None when the field holds no closure the crate gives it.
    fn closure_callback_requests(
        &self,
        pos: usize,
        raw: &RawRequest,
        call: &HelperCall,
        depth: usize,
    ) -> Option<Vec<Request>> {
        let Callee::Field(field) = &call.callee else {
            return None;
        };
        let (apos, CallbackTarget::Closure { span, params }) = self.callback(field)? else {
            return None;
        };
        let summary = self.closure_summary(apos, *span, depth + 1);
        let subst = Substitution::of_closure(self.index(), params, call);
        let resolution = Resolution::Typed;
        Some(
            summary
                .iter()
                .map(|r| self.at_call(pos, raw, subst.apply(r), field.clone(), resolution, depth))
                .collect(),
        )
    }

    /// The requests a closure's body makes, in its own terms.
    fn closure_summary(&self, pos: usize, span: Span, depth: usize) -> Rc<Vec<Request>> {
        let key = (pos, span.start, span.end);
        if let Some(s) = self.closure_summaries.borrow().get(&key) {
            return s.clone();
        }
        if !self.closures_in_progress.borrow_mut().insert(key) {
            return Rc::new(Vec::new());
        }
        let requests: Vec<Request> = self.summarising(None, || {
            self.shared
                .facts(pos)
                .requests
                .iter()
                .filter(|raw| span.contains(&raw.span))
                .flat_map(|raw| self.resolve_entry(pos, raw, depth))
                .collect()
        });
        self.closures_in_progress.borrow_mut().remove(&key);
        let summary = Rc::new(requests);
        self.closure_summaries
            .borrow_mut()
            .insert(key, summary.clone());
        summary
    }

    /// A callee's request, substituted, as made by the call `raw` (of file `pos`) through `via`.
    fn at_call(
        &self,
        pos: usize,
        raw: &RawRequest,
        mut r: Request,
        via: String,
        resolution: Resolution,
        depth: usize,
    ) -> Request {
        self.follow_returned_values(pos, &mut r, depth);
        r.span = raw.span;
        r.via.insert(0, via);
        // Keyed, in the caller, by what the call's arguments are computed from.
        r.keyed_by = raw.keyed_by.clone();
        r.in_channel_loop |= raw.in_channel_loop;
        r.resolution = r.resolution.min(resolution);
        // Made under the helper's `cfg` and the call's.
        r.cfg = raw.cfg.and(&r.cfg);
        if raw.controller.is_some() {
            r.controller = raw.controller.clone();
        }
        r
    }

    /// Trait's provided methods among the functions a method call may run: for a receiver of
    /// a known type without a method of the name, those of the crate traits it implements; for
    /// one of unknown type, those some implementor does not override (with the overrides).
    fn with_provided_methods(
        &self,
        name: &str,
        shape: CallShape<'_>,
        cfg: &Cfg,
        fits: &mut Vec<FunctionRef>,
    ) {
        let CallShape::Method { self_type, arity } = shape else {
            return;
        };
        let function = |&(p, k): &FunctionRef| &self.shared.facts(p).functions[k];
        let provided = |f: &FunctionFacts| f.provided && f.trait_name.is_some();
        match self_type {
            Some(ty) if fits.is_empty() => {
                fits.extend(self.shared.functions_named(name).filter(|r| {
                    let f = function(r);
                    provided(f)
                        && f.params.len() == arity
                        && visible_from(cfg, f)
                        && f.trait_name.as_deref().is_some_and(|t| {
                            self.index().has_trait(t) && self.index().implements(ty, t)
                        })
                }));
            }
            Some(_) => {}
            None => fits.retain(|r| {
                let f = function(r);
                !provided(f) || !self.overridden_everywhere(name, f)
            }),
        }
    }

    /// Every implementor of a provided method's trait overrides it: its default never runs.
    fn overridden_everywhere(&self, name: &str, provided: &FunctionFacts) -> bool {
        let Some(t) = provided.trait_name.as_deref() else {
            return false;
        };
        let implementors = self.index().implementors_of(t);
        let overrides = |ty: &&String| {
            self.shared
                .defines_trait_method(&(t.to_string(), ty.to_string(), name.to_string()))
        };
        !implementors.is_empty() && implementors.iter().all(overrides)
    }

    /// The functions a call may run: the one it resolves to, or one function per platform
    /// (`platform::cleanup` in a `#[cfg(unix)] mod platform` and a `#[cfg(windows)]` one),
    /// when every function that fits is under a `cfg` excluding the others'.
    fn callees(&self, caller: usize, raw: &RawRequest, call: &HelperCall) -> Vec<FunctionRef> {
        if let Callee::Field(field) = &call.callee {
            return self
                .callback_function(field, &raw.cfg)
                .into_iter()
                .collect();
        }
        let fits = self.candidates(caller, &raw.cfg, call, 0);
        let function = |&(p, k): &FunctionRef| &self.shared.facts(p).functions[k];
        let variants = fits.len() > 1
            && fits.iter().enumerate().all(|(i, a)| {
                fits[i + 1..]
                    .iter()
                    .all(|b| !function(a).cfg.can_coexist(&function(b).cfg))
            });
        if variants || self.dispatches_to_every_impl(call, &fits) {
            return fits.to_vec();
        }
        pick(caller, &fits).into_iter().collect()
    }

    /// A method call whose candidates are all impls of one trait the crate declares, for a
    /// receiver whose type is not known (`store: &S` with `S: Store`, `&dyn Store`): it may
    /// run any of them, so it makes the requests of each.
    fn dispatches_to_every_impl(&self, call: &HelperCall, fits: &[FunctionRef]) -> bool {
        if fits.len() < 2 || !matches!(call.callee, Callee::Method { .. }) {
            return false;
        }
        let trait_of =
            |&(p, k): &FunctionRef| self.shared.facts(p).functions[k].trait_name.as_deref();
        let Some(t) = trait_of(&fits[0]) else {
            return false;
        };
        self.index().has_trait(t) && fits.iter().all(|f| trait_of(f) == Some(t))
    }

    /// The type of a method call's receiver that the builder could not see: the declared return
    /// type of the crate function that returned it (an element of its tuple, an item of its
    /// collection). None when it is written (see [`Callee::Method`]) or not known.
    fn receiver_type(&self, pos: usize, call: &HelperCall, depth: usize) -> Option<String> {
        match &call.callee {
            Callee::Method {
                self_type: None,
                receiver_from: Some(returned),
                ..
            } => self.returned_type(pos, *returned, depth),
            _ => None,
        }
    }

    fn returned_type(&self, pos: usize, r: ReturnedType, depth: usize) -> Option<String> {
        // Entries name earlier entries of their file, so this ends; the bound keeps it short.
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        if let Some(t) = self.returned_types.borrow().get(&(pos, r)) {
            return t.clone();
        }
        let raw = self.shared.facts(pos).requests.get(r.entry);
        let call = match raw.map(|raw| &raw.kind) {
            Some(RawKind::Helper(call)) => Some(call),
            // `manager.watch()`: a request method's name, on a receiver that may not be an `Api`.
            Some(RawKind::Api(api)) if self.index().resolve(&api.source).is_none() => {
                api.as_method.as_ref()
            }
            _ => None,
        };
        let found = match call {
            Some(call) => self
                .resolve_callee_at(
                    pos,
                    &raw.map_or_else(Cfg::always, |r| r.cfg.clone()),
                    call,
                    depth + 1,
                )
                .map(|(cpos, k)| {
                    let shape = &self.shared.facts(cpos).functions[k].returns;
                    match (r.element, r.item) {
                        (None, false) => shape.name.clone(),
                        (Some(e), false) => shape.elements.get(e).cloned().flatten(),
                        (None, true) => shape.item.clone(),
                        (Some(_), true) => None,
                    }
                })
                .unwrap_or_else(|| {
                    foreign_constructor(call).filter(|_| {
                        r == ReturnedType {
                            element: None,
                            item: false,
                            ..r
                        }
                    })
                }),
            _ => None,
        };
        self.returned_types
            .borrow_mut()
            .insert((pos, r), found.clone());
        found
    }

    /// The identifiers a file must have for one of its calls to resolve to this function (see
    /// [`Name::with`]): empty when no call can (another function of the name fits every call
    /// shape that fits it), `[None]` when its name alone may do. Files not parsed yet can only
    /// add functions of the name, which makes calls more ambiguous, never less.
    fn callable_with(&self, pos: usize, k: usize) -> Vec<Option<&'a str>> {
        let f = &self.shared.facts(pos).functions[k];
        // `x.drop()` does not compile: `Drop::drop` is called by the compiler only.
        if f.entry_point || f.trait_name.as_deref() == Some("Drop") {
            return Vec::new();
        }
        // A provided method: any call of its name may run it (for an implementor that does not
        // override it, of whatever type), which a file written elsewhere cannot make ambiguous.
        if f.provided {
            return vec![None];
        }
        let path_arity = f.params.len() + usize::from(f.has_self);
        let self_type = f.self_type.as_deref();
        let mut shapes: Vec<(CallShape<'_>, Option<&'a str>)> =
            vec![(CallShape::Bare { arity: path_arity }, None)];
        if let Some(t) = self_type {
            shapes.push((
                CallShape::Qualified {
                    qualifier: t,
                    arity: path_arity,
                },
                Some(t),
            ));
        }
        if let Some(m) = f.module.last() {
            shapes.push((
                CallShape::Qualified {
                    qualifier: m,
                    arity: path_arity,
                },
                Some(m.as_str()),
            ));
        }
        if f.has_self {
            shapes.push((
                CallShape::Method {
                    self_type: None,
                    arity: f.params.len(),
                },
                None,
            ));
            if let Some(t) = self_type {
                shapes.push((
                    CallShape::Method {
                        self_type: Some(t),
                        arity: f.params.len(),
                    },
                    Some(t),
                ));
            }
        }
        let mut out: Vec<Option<&'a str>> = Vec::new();
        for (shape, with) in shapes {
            let unique = self.fits(shape, f)
                && self
                    .shared
                    .overloads(&f.name, shape)
                    .filter(|&(p, c)| {
                        let g = &self.shared.facts(p).functions[c];
                        if !self.sees(p) {
                            return false;
                        }
                        // The functions a call compiled with `f` can also mean (see
                        // `resolve_callee`): tests prefer test-only functions.
                        self.fits(shape, g)
                            && g.cfg.is_test() == f.cfg.is_test()
                            && g.cfg.can_coexist(&f.cfg)
                    })
                    // A second one is enough to know (a name can have thousands).
                    .take(2)
                    .count()
                    == 1;
            if unique && !out.contains(&with) {
                out.push(with);
            }
        }
        if out.contains(&None) {
            out = vec![None];
        }
        out
    }

    /// Could a call of this shape call `f`? A method of a trait declared elsewhere
    /// (`std::io::Read::read_to_end`) is not taken for a call whose receiver's type is unknown:
    /// every type implementing that trait, in the crate or not, has a method of that name.
    fn fits(&self, shape: CallShape<'_>, f: &FunctionFacts) -> bool {
        if let (
            CallShape::Method {
                self_type: None, ..
            },
            Some(t),
        ) = (shape, &f.trait_name)
        {
            if !self.index().has_trait(t) {
                return false;
            }
        }
        shape.fits(f)
    }
}

/// The crate function a call of these candidates refers to: the only one, else the only one of
/// the caller's file (several functions of that name elsewhere leave it unresolved).
fn pick(caller: usize, candidates: &[FunctionRef]) -> Option<FunctionRef> {
    match candidates {
        [] => None,
        [one] => Some(*one),
        several => {
            let mut local = several.iter().filter(|(p, _)| *p == caller);
            match (local.next(), local.next()) {
                (Some(one), None) => Some(*one),
                _ => None,
            }
        }
    }
}

/// A call of a method on `self` (`self.publish()`) in a provided method, as a call on a
/// receiver of type `impl_type`; None for other entries.
fn on_self_as(raw: &RawRequest, impl_type: &str) -> Option<RawRequest> {
    let RawKind::Helper(call) = &raw.kind else {
        return None;
    };
    let (
        Callee::Method {
            name,
            self_type: None,
            ..
        },
        Some(Argument {
            name:
                NameExpr::Path {
                    root: Root::SelfValue(None),
                    fields,
                },
            ..
        }),
    ) = (&call.callee, &call.receiver)
    else {
        return None;
    };
    if !fields.is_empty() {
        return None;
    }
    let mut typed = raw.clone();
    typed.kind = RawKind::Helper(HelperCall {
        callee: Callee::Method {
            name: name.clone(),
            self_type: Some(impl_type.to_string()),
            receiver_from: None,
        },
        ..call.clone()
    });
    Some(typed)
}

/// Whether code under `cfg` can call `f`: both are compiled together, and `f` is not compiled
/// for tests only unless the caller is (a fake impl under `#[cfg(test)]` does not hide the real
/// one from the code that ships).
fn visible_from(cfg: &Cfg, f: &FunctionFacts) -> bool {
    f.cfg.can_coexist(cfg) && (!f.cfg.is_test() || cfg.is_test())
}

/// The functions of a name that one kind of call can mean: a superset of those a
/// [`CallShape`] fits (see [`Overload::of_call`]), so that `fits` runs over few.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Overload<'c> {
    /// Functions outside `impl` blocks, by the arguments a path call gives (`self` counted).
    Free { name: &'c str, arity: usize },
    /// Functions of `impl Type` blocks: `Type::f(..)`, or `x.f(..)` with `x: Type`.
    Of { name: &'c str, self_type: &'c str },
    /// Methods, by their arguments besides `self`: `x.f(..)` on a receiver of unknown type.
    Method { name: &'c str, arity: usize },
}

impl<'c> Overload<'c> {
    fn of_function(f: &'c FunctionFacts) -> impl Iterator<Item = Overload<'c>> {
        let name = f.name.as_str();
        let owner = match f.self_type.as_deref() {
            Some(self_type) => Overload::Of { name, self_type },
            None => Overload::Free {
                name,
                arity: f.params.len() + usize::from(f.has_self),
            },
        };
        let method = f.has_self.then_some(Overload::Method {
            name,
            arity: f.params.len(),
        });
        std::iter::once(owner).chain(method)
    }

    fn of_call(name: &'c str, shape: CallShape<'c>) -> Overload<'c> {
        match shape {
            CallShape::Bare { arity } => Overload::Free { name, arity },
            CallShape::Qualified { qualifier, arity } => {
                if qualifier.starts_with(char::is_uppercase) {
                    Overload::Of {
                        name,
                        self_type: qualifier,
                    }
                } else {
                    Overload::Free { name, arity }
                }
            }
            CallShape::Method {
                self_type: Some(self_type),
                ..
            } => Overload::Of { name, self_type },
            CallShape::Method {
                self_type: None,
                arity,
            } => Overload::Method { name, arity },
        }
    }
}

/// How a call names the function it calls, for matching it against the crate's functions.
#[derive(Clone, Copy, Debug)]
enum CallShape<'c> {
    /// `f(..)`, `crate::f(..)`, `self::f(..)`.
    Bare { arity: usize },
    /// `module::f(..)`, or `Type::f(..)` when the qualifier starts with a capital.
    Qualified { qualifier: &'c str, arity: usize },
    /// `x.f(..)`, with the receiver's type when it is known.
    Method {
        self_type: Option<&'c str>,
        arity: usize,
    },
}

impl<'c> CallShape<'c> {
    /// The callee's name and the call's shape; `typed` is the receiver's type when the linker
    /// found it (see [`Linker::receiver_type`]).
    fn of(call: &'c HelperCall, typed: Option<&'c str>) -> Option<(&'c str, CallShape<'c>)> {
        match &call.callee {
            Callee::Path(segments) => {
                let (name, qualifiers) = segments.split_last()?;
                let arity = call.args.len();
                let shape = match qualifiers
                    .iter()
                    .rfind(|s| !matches!(s.as_str(), "crate" | "self" | "super"))
                {
                    Some(q) => CallShape::Qualified {
                        qualifier: q,
                        arity,
                    },
                    None => CallShape::Bare { arity },
                };
                Some((name, shape))
            }
            // A function value: which one is the field's (see `Linker::callback_target`).
            Callee::Field(_) => None,
            Callee::Method {
                name, self_type, ..
            } => Some((
                name,
                CallShape::Method {
                    self_type: self_type.as_deref().or(typed),
                    arity: call.args.len(),
                },
            )),
        }
    }

    fn key(&self) -> ShapeKey {
        match *self {
            CallShape::Bare { arity } => ShapeKey::Bare(arity),
            CallShape::Qualified { qualifier, arity } => {
                ShapeKey::Qualified(qualifier.to_string(), arity)
            }
            CallShape::Method { self_type, arity } => {
                ShapeKey::Method(self_type.map(str::to_string), arity)
            }
        }
    }

    /// The same shape with another number of arguments.
    fn with_arity(self, arity: usize) -> Self {
        match self {
            CallShape::Bare { .. } => CallShape::Bare { arity },
            CallShape::Qualified { qualifier, .. } => CallShape::Qualified { qualifier, arity },
            CallShape::Method { self_type, .. } => CallShape::Method { self_type, arity },
        }
    }

    /// Could a call of this shape call `f` (of the right name)?
    fn fits(&self, f: &FunctionFacts) -> bool {
        match *self {
            CallShape::Bare { arity } => {
                arity == f.params.len() + usize::from(f.has_self)
                    && f.self_type.is_none()
                    && !f.has_self
            }
            CallShape::Qualified { qualifier, arity } => {
                arity == f.params.len() + usize::from(f.has_self)
                    && if qualifier.starts_with(char::is_uppercase) {
                        f.self_type.as_deref() == Some(qualifier)
                    } else {
                        f.self_type.is_none()
                            && f.module.last().map(String::as_str) == Some(qualifier)
                    }
            }
            CallShape::Method { self_type, arity } => {
                f.has_self
                    && f.params.len() == arity
                    && (self_type.is_none() || f.self_type.as_deref() == self_type)
            }
        }
    }
}

/// Whether a call is one of a declared wrapper: the last segments must agree, and a qualified
/// call must fit the declared path.
fn wrapper_matches(spec: &WrapperSpec, call: &HelperCall) -> bool {
    let declared: Vec<&str> = spec.function.split("::").collect();
    let Some(last) = declared.last() else {
        return false;
    };
    // A dependency's method: only on a receiver written to be of its type.
    if let Some(of) = &spec.method_of {
        return matches!(&call.callee, Callee::Method { name, self_type: Some(t), .. }
            if name == last && t == of);
    }
    match &call.callee {
        Callee::Method { name, .. } => name == last,
        Callee::Field(_) => false,
        Callee::Path(segments) => {
            let called: Vec<&str> = segments.iter().map(String::as_str).collect();
            let n = called.len().min(declared.len());
            called[called.len() - n..] == declared[declared.len() - n..]
        }
    }
}

/// The object a wrapper's argument names: the argument itself, or a field of it (`metadata.name`
/// of an object argument). Unknown when the call has no such argument.
fn wrapper_name(
    arg: Option<&Argument>,
    fields: &[&str],
    resolve: impl Fn(&NameExpr) -> NameExpr,
) -> ObjectName {
    let Some(arg) = arg else {
        return ObjectName::One {
            name: NameExpr::Unknown,
            text: String::new(),
        };
    };
    let fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    let text = match fields.is_empty() {
        true => arg.text.clone(),
        false => format!("{}.{}", arg.text, fields.join(".")),
    };
    ObjectName::One {
        name: resolve(&extend(&arg.name, &fields)),
        text,
    }
}

/// "status::mark_terminating", "Context::update_status", "helper".
fn display_name(f: &FunctionFacts) -> String {
    if let (true, Some(t)) = (f.provided, &f.trait_name) {
        return format!("{t}::{}", f.name);
    }
    match (&f.self_type, f.module.last()) {
        (Some(t), _) => format!("{t}::{}", f.name),
        (None, Some(m)) => format!("{m}::{}", f.name),
        (None, None) => f.name.clone(),
    }
}

/// Callee parameters → caller arguments at one call site.
struct Substitution<'c> {
    index: IndexView<'c>,
    generics: &'c [String],
    type_args: &'c [Option<String>],
    params: HashMap<u64, &'c Argument>,
    receiver: Option<&'c Argument>,
    /// The callee's locals computed by a `let` (see [`NameExpr::Computed`]).
    computed: &'c [(u64, ComputedLocal)],
    /// How many more computed locals one name may still expand: locals that each read many
    /// others would otherwise make the expansion exponential in [`MAX_COMPUTED_DEPTH`].
    computed_budget: std::cell::Cell<usize>,
}

/// How many computed locals deep a name is followed (`let a = ..; let b = f(a);`).
const MAX_COMPUTED_DEPTH: usize = 6;

/// How many computed locals one name expands at most, in all.
const MAX_COMPUTED_LOCALS: usize = 32;

impl<'c> Substitution<'c> {
    fn new(index: IndexView<'c>, callee: &'c FunctionFacts, call: &'c HelperCall) -> Self {
        let mut args = call.args.iter();
        // `Type::method(recv, ..)` passes the receiver as the first argument.
        let receiver = match (&call.callee, callee.has_self) {
            (Callee::Method { .. }, _) => call.receiver.as_ref(),
            (Callee::Path(_) | Callee::Field(_), true) => args.next(),
            (Callee::Path(_) | Callee::Field(_), false) => None,
        };
        let params = callee
            .params
            .iter()
            .zip(args)
            .filter_map(|(p, a)| p.map(|id| (id, a)))
            .collect();
        Substitution {
            index,
            generics: &callee.generics,
            type_args: &call.type_args,
            params,
            receiver,
            computed: &callee.computed_locals,
            computed_budget: std::cell::Cell::new(0),
        }
    }

    /// A closure's parameters → the arguments of a call of it.
    fn of_closure(index: IndexView<'c>, params: &'c [Option<u64>], call: &'c HelperCall) -> Self {
        Substitution {
            index,
            generics: &[],
            type_args: &call.type_args,
            params: params
                .iter()
                .zip(&call.args)
                .filter_map(|(p, a)| p.map(|id| (id, a)))
                .collect(),
            receiver: None,
            computed: &[],
            computed_budget: std::cell::Cell::new(0),
        }
    }

    fn apply(&self, r: &Request) -> Request {
        let object = match &r.object {
            ObjectName::One { name, text } => ObjectName::One {
                name: self.name(name),
                text: self.text(name, text),
            },
            ObjectName::All => ObjectName::All,
        };
        Request {
            span: r.span,
            verb: r.verb,
            handle: self.handle(&r.handle),
            receiver: r.receiver.clone(),
            object,
            resolution: r.resolution,
            may_create: r.may_create,
            via: r.via.clone(),
            defined_at: r.defined_at.clone(),
            keyed_by: Vec::new(),
            in_channel_loop: r.in_channel_loop,
            cfg: r.cfg.clone(),
            name_from_get: r.name_from_get,
            // A body given by a parameter is what the caller passes for it.
            precondition: match r.precondition {
                Precondition::Param(param) => self
                    .params
                    .get(&param)
                    .map_or(Precondition::None, |a| a.precondition),
                p => p,
            },
            controller: r.controller.clone(),
        }
    }

    fn argument_of(&self, root: &Root) -> Option<&'c Argument> {
        match root {
            Root::Binding(id) => self.params.get(id).copied(),
            Root::SelfValue(_) => self.receiver,
            Root::Const(_) | Root::Reconciled(_) => None,
        }
    }

    /// A callee name in the caller's terms; the callee's own locals become unknown (two calls of
    /// one helper do not share them).
    fn name(&self, name: &NameExpr) -> NameExpr {
        self.computed_budget.set(MAX_COMPUTED_LOCALS);
        self.name_within(name, 0)
    }

    fn name_within(&self, name: &NameExpr, depth: usize) -> NameExpr {
        match name {
            NameExpr::Path {
                root: root @ (Root::Binding(_) | Root::SelfValue(_)),
                fields,
            } => match self.argument_of(root) {
                Some(arg) => extend(&arg.name, fields),
                None => self.computed_name(root, fields, depth),
            },
            NameExpr::Computed {
                how,
                inputs,
                fields,
            } => NameExpr::computed(
                *how,
                inputs.iter().map(|i| self.name_within(i, depth)).collect(),
                fields.to_vec(),
            ),
            // The template's parts in the caller's terms (the callee's own locals unknown).
            NameExpr::Format { pieces, parts } => NameExpr::format(
                pieces.to_vec(),
                parts.iter().map(|p| self.name_within(p, depth)).collect(),
            ),
            other => other.clone(),
        }
    }

    /// A name rooted at a local the callee computed: computed, for the caller, from what the
    /// inputs of that computation are in the caller's terms.
    fn computed_name(&self, root: &Root, fields: &[String], depth: usize) -> NameExpr {
        let Root::Binding(id) = root else {
            return NameExpr::Unknown;
        };
        let Some((_, local)) = self.computed.iter().find(|(b, _)| b == id) else {
            return NameExpr::Unknown;
        };
        let budget = self.computed_budget.get();
        if depth >= MAX_COMPUTED_DEPTH || local.inputs.is_empty() || budget == 0 {
            return NameExpr::Unknown;
        }
        self.computed_budget.set(budget - 1);
        let inputs = local
            .inputs
            .iter()
            .map(|&input| {
                let place = NameExpr::Path {
                    root: Root::Binding(input),
                    fields: Vec::new(),
                };
                self.name_within(&place, depth + 1)
            })
            .collect();
        NameExpr::computed(local.how, inputs, fields.to_vec())
    }

    /// The name's text in the caller's terms. A name computed from the callee's own locals has
    /// no meaning at the call site: it is left out (the description then names only the kind).
    fn text(&self, name: &NameExpr, text: &str) -> String {
        match name {
            NameExpr::Path { root, fields } => match self.argument_of(root) {
                Some(arg) if fields.is_empty() => arg.text.clone(),
                Some(arg) => format!("{}.{}", arg.text, fields.join(".")),
                None if matches!(root, Root::Const(_) | Root::Reconciled(_)) => text.to_string(),
                None => String::new(),
            },
            NameExpr::Literal(_) => text.to_string(),
            NameExpr::Format { .. } | NameExpr::Computed { .. } | NameExpr::Unknown => {
                String::new()
            }
        }
    }

    fn handle(&self, h: &Handle) -> Handle {
        let namespace = match &h.namespace {
            Namespace::Named(n) => Namespace::Named(self.name(n)),
            other => other.clone(),
        };
        // A generic helper's kind comes from the caller: a turbofish, or the handle it passes.
        let kind = h.kind.clone().or_else(|| {
            let param = h.kind_param.as_ref()?;
            let i = self.generics.iter().position(|g| g == param)?;
            self.type_args.get(i).cloned().flatten()
        });
        let origin = match &h.origin {
            Some(HandleOrigin::Binding(id)) => {
                if let Some(arg) = self.params.get(id) {
                    if let Some(resolved) = arg.handle.as_ref().and_then(|s| self.index.resolve(s))
                    {
                        return Handle {
                            kind: kind.or(resolved.kind.clone()),
                            ..resolved
                        };
                    }
                    // A handle the caller holds in a binding of unknown value: still that value.
                    let origin = match &arg.name {
                        NameExpr::Path {
                            root: Root::Binding(b),
                            fields,
                        } if fields.is_empty() => Some(HandleOrigin::Binding(*b)),
                        _ => None,
                    };
                    return Handle {
                        kind,
                        namespace,
                        origin,
                        kind_param: None,
                    };
                }
                // A handle the callee made itself, from what it was given.
                self.computed_budget.set(MAX_COMPUTED_LOCALS);
                match self.computed_name(&Root::Binding(*id), &[], 0) {
                    computed @ NameExpr::Computed { .. } => Some(HandleOrigin::Computed(computed)),
                    _ => None,
                }
            }
            Some(HandleOrigin::Computed(c)) => match self.name(c) {
                computed @ NameExpr::Computed { .. } => Some(HandleOrigin::Computed(computed)),
                _ => None,
            },
            Some(HandleOrigin::Place(place)) => match (place.strip_prefix("self"), self.receiver) {
                (Some(rest), Some(recv)) => {
                    Some(HandleOrigin::Place(format!("{}{rest}", recv.text)))
                }
                _ => None,
            },
            None => None,
        };
        Handle {
            kind,
            namespace,
            origin,
            kind_param: None,
        }
    }
}

/// `arg` followed by `fields`: a place when `arg` is one.
fn extend(arg: &NameExpr, fields: &[String]) -> NameExpr {
    if fields.is_empty() {
        return arg.clone();
    }
    match arg {
        NameExpr::Path { root, fields: f0 } => {
            let mut all = f0.clone();
            all.extend(fields.iter().cloned());
            NameExpr::Path {
                root: root.clone(),
                fields: all,
            }
        }
        _ => NameExpr::Unknown,
    }
}

/// Link one file on its own (tests, `check_text`, `debug model`).
pub fn link_single(file: FileId, facts: &FileFacts, display: &str) -> FileModel {
    let displays = HashMap::from([(file, display.to_string())]);
    Linker::new(vec![(file, facts)], displays, &[]).link(file)
}

/// A controller's call of its reconcile, with the object it hands it: one of the reconcile's
/// kind (see [`Root::Reconciled`]). Messages describe it by that root, not by a text.
fn handed_reconciled_object(call: &HelperCall, reconcile: &FunctionFacts) -> HelperCall {
    // A generic reconcile (`Arc<K>`) run for the one kind its turbofish names.
    let kind = reconcile.reconciled_kind.clone().or_else(|| {
        match (reconcile.generics.as_slice(), call.type_args.as_slice()) {
            ([_], [Some(kind)]) if reconcile.reconciler => Some(kind.clone()),
            _ => None,
        }
    });
    let mut call = call.clone();
    if let Some(object) = call.args.first_mut() {
        object.name = NameExpr::Path {
            root: Root::Reconciled(kind),
            fields: Vec::new(),
        };
    }
    call
}
