//! Requests: as the syntax pass records them ([`RawRequest`]: receiver and callee not yet
//! resolved) and as linking resolves them ([`Request`]: a kube `Api` call on a known handle).

use super::{Cfg, Confidence, Handle, HandleOrigin, NameExpr, Verb};
use crate::source::Span;

/// How the receiver of a request call was obtained; resolved to a [`Handle`] by [`link`], which
/// drops calls whose receiver turns out not to be a kube `Api` (`HashMap::get`, `reqwest`).
///
/// [`link`]: super::link
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
    /// The `Api<K>` inside what a call of a crate function gives, taken out with `.await`, `?`,
    /// `.unwrap()` or `.expect(..)` (`self.api::<Pod>().await?`): `entry` is that call (an entry
    /// of the same file). Resolved only when the call resolves by its receiver's type or its
    /// path, to a function whose declared return type wraps `Api<K>` (see
    /// [`FunctionFacts::returned_handle`](super::FunctionFacts::returned_handle)); `kind` is the
    /// caller's annotation (`let pods: Api<Pod> = ..`).
    Unwrapped {
        entry: usize,
        kind: Option<String>,
        origin: Option<HandleOrigin>,
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
/// method of the crate (resolved against the crate's summaries by [`link`](super::link)).
#[derive(Clone, Debug)]
pub struct RawRequest {
    /// The whole call expression, `pods.get("blog")` or `status::mark(&pods, name)`.
    pub span: Span,
    /// 1-based line of `span.start`, kept so that other files can cite it without this file's text.
    pub line: usize,
    /// Index into [`FileFacts::functions`] of the enclosing function, if any.
    ///
    /// [`FileFacts::functions`]: super::FileFacts::functions
    pub function: Option<usize>,
    pub kind: RawKind,
    /// Bindings of closure parameters or loop patterns that the object's name or namespace (for
    /// a helper call: any argument) is computed from (`|n| api.delete(n, &dp)` is keyed by `n`).
    pub keyed_by: Vec<u64>,
    /// The function, closure or `async` block the call is in (see [`BoundFuture::body`];
    /// [`FileFacts::bodies`](super::FileFacts::bodies) says what it is).
    ///
    /// [`BoundFuture::body`]: super::BoundFuture::body
    pub body: u32,
    /// See [`FutureUse::branches`](super::FutureUse::branches).
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`](super::FutureUse::loops).
    pub loops: Vec<u32>,
    /// Made in the body of a loop, in the same function, closure or `async` block, that drains a
    /// channel receiver (`while let Some(m) = rx.recv().await { .. }`): one message at a time.
    pub in_channel_loop: bool,
    /// The `cfg` the call is compiled under (see [`cfg`](super::cfg)).
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
    /// See [`Request::name_from_list`].
    pub name_from_list: bool,
    /// See [`Request::listed`].
    pub listed: Option<Box<Listed>>,
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
    /// `receiver_from` may say which call returned the receiver (typed by [`link`](super::link)).
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
///
/// [`FileFacts::requests`]: super::FileFacts::requests
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

/// The type of a value known only by the traits its type parameter is bound by (`rec: R` with
/// `R: Reconciler`, a field `tasks: Vec<Arc<T>>` of a struct declaring `T: Task`), written as
/// `impl Reconciler` (several bounds joined by ` + `): its methods are those of the bounds'
/// traits, run by some implementor (see `Linker::candidates`).
pub fn bounded_type(traits: &[String]) -> Option<String> {
    (!traits.is_empty()).then(|| format!("impl {}", traits.join(" + ")))
}

/// The traits of a [`bounded_type`]; None for a type written by its name.
pub fn bound_traits(ty: &str) -> Option<impl Iterator<Item = &str>> {
    ty.strip_prefix("impl ").map(|bounds| bounds.split(" + "))
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
    /// The argument is a literal (`true`, `"sync"`, `None`): which branches of the callee it
    /// selects (see [`ArmCondition`](super::ArmCondition)).
    pub literal: Option<super::Literal>,
    /// The argument holds the names of the elements of a listing (`&names` after `let names:
    /// Vec<String> = mcs.iter().map(|mc| mc.name_any()).collect()`): a callee writing each of
    /// them writes elements of that listing (boxed: rare).
    pub listed_names: Option<Box<Listed>>,
    /// The type of the argument's value as written in the caller (a parameter's or a `let`'s
    /// annotation, through `&`, `*`, `Arc`, `.clone()`): `App` for `&*app` with `app:
    /// Arc<App>`. A generic callee taking it as `obj: &T` makes its `Api<T>` an `Api<App>`
    /// (see [`FunctionFacts::typed_by_generic`](super::FunctionFacts::typed_by_generic)).
    pub kind: Option<String>,
}

impl Argument {
    /// An argument of which nothing is known: no handle, no name, no body.
    pub fn unknown() -> Argument {
        Argument {
            handle: None,
            name: NameExpr::Unknown,
            text: String::new(),
            precondition: Precondition::None,
            literal: None,
            listed_names: None,
            kind: None,
        }
    }
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
    /// caller's argument is (resolved by [`link`](super::link); only summaries keep it).
    Param(u64),
    /// The body is what a call of a crate function returns (this entry of the same file's
    /// [`FileFacts::requests`](super::FileFacts::requests), `Patch::Merge(lease_patch(record))`):
    /// guarded when the function the call resolves to by type returns a body that is (see
    /// [`FunctionFacts::returned_body`](super::FunctionFacts::returned_body); resolved by
    /// [`link`](super::link)).
    Returned(usize),
    /// The body is a whole object kept in a field of a struct (`self.last_observed.clone()`,
    /// the field typed as a struct): most likely an object the API server answered, stored with
    /// its `resourceVersion`, but the tool does not follow what was stored. Neither guarded nor
    /// unguarded: a finding that needs the write to land unguarded is at most `unknown`.
    Stored,
    /// The body's `resourceVersion` was copied from a fresh read of the written object into an
    /// older copy of it (`self.obj.metadata.resource_version = fresh.metadata.resource_version`
    /// after `let fresh = api.get_status(n).await?`, then `replace_status(n, .., &self.obj)`);
    /// the entry of that read in the file's
    /// [`FileFacts::requests`](super::FileFacts::requests). The version guards only the time
    /// between the read and the write: a write of another writer made before the read is
    /// overwritten with the older copy's fields ("resourceVersion laundering"). A late landing
    /// still fails with 409 Conflict (see [`Request::carries_resource_version`]).
    Refreshed(usize),
    /// The body's `resourceVersion` is cleared (`obj.metadata.resource_version = None`): no
    /// precondition, but a PUT of a Lease without one only creates it (see
    /// [`Request::is_lease_create_put`]).
    Cleared,
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
    /// The request call as written, in whichever file of the run it is (the call of a declared
    /// wrapper or of a dependency's helper for their requests): where a finding about the
    /// request itself points when the place that makes it concurrent is elsewhere (a
    /// controller's `run`). `span` is this for a direct request.
    pub written_at: Span,
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
    /// Its object is named after an element of a list made through the same handle
    /// (`for pvc in &claims.list(&lp).await?.items { claims.delete(&pvc.name_any(), ..) }`):
    /// any object of its kind the list returns, so a write of that kind elsewhere (in the same
    /// namespace, under the same selector) can be the same object. Evidence, not proof.
    pub name_from_list: bool,
    /// Its object is an element of a listing of its kind, by the element's own name
    /// (`for mc in &ctx.store.machines_in(&ns) { machines.patch_status(&mc.name_any(), ..) }`),
    /// with what the listing was selected by: whichever element a run picks, another run
    /// selecting the listing alike can pick the same (boxed: rare).
    pub listed: Option<Box<Listed>>,
    /// Its object's name is read from an object of another request's kind that the code
    /// fetched (`cms.patch(&sync.annotations()["dest"], ..)` after `let sync =
    /// svcs.get(..).await?`): which kind, how, and the fields read. Kept as the name is seen
    /// from callers, where the fetching function's locals are no longer names (boxed: rare).
    pub fetched: Option<Box<Fetched>>,
    /// What its body carries; after linking, `Param` is resolved through the callers (see
    /// [`Request::is_guarded`]).
    pub precondition: Precondition,
    /// Made by the reconcile of this controller, for each object it watches. Such requests meet
    /// only those of another controller: within one controller, kube never runs two reconciles
    /// of one object at once, and a controller's stream is not a request future to await, drop
    /// or cancel (boxed: rare, and summaries hold many requests).
    pub controller: Option<Box<ControllerRun>>,
    /// Made by a task that a function on the way spawned and left running when it returned
    /// (see [`LeftRunning`]): the call of that function returns while the task goes on, so
    /// the caller's later requests race with it (boxed: rare).
    pub left_running: Option<Box<LeftRunning>>,
}

/// A task that a crate function spawns and does not await, abort or hand to a set that joins
/// it: it runs on after the function returns (`SourceController::new` spawning a controller's
/// `run` and keeping the handle in the value it returns). Seen from a caller, the call starts
/// the task (see [`SpawnKind::Call`]).
///
/// [`SpawnKind::Call`]: super::SpawnKind::Call
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftRunning {
    /// The spawn as written ("`tokio::spawn`").
    pub spawn: String,
    /// The function that spawns it (`SourceController::new`).
    pub function: String,
    /// The function moves the task's handle out (returns it or keeps it in what it returns):
    /// a caller may still await it, and where is not followed. False for a handle dropped
    /// there, which nothing can await.
    pub handle_kept: bool,
}

/// An object of one kind that a request fetched, a field of which names a request's object
/// (see [`Request::fetched`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// The fetched object's kind: that of the `Api<K>` the fetching request is made through.
    pub kind: String,
    /// The fetching request's method: a `get` (the object named) or a `list` (one of those
    /// listed).
    pub by: &'static str,
    /// The fields of the fetched object the name is read from (`metadata.annotations["dest"]`).
    pub fields: Vec<String>,
}

