//! Lint-agnostic facts about kube requests and concurrency, built by one syntax pass per file
//! ([`build`]) and linked across the crate ([`link`]). Lints read only this model.

pub mod build;
pub mod cfg;
pub mod debug;
pub mod identity;
pub mod known;
pub mod link;
pub mod object_index;
pub mod order;
pub mod reconciles;
pub mod scopes;
pub mod sites;
pub mod stats;
pub mod units;
pub mod verbs;
pub mod wrappers;

use crate::source::Span;
pub use cfg::Cfg;
pub use identity::{
    Computation, Confidence, Handle, HandleOrigin, NameExpr, Namespace, Root, Sameness,
};
pub use order::{Order, Point};
pub use verbs::{Access, Target, Verb};

/// How the receiver of a request call was obtained; resolved to a [`Handle`] by [`link`], which
/// drops calls whose receiver turns out not to be a kube `Api` (`HashMap::get`, `reqwest`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandleSource {
    /// The type is visible locally (`let pods: Api<Pod>`, `Api::<Pod>::namespaced(..)`, a
    /// parameter typed `&Api<Pod>`).
    Known(Handle),
    /// A field (`self.pods`, `ctx.api`): an `Api` when some struct of the crate declares a field of
    /// that name with type `Api<K>`.
    Field {
        field: String,
        origin: Option<HandleOrigin>,
    },
    /// The value returned by a function or method of the crate (`fn pods(&self) -> Api<Pod>`).
    Returned {
        name: String,
        origin: Option<HandleOrigin>,
        /// The one type a turbofish gives the call (`ctx.api::<Job>()`): the kind, when every
        /// function of the name returns `Api<K>` of a generic `K`.
        kind_arg: Option<String>,
    },
    /// A value of a type that may be the crate's alias of `Api<K>`
    /// (`type Leases = kube_client::Api<Lease>;`, `leases: Leases`).
    Aliased {
        alias: String,
        origin: Option<HandleOrigin>,
    },
}

/// Something in a function body that may issue kube requests when its future is polled: a
/// request method call on something that may be an `Api` handle, or a call of a function or
/// method of the crate (resolved against the crate's summaries by [`link`]).
#[derive(Clone, Debug)]
pub struct RawRequest {
    /// The whole call expression, `pods.get("blog")` or `status::mark(&pods, name)`.
    pub span: Span,
    /// 1-based line of `span.start`, kept so that other files can cite it without this file's text.
    pub line: usize,
    /// Index into [`FileFacts::functions`] of the enclosing function, if any.
    pub function: Option<usize>,
    pub kind: RawKind,
    /// Bindings of closure parameters or loop patterns that the object's name or namespace (for
    /// a helper call: any argument) is computed from (`|n| api.delete(n, &dp)` is keyed by `n`).
    pub keyed_by: Vec<u64>,
    /// The function, closure or `async` block the call is in (see [`BoundFuture::body`];
    /// [`FileFacts::bodies`] says what it is).
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
    /// Made in the body of a loop, in the same function, closure or `async` block, that drains a
    /// channel receiver (`while let Some(m) = rx.recv().await { .. }`): one message at a time.
    pub in_channel_loop: bool,
    /// The `cfg` the call is compiled under (see [`cfg`]).
    pub cfg: Cfg,
    /// A controller's `run(reconcile, ..)`: the entry is a call of its reconcile, made for every
    /// object the controller watches (boxed: rare, and every file's entries are kept for the
    /// whole run).
    pub controller: Option<Box<ControllerRun>>,
}

// Helper calls are the common variant: boxing them would cost an allocation for most entries.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum RawKind {
    /// `recv.get(..)`, `recv.patch(..)`, … (boxed: helper calls are far more common, and every
    /// file's raw requests are kept for the whole run).
    Api(Box<ApiCall>),
    /// `helper(&pods, name)`, `self.update_status(..)`: requests made inside the callee.
    Helper(HelperCall),
}

#[derive(Clone, Debug)]
pub struct ApiCall {
    pub verb: &'static Verb,
    pub source: HandleSource,
    /// Source text of the receiver, for messages (`pods`, `self.api`).
    pub receiver: String,
    pub object: ObjectName,
    /// See [`Request::may_create`].
    pub may_create: bool,
    /// See [`Request::name_from_get`].
    pub name_from_get: bool,
    /// See [`Request::precondition`].
    pub precondition: Precondition,
    /// The same call as a call of a method of the crate, for when the receiver turns out not
    /// to be an `Api` (`manager.watch()`, `store.get(key)`).
    pub as_method: Option<HelperCall>,
}

/// A call of something that may be a function or method of the crate.
#[derive(Clone, Debug)]
pub struct HelperCall {
    pub callee: Callee,
    /// As written, for messages: `status::mark_terminating`, `self.update_status`.
    pub text: String,
    /// The receiver of a method call, as an argument.
    pub receiver: Option<Argument>,
    pub args: Vec<Argument>,
    /// Kinds given by turbofish (`helper::<Pod>(..)`), in order; None where not a plain type.
    pub type_args: Vec<Option<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// `f(..)`, `module::f(..)`, `Type::f(..)`.
    Path(Vec<String>),
    /// `recv.f(..)`; `self_type` is the receiver's type when it is written (`self` in an
    /// `impl`, an annotated binding or parameter, a struct literal, `T::new(..)`), else
    /// `receiver_from` may say which call returned the receiver (typed by [`link`]).
    Method {
        name: String,
        self_type: Option<String>,
        receiver_from: Option<ReturnedType>,
    },
    /// `(self.on_change)(..)`: the function value a field holds (see [`Callback`]).
    Field(String),
}

/// A function value stored in a field (`on_change: Arc::new(handle)`, a closure), where the
/// field is given it: a call of the field runs it when the crate gives the field one value.
#[derive(Clone, Debug)]
pub struct Callback {
    pub field: String,
    pub target: CallbackTarget,
}

#[derive(Clone, Debug)]
pub enum CallbackTarget {
    /// A function of the crate, by path (`handle`, `events::on_change`).
    Function(Vec<String>),
    /// A closure written here: its span (the requests inside run when it is called) and the
    /// binding of each parameter that is a plain identifier.
    Closure {
        span: Span,
        params: Vec<Option<u64>>,
    },
    /// Something else (a parameter, a call's result): what runs is not known.
    Opaque,
}

/// A value returned by a call of the same file (an index into [`FileFacts::requests`]): the
/// whole value, one element of the tuple it is, or an item of the collection it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReturnedType {
    pub entry: usize,
    pub element: Option<usize>,
    pub item: bool,
}

/// A type as far as method resolution needs it: its name (through references, smart pointers,
/// `Result`, `Option` and futures), the names of a tuple's elements, and the item type of a
/// collection (`Vec<T>`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeShape {
    pub name: Option<String>,
    pub elements: Vec<Option<String>>,
    pub item: Option<String>,
}

/// What the caller passes: possibly a handle, possibly a name.
#[derive(Clone, Debug)]
pub struct Argument {
    /// Boxed: most arguments are not handles, and every argument of every call is kept.
    pub handle: Option<Box<HandleSource>>,
    pub name: NameExpr,
    pub text: String,
    /// Read as a write's body: what the callee's write guarded by this parameter carries.
    pub precondition: Precondition,
}

