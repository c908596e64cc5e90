//! `cancellable-write`: a write whose future can be dropped after its request was sent.
//!
//! What it does: finds writes in the futures of `select!` arms (not their handlers), of
//! `futures::future::select`/`select_all`/`select_ok`, under `tokio::time::timeout`, in aborted
//! tasks and in `Abortable` futures; reported more strongly when the code then writes the same
//! object again, or retries, as if the first write had not happened.
//! Why is this bad: a request future dropped after the request reached the API server does not
//! undo it: the caller cannot know whether the write took effect.

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Fix};
use crate::model::{excludes, Confidence, Operand, Request, SiteKind};
use crate::source::Span;

pub const LINT: Lint = Lint {
    name: "cancellable-write",
    default_level: Level::Warn,
    fixes: &[Applicability::DisplayOnly],
    summary: "a write's future can be dropped after its request was sent (select, timeout, abort)",
    doc: include_str!("../../lints/cancellable-write.md"),
    reads: &[Reads::Sites, Reads::Timeouts],
    check: Check::Model(check),
};

/// What may drop the future.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Canceller {
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
struct Cancellable<'m> {
    how: Canceller,
    /// Where the cancelling construct is.
    span: Span,
    /// What drops the future: "`tokio::select!`", "`tokio::time::timeout`", "aborting the task
    /// spawned by `tokio::spawn`".
    by: String,
    future: &'m Operand,
    /// From where on code runs after the cancellation (the end of the site, the `abort()`).
    after: usize,
    /// Handlers of the other `select!` arms: they run after this arm's future was dropped.
    handlers: Vec<usize>,
    in_loop: bool,
    /// The body the cancellation happens in.
    body: u32,
    /// After the cancellation, the code that follows does not run: the result goes to a `?`,
    /// or every arm that can win leaves the function.
    leaves: bool,
}

/// What happens after the write may have been cancelled.
enum FollowUp {
    /// Another write on the object, in the same function; `demoted`: why that is no evidence
    /// of a reordering that matters (see [`follow_up`]).
    Write {
        next: Box<Request>,
        demoted: Option<&'static str>,
    },
    /// The same write, on the next iteration of a loop.
    Retry,
    None,
}

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    let mut found: Vec<Diagnostic> = Vec::new();
    for c in cancellables(cx) {
        for (index, write) in cx
            .model
            .operand_requests(c.future)
            .into_iter()
            .filter(|(_, r)| r.is_write() && !r.is_controllers())
        {
            let Some(d) = report_write(cx, &c, index, &write) else {
                continue;
            };
            // One finding per write (a write under a timeout in a `select!` arm): the most
            // certain, the first found on ties.
            match found.iter_mut().find(|f| f.primary.span == d.primary.span) {
                Some(f) if d.confidence > f.confidence => *f = d,
                Some(_) => {}
                None => found.push(d),
            }
        }
    }
    out.extend(found);
}

fn cancellables<'m>(cx: &'m LintContext<'_>) -> Vec<Cancellable<'m>> {
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
                        after: site.span.end,
                        handlers,
                        in_loop: site.in_loop,
                        body: site.body,
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
                        after: site.span.end,
                        handlers: Vec::new(),
                        in_loop: site.in_loop,
                        body: site.body,
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
            after: t.span.end,
            handlers: Vec::new(),
            in_loop: t.in_loop,
            body: t.body,
            leaves: t.propagated,
        });
    }
    for s in &model.spawns {
        if let Some(at) = s.aborted {
            out.push(Cancellable {
                how: Canceller::Abort,
                span: at,
                by: format!("aborting the task spawned by {}", s.spelling),
                future: &s.task,
                after: at.end,
                handlers: Vec::new(),
                in_loop: false,
                body: s.body,
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
            after: a.span.end,
            handlers: Vec::new(),
            in_loop: false,
            body: a.body,
            leaves: false,
        });
    }
    out
}