/// A listing a request's object is an element of (see [`Request::listed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The kind of the listing's elements as written (`Vec<Arc<MachineConfig>>`), or None for
    /// the result of `list` through the request's own handle.
    pub kind: Option<String>,
    /// What the listing is made from: the names of the listing call's receiver and arguments
    /// (`ctx.stores`, `namespace`), in the terms of the function the request is seen from.
    pub selected_by: Box<[NameExpr]>,
    /// Source text of the listing, for messages (`ctx.stores.machine_configs_in(&namespace)`).
    pub text: String,
    /// Seen from a helper, the object is an element of this parameter, a collection of names
    /// (`for name in names { api.patch_status(name, ..) }` with `names: &[String]`): the listing
    /// is the one whose names the caller passes (see [`Argument::listed_names`]); unresolved,
    /// it is no evidence.
    pub names_of_param: Option<u64>,
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
    /// How many reconciles of different objects it runs at once. As built, when the controller
    /// went through functions before `run` (`through` is not empty), the limit of the controller
    /// handed to the first of them; linking follows those functions and clears `through`.
    pub concurrency: Concurrency,
    /// Its watcher visibly selects some objects of its kind, not all of them: a namespaced
    /// `Api` or a label or field selector written in `Controller::new(api, wc)` (false when the
    /// chain is not seen).
    pub selects: bool,
    /// The functions the controller was handed to before `run`, each taking a `Controller` and
    /// returning one (`setup_watches(Controller::new(..), client).run(..)`), the innermost
    /// first: empty once linked (see [`FunctionFacts::passes_controller`]).
    ///
    /// [`FunctionFacts::passes_controller`]: super::FunctionFacts::passes_controller
    pub through: Vec<HandedTo>,
}