/// Whether a write's body carries the `resourceVersion` the code read (optimistic concurrency):
/// landing after another write of the object changed it, the write fails with 409 Conflict
/// instead of silently overwriting it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precondition {
    /// No `metadata.resourceVersion` is seen in the body (or the body is not known).
    #[default]
    None,
    /// `json!({"metadata": {"resourceVersion": v}})`, `ObjectMeta { resource_version: Some(v),
    /// .. }`, possibly in a `Patch::Merge`/`Strategic`/`Apply`.
    ResourceVersion,
    /// The body is this parameter of the function the request is made in: guarded when every
    /// caller's argument is (resolved by [`link`]; only summaries keep it).
    Param(u64),
}

/// A function or method body of the file.
#[derive(Clone, Debug)]
pub struct FunctionFacts {
    pub name: String,
    /// The `impl` type for methods (last path segment).
    pub self_type: Option<String>,
    /// Module path of the function, from the file path and inline modules (`status`, `a::b`).
    pub module: Vec<String>,
    pub has_self: bool,
    /// The binding id of each positional parameter that is a plain identifier.
    pub params: Vec<Option<u64>>,
    /// Type parameter names, for turbofish substitution of generic kinds.
    pub generics: Vec<String>,
    pub line: usize,
    /// Declared `async fn`.
    pub is_async: bool,
    /// What it returns (what its future gives, for an `async fn`); `Self` is the `impl` type.
    pub returns: TypeShape,
    /// The id of its body (see [`BoundFuture::body`]).
    pub body: u32,
    /// The trait of the `impl` block it is in (`Drop` for `impl Drop for Guard`), last segment.
    pub trait_name: Option<String>,
    /// It asks whether a runtime is running, or leaves it (`Handle::try_current()`,
    /// `block_in_place`): its blocking calls are made knowing where they run.
    pub checks_runtime: bool,
    /// A test, benchmark or `main`: run by the harness, not called by name (see
    /// [`is_entry_point`]).
    pub entry_point: bool,
    /// The `cfg` it is compiled under: its own, its `impl`'s, its modules' (see [`cfg`]).
    pub cfg: Cfg,
    /// It has a kube-runtime reconciler's signature (`async fn(Arc<K>, Arc<Ctx>) ->
    /// Result<Action, E>`): the controller calls it again for the same object, while what it
    /// left running may still write.
    pub reconciler: bool,
    /// For a reconcile, the kind of the objects it is handed (`K` of `Arc<K>`), when written.
    pub reconciled_kind: Option<String>,
    /// Locals bound by `let` from an initialiser, with the bindings it reads: a caller sees a
    /// name rooted at one as computed from its own arguments (see [`NameExpr::Computed`]).
    pub computed_locals: Vec<(u64, ComputedLocal)>,
    /// Struct literals it writes (`Worker { pod: name.to_string(), .. }`): the type (last
    /// segment) and the names of its fields, in the function's terms. When it returns that
    /// type, a caller's binding of the result has those fields (see [`FileFacts::returned_values`]).
    pub struct_literals: Vec<(String, Vec<(String, NameExpr)>)>,
    /// The name its tail expression gives, in its own terms (`format!("{app}-lease")` of
    /// `fn lease_name(app: &str) -> String`): a caller's name built by calling it is that
    /// template with the caller's arguments (see [`FileFacts::returned_values`]).
    pub returned_name: Option<NameExpr>,
    /// A trait's provided method (its default body): `trait_name` is that trait, and it runs
    /// for the implementors that do not override it, with `self` of the implementor's type.
    pub provided: bool,
    /// Callable from outside the crate (`pub`, or a trait's method): its callers are not all
    /// known.
    pub exported: bool,
    /// Not an `async fn`, but returns a future that sends nothing until polled (`-> impl
    /// Future`, `BoxFuture`, `Pin<Box<dyn Future>>` with an `async` block as its tail and every
    /// request inside it): as lazy as an `async fn`.
    pub lazy_future: bool,
}

/// A local computed by a `let`: where, and from which bindings (parameters, other locals).
#[derive(Clone, Debug)]
pub struct ComputedLocal {
    pub how: Computation,
    pub inputs: Vec<u64>,
}

impl FunctionFacts {
    /// Whether every call of the function computes the request's object alike: its name is a
    /// literal, a constant, or a place reached from the parameters (the reconciled object, the
    /// context). A name from a `format!` or a call may differ per call. Namespaces are few and
    /// shared, and a call's namespace is taken to be its object's (see [`Namespace::compare`]).
    pub fn computes_alike_in_every_run(&self, request: &Request) -> bool {
        let from_params = |name: &NameExpr| match name {
            NameExpr::Literal(_) => true,
            NameExpr::Path { root, .. } => match root {
                Root::Binding(b) => self.params.contains(&Some(*b)),
                Root::SelfValue(_) => self.has_self,
                Root::Const(_) => true,
                Root::Reconciled(_) => false,
            },
            NameExpr::Format { .. } | NameExpr::Computed { .. } | NameExpr::Unknown => false,
        };
        match &request.object {
            ObjectName::One { name, .. } => from_params(name),
            ObjectName::All => true,
        }
    }
}

/// Functions that the test harness or the runtime calls, never other code: `#[test]`,
/// `#[tokio::test]`, `#[bench]`, `#[rstest]`, `#[test_case(..)]`, and `fn main`.
pub fn is_entry_point(name: &str, attrs: &[syn::Attribute]) -> bool {
    name == "main"
        || attrs.iter().any(|a| {
            a.path().segments.last().is_some_and(|s| {
                matches!(
                    s.ident.to_string().as_str(),
                    "test" | "bench" | "rstest" | "test_case" | "main"
                )
            })
        })
}

/// A request whose receiver is known to be a kube `Api`.
#[derive(Clone, Debug)]
pub struct Request {
    /// Where to point in this file: the request call, or the outermost helper call leading to it.
    pub span: Span,
    pub verb: &'static Verb,
    pub handle: Handle,
    pub receiver: String,
    pub object: ObjectName,
    /// The helper calls through which this request is made, outermost first
    /// (`status::mark_terminating`), empty for a direct request.
    pub via: Vec<String>,
    /// For requests made inside helpers: where the request call is (display path, line).
    pub defined_at: Option<(String, usize)>,
    /// See [`RawRequest::keyed_by`].
    pub keyed_by: Vec<u64>,
    /// Made one message at a time by a loop draining a channel, here or in a helper on the way
    /// (see [`RawRequest::in_channel_loop`]).
    pub in_channel_loop: bool,
    /// How surely the helper calls on the way are the functions that make it.
    pub resolution: Resolution,
    /// It can bring the object into existence: a create, a server-side apply patch
    /// (`Patch::Apply` written at the call), or a declared wrapper.
    pub may_create: bool,
    /// The `cfg` it is made under: the call's here and those of the helpers on the way.
    pub cfg: Cfg,
    /// A create whose object is built elsewhere (`api.create(&pp, &template())`), named after
    /// the `get` of the same handle before it in the function: the get-or-create idiom creates
    /// the object it did not find. Evidence, not proof: its findings are at most `possible`.
    pub name_from_get: bool,
    /// What its body carries; after linking, `Param` is resolved through the callers (see
    /// [`Request::is_guarded`]).
    pub precondition: Precondition,
    /// Made by the reconcile of this controller, for each object it watches. Such requests meet
    /// only those of another controller: within one controller, kube never runs two reconciles
    /// of one object at once, and a controller's stream is not a request future to await, drop
    /// or cancel (boxed: rare, and summaries hold many requests).
    pub controller: Option<Box<ControllerRun>>,
}

