//! What becomes of request futures: bound by `let` and used, awaited where written, dropped
//! unpolled; and awaited timers.

use super::{Operand, SiteUsage};
use crate::source::Span;

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
    ///
    /// [`FunctionFacts::lazy_future`]: super::FunctionFacts::lazy_future
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
