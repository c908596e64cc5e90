//! Program order: which code of a file can run after which.
//!
//! Every fact the builder records carries where it lies in the control flow of its body: the
//! body (function, closure, `async` block), the `if`/`match` arms it is in and the loops it is
//! in (ids from one pre-order counter, so an id smaller than another on the same path is the
//! construct around it). [`Order`] answers the lints' questions from that tree and from what
//! the builder found about leaving code early: arms that `return` or panic, arms that `break`
//! out of a loop or `continue` it (to the loop a label names; a `let`'s `else` is such an arm
//! too), loops that may run no pass, and where each body is made. Within straight-line code
//! of one body, evaluation order is the order of the source map (`at`); everything else
//! (exclusive arms, the next iteration of a loop, code after an arm that leaves, a closure made
//! later) comes from the tree. Lints ask these queries and never compare positions themselves.

use super::identity::{NameExpr, Root};
use crate::source::Span;

/// A point in the control flow of a file: where a request is made, a task spawned, a future
/// awaited, a `select!` left.
#[derive(Clone, Copy, Debug)]
pub struct Point<'a> {
    /// The function, closure or `async` block (see [`super::Body`]).
    body: u32,
    /// Its position in the source map: the order of straight-line code within the body.
    /// Private: only this module compares positions.
    at: usize,
    /// The `if`/`match` arms it lies in: (construct id, arm index), outermost first.
    branches: &'a [(u32, u32)],
    /// The loops (`for`, `while`, `loop`) it lies in, by id, outermost first.
    loops: &'a [u32],
}

impl<'a> Point<'a> {
    fn new(body: u32, at: usize, branches: &'a [(u32, u32)], loops: &'a [u32]) -> Self {
        Point {
            body,
            at,
            branches,
            loops,
        }
    }
}

/// Where a closure or `async` block is made in the body around it: it runs (at the earliest)
/// from there on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Made {
    pub body: u32,
    pub at: usize,
    pub branches: Vec<(u32, u32)>,
    pub loops: Vec<u32>,
}

impl Made {
    fn point(&self) -> Point<'_> {
        Point::new(self.body, self.at, &self.branches, &self.loops)
    }
}

/// A loop of a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub id: u32,
    /// Its code: the body, and a `while` loop's condition (run on every pass too).
    pub span: Span,
    pub body: u32,
    /// Bindings made while it runs (its pattern, its body's locals and reassignments): made
    /// anew on each iteration, so one of them on two iterations is two values.
    pub locals: std::ops::Range<u64>,
    /// Bindings made before it that it assigns (`i += 1`, `i = next`: code before the
    /// assignment in its body reads another value on each pass), and the values of the calls
    /// it makes (`Uuid::new_v4()`: another value on each pass), sorted.
    pub varying: Vec<u64>,
    /// It may run no pass (`for`, `while`; a `loop` runs at least one).
    pub may_skip: bool,
}

/// The control-flow facts of one file that positions alone do not give.
#[derive(Clone, Debug, Default)]
pub struct ControlFlow {
    /// Arms that leave their body at their end (`return`, a panic), keyed by the body.
    pub exits: LeavingArms,
    /// Arms that end with a `break` of a loop, keyed by the loop's id (every loop left).
    pub breaks: LeavingArms,
    /// Arms that end with a `continue` of a loop, keyed by the loop's id.
    pub continues: LeavingArms,
    /// By id.
    pub loops: Vec<Loop>,
    /// Where each body is made (None for functions and items), indexed by body id.
    pub made: Vec<Option<Made>>,
}

impl ControlFlow {
    pub fn new(
        exits: Vec<(Span, u32)>,
        breaks: Vec<(Span, u32)>,
        continues: Vec<(Span, u32)>,
        mut loops: Vec<Loop>,
        made: Vec<Option<Made>>,
    ) -> ControlFlow {
        loops.sort_unstable_by_key(|l| l.id);
        ControlFlow {
            exits: LeavingArms::new(exits),
            breaks: LeavingArms::new(breaks),
            continues: LeavingArms::new(continues),
            loops,
            made,
        }
    }