/// A kube-runtime controller run: `Controller::new(docs, cfg).run(reconcile, error_policy, ctx)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerRun {
    /// The `run` call, which tells one controller from another.
    pub span: Span,
    /// 1-based line of the `run` call, for messages in other files.
    pub line: usize,
    /// The reconcile as written (`reconcile_docs`).
    pub reconcile: String,
    /// How many reconciles of different objects it runs at once.
    pub concurrency: Concurrency,
}

/// How many reconciles a controller runs at once (`controller::Config::concurrency`): kube runs
/// those of different objects concurrently, without a limit by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Concurrency {
    /// No `with_config` in the builder chain, or a `Config` written there with a limit other
    /// than one (kube's default, 0, is no limit).
    Many,
    /// `.with_config(Config::default().concurrency(1))`: one reconcile at a time.
    One,
    /// A `Config` the chain is given from elsewhere (a binding, a call): its limit is not seen.
    NotVisible,
}

/// How the calls leading to a request were resolved: by the receiver's type, or by the method's
/// name alone (the receiver's type is not known). A name alone proves nothing, and a name that
/// common library types also have (`changed`, `run`) is no evidence at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resolution {
    AmbiguousName,
    ByName,
    Typed,
}

impl Resolution {
    /// The highest confidence a finding resting on this request can have.
    pub fn cap(self) -> Confidence {
        match self {
            Resolution::AmbiguousName => Confidence::Unknown,
            Resolution::ByName => Confidence::Possible,
            Resolution::Typed => Confidence::Definite,
        }
    }
}

/// Which object of its collection a request touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectName {
    /// One object, with its name expression and the source text of that expression.
    One { name: NameExpr, text: String },
    /// Every object of the collection (`list`, `watch`, `delete_collection`).
    All,
}

impl Request {
    /// May these two requests touch the same object? None when provably not.
    /// Requests that are never compiled together (`cfg(unix)` and `cfg(windows)`) never are.
    pub fn same_object(&self, other: &Request) -> Option<Confidence> {
        if !self.can_coexist(other) {
            return None;
        }
        match (&self.controller, &other.controller) {
            (None, None) => {}
            (Some(a), Some(b)) if a.span != b.span => {}
            _ => return None,
        }
        let handle = self.handle.compare(&other.handle);
        let name = match (&self.object, &other.object) {
            (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) => a.compare(b),
            // A list or watch does not touch one object; it sees some state of all of them,
            // this one included when the collection is the same.
            _ => Sameness::Related,
        };
        let mut confidence = handle.and(name).confidence()?;
        if self.name_from_get || other.name_from_get {
            confidence = confidence.min(Confidence::Possible);
        }
        // A callee found by its name alone may not be the one called.
        Some(
            confidence
                .min(self.resolution.cap())
                .min(other.resolution.cap()),
        )
    }

    /// [`Request::same_object`] for two requests made at once by one concurrency site, with
    /// the create-then-read-back idiom as evidence (see [`Request::reads_back_create`]).
    pub fn same_object_at_once(&self, other: &Request) -> Option<Confidence> {
        let confidence = self.same_object(other)?;
        if confidence == Confidence::Unknown && self.reads_back_create(other) {
            return Some(
                Confidence::Possible
                    .min(self.resolution.cap())
                    .min(other.resolution.cap()),
            );
        }
        Some(confidence)
    }

    /// One of the two creates an object whose name the tool cannot tell apart from the name
    /// the other request uses, and both go through one handle (the same kind and namespace):
    /// `join!(pods.create(&pp, &pod), pods.get("blog"))`. That is the create-then-read-back
    /// idiom; creating one object while reading or writing an unrelated one of the same kind
    /// at the same moment is rare. Evidence, not proof. Two creates (a fan-out) or a create
    /// with a `list` are not it.
    pub fn reads_back_create(&self, other: &Request) -> bool {
        let creates = |r: &Request| matches!(r.verb.target, verbs::Target::DataArg(_));
        let (create, by_name) = match (creates(self), creates(other)) {
            (true, false) => (self, other),
            (false, true) => (other, self),
            _ => return false,
        };
        let named = |r: &Request| {
            matches!(r.object, ObjectName::One { .. })
                && matches!(r.verb.target, verbs::Target::NameArg(_))
                && !verbs::is_event(r.verb)
        };
        create.controller.is_none()
            && by_name.controller.is_none()
            && named(by_name)
            && !verbs::is_event(create.verb)
            && create.handle.compare(&by_name.handle) == Sameness::Same
    }

    /// Whether this request publishes an Event about the object `other` writes: the Event's
    /// reference and the object's name come from the same place (`pod.object_ref(..)` and
    /// `pod.name_any()`). The reference's kind is not compared: at most `possible`.
    pub fn event_about(&self, other: &Request) -> Option<Confidence> {
        if !verbs::is_event(self.verb) || verbs::is_event(other.verb) || !other.is_write() {
            return None;
        }
        if !self.can_coexist(other) || self.is_controllers() != other.is_controllers() {
            return None;
        }
        let (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) =
            (&self.object, &other.object)
        else {
            return None;
        };
        match a.compare(b) {
            Sameness::Same | Sameness::Related => Some(
                Confidence::Possible
                    .min(self.resolution.cap())
                    .min(other.resolution.cap()),
            ),
            Sameness::Maybe | Sameness::Different => None,
        }
    }

    /// Can both requests be compiled into one program (see [`Cfg::can_coexist`])?
    pub fn can_coexist(&self, other: &Request) -> bool {
        self.cfg.can_coexist(&other.cfg)
    }

    /// The request as made by a call of its closure: parameters replaced by the arguments.
    pub fn with_arguments(&self, arguments: &[ClosureArgument]) -> Request {
        let mut r = self.clone();
        for arg in arguments {
            if !r.keyed_by.contains(&arg.param) {
                continue;
            }
            if let ObjectName::One { name, .. } = &mut r.object {
                *name = name.substitute(arg.param, &arg.name);
            }
            if let Namespace::Named(ns) = &mut r.handle.namespace {
                *ns = ns.substitute(arg.param, &arg.name);
            }
            r.keyed_by.retain(|k| *k != arg.param);
            r.keyed_by.extend(arg.keyed_by.iter().copied());
        }
        r
    }

    /// A write whose body carries a `resourceVersion` precondition, written at the call or
    /// passed by every caller: if it lands late, it fails with 409 Conflict and the caller finds
    /// out (see [`Precondition`]).
    pub fn is_guarded(&self) -> bool {
        self.precondition == Precondition::ResourceVersion
    }

    pub fn is_write(&self) -> bool {
        self.verb.access == Access::Write
    }