/// A call a controller is handed to before its `run` (see [`ControllerRun::through`]): the call
/// (an entry of the file, found by its span when linked), which of its arguments is the
/// controller, and the limit builder calls on its result set, if any
/// (`wrap(c).with_config(..)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandedTo {
    pub call: Span,
    pub arg: usize,
    pub set_after: Option<Concurrency>,
}

/// A function of the crate that takes a kube-runtime `Controller<K>` and returns a
/// `Controller<K>` (see [`FunctionFacts::passes_controller`]): which typed parameter, and
/// whether the controller its tail returns is that parameter, through builder calls.
///
/// [`FunctionFacts::passes_controller`]: super::FunctionFacts::passes_controller
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassedController {
    /// The position of the `Controller` parameter among the typed parameters.
    pub param: usize,
    /// What the body does to the controller's limit: None when it returns the parameter
    /// without setting one (`c.owns(..)`), the limit a `with_config` on it sets, and
    /// `NotVisible` when it returns anything else (a new `Controller::new(..)`, a local, a
    /// call) or has a `return` of its own.
    pub sets: Option<Concurrency>,
}

/// A web handler registered with an HTTP server (`Router::new().route("/hook", post(webhook))`,
/// `App::new().route("/x", web::post().to(h))`, `.service(h)` of an attribute handler): the
/// server runs it once per HTTP request, concurrently, with nothing keeping two invocations
/// apart (unlike kube's `Controller`, which never reconciles one object twice at once).
#[derive(Clone, Debug)]
pub struct HandlerRoute {
    /// The registration as a call of the handler (`raw.span` is the handler as written, `raw.body`
    /// the code registering it): the handler's parameters are handed one value per request
    /// (see [`Root::Handled`](super::Root::Handled)) when linked.
    pub raw: RawRequest,
    /// The web framework, as its crate is named (`axum`, `actix-web`).
    pub framework: &'static str,
    /// The HTTP method it is registered for, upper case (`POST`); `*` when not written at the
    /// registration (an attribute handler's `.service(h)`, axum's `any`).
    pub method: String,
    /// The route's path when written as a literal (`/webhook`), else empty.
    pub path: String,
    /// The handler as written (`webhook`, `handlers::apply`).
    pub handler: String,
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
