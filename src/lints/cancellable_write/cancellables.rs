//! Where a future making writes can be dropped (select arms, timeouts, aborts), and what the
//! code does after the write may have been cancelled.

use super::LintContext;
use crate::model::{Confidence, Operand, Point, Request, SiteKind};
use crate::source::Span;

/// What may drop the future.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Canceller {
    /// An arm future of `select!`.
    SelectArm,
    /// `futures::future::select*`: the losing future is handed back; `dropped` when the result
    /// is thrown away at once.
    SelectFn {
        dropped: bool,
    },
    Timeout,
    Abort,
    Abortable,
}

/// One place where a future making writes can be dropped.
pub(super) struct Cancellable<'m> {
    pub(super) how: Canceller,
    /// Where the cancelling construct is.
    pub(super) span: Span,
    /// What drops the future: "`tokio::select!`", "`tokio::time::timeout`", "aborting the task
    /// spawned by `tokio::spawn`".
    pub(super) by: String,
    pub(super) future: &'m Operand,
    /// From where on code runs after the cancellation (the end of the site, the `abort()`).
    after: Point<'m>,
    /// Handlers of the other `select!` arms: they run after this arm's future was dropped.
    handlers: Vec<usize>,
    in_loop: bool,
    /// After the cancellation, the code that follows does not run: the result goes to a `?`,
    /// or every arm that can win leaves the function.
    leaves: bool,
}

/// What happens after the write may have been cancelled.
pub(super) enum FollowUp {
    /// Another write on the object, in the same function; `demoted`: why that is no evidence
    /// of a reordering that matters (see [`follow_up`]).
    Write {
        next: Box<Request>,
        demoted: Option<&'static str>,
        /// It follows only on the next iteration of a loop around both.
        next_iteration: bool,
    },
    /// The same write, on the next iteration of a loop.
    Retry,
    /// Weaker evidence of a second request on the object: a write after a timer wait or a
    /// delete the write cannot survive (see [`follow_up`]), or a caller running the function
    /// again (`again`: that call's raw index).
    Weak { again: Option<usize> },
    /// Nothing writes the object again: no second request for the write to meet.
    None,
}

pub(super) fn cancellables<'m>(cx: &'m LintContext<'_>) -> Vec<Cancellable<'m>> {
    let model = cx.model;
    let mut out = Vec::new();
    for site in &model.sites {
        match site.kind {
            SiteKind::SelectMacro { .. } => {
                // A single future is never dropped for another, unless a `default` arm runs
                // when it is not ready at once.
                let has_default = site.arms.iter().any(|a| a.is_default);
                if site.operands.len() < 2 && !has_default {
                    continue;
                }
                for (k, arm) in site.arms.iter().enumerate() {
                    let Some(future) = arm.future.and_then(|f| site.operands.get(f)) else {
                        continue;
                    };
                    // The arms that can win instead of this one (`else` runs only when every
                    // arm is disabled; a future that never finishes never wins).
                    let winners: Vec<_> = site
                        .arms
                        .iter()
                        .enumerate()
                        .filter(|(j, other)| {
                            *j != k
                                && ((other.future.is_some() && !other.never_finishes)
                                    || other.is_default)
                        })
                        .map(|(_, other)| other)
                        .collect();
                    if winners.is_empty() {
                        continue;
                    }
                    let handlers = winners
                        .iter()
                        .flat_map(|other| other.handler_requests.iter().copied())
                        .collect();
                    out.push(Cancellable {
                        how: Canceller::SelectArm,
                        span: site.span,
                        by: site.spelling.clone(),
                        future,
                        after: site.point(),
                        handlers,
                        in_loop: site.in_loop,
                        leaves: site.propagated || winners.iter().all(|w| w.exits),
                    });
                }
            }
            SiteKind::SelectFn => {
                let dropped = site.usage.statement.is_some()
                    || site
                        .binding
                        .as_ref()
                        .is_some_and(|b| cx.source.snippet(b.pattern).trim() == "_");
                for future in &site.operands {
                    out.push(Cancellable {
                        how: Canceller::SelectFn { dropped },
                        span: site.span,
                        by: site.spelling.clone(),
                        future,
                        after: site.point(),
                        handlers: Vec::new(),
                        in_loop: site.in_loop,
                        leaves: site.propagated,
                    });
                }
            }
            _ => {}
        }
    }
    for t in &model.timeouts {
        out.push(Cancellable {
            how: Canceller::Timeout,
            span: t.span,
            by: t.spelling.clone(),
            future: &t.future,
            after: t.point(),
            handlers: Vec::new(),
            in_loop: t.in_loop,
            leaves: t.propagated,
        });
    }
    for s in &model.spawns {
        if let (Some(at), Some(after)) = (s.aborted, s.abort_point()) {
            out.push(Cancellable {
                how: Canceller::Abort,
                span: at,
                by: format!("aborting the task spawned by {}", s.spelling),
                future: &s.task,
                after,
                handlers: Vec::new(),
                in_loop: false,
                leaves: false,
            });
        }
    }
    for a in &model.abortables {
        out.push(Cancellable {
            how: Canceller::Abortable,
            span: a.span,
            by: a.spelling.clone(),
            future: &a.future,
            after: a.point(),
            handlers: Vec::new(),
            in_loop: false,
            leaves: false,
        });
    }
    out
}