    /// Made by a controller's reconciles (see [`Request::controller`]): not a request of a
    /// future that can be awaited, dropped or cancelled like one.
    pub fn is_controllers(&self) -> bool {
        self.controller.is_some()
    }

    /// "Pod \"blog\"", "Pod `name`", "Pods", "object `name`".
    pub fn object_description(&self) -> String {
        let kind = self.handle.kind_or_object();
        // An Event is identified by the object it is about (and the reason): "Event about `r`".
        if verbs::is_event(self.verb) {
            return match &self.object {
                ObjectName::One { text, .. } if !text.is_empty() => {
                    format!("Event about `{text}`")
                }
                _ => "Event".to_string(),
            };
        }
        match &self.object {
            ObjectName::One {
                name: NameExpr::Literal(s),
                ..
            } => format!("{kind} {s:?}"),
            ObjectName::One {
                name:
                    NameExpr::Path {
                        root: Root::Reconciled(_),
                        fields,
                    },
                ..
            } => match fields.as_slice() {
                [m, n] if m == "metadata" && n == "name" => format!("each {kind} reconciled"),
                _ => format!("{kind} `{}` of each object reconciled", fields.join(".")),
            },
            ObjectName::One { text, .. } if !text.is_empty() => format!("{kind} `{text}`"),
            ObjectName::One { .. } => kind.to_string(),
            ObjectName::All => match &self.handle.kind {
                Some(k) => format!("every {k}"),
                None => "every object".to_string(),
            },
        }
    }

    /// The note of a finding short of proof: which two objects the tool cannot tell apart,
    /// named so that they can be told apart ("Lease through `self.leases` and Lease through
    /// `api`", not "Lease and Lease"), and why when it knows.
    pub fn unproved_note(&self, other: &Request) -> String {
        if self.same_object(other) == Some(Confidence::Unknown) && self.reads_back_create(other) {
            let by_name = if matches!(self.verb.target, verbs::Target::DataArg(_)) {
                other
            } else {
                self
            };
            return format!(
                "taken to be one object: a create and a {} by name through the same handle `{}` (same kind and namespace), made at once, is the create-then-read-back idiom; the tool cannot see whether the created body is {}",
                by_name.verb.noun,
                by_name.receiver,
                by_name.object_description()
            );
        }
        if let Some(create) = [self, other].into_iter().find(|r| r.name_from_get) {
            return format!(
                "the object of the create is built elsewhere: it is taken to be {}, which the get before it looks for (get-or-create), not proved",
                create.object_description()
            );
        }
        if let (
            ObjectName::One {
                name: a @ NameExpr::Computed { .. },
                ..
            },
            ObjectName::One { name: b, .. },
        ) = (&self.object, &other.object)
        {
            if a.compare(b) == Sameness::Related {
                return format!(
                    "both names are computed by the same code from the same arguments{}: likely one object, but the tool cannot prove that the computation gives the same name twice",
                    match self.via.first() {
                        Some(f) => format!(" (in `{f}`)"),
                        None => String::new(),
                    }
                );
            }
        }
        let (a, b) = (self.object_description(), other.object_description());
        let (a, b) = if a == b {
            (
                format!("{a} through `{}`", self.receiver),
                format!("{b} through `{}`", other.receiver),
            )
        } else {
            (a, b)
        };
        let why = match self.same_object(other) {
            Some(Confidence::Unknown) => {
                " (nothing relates them either: shown because of `--min-confidence unknown`)"
            }
            _ => "",
        };
        if a == b {
            format!(
                "the tool cannot prove that the two requests on {a} touch different objects{why}"
            )
        } else {
            format!("the tool cannot prove that {a} and {b} are different objects{why}")
        }
    }

    /// "creates Pod \"blog\"", for labels; through helpers:
    /// "`status::mark` patches the status of Pod `name` (src/status.rs:7)".
    pub fn describe(&self) -> String {
        let what = format!("{} {}", self.verb.does, self.object_description());
        if self.via.is_empty() {
            return what;
        }
        let chain = self
            .via
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(" → ");
        match &self.defined_at {
            Some((file, line)) => format!("{chain} {what} ({file}:{line})"),
            None => format!("{chain} {what}"),
        }
    }
}

/// For a finding on these requests, when some is under a `cfg` other than `test`: "this holds
/// only when compiled with `cfg(unix)`" (their `cfg`s together).
pub fn cfg_note(requests: &[&Request]) -> Option<String> {
    let cfg = requests
        .iter()
        .fold(Cfg::always(), |all, r| all.and(&r.cfg))
        .platform()?;
    Some(format!("this holds only when compiled with `{cfg}`"))
}

/// A place where futures are polled concurrently.
#[derive(Clone, Debug)]
pub struct Site {
    pub kind: SiteKind,
    /// The whole combinator expression (for spawned tasks: from the first spawn to the last).
    pub span: Span,
    /// As written, for messages: "`tokio::try_join!`", "`futures::future::join`", "`join_all`".
    pub spelling: String,
    pub operands: Vec<Operand>,
    /// `let (a, b) = join!(..)?;` when the site is the initialiser of a `let`.
    pub binding: Option<SiteBinding>,
    /// The `.await` and `?` written right after the site, and the statement it is all of.
    pub usage: SiteUsage,
    /// `select!` only: its arms in the order written (futures are `operands`, handlers are not).
    pub arms: Vec<SelectArm>,
    /// `join_all`/`try_join_all` only: how the collection given to it is written, when it is
    /// a form a rewrite understands.
    pub collection: Option<Collection>,
    /// Streams only: the argument limiting how many futures run at once (`buffer_unordered(n)`,
    /// `for_each_concurrent(limit, ..)`).
    pub limit: Option<Span>,
    /// The function, closure or `async` block it is in (see [`BoundFuture::body`]).
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
    /// Inside a loop of that body: run again after it finishes.
    pub in_loop: bool,
    /// Its value is (part of) what a `?` of the same body applies to: an error from it may
    /// return at once (`select! { .. }.map_err(E::from)?`).
    pub propagated: bool,
}

/// The collection of futures given to `join_all`, as written.
#[derive(Clone, Debug)]
pub enum Collection {
    /// `vec![a, b]`, `[a, b]`: every element, in order (elements that make no request too).
    Listed(Vec<Operand>),
    /// `iter.map(|pat| body)`: one future per element of an iterator.
    Mapped(MappedClosure),
    /// Any other collection (`futs`, a chain the tool does not take apart): what is given.
    Iterable(FutureExpr),
}

/// `iter.map(|pat| body)` (possibly followed by `.collect()`), where `iter` is syntactically
/// an iterator: the same futures as `for pat in iter { body }` makes, in the same order.
#[derive(Clone, Debug)]
pub struct MappedClosure {
    /// The iterator, parentheses removed.
    pub iter: Span,
    /// `iter` starts with a struct literal, which `for .. in` only takes in parentheses.
    pub iter_needs_parens: bool,
    /// The closure's one parameter, its type annotation removed.
    pub pattern: Span,
    /// The closure's body.
    pub body: Span,
    /// What the body is (`.await` follows it directly unless it needs parentheses).
    pub body_form: OperandForm,
    /// The body is a block ending in an expression (`|n| { let x = ..; api.get(&x) }`): that
    /// expression, the future; the block's statements come before it.
    pub tail: Option<FutureExpr>,
}