    fn loop_of(&self, id: u32) -> Option<&Loop> {
        let i = self.loops.binary_search_by_key(&id, |l| l.id).ok()?;
        self.loops.get(i)
    }
}

/// The queries lints ask about program order.
#[derive(Clone, Copy)]
pub struct Order<'m> {
    pub(super) flow: &'m ControlFlow,
}

impl<'m> Order<'m> {
    /// Whether `b` may run after `a` within one run of `a`'s body: later in the same pass
    /// (not in an arm excluded by `a`'s, not after an arm of `a` that leaves the body), or on
    /// a later iteration of a loop of that body holding both; code of a closure or `async`
    /// block counts where the closure or block is made.
    pub fn may_follow(&self, a: Point<'_>, b: Point<'_>) -> bool {
        self.may_follow_avoiding(a, b, None)
    }

    /// [`Order::may_follow`] on a path that does not pass `gate` (where a task's handle is
    /// awaited, say): `b` may run after `a` while what `gate` waits for may still run.
    pub fn may_follow_avoiding(&self, a: Point<'_>, b: Point<'_>, gate: Option<usize>) -> bool {
        let Some(b) = self.lift(b, a.body) else {
            return false;
        };
        (b.at > a.at && self.forward(a, b) && gate.map_or(true, |g| !(a.at < g && g <= b.at)))
            || self.loops_back(a, b, gate)
    }

    /// Whether `b` runs after `a` in the same pass through `a`'s body: written later, not in
    /// an excluded arm, not after an arm of `a` that leaves the body (no later iterations).
    pub fn follows_in_pass(&self, a: Point<'_>, b: Point<'_>) -> bool {
        self.lift(b, a.body)
            .is_some_and(|b| b.at > a.at && self.forward(a, b))
    }

    /// Whether `x` lies on the way from `a` to `b` in one pass of one body: after `a`, before
    /// `b`, and not in an arm `b` is excluded from.
    pub fn between(&self, a: Point<'_>, x: Point<'_>, b: Point<'_>) -> bool {
        x.body == a.body
            && a.at <= x.at
            && self
                .lift(b, a.body)
                .is_some_and(|b| x.at < b.at && !diverge(x.branches, b.branches))
    }

    /// Whether `x` lies on every way from `a` to `b` (see [`Order::may_follow`]): in `a`'s body,
    /// in no arm that `a` and `b` are not both in, not in the rest of a loop's pass that an arm
    /// of `a` skips (`break`, `continue`), and between them in one pass, or, when `b` follows
    /// `a` only on a later iteration, in the loop around both, outside the stretch from `b` to
    /// `a`. A `?` may leave too, but only ways that reach neither `x` nor `b`.
    pub fn on_every_way(&self, a: Point<'_>, x: Point<'_>, b: Point<'_>) -> bool {
        let Some(b) = self.lift(b, a.body) else {
            return false;
        };
        let unconditional = x
            .branches
            .iter()
            .all(|arm| a.branches.contains(arm) && b.branches.contains(arm));
        if x.body != a.body || !unconditional || self.skips(a, x.at) || self.may_not_run(a, x, b) {
            return false;
        }
        if b.at > a.at && self.forward(a, b) {
            return a.at <= x.at && x.at < b.at;
        }
        let innermost = self.common_loops(a, b).next();
        innermost.is_some_and(|l| x.loops.contains(&l.id) && !(b.at <= x.at && x.at <= a.at))
    }

