//! Lint-agnostic facts about kube requests and concurrency, built by one syntax pass per file
//! ([`build`]) and linked across the crate ([`link`]). Lints read only this model.
//!
//! # The contract
//! - **One pass, then linking.** [`build`] walks one file's syntax once and gives its
//!   [`FileFacts`]: requests as written ([`RawRequest`]: receiver and callee unresolved),
//!   concurrency sites, spawns, timeouts, bound, awaited and unpolled futures, bodies, blocking
//!   calls, control flow. [`link`] resolves them against the run's files and gives each file
//!   its [`FileModel`]: every raw request becomes the kube [`Request`]s it makes when polled
//!   (none when its receiver is no kube `Api` or its callee no function of the crate).
//! - **Indices and ids.** A file's facts refer to each other by index into the same file
//!   ([`FileModel::requests`] has the indices of [`FileModel::raw`]) and by body id
//!   ([`FileModel::bodies`]); both are comparable within one file only. Spans are the file's.
//! - **Evidence, not guesses.** Whether two requests touch one object is a [`Confidence`]
//!   ([`Request::same_object`]): `Definite` when proved, `Possible` on positive evidence,
//!   `Unknown` when two names cannot be told apart. A callee found by its name alone caps it
//!   ([`Resolution`]).
//! - **Order.** Program order (which code may run after which) is asked of [`Order`]
//!   ([`FileModel::order`]), never by comparing positions.
//! - **No I/O.** The model reads no file and runs nothing: the run driver (`check`) gives it
//!   parsed syntax and the run's files.
//!
//! # Where things are
//! The facts are data, by topic: [`requests`](RawRequest) (raw and linked requests, handles,
//! callees), functions and bodies ([`FunctionFacts`], [`Body`]), concurrency sites ([`Site`],
//! [`Operand`], [`Batch`]), tasks and cut-short futures ([`Spawn`], [`Timeout`],
//! [`Abortable`]), what becomes of futures ([`BoundFuture`], [`AwaitedFuture`],
//! [`UnpolledFuture`], [`TimerWait`]), blocking calls ([`BlockingCall`], [`Blocking`]), and a
//! file's facts before and after linking ([`FileFacts`], [`FileModel`]). The queries lints ask
//! of requests and of a file's model are in one place (`queries.rs`); the order, identity and
//! controller queries have their own modules ([`order`], [`identity`], [`reconciles`]). Every
//! item is used through this module (`crate::model::Request`), whichever file defines it.

pub mod build;
pub mod cfg;
pub mod debug;
pub mod handlers;
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

mod awaits;
mod blocking;
mod concurrency;
mod facts;
mod functions;
mod queries;
mod requests;
mod tasks;

pub use awaits::{
    excludes, AwaitedFuture, BoundFuture, FutureExpr, FutureUse, TimerWait, Unpolled,
    UnpolledFuture, UseKind,
};
pub use blocking::{
    ArmCondition, Blocking, BlockingCall, BlockingCaller, BlockingHelper, Literal, Selection,
};
pub use cfg::Cfg;
pub use concurrency::{
    Batch, ClosureArgument, Collection, MappedClosure, Operand, OperandForm, SelectArm, Site,
    SiteBinding, SiteKind, SiteUsage,
};
pub use facts::{FileFacts, FileModel, ItemIndex};
pub use functions::{is_entry_point, Body, BodyKind, ComputedLocal, Extracted, FunctionFacts};
pub use identity::{
    fields_text, Computation, Confidence, Handle, HandleOrigin, NameExpr, Namespace, Root, Sameness,
};
pub use order::{Order, Point};
pub use queries::cfg_note;
pub use requests::{
    bound_traits, bounded_type, ApiCall, Argument, Callback, CallbackTarget, Callee, Concurrency,
    ControllerRun, Fetched, HandedTo, HandleSource, HandlerRoute, HelperCall, LeftRunning, Listed,
    ObjectName, PassedController, Precondition, RawKind, RawRequest, Request, Resolution,
    ReturnedType, TypeShape,
};
pub use tasks::{Abortable, Spawn, SpawnKind, TaskHandle, Timeout};
pub use verbs::{Access, Target, Verb};
