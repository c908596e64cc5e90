//! One file's facts: what the syntax pass gives ([`FileFacts`], with its [`ItemIndex`]) and
//! what they are after linking ([`FileModel`]).

use super::{
    order, Abortable, AwaitedFuture, Blocking, BlockingCall, BlockingHelper, Body, BoundFuture,
    Callback, CallbackTarget, Callee, FunctionFacts, HelperCall, NameExpr, RawKind, RawRequest,
    Request, ReturnedType, Site, Spawn, Timeout, TimerWait, UnpolledFuture,
};
use crate::source::Span;

/// Item-level facts of one file, merged across the crate by [`link`](super::link).
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
    /// The arms whose running is a test of one parameter of their function, by (construct id,
    /// arm index) as in [`BlockingCall::branches`](super::BlockingCall::branches), sorted (see
    /// [`ArmCondition`](super::ArmCondition)).
    pub arm_conditions: Vec<((u32, u32), super::ArmCondition)>,
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
    /// Bindings holding an object a request of this file fetched, with that request's entry,
    /// sorted: the object a `get` answered (`let sync = svcs.get(&name).await?`), or one of
    /// those a `list` answered (`for sync in svcs.list(&lp).await?.items`). A name read from
    /// one is a field of an object of the request's kind (see [`Request::fetched`]).
    ///
    /// [`Request::fetched`]: super::Request::fetched
    pub fetched_objects: Vec<(u64, usize)>,
    /// The function values fields are given here (see [`Callee::Field`]).
    pub callbacks: Vec<Callback>,
    /// The web handlers registered here (see [`HandlerRoute`](super::HandlerRoute)).
    pub handlers: Vec<super::HandlerRoute>,
}

impl FileFacts {
    /// Whether the file has anything lints or other files' summaries could use.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.sites.is_empty() && self.handlers.is_empty()
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
        for route in &mut self.handlers {
            if let RawKind::Helper(HelperCall {
                callee: Callee::Path(path),
                ..
            }) = &mut route.raw.kind
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
    /// kube `Api`, a callee that is no function of the crate (see [`stats`](super::stats)).
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
    /// The web handlers registered in this file, each with the requests one invocation makes,
    /// in the terms of the registration (the handler's parameters as [`Root::Handled`]).
    ///
    /// [`Root::Handled`]: super::Root::Handled
    pub handlers: Vec<(super::HandlerRoute, Vec<Request>)>,
}
