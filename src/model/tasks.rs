//! Futures that others start or cut short: spawned tasks and their handles, futures under a
//! deadline (`timeout`), abortable futures.

use super::Operand;
use crate::source::Span;

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
    ///
    /// [`BoundFuture::body`]: super::BoundFuture::body
    pub body: u32,
    /// See [`FutureUse::branches`](super::FutureUse::branches).
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`](super::FutureUse::loops).
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
    /// A call of a crate function that spawns a task and leaves it running when it returns
    /// (see [`LeftRunning`]): made at link time, its task the requests of the call marked
    /// [`Request::left_running`]; `spelling` is the spawn and the function
    /// ("`tokio::spawn` in `SourceController::new`").
    ///
    /// [`LeftRunning`]: super::LeftRunning
    /// [`Request::left_running`]: super::Request::left_running
    Call,
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
    /// See [`BoundFuture::body`](super::BoundFuture::body).
    pub body: u32,
    /// See [`FutureUse::branches`](super::FutureUse::branches).
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`](super::FutureUse::loops).
    pub loops: Vec<u32>,
    /// Inside a loop of its own function, closure or `async` block: run again after it fires.
    pub in_loop: bool,
    /// See [`Site::propagated`]: `timeout(d, fut).await?` returns when the deadline passes.
    ///
    /// [`Site::propagated`]: super::Site::propagated
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
    /// See [`BoundFuture::body`](super::BoundFuture::body).
    pub body: u32,
    /// See [`FutureUse::branches`](super::FutureUse::branches).
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`](super::FutureUse::loops).
    pub loops: Vec<u32>,
}