/// How the value of a site (or of a future awaited by name, [`FutureUse::usage`]) is used, as
/// far as rewrites need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteUsage {
    /// The site with the `.await` and `?` written right after it (`try_join(a, b).await?`); the
    /// site alone when neither follows.
    pub span: Span,
    /// `.await` follows the site (the join functions return a future).
    pub awaited: bool,
    /// `?` follows the site (after its `.await`, if any).
    pub question_mark: bool,
    /// The expression statement (`;` included) made of [`SiteUsage::span`] alone, without
    /// attributes: `tokio::try_join!(a, b)?;`.
    pub statement: Option<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// `join!`, `try_join!`.
    JoinMacro { fallible: bool },
    /// `futures::future::join`, `join3`, `try_join`, …
    JoinFn { fallible: bool },
    /// `join_all`, `try_join_all`, `.collect::<JoinAll<_>>()`: every future of a collection.
    JoinAll { fallible: bool },
    /// `futures::future::{select, try_select, select_all, select_ok}`: polled together until one
    /// (or, for `select_ok`, one success) finishes.
    SelectFn,
    /// `tokio::select!`, `futures::select!`: the arm futures, until one finishes.
    SelectMacro { biased: bool },
    /// A `FuturesUnordered`, from its first poll on.
    FuturesUnordered,
    /// A `FuturesOrdered`, from its first poll on: results in order, requests at once.
    FuturesOrdered,
    /// `buffer_unordered(n)`, `buffered(n)` and their `try_` forms: up to `n` futures at once.
    Buffered { ordered: bool },
    /// `for_each_concurrent`, `try_for_each_concurrent`: the closure for several elements at once.
    ForEachConcurrent,
    /// Tasks spawned on one `tokio::task::JoinSet`.
    JoinSet,
    /// `tokio::spawn` and friends whose handles are awaited or joined after other tasks started.
    Spawn,
    /// Threads spawned in `std::thread::scope`.
    ThreadScope,
}

impl SiteKind {
    /// Why the requests of this combinator reach the API server in undefined order: completes
    /// "…, so their order at the API server is undefined". `spelling` is the site's.
    pub fn how_concurrent(self, spelling: &str) -> String {
        match self {
            SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => {
                format!("{spelling} polls these futures at the same time")
            }
            SiteKind::JoinAll { .. } => {
                format!("{spelling} polls every future of the collection at the same time")
            }
            SiteKind::SelectFn => {
                format!("{spelling} polls these futures at the same time until one finishes")
            }
            SiteKind::SelectMacro { .. } => format!(
                "{spelling} polls the futures of all its arms at the same time until one finishes"
            ),
            SiteKind::FuturesUnordered => {
                format!("{spelling} polls every future it holds at the same time")
            }
            SiteKind::FuturesOrdered => {
                format!("{spelling} yields results in order, but polls every future at once")
            }
            SiteKind::Buffered { ordered: false } => {
                format!("{spelling} polls several futures of the stream at the same time")
            }
            SiteKind::Buffered { ordered: true } => format!(
                "{spelling} yields results in order, but polls several futures of the stream at once"
            ),
            SiteKind::ForEachConcurrent => {
                format!("{spelling} runs the closure for several elements at the same time")
            }
            SiteKind::JoinSet => {
                format!("{spelling} starts each task at once, and the tasks run in parallel")
            }
            SiteKind::Spawn => format!(
                "{spelling} starts each task at once, and the tasks run in parallel until joined"
            ),
            SiteKind::ThreadScope => {
                format!("the threads spawned in {spelling} run in parallel")
            }
        }
    }

    /// `try_join!` and the other combinators that stop at the first error.
    pub fn is_fallible(self) -> bool {
        matches!(
            self,
            SiteKind::JoinMacro { fallible: true }
                | SiteKind::JoinFn { fallible: true }
                | SiteKind::JoinAll { fallible: true }
        )
    }
}

/// One future polled at a site, with the requests it makes when polled.
#[derive(Clone, Debug)]
pub struct Operand {
    /// The operand expression, or where the future was created (a closure body, a `push`).
    pub span: Span,
    /// Indices into the file's requests.
    pub requests: Vec<usize>,
    /// What the operand expression is, for rewrites.
    pub form: OperandForm,
    /// Some when the operand stands for one future per element of a collection.
    pub batch: Option<Batch>,
    /// Closure parameters bound to the arguments of the call that made this future
    /// (`let delete = |n| api.delete(n, &dp); join!(delete("a"), delete("b"))`).
    pub arguments: Vec<ClosureArgument>,
}

/// A closure parameter and the argument a call binds it to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosureArgument {
    pub param: u64,
    pub name: NameExpr,
    /// What the argument is keyed by (see [`RawRequest::keyed_by`]).
    pub keyed_by: Vec<u64>,
}

/// "One future per element": a closure mapped over a collection, or a future pushed or spawned
/// in a `for` loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Bindings of the element: the closure's parameters or the loop's pattern.
    pub elements: Vec<u64>,
    /// Bindings created anew for each element (the closure's or loop body's locals, elements
    /// included): names rooted there are not provably equal from one element to the next.
    pub locals: std::ops::Range<u64>,
    /// Source text of what is iterated, for messages (`names.iter()`, `0..replicas`).
    pub over: String,
}

impl Batch {
    /// Whether a request's object is computed from the element: a helper called with the
    /// element is keyed by it, unless the object it names is fixed (a literal, a constant).
    pub fn keys(&self, request: &Request) -> bool {
        request.keyed_by.iter().any(|b| self.elements.contains(b)) && !request.names_fixed_object()
    }

    /// For a request whose object is computed from the element, the field it is named by when
    /// many elements share it: their owner (`owner_references`), their node (`node_name`), their
    /// namespace (`metadata.namespace`). Different elements then name one object: pods of one
    /// StatefulSet restart it, pods of one node patch it. None for the element's own name.
    pub fn shared_field(&self, request: &Request) -> Option<&'static str> {
        if !self.keys(request) {
            return None;
        }
        let ObjectName::One {
            name: NameExpr::Path { fields, .. },
            ..
        } = &request.object
        else {
            return None;
        };
        if fields.iter().any(|f| f == "owner_references") {
            Some("owner")
        } else if fields.last().is_some_and(|f| f == "node_name") {
            Some("node")
        } else if fields.ends_with(&["metadata".to_string(), "namespace".to_string()]) {
            Some("namespace")
        } else {
            None
        }
    }

    /// Whether a name is rooted at a binding made anew for each element.
    pub fn is_local(&self, name: &NameExpr) -> bool {
        match name {
            NameExpr::Path {
                root: Root::Binding(id),
                ..
            } => self.locals.contains(id),
            // `format!("x-{id}")` with a per-element `id`.
            NameExpr::Format { parts, .. } => parts.iter().any(|p| self.is_local(p)),
            _ => false,
        }
    }
}

