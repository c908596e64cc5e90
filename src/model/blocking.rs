//! Calls that block the thread on a future (`block_on`): as written, and after linking through
//! the crate's sync functions (with a blocking helper's async callers).

use crate::source::Span;
use std::sync::Arc;

/// A call that blocks the thread until a future completes: `futures::executor::block_on(fut)`,
/// `Handle::block_on`, `Runtime::block_on`.
#[derive(Clone, Debug)]
pub struct BlockingCall {
    /// The whole call.
    pub span: Span,
    /// 1-based line of `span.start` (see [`RawRequest::line`](super::RawRequest::line)).
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
    /// See [`BoundFuture::body`](super::BoundFuture::body).
    pub body: u32,
    /// See [`FutureUse::branches`](super::FutureUse::branches).
    pub branches: Vec<(u32, u32)>,
    /// The arms before it in its body that leave the body (`if !wait { return None; }`), not
    /// exclusive with it: each one's path of branches, itself last. The call is made only when
    /// none of them is taken.
    pub exits_before: Vec<Vec<(u32, u32)>>,
}

impl BlockingCall {
    /// Made whenever its body runs: in no branch, after no arm that leaves the body.
    pub fn on_every_path(&self) -> bool {
        self.branches.is_empty() && self.exits_before.is_empty()
    }
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
    /// It is not, but the call's literal arguments select the branches of the helper it is made
    /// in (`wait(true)` of `if wait { block_on(..) }`, see [`Selection`]), and every call on
    /// the way is made on every path through its function.
    pub selects_branch: bool,
    /// And the call itself is not in a branch of its async function.
    pub unconditional: bool,
    /// A method on the way was found by its name alone.
    pub by_name_only: bool,
}

/// A value a call passes, when it is a literal: what selects a branch of the callee that tests
/// the parameter (see [`ArmCondition`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Bool(bool),
    Int(i128),
    Char(char),
    /// A string literal (`"web"`, `"web".to_string()`).
    Str(String),
    /// `None`.
    None,
    /// `Some(..)`, whatever it holds.
    Some,
}

/// When an arm of an `if` or `match` runs, as a test of one parameter of its function alone
/// (`if wait`, `if !wait`, `if mode == "sync"`, `if let Some(_) = timeout`, `match mode { "sync"
/// => .., _ => .. }`): the arm runs exactly when the parameter's value is one of `is` (any value
/// for None) and none of `is_not` (the literals of earlier arms). A parameter declared `mut` is
/// not tested (it may change before the test). Recorded in
/// [`FileFacts::arm_conditions`](super::FileFacts::arm_conditions), by (construct id, arm).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmCondition {
    /// The parameter's binding id (see [`FunctionFacts::params`](super::FunctionFacts::params)).
    pub param: u64,
    pub is: Option<Vec<Literal>>,
    /// The literals of every arm of the construct, in order, shared by its arms: this arm's
    /// `is_not` is the first `earlier` of them. One list per `match`, not one per arm, which
    /// would grow with the square of the arms.
    literals: Arc<[Literal]>,
    earlier: usize,
}

impl ArmCondition {
    /// An arm that runs for `is` (any value for None) and none of the first `earlier` of
    /// `literals`.
    pub fn new(
        param: u64,
        is: Option<Vec<Literal>>,
        literals: Arc<[Literal]>,
        earlier: usize,
    ) -> Self {
        let earlier = earlier.min(literals.len());
        ArmCondition {
            param,
            is,
            literals,
            earlier,
        }
    }

    /// The literals of earlier arms, for which this arm does not run.
    pub fn is_not(&self) -> &[Literal] {
        &self.literals[..self.earlier]
    }

    /// Whether the arm runs when the parameter holds `value`.
    pub fn runs_with(&self, value: &Literal) -> bool {
        self.is.as_ref().map_or(true, |is| is.contains(value)) && !self.is_not().contains(value)
    }
}

/// What a call's literal arguments tell of a branch of its callee (see [`ArmCondition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every arm on the way to it is tested on a parameter, and the call's arguments pass them
    /// (and fail every arm before it that leaves the function).
    Selected,
    /// Some arm on the way is tested on a parameter the call passes a literal for that fails it:
    /// the call never reaches the branch.
    Avoided,
    /// Not told.
    Unknown,
}