    /// Whether one of the points `index` holds lies on every way from `a` to `b` (see
    /// [`Order::on_every_way`]); `point(i)` is the `i`-th. Only the points of `a`'s body, in
    /// arms both share, within the stretches that can qualify are looked at.
    pub fn any_on_every_way<'p>(
        &self,
        a: Point<'_>,
        b: Point<'_>,
        index: &PointIndex,
        point: impl Fn(usize) -> Point<'p>,
    ) -> bool {
        let Some(lifted) = self.lift(b, a.body) else {
            return false;
        };
        let stretches = if lifted.at > a.at && self.forward(a, lifted) {
            [a.at..lifted.at, 0..0]
        } else {
            match self.common_loops(a, lifted).next() {
                // Round the loop: before `b`, or after `a`.
                Some(l) => [l.span.start..lifted.at, a.at..l.span.end],
                None => return false,
            }
        };
        // A point in no arm that `a` and `b` are not both in lies in a prefix of the arms
        // they share (arms nest).
        let shared = a.branches.iter().zip(lifted.branches);
        let shared = shared.take_while(|(x, y)| x == y).count();
        (0..=shared).any(|depth| {
            stretches.iter().any(|at| {
                index
                    .within(a.body, &a.branches[..depth], at.clone())
                    .any(|i| self.on_every_way(a, point(i), b))
            })
        })
    }

    /// Whether `x` lies in a loop of its body that `a` and `b` are not both in and that may
    /// run no pass (`for`, `while`).
    fn may_not_run(&self, a: Point<'_>, x: Point<'_>, b: Point<'_>) -> bool {
        let own = x
            .loops
            .iter()
            .filter(|id| !(a.loops.contains(id) && b.loops.contains(id)));
        own.filter_map(|&id| self.flow.loop_of(id))
            .any(|l| l.body == x.body && l.may_skip)
    }

    /// Whether `name`, seen where `b` follows `a` only on a later iteration of a loop around
    /// both, may be another value there: it is rooted at a binding the loop makes anew on each
    /// iteration or assigns (a counter), or built in a way whose parts are not known (a fresh
    /// uuid).
    pub fn varies_round_the_loop(&self, a: Point<'_>, b: Point<'_>, name: &NameExpr) -> bool {
        let Some(b) = self.lift(b, a.body) else {
            return false;
        };
        let Some(outermost) = self.common_loops(a, b).last() else {
            return false;
        };
        varies_in(name, outermost)
    }

    /// [`Order::varies_round_the_loop`] for the object `request` names (a collection never
    /// varies).
    pub fn object_varies_round_the_loop(
        &self,
        a: Point<'_>,
        b: Point<'_>,
        request: &super::Request,
    ) -> bool {
        match &request.object {
            super::ObjectName::One { name, .. } => self.varies_round_the_loop(a, b, name),
            super::ObjectName::All => false,
        }
    }

    /// Whether `a` and `b` never both run in one run of their body: they lie in different arms
    /// of one `if`/`match` that no loop of the body around both repeats.
    pub fn exclusive(&self, a: Point<'_>, b: Point<'_>) -> bool {
        match divergence(a.branches, b.branches) {
            Some(construct) => !self.common_loops(a, b).any(|l| l.id < construct),
            None => false,
        }
    }

    /// Whether the code at `p` is followed at once by leaving the innermost loop of its body
    /// (an arm ending in `break`, in `continue` of a loop around it, or in `return` from inside
    /// the loop): it runs at most once per run of that loop. A `?` may leave, but not always.
    pub fn ends_its_loop(&self, p: Point<'_>) -> bool {
        let innermost = p
            .loops
            .iter()
            .rev()
            .filter_map(|&id| self.flow.loop_of(id))
            .find(|l| l.body == p.body);
        innermost.is_some_and(|l| {
            self.flow.breaks.innermost(l.id, p.at).is_some()
                || self
                    .flow
                    .exits
                    .innermost(p.body, p.at)
                    .is_some_and(|arm| arm.start > l.span.start)
        })
    }

    /// `b` seen from body `body`: itself, or where the closure or `async` block holding it is
    /// made (repeatedly); None when it is not made in `body`.
    fn lift<'p>(&'p self, mut b: Point<'p>, body: u32) -> Option<Point<'p>> {
        while b.body != body {
            let made = self.flow.made.get(b.body as usize)?.as_ref()?;
            b = made.point();
        }
        Some(b)
    }

    /// In one pass: `b` (later) is not in an arm `a` excludes, nor after an arm of `a` that
    /// leaves the body, nor in the rest of a loop's pass that an arm of `a` skips.
    fn forward(&self, a: Point<'_>, b: Point<'_>) -> bool {
        !diverge(a.branches, b.branches)
            && !self
                .flow
                .exits
                .innermost(a.body, a.at)
                .is_some_and(|arm| b.at >= arm.end)
            && !self.skips(a, b.at)
    }

    /// Whether position `at` of `a`'s body is in the rest of a loop's pass that an arm of `a`
    /// skips: after the arm, ending in `break` or `continue` of that loop, and within the loop
    /// (code after the loop runs after a `break`, and after the last pass a `continue` starts).
    fn skips(&self, a: Point<'_>, at: usize) -> bool {
        let own = a.loops.iter().filter_map(|&id| self.flow.loop_of(id));
        own.filter(|l| l.body == a.body && at < l.span.end)
            .any(|l| {
                [&self.flow.breaks, &self.flow.continues]
                    .iter()
                    .filter_map(|arms| arms.innermost(l.id, a.at))
                    .any(|arm| arm.end <= at)
            })
    }

    /// Around a loop of the body holding both: `a`, then the loop's next iteration, then `b`,
    /// unless `a` leaves the body or that loop first, or `gate` is on the way.
    fn loops_back(&self, a: Point<'_>, b: Point<'_>, gate: Option<usize>) -> bool {
        self.common_loops(a, b).any(|l| {
            let returns = self
                .flow
                .exits
                .innermost(a.body, a.at)
                .is_some_and(|arm| arm.start > l.span.start);
            let breaks = self.flow.breaks.innermost(l.id, a.at).is_some();
            let gated = gate.is_some_and(|g| {
                l.span.start <= g && g < l.span.end && !(b.at < g && g <= a.at) && !self.skips(a, g)
            });
            !returns && !breaks && !gated
        })
    }

    /// The loops of the body that hold both points, innermost first.
    fn common_loops<'s>(
        &'s self,
        a: Point<'s>,
        b: Point<'s>,
    ) -> impl Iterator<Item = &'s Loop> + 's {
        let shared = a
            .loops
            .iter()
            .zip(b.loops)
            .take_while(|(x, y)| x == y)
            .count();
        a.loops[..shared]
            .iter()
            .rev()
            .filter_map(move |&id| self.flow.loop_of(id))
            .filter(move |l| l.body == a.body)
    }
}