/// One arm of `select!`: `pattern = future, if precondition => handler`.
#[derive(Clone, Debug)]
pub struct SelectArm {
    /// The pattern (None for `else`, `default` and `complete`).
    pub pattern: Option<Span>,
    /// Index of the arm's future in the site's operands (None for `else`/`default`/`complete`).
    pub future: Option<usize>,
    /// The `if` precondition, evaluated before the future is polled.
    pub precondition: Option<Span>,
    /// The handler, run after the arm's future finished; the other arms' futures are dropped.
    pub handler: Span,
    /// Requests made by the handler (indices into the file's requests).
    pub handler_requests: Vec<usize>,
    /// The handler leaves the function (`return`, `?`, `panic!`, `unreachable!`) in some path.
    pub exits: bool,
    /// `default => ..` of `futures::select!`: runs when no future is ready at once, dropping
    /// them after one poll.
    pub is_default: bool,
    /// The arm's future never finishes, so it never wins: an `async` block ending in a `loop`
    /// that nothing leaves, or a kube watch stream (`watcher(..)`, a controller) run by
    /// `for_each`, which retries with backoff and never ends.
    pub never_finishes: bool,
}

/// The shape of an operand expression, as rewrites need to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandForm {
    /// A request call or a binding of one, possibly pinned, boxed or with its output mapped
    /// (`pods.get(n)`, `Box::pin(pods.get(n))`, `f1`): polling it only sends its request.
    Request,
    /// An `async` block: any code may run when it is polled.
    AsyncBlock,
    /// Anything else; `needs_parens` when `.await` cannot directly follow it (`&mut fut`, a
    /// block at the start of a statement).
    Other { needs_parens: bool },
}

/// The `let` whose initialiser is a site (possibly followed by `.await` and `?`).
#[derive(Clone, Debug)]
pub struct SiteBinding {
    /// The whole `let` statement.
    pub stmt: Span,
    /// The texts of the tuple pattern's elements, when the pattern is a tuple.
    pub elements: Option<Vec<String>>,
    /// The site is followed by `?`.
    pub question_mark: bool,
    /// The pattern, type annotation excluded.
    pub pattern: Span,
    /// One `let` per tuple element means the same as this `let`: it has no attributes, type
    /// annotation, `else` branch or `..` in its tuple pattern.
    pub splittable: bool,
}

/// A future handed to an executor, a `JoinSet` or a thread: it starts at once, whoever awaits
/// its handle.
#[derive(Clone, Debug)]
pub struct Spawn {
    pub kind: SpawnKind,
    /// The spawn call.
    pub span: Span,
    /// "`tokio::spawn`", "`set.spawn`", "`s.spawn`".
    pub spelling: String,
    /// The spawned future (or thread closure) and its requests; a batch when spawned once per
    /// element and the handles are joined after the loop.
    pub task: Operand,
    pub handle: TaskHandle,
    /// The function, closure or `async` block that spawns it (see [`BoundFuture::body`]).
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
    /// Where the handle, bound by `let`, is first used in any way (awaited, joined, moved,
    /// aborted): until then, nothing can have waited for the task.
    pub handle_used: Option<Span>,
    /// Tasks of a `JoinSet` or thread scope: where the set is first joined (`join_next`,
    /// `join_all`, the end of `thread::scope`).
    pub set_joined: Option<Span>,
    /// Where the task is aborted: `handle.abort()`, an `AbortHandle` of it, `set.abort_all()`.
    pub aborted: Option<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnKind {
    /// `tokio::spawn`, `tokio::task::spawn(_local)`, `Handle::spawn`, …
    Task,
    /// `JoinSet::spawn` and friends.
    JoinSet,
    /// `std::thread::spawn`.
    Thread,
    /// `Scope::spawn` inside `std::thread::scope`.
    ScopedThread,
}

/// What becomes of a spawned task's handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskHandle {
    /// Dropped at once (`tokio::spawn(..);`, `let _ = ..`): the task runs detached.
    Detached,
    /// First awaited or joined here (`h.await`, `join_all(handles)`, `h.join()`).
    Joined(Span),
    /// Kept by a `JoinSet` or a thread scope, which joins it.
    InSet,
    /// Moved somewhere this pass does not follow (returned, stored, passed on).
    Unknown,
}

/// A future run under a deadline: dropped, with its request possibly sent, when time runs out.
#[derive(Clone, Debug)]
pub struct Timeout {
    /// The `timeout(..)` call.
    pub span: Span,
    /// "`tokio::time::timeout`".
    pub spelling: String,
    pub future: Operand,
    /// See [`BoundFuture::body`].
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
    /// Inside a loop of its own function, closure or `async` block: run again after it fires.
    pub in_loop: bool,
    /// See [`Site::propagated`]: `timeout(d, fut).await?` returns when the deadline passes.
    pub propagated: bool,
}

/// A future wrapped to be aborted from elsewhere (`futures::future::abortable(fut)`,
/// `Abortable::new(fut, registration)`): dropped, with its request possibly sent, on `abort()`.
#[derive(Clone, Debug)]
pub struct Abortable {
    /// The wrapping call.
    pub span: Span,
    /// "`futures::future::abortable`".
    pub spelling: String,
    pub future: Operand,
    /// See [`BoundFuture::body`].
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
}

/// What a function, closure or `async` block is: whether code in it runs in async context.
#[derive(Clone, Debug)]
pub struct Body {
    pub kind: BodyKind,
    /// Where it starts (the `fn` name, the `async` keyword, the closure's parameters).
    pub span: Span,
    /// Index into [`FileFacts::functions`] of the function it is (or is inside of).
    pub function: Option<usize>,
    /// For closures and `async` blocks: where they are made in the body around them.
    pub made: Option<order::Made>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Code outside any function (constants, statics).
    Item,
    Fn,
    AsyncFn,
    /// A closure that is not `async`: it runs where it is called, sync or async.
    Closure,
    AsyncClosure,
    AsyncBlock,
}

impl BodyKind {
    /// Code written directly in it runs when a future is polled.
    pub fn is_async(self) -> bool {
        matches!(
            self,
            BodyKind::AsyncFn | BodyKind::AsyncClosure | BodyKind::AsyncBlock
        )
    }
}

/// A call that blocks the thread until a future completes: `futures::executor::block_on(fut)`,
/// `Handle::block_on`, `Runtime::block_on`.
#[derive(Clone, Debug)]
pub struct BlockingCall {
    /// The whole call.
    pub span: Span,
    /// 1-based line of `span.start` (see [`RawRequest::line`]).
    pub line: usize,
    /// As written: "`futures::executor::block_on`", "`rt.block_on`",
    /// "`Handle::current().block_on`".
    pub spelling: String,
    /// The future argument.
    pub future: Span,
    /// `.await` cannot directly follow the argument as written (`&mut fut`).
    pub future_needs_parens: bool,
    /// Dropping the receiver (`rt`, `Handle::current()`, `Runtime::new().unwrap()`) changes
    /// nothing but that no runtime is made: true for paths, fields and runtime constructors.
    pub receiver_is_plain: bool,
    /// A bare `block_on(..)` may call a function of the crate named so: the entry of that call
    /// (link decides).
    pub entry: Option<usize>,
    /// Requests of the blocked future (indices into the file's requests).
    pub requests: Vec<usize>,
    /// See [`BoundFuture::body`].
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
}