/// The first write on the same object made after the cancellation, the most certain first.
pub(super) fn follow_up(
    cx: &LintContext<'_>,
    c: &Cancellable<'_>,
    index: usize,
    write: &Request,
) -> FollowUp {
    let model = cx.model;
    let Some(raw) = model.raw.get(index) else {
        return FollowUp::None;
    };
    let order = model.order();
    let mut best: Option<(Confidence, Request, Option<&'static str>, bool)> = None;
    let mut consider = |r: &Request, made: &crate::model::RawRequest, next_iteration: bool| {
        if !r.is_write() || r.span == write.span {
            return;
        }
        if let Some(conf) = write.same_object(r) {
            // A wait for a timer in between (`sleep(lease_duration).await`) most likely
            // outlasts the request in flight: no evidence that the two can reorder.
            let named_anew =
                |r: &Request| order.object_varies_round_the_loop(c.after, made.point(), r);
            let demoted = if next_iteration && (named_anew(write) || named_anew(r)) {
                Some("it is made on a later iteration of the loop, and the object's name is made anew on each one")
            } else if model.waits_on_every_way(c.after, made.point()) {
                Some("the code waits for a timer before it, which most likely outlasts the request in flight")
            } else if r.verb.deletes_one() && !write.may_create {
                Some("landing after the delete, a write that cannot create the object fails with NotFound")
            } else {
                None
            };
            let rank = if demoted.is_some() {
                Confidence::Unknown
            } else {
                conf
            };
            if best.as_ref().map_or(true, |(b, ..)| rank > *b) {
                best = Some((rank, r.clone(), demoted, next_iteration));
            }
        }
    };
    for &h in &c.handlers {
        let Some(made) = model.raw.get(h) else {
            continue;
        };
        for r in model.requests_of(h) {
            consider(r, made, false);
        }
    }
    if !c.leaves {
        for (i, other) in model.raw.iter().enumerate() {
            if other.function != raw.function
                || other.function.is_none()
                || !order.may_follow(c.after, other.point())
                || order.exclusive(raw.point(), other.point())
            {
                continue;
            }
            let next_iteration = !order.follows_in_pass(c.after, other.point());
            for r in model.requests_of(i) {
                consider(r, other, next_iteration);
            }
        }
    }
    match best {
        // A direct write is still reported in the weak form (it may have landed); one through
        // a helper only with `--min-confidence unknown`.
        Some((_, _, Some(_), _)) if write.via.is_empty() => FollowUp::Weak { again: None },
        Some((_, r, demoted, next_iteration)) => FollowUp::Write {
            next: Box::new(r),
            demoted,
            next_iteration,
        },
        // The write sent again on the next pass is of another object when its name is made
        // anew on each pass (`format!("{base}-{i}")`, a fresh suffix): no hazard across passes.
        None if c.in_loop
            && !c.leaves
            && !order.object_varies_round_the_loop(c.after, raw.point(), write) =>
        {
            FollowUp::Retry
        }
        // The function making it is run again by a caller in this file (a renewal loop). Not
        // a create: of two creates of one object, whichever lands second fails with 409
        // AlreadyExists, so a late one overwrites nothing.
        None => match model.called_again(index) {
            Some(j) if write.via.is_empty() && !write.verb.creates() => {
                FollowUp::Weak { again: Some(j) }
            }
            _ => FollowUp::None,
        },
    }
}