fn varies_in(name: &NameExpr, l: &Loop) -> bool {
    match name {
        NameExpr::Literal(_) => false,
        NameExpr::Path {
            root: Root::Binding(id),
            ..
        } => l.locals.contains(id) || l.varying.binary_search(id).is_ok(),
        NameExpr::Path { .. } => false,
        NameExpr::Computed { inputs, .. } => inputs.iter().any(|i| varies_in(i, l)),
        NameExpr::Format { parts, .. } => parts.iter().any(|p| varies_in(p, l)),
        NameExpr::Unknown => true,
    }
}

/// The first `if`/`match` whose arms the two paths take differently.
fn divergence(a: &[(u32, u32)], b: &[(u32, u32)]) -> Option<u32> {
    a.iter()
        .find(|(id, arm)| b.iter().any(|(oid, oarm)| oid == id && oarm != arm))
        .map(|(id, _)| *id)
}

fn diverge(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    divergence(a, b).is_some()
}

/// Arms that leave something at their end (a body by `return`, a loop by `break`), keyed by
/// what they leave. The innermost arm holding a point is found in logarithmic time plus the
/// nesting depth (thousands of spawns in arms that return, each compared with thousands of
/// requests, must not scan every arm).
#[derive(Clone, Debug, Default)]
pub struct LeavingArms {
    /// By start, outer arms before the arms they hold (syntax nests or is disjoint).
    arms: Vec<(Span, u32)>,
    /// The arm each one lies in, if any.
    parent: Vec<Option<usize>>,
}