/// After linking: a call that blocks the thread, directly or through sync functions of the
/// crate, and the body it is made in.
#[derive(Clone, Debug)]
pub struct Blocking {
    /// The blocking call, or the call of the crate function that (eventually) makes it.
    pub span: Span,
    /// The spelling of the blocking call itself.
    pub spelling: String,
    /// The functions called on the way, outermost first; empty for a direct call.
    pub via: Vec<String>,
    /// For calls through functions: where the blocking call is (display path, line).
    pub defined_at: Option<(String, usize)>,
    /// The blocking call is made whenever the call here is (not only in some branch of the
    /// functions on the way).
    pub unconditional: bool,
    /// The functions on the way make the blocking call on every path through them (the call
    /// here may still be in a branch of its own function). True for a direct call.
    pub on_every_path: bool,
    /// Some method on the way was found by its name alone (its receiver's type is not known):
    /// it may be another type's method.
    pub by_name_only: bool,
    pub body: u32,
    /// For a direct call, what the rewrite to `.await` needs.
    pub direct: Option<BlockingCall>,
}

/// After linking: a `block_on` in a sync function of the crate that async code of its own link
/// unit calls (directly or through other sync functions): reported once, at the `block_on`,
/// with its async callers (see [`BlockingCaller`]). Callers in other units (an example or an
/// integration test of a library) are [`Blocking`] facts of their own files.
#[derive(Clone, Debug)]
pub struct BlockingHelper {
    /// The blocking call.
    pub span: Span,
    pub spelling: String,
    /// The sync function it is made in, as shown (`dns::resolve`).
    pub function: String,
    /// The blocking call is on every path through that function.
    pub on_every_path: bool,
    /// Its async callers, in the order of the run's files and of their calls.
    pub callers: Vec<BlockingCaller>,
}

/// An async caller of a [`BlockingHelper`]: where, and how surely the call blocks.
#[derive(Clone, Debug)]
pub struct BlockingCaller {
    /// The call in async code (the outermost call of a crate function on the way).
    pub span: Span,
    /// Display path and 1-based line of that call.
    pub at: (String, usize),
    /// "the async fn `connects`", "an `async` block in `main`".
    pub context: String,
    /// The functions called on the way, outermost first (the helper last).
    pub via: Vec<String>,
    /// The blocking call is made on every path through the functions on the way.
    pub on_every_path: bool,
    /// And the call itself is not in a branch of its async function.
    pub unconditional: bool,
    /// A method on the way was found by its name alone.
    pub by_name_only: bool,
}

/// A request future bound by `let` (a request call, an `async` block, a wrapper of them) and
/// where it is first used.
#[derive(Clone, Debug)]
pub struct BoundFuture {
    /// The binding's name.
    pub name: String,
    /// The whole `let` statement.
    pub stmt: Span,
    pub future: Operand,
    pub first_use: Option<FutureUse>,
    /// The function, closure or `async` block it is bound in (an id, comparable within a file).
    pub body: u32,
    /// The initialiser, as written.
    pub init: FutureExpr,
    /// The `let` names a type (`let f: BoxFuture<..> = ..`).
    pub typed: bool,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
}

