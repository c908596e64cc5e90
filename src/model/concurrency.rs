//! Concurrency sites: where futures are polled at once (`join!`, `select!`, `join_all`,
//! streams, `JoinSet`), their operands and batches, and how a site's value is used.

use super::{FutureExpr, NameExpr, ObjectName, Request, Root};
use crate::source::Span;

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
    ///
    /// [`BoundFuture::body`]: super::BoundFuture::body
    pub body: u32,
    /// See [`FutureUse::branches`](super::FutureUse::branches).
    pub branches: Vec<(u32, u32)>,
    /// See [`FutureUse::loops`](super::FutureUse::loops).
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
///
/// [`FutureUse::usage`]: super::FutureUse::usage
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
    /// What the argument is keyed by (see [`RawRequest::keyed_by`](super::RawRequest::keyed_by)).
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