impl LeavingArms {
    pub fn new(mut arms: Vec<(Span, u32)>) -> LeavingArms {
        arms.sort_by_key(|(s, _)| (s.start, std::cmp::Reverse(s.end)));
        let mut parent = Vec::with_capacity(arms.len());
        let mut open: Vec<usize> = Vec::new();
        for (i, (span, _)) in arms.iter().enumerate() {
            while open.last().is_some_and(|&o| arms[o].0.end < span.end) {
                open.pop();
            }
            parent.push(open.last().copied());
            open.push(i);
        }
        LeavingArms { arms, parent }
    }

    /// The innermost arm with key `key` that holds byte `at`.
    pub fn innermost(&self, key: u32, at: usize) -> Option<Span> {
        let last = self
            .arms
            .partition_point(|(s, _)| s.start <= at)
            .checked_sub(1)?;
        let mut next = Some(last);
        while let Some(i) = next {
            let (span, arm_key) = self.arms[i];
            if span.end >= at && arm_key == key {
                return Some(span);
            }
            next = self.parent[i];
        }
        None
    }
}

/// Points of one kind of fact (the timer waits of a file) by body, arms and position: those
/// that may lie on every way between two points are found without a scan of all of them
/// (thousands of spawns on one object, each compared with the others, and thousands of
/// timers).
#[derive(Clone, Debug, Default)]
pub struct PointIndex {
    /// Sorted.
    keys: Vec<IndexedPoint>,
}

/// Ordered by body, arms, position: the points of one body in one arm are a sorted run.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct IndexedPoint {
    body: u32,
    arms: Vec<(u32, u32)>,
    at: usize,
    /// The fact's index.
    fact: usize,
}

impl PointIndex {
    pub fn new<'p>(points: impl IntoIterator<Item = Point<'p>>) -> PointIndex {
        let keys = points.into_iter().enumerate();
        let mut keys: Vec<_> = keys
            .map(|(fact, p)| IndexedPoint {
                body: p.body,
                arms: p.branches.to_vec(),
                at: p.at,
                fact,
            })
            .collect();
        keys.sort_unstable();
        PointIndex { keys }
    }

    /// The facts whose points lie in `body`, in exactly the arms `arms`, at a position in `at`.
    fn within<'s>(
        &'s self,
        body: u32,
        arms: &'s [(u32, u32)],
        at: std::ops::Range<usize>,
    ) -> impl Iterator<Item = usize> + 's {
        let from = self
            .keys
            .partition_point(|k| (k.body, k.arms.as_slice(), k.at) < (body, arms, at.start));
        self.keys[from..]
            .iter()
            .take_while(move |k| k.body == body && k.arms == arms && k.at < at.end)
            .map(|k| k.fact)
    }
}

/// Points sorted by the arms they lie in, so that the points a given point excludes (those in
/// other arms of an `if`/`match` it is in) are skipped as a block: a `match` of 10,000 arms,
/// each calling one helper, is not compared arm with arm.
#[derive(Clone, Debug, Default)]
pub struct ArmIndex {
    /// (arms, the fact's index), sorted: the points of one arm are a run, inner arms inside it.
    keys: Vec<(Vec<(u32, u32)>, usize)>,
}

impl ArmIndex {
    pub fn new<'p>(points: impl IntoIterator<Item = Point<'p>>) -> ArmIndex {
        let keys = points.into_iter().enumerate();
        let mut keys: Vec<_> = keys.map(|(fact, p)| (p.branches.to_vec(), fact)).collect();
        keys.sort_unstable();
        ArmIndex { keys }
    }

    /// The facts that `p` may not exclude: every fact for which [`Order::exclusive`] (either
    /// way round) is false is among them, but some returned may still be exclusive with `p`.
    pub fn maybe_together(&self, p: Point<'_>) -> Vec<usize> {
        let mut out = Vec::new();
        let mut take = |range: std::ops::Range<usize>| {
            out.extend(self.keys[range].iter().map(|(_, fact)| *fact));
        };
        let (mut lo, mut hi) = (0, self.keys.len());
        for (depth, &(construct, arm)) in p.branches.iter().enumerate() {
            // A loop around `p` and the construct may repeat it: its other arms may run too.
            if p.loops.iter().any(|&id| id < construct) {
                break;
            }
            let run = &self.keys[lo..hi];
            // Within the run of the arms `p.branches[..depth]`: first the points in no deeper
            // arm, then by the next arm; the block of `construct` is excluded but for `arm`.
            let next = |key: &[(u32, u32)]| key.get(depth).copied();
            let block_lo =
                lo + run.partition_point(|(k, _)| next(k).map_or(true, |(c, _)| c < construct));
            let block_hi =
                lo + run.partition_point(|(k, _)| next(k).map_or(true, |(c, _)| c <= construct));
            let block = &self.keys[block_lo..block_hi];
            let arm_lo = block_lo + block.partition_point(|(k, _)| k[depth].1 < arm);
            let arm_hi = block_lo + block.partition_point(|(k, _)| k[depth].1 <= arm);
            take(lo..block_lo);
            take(block_hi..hi);
            (lo, hi) = (arm_lo, arm_hi);
        }
        take(lo..hi);
        out
    }
}