/// An expression as written, where `.await` can be appended (a future) or that a `for` loop
/// can iterate (a collection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FutureExpr {
    pub span: Span,
    /// It needs parentheses there: `.await` cannot directly follow it (`&mut fut`, `fut as T`),
    /// or `for .. in` cannot take it (a struct literal outside delimiters).
    pub needs_parens: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FutureUse {
    /// The `.await` expression, the site, or the path of another use.
    pub span: Span,
    pub kind: UseKind,
    /// The `if`/`match` branches the use lies in: (construct id, branch index), outermost first.
    pub branches: Vec<(u32, u32)>,
    /// The function, closure or `async` block it lies in (see [`BoundFuture::body`]).
    pub body: u32,
    /// The loops (`for`, `while`, `loop`) it lies in, by id, outermost first.
    pub loops: Vec<u32>,
    /// For an await: the `?` written right after it, and the statement it is all of.
    pub usage: Option<SiteUsage>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseKind {
    /// `fut.await`.
    Await,
    /// An operand of a concurrency site.
    Site,
    /// Anything else: moved, passed on, dropped.
    Other,
}

impl FutureUse {
    /// Two uses in different branches of one `if` or `match` never both run.
    pub fn excludes(&self, other: &FutureUse) -> bool {
        excludes(&self.branches, &other.branches)
    }
}

/// Whether code in these two branch paths never runs in the same pass.
pub fn excludes(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter()
        .any(|(id, arm)| b.iter().any(|(oid, oarm)| oid == id && oarm != arm))
}

/// A future awaited where it is written: `api.delete(..).await`, `fut.await`.
#[derive(Clone, Debug)]
pub struct AwaitedFuture {
    /// The `.await` expression.
    pub span: Span,
    pub requests: Vec<usize>,
    /// Index into the file's bound futures when the awaited expression names one.
    pub bound: Option<usize>,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
    /// See [`BoundFuture::body`].
    pub body: u32,
}

/// A request future dropped without being polled: its request is never sent.
#[derive(Clone, Debug)]
pub struct UnpolledFuture {
    /// The future expression (or the binding, for an unused `let`).
    pub span: Span,
    /// The statement that drops it.
    pub stmt: Span,
    pub requests: Vec<usize>,
    pub how: Unpolled,
    /// The future as written: the statement's expression, or the `let`'s initialiser.
    pub expr: FutureExpr,
    /// The `let` that holds (or drops) it names a type (`let _: BoxFuture<..> = ..`).
    pub typed: bool,
    /// `.await` can be written where it is dropped: the function, closure or block is `async`.
    pub in_async: bool,
    /// The future dropped is an `async` block written there (`async { .. };`).
    pub async_block: bool,
    /// A call of a crate function: unpolled only when the callee is an `async fn` or returns a
    /// lazy future ([`FunctionFacts::lazy_future`]); `link` drops the others.
    pub lazy_callee: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unpolled {
    /// `let _ = api.delete(..);`
    LetUnderscore,
    /// `api.delete(..);`: an expression statement without `.await`.
    Statement,
    /// `let f = api.delete(..);` and `f` is never used.
    UnusedBinding(String),
    /// `drop(f)` before `f` was polled.
    Dropped(String),
}

/// Item-level facts of one file, merged across the crate by [`link`].
#[derive(Clone, Debug, Default)]
pub struct ItemIndex {
    /// Fields declared with a type containing `Api<K>`: (field name, kind).
    pub api_fields: Vec<(String, Option<String>)>,
    /// Functions and methods whose return type contains `Api<K>`: (name, kind).
    pub api_returning_fns: Vec<(String, Option<String>)>,
    /// `const`/`static` string items: (name, value).
    pub consts: Vec<(String, String)>,
    /// Traits declared (by name).
    pub traits: Vec<String>,
    /// `type Leases = Api<Lease>;`: (alias, kind).
    pub api_aliases: Vec<(String, Option<String>)>,
    /// Fields whose type may be an alias of `Api<K>`: (field name, alias).
    pub alias_fields: Vec<(String, String)>,
    /// `impl Trait for Type` blocks: (trait, type), last segments.
    pub trait_impls: Vec<(String, String)>,
    /// Fields declared with a function type (`Arc<dyn Fn(..) -> ..>`, `fn(..)`, or an alias of
    /// this file for one): every value given them is noted (see [`FileFacts::callbacks`]).
    pub callback_fields: Vec<String>,
}

/// Everything one file contributes to the model.
#[derive(Clone, Debug, Default)]
pub struct FileFacts {
    pub requests: Vec<RawRequest>,
    pub sites: Vec<Site>,
    pub items: ItemIndex,
    pub functions: Vec<FunctionFacts>,
    pub spawns: Vec<Spawn>,
    pub timeouts: Vec<Timeout>,
    pub bound_futures: Vec<BoundFuture>,
    pub unpolled: Vec<UnpolledFuture>,
    pub awaits: Vec<AwaitedFuture>,
    /// Indexed by body id (see [`BoundFuture::body`]); 0 is code outside functions.
    pub bodies: Vec<Body>,
    pub blocking: Vec<BlockingCall>,
    pub abortables: Vec<Abortable>,
    pub timer_waits: Vec<TimerWait>,
    /// The arms (of an `if`/`match`, a `let`'s `else`) that end by leaving their function,
    /// closure or `async` block (`return`, a panic), with that body's id: code of the body
    /// after the construct never runs after code in them.
    pub exiting_arms: Vec<(Span, u32)>,
    /// The arms that end with a `break` of a loop, with that loop's id: the loop a label names
    /// and every loop inside it (a `continue` of an outer loop leaves the inner ones too).
    pub breaking_arms: Vec<(Span, u32)>,
    /// The arms that end with a `continue` of a loop, with that loop's id: the rest of the
    /// loop's pass is skipped.
    pub continuing_arms: Vec<(Span, u32)>,
    /// The loops of the file (see [`order::Loop`]).
    pub loops: Vec<order::Loop>,
    /// Bindings holding what a call of this file returned (`let web = fleet.start("web-1")`,
    /// `let (web, db) = join!(..)`): a field of one is the callee's struct literal's field.
    pub returned_values: Vec<(u64, ReturnedType)>,
    /// Struct literals read as names (`LeaseParams { lease_name: LEASE.into(), .. }`), by the
    /// id of the binding that stands for each, sorted: a field of one is the name its field is
    /// given, wherever the value goes (`LeaseLock::new(client, params)` keeping it in a field).
    pub struct_values: Vec<(u64, Vec<(String, NameExpr)>)>,
    /// Bindings a field of which is assigned (`renewer.params.lease_name = ..`), sorted: their
    /// fields are not followed into the value they were given.
    pub assigned_fields: Vec<u64>,
    /// The function values fields are given here (see [`Callee::Field`]).
    pub callbacks: Vec<Callback>,
}

/// An awaited timer: `tokio::time::sleep(d).await`, `interval.tick().await`, a crate helper
/// named `sleep_*`. Code after it runs at least that much later.
#[derive(Clone, Debug)]
pub struct TimerWait {
    /// The `.await` expression.
    pub span: Span,
    /// See [`BoundFuture::body`].
    pub body: u32,
    /// See [`FutureUse::branches`].
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`].
    pub loops: Vec<u32>,
}

impl FileFacts {
    /// Whether the file has anything lints or other files' summaries could use.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.sites.is_empty()
    }

    /// Calls and function values by a path that starts with `crate_name` (`lease::renew(..)`
    /// in a doc example of the crate `lease`) as paths of the crate (`crate::renew`): how the
    /// linker matches them with the crate's functions. The file is a doc example, linked with
    /// the crate it documents.
    pub fn name_the_crate(&mut self, crate_name: &str) {
        let rooted = |path: &mut Vec<String>| {
            if path.len() > 1 && path[0] == crate_name {
                path[0] = "crate".to_string();
            }
        };
        for raw in &mut self.requests {
            if let RawKind::Helper(HelperCall {
                callee: Callee::Path(path),
                ..
            }) = &mut raw.kind
            {
                rooted(path);
            }
        }
        for callback in &mut self.callbacks {
            if let CallbackTarget::Function(path) = &mut callback.target {
                rooted(path);
            }
        }
    }
}

/// One file's facts after linking: requests resolved against the crate.
#[derive(Clone, Debug, Default)]
pub struct FileModel {
    pub file: crate::source::FileId,
    /// Same indices as the raw requests: what each makes when polled — one request, the
    /// requests of a helper, or none (the receiver was not a kube `Api`, or the callee not a
    /// function of the crate).
    pub requests: Vec<Vec<Request>>,
    /// Indices of the raw requests the linker could not resolve: a receiver not known to be a
    /// kube `Api`, a callee that is no function of the crate (see [`stats`]).
    pub unresolved: Vec<usize>,
    pub sites: Vec<Site>,
    pub spawns: Vec<Spawn>,
    pub timeouts: Vec<Timeout>,
    pub bound_futures: Vec<BoundFuture>,
    pub unpolled: Vec<UnpolledFuture>,
    pub awaits: Vec<AwaitedFuture>,
    /// The file's raw requests as recorded (positions, bodies, branches), same indices as
    /// [`FileModel::requests`].
    pub raw: Vec<RawRequest>,
    pub functions: Vec<FunctionFacts>,
    pub bodies: Vec<Body>,
    /// Blocking calls made directly in this file, and calls of the crate's sync functions that
    /// block.
    pub blocking: Vec<Blocking>,
    /// Blocking calls in sync functions, with their async callers in the file's unit.
    pub blocking_helpers: Vec<BlockingHelper>,
    pub abortables: Vec<Abortable>,
    pub timer_waits: Vec<TimerWait>,
    /// The timer waits by body, arms and position (see [`FileModel::waits_on_every_way`]).
    pub timer_index: order::PointIndex,
    /// What program order needs besides positions (see [`order`]).
    pub flow: order::ControlFlow,
}

impl FileModel {
    /// The queries of program order (see [`order`]).
    pub fn order(&self) -> Order<'_> {
        Order { flow: &self.flow }
    }

    /// Whether the code waits for a timer on every way from `a` to `b` (around a loop too): a
    /// request in flight at `a` has then most likely been answered when `b` is made.
    pub fn waits_on_every_way(&self, a: Point<'_>, b: Point<'_>) -> bool {
        let wait = |i: usize| self.timer_waits[i].point();
        self.order().any_on_every_way(a, b, &self.timer_index, wait)
    }

    pub fn requests_of(&self, index: usize) -> &[Request] {
        self.requests.get(index).map(Vec::as_slice).unwrap_or(&[])
    }

    /// What a body is; None for an id this file does not have.
    pub fn body(&self, id: u32) -> Option<&Body> {
        self.bodies.get(id as usize)
    }

    /// The function a body belongs to, for messages ("the async fn `reconcile`").
    pub fn function_of(&self, index: Option<usize>) -> Option<&FunctionFacts> {
        index.and_then(|i| self.functions.get(i))
    }

    /// The kube requests an operand makes (with their indices), closure parameters replaced by
    /// the call's arguments.
    pub fn operand_requests(&self, operand: &Operand) -> Vec<(usize, Request)> {
        operand
            .requests
            .iter()
            .flat_map(|&i| {
                self.requests_of(i)
                    .iter()
                    .map(move |r| (i, r.with_arguments(&operand.arguments)))
            })
            .collect()
    }
}