/// The first write on the same object made after the cancellation, the most certain first.
fn follow_up(cx: &LintContext<'_>, c: &Cancellable<'_>, index: usize, write: &Request) -> FollowUp {
    let model = cx.model;
    let Some(raw) = model.raw.get(index) else {
        return FollowUp::None;
    };
    let mut best: Option<(Confidence, Request, Option<&'static str>)> = None;
    let mut consider = |r: &Request, made: &crate::model::RawRequest| {
        if !r.is_write() || r.span == write.span {
            return;
        }
        if let Some(conf) = write.same_object(r) {
            // A wait for a timer in between (`sleep(lease_duration).await`) most likely
            // outlasts the request in flight: no evidence that the two can reorder.
            let demoted = if model.waits_between(c.body, c.after, made) {
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
            if best.as_ref().map_or(true, |(b, _, _)| rank > *b) {
                best = Some((rank, r.clone(), demoted));
            }
        }
    };
    for &h in &c.handlers {
        let Some(made) = model.raw.get(h) else {
            continue;
        };
        for r in model.requests_of(h) {
            consider(r, made);
        }
    }
    if !c.leaves {
        for (i, other) in model.raw.iter().enumerate() {
            if other.function != raw.function
                || other.function.is_none()
                || !model.runs_after(c.body, c.after, other)
                || excludes(&raw.branches, &other.branches)
            {
                continue;
            }
            for r in model.requests_of(i) {
                consider(r, other);
            }
        }
    }
    match best {
        // A direct write is still reported in the weak form (it may have landed); one through
        // a helper only with `--min-confidence unknown`.
        Some((_, _, Some(_))) if write.via.is_empty() => FollowUp::None,
        Some((_, r, demoted)) => FollowUp::Write {
            next: Box::new(r),
            demoted,
        },
        None if c.in_loop && !c.leaves => FollowUp::Retry,
        None => FollowUp::None,
    }
}

fn report_write(
    cx: &LintContext<'_>,
    c: &Cancellable<'_>,
    index: usize,
    write: &Request,
) -> Option<Diagnostic> {
    let follow = follow_up(cx, c, index, write);
    let through_helper = !write.via.is_empty();
    // A function of the crate raced against something (a whole controller loop against a
    // shutdown signal) is reported only when the same object is written again afterwards.
    if through_helper && !matches!(follow, FollowUp::Write { .. }) {
        return None;
    }
    let object = write.object_description();
    let noun = write.verb.noun;
    let by = &c.by;
    let (message, confidence) = match &follow {
        FollowUp::Write { next, demoted } => match write.same_object(next) {
            Some(Confidence::Definite) if demoted.is_none() => (
                format!(
                    "{noun} of {object} cancelled by {by} may still take effect after the {} of the same object that follows it",
                    next.verb.noun
                ),
                Confidence::Definite,
            ),
            other => (
                format!(
                    "{noun} of {object} cancelled by {by} may still take effect after the {} of {} that follows it",
                    next.verb.noun,
                    next.object_description()
                ),
                match demoted {
                    Some(_) => Confidence::Unknown,
                    None => other.unwrap_or(Confidence::Unknown).min(Confidence::Possible),
                },
            ),
        },
        FollowUp::Retry => (
            format!(
                "{noun} of {object} cancelled by {by} is sent again by the loop while the first one may still take effect"
            ),
            Confidence::Definite,
        ),
        FollowUp::None => (
            format!("{noun} of {object} can be cancelled by {by} after it was sent"),
            Confidence::Possible,
        ),
    };
    // `select` functions hand the losing future back: it is dropped only if not polled again.
    let confidence = match c.how {
        Canceller::SelectFn { dropped: false } => confidence.min(Confidence::Possible),
        _ => confidence,
    };
    // A write reached through a call found by its name alone may not be made at all.
    let confidence = confidence.min(write.resolution.cap());
    let how_dropped = match c.how {
        Canceller::SelectArm => format!(
            "when another arm finishes first, {by} drops this future, possibly after its request reached the API server"
        ),
        Canceller::SelectFn { dropped: true } => format!(
            "when the other future finishes first, {by} hands this one back and it is dropped, possibly after its request reached the API server"
        ),
        Canceller::SelectFn { dropped: false } => format!(
            "when the other future finishes first, {by} hands this one back; unless it is polled again, it is dropped, possibly after its request reached the API server"
        ),
        Canceller::Timeout => format!(
            "when the deadline passes, {by} drops the future, possibly after its request reached the API server"
        ),
        Canceller::Abort => {
            "`abort()` cancels the task at its next `.await`, possibly after its request reached the API server".to_string()
        }
        Canceller::Abortable => format!(
            "`abort()` on the `AbortHandle` that {by} returns drops the future, possibly after its request reached the API server"
        ),
    };
    let mut notes = vec![
        how_dropped,
        format!("the caller cannot know whether the {noun} took effect"),
    ];
    let mut secondary = vec![Label {
        span: c.span,
        message: match c.how {
            Canceller::Abort => "the task is aborted here".to_string(),
            Canceller::Timeout => "the deadline can drop the future".to_string(),
            _ => format!("{by} can drop the future"),
        },
    }];
    match &follow {
        FollowUp::Write { next, demoted } => {
            if let Some(why) = demoted {
                notes.push(why.to_string());
            }
            notes.push(if next.verb.noun == noun {
                format!(
                    "the second {noun} is made as if the first had not happened, but both can reach the API server, in either order"
                )
            } else {
                format!(
                    "the {} is made as if the {noun} had not happened, but both can reach the API server, in either order",
                    next.verb.noun
                )
            });
            secondary.push(Label {
                span: next.span,
                message: format!("{}, afterwards", next.describe()),
            });
        }
        FollowUp::Retry => notes.push(format!(
            "the loop sends the {noun} again, as if the first one had not happened"
        )),
        FollowUp::None => {}
    }
    notes.extend(match &follow {
        FollowUp::Write { next, .. } => crate::model::cfg_note(&[write, next]),
        _ => crate::model::cfg_note(&[write]),
    });
    let advice = match c.how {
        Canceller::SelectArm => format!(
            "finish the {noun} before racing it: await it before the select, or move it into the handler of its arm; or make what follows idempotent (server-side apply, a resourceVersion precondition)"
        ),
        Canceller::SelectFn { .. } => format!(
            "await the {noun} before the select, or make what follows idempotent (server-side apply, a resourceVersion precondition)"
        ),
        Canceller::Timeout => format!(
            "await the {noun} without a deadline (the kube client has its own timeouts), or make what follows idempotent (server-side apply, a resourceVersion precondition)"
        ),
        Canceller::Abort | Canceller::Abortable => format!(
            "let the task finish its {noun} before stopping it (signal it, then await its handle), or make what follows idempotent (server-side apply, a resourceVersion precondition)"
        ),
    };
    let primary = Label {
        span: write.span,
        message: format!("{}, in a future that can be dropped", write.describe()),
    };
    let mut f = cx.report(&LINT, confidence, message, primary);
    f.secondary(secondary);
    f.notes(notes);
    f.help(advice.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    Some(f.finish())
}