/// Where each fact lies in program order.
macro_rules! points {
    ($($fact:ident: $what:literal, $pos:expr, $branches:ident, $loops:ident;)*) => {$(
        impl super::$fact {
            #[doc = $what]
            pub fn point(&self) -> Point<'_> {
                let pos: fn(&Self) -> usize = $pos;
                Point::new(self.body, pos(self), &self.$branches, &self.$loops)
            }
        }
    )*};
}

points! {
    RawRequest: "Where the request is made: when its call is done, after its arguments (`outer(inner().await)` makes `inner` first).", |r| r.span.end, branches, loops;
    Spawn: "Where the spawn call returns: the task runs from there on.", |s| s.span.end, branches, loops;
    Site: "Where the site is done: code from there on runs after its futures finished or were dropped.", |s| s.span.end, branches, loops;
    Timeout: "Where the deadline's future is done or dropped.", |t| t.span.end, branches, loops;
    Abortable: "Where the wrapped future is made.", |a| a.span.end, branches, loops;
    AwaitedFuture: "Where the awaited future is polled.", |a| a.span.start, branches, loops;
    BoundFuture: "Where the `let` is done: the future exists from there on.", |b| b.stmt.end, branches, loops;
    FutureUse: "Where the future is used.", |u| u.span.start, branches, loops;
    TimerWait: "Where the timer is awaited.", |w| w.span.start, branches, loops;
}

impl super::Spawn {
    /// Where the spawn call is written (before the task exists).
    pub fn call_point(&self) -> Point<'_> {
        Point::new(self.body, self.span.start, &self.branches, &self.loops)
    }
}

impl super::BoundFuture {
    /// Where the `let` starts, before its initialiser runs.
    pub fn stmt_point(&self) -> Point<'_> {
        Point::new(self.body, self.stmt.start, &self.branches, &self.loops)
    }
}

impl super::Spawn {
    /// Where the task's handle can first have been awaited, and whether that is known (else
    /// later requests only may race).
    fn gate(&self) -> (Option<usize>, bool) {
        use super::TaskHandle;
        match self.handle {
            TaskHandle::Detached => (None, true),
            // Joined where the wait is done (`tokio::spawn(..).await` joins after the spawn).
            TaskHandle::Joined(at) => (Some(at.end), true),
            TaskHandle::InSet => (self.set_joined.map(|j| j.end), self.set_joined.is_some()),
            TaskHandle::Unknown => (
                self.handle_used.map(|u| u.start),
                self.handle_used.is_some(),
            ),
        }
    }

    /// Whether it is known where the task's handle can first have been awaited: until then the
    /// task surely may run; else code after the spawn only may meet it.
    pub fn window_known(&self) -> bool {
        self.gate().1
    }

    /// Where code runs after the task was aborted (`handle.abort()`), if it is.
    pub fn abort_point(&self) -> Option<Point<'_>> {
        let at = self.aborted?;
        Some(Point::new(self.body, at.end, &self.branches, &self.loops))
    }

    /// Where the task is awaited or joined, when that is written after `span` of this file
    /// (for a label: "the task is awaited only here").
    pub fn joined_after(&self, span: Span) -> Option<Span> {
        let joined = match self.handle {
            super::TaskHandle::Joined(at) => Some(at),
            super::TaskHandle::InSet => self.set_joined,
            _ => None,
        }?;
        (joined.file == span.file && joined.start > span.start && joined.start < joined.end)
            .then_some(joined)
    }
}

impl Order<'_> {
    /// Whether `b` may run while the task `spawn` started may still run: after the spawn, on a
    /// way that does not pass where its handle is first awaited.
    pub fn while_task_runs(&self, spawn: &super::Spawn, b: Point<'_>) -> bool {
        self.may_follow_avoiding(spawn.point(), b, spawn.gate().0)
    }

    /// Whether `a` runs before `b` in the same pass through `b`'s body (`a` in a closure or
    /// `async` block counts where that is made).
    pub fn precedes(&self, a: Point<'_>, b: Point<'_>) -> bool {
        self.lift(a, b.body)
            .is_some_and(|a| a.at < b.at && self.forward(a, b))
    }
}

/// Which of the file's requests are made as part of a spawned task's future (by position:
/// `tokio::spawn(pods.patch(..))` makes its request in the spawning body), computed once for
/// every request: thousands of spawns make per-spawn scans cubic.
pub fn made_in_spawned_tasks(spawns: &[super::Spawn], requests: &[super::RawRequest]) -> Vec<bool> {
    // A call that leaves a task running makes the caller's requests it makes besides.
    let mut spans: Vec<Span> = spawns
        .iter()
        .filter(|s| s.kind != super::SpawnKind::Call)
        .map(|s| s.span)
        .collect();
    spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
    // Outermost spans only (a spawn inside a task lies within it): disjoint and sorted.
    let mut outer: Vec<Span> = Vec::new();
    for s in spans {
        if outer.last().map_or(true, |o| !o.contains(&s)) {
            outer.push(s);
        }
    }
    requests
        .iter()
        .map(|raw| {
            let i = outer.partition_point(|o| o.start <= raw.span.start);
            i > 0 && outer[i - 1].contains(&raw.span)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::model::{build, link};
    use crate::source::SourceFile;

    /// Requests in nested arms, sibling constructs, loops around a `match` and closures.
    const CODE: &str = r#"
async fn f(pods: Api<Pod>, dp: DeleteParams, k: u32, c: bool) {
    pods.get("a").await;
    match k {
        0 => { pods.get("b").await; if c { pods.get("c").await; } else { pods.get("d").await; } }
        1 => { pods.get("e").await; if c { pods.get("f").await; } }
        _ => {}
    }
    if c { pods.get("g").await; } else { pods.get("h").await; }
    for i in 0..k {
        match i { 0 => { pods.get("i").await; } _ => { pods.get("j").await; } }
        if c { let g = async { pods.get("k").await }; g.await; }
    }
    loop { if c { pods.get("l").await; break; } else { pods.get("m").await; } }
}
"#;

    /// Every point that `Order::exclusive` does not set apart from another is among the
    /// index's candidates for it, and the index leaves some out.
    #[test]
    fn arm_index_keeps_every_point_that_may_run_with_another() {
        let source = SourceFile::new(0, "lib.rs".into(), CODE.to_string());
        let file = syn::parse_file(CODE).unwrap();
        let facts = build::build(&source, &file);
        let model = link::link_single(0, &facts, "lib.rs");
        let points: Vec<_> = model.raw.iter().map(|r| r.point()).collect();
        assert!(points.len() >= 13, "{}", points.len());
        let index = super::ArmIndex::new(points.iter().copied());
        let order = model.order();
        let mut left_out = 0;
        for (j, &b) in points.iter().enumerate() {
            let candidates = index.maybe_together(b);
            for (i, &a) in points.iter().enumerate() {
                if !order.exclusive(a, b) || !order.exclusive(b, a) {
                    assert!(candidates.contains(&i), "{i} missing for {j}");
                }
                left_out += usize::from(!candidates.contains(&i));
            }
        }
        assert!(left_out > 0);
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
