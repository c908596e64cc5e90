//! `await-order-inverted`: request futures created in one order and awaited in another.
//!
//! What it does: finds a request future bound by `let` that is polled (awaited, or joined) only
//! after a request future bound later was awaited, when the two may touch the same object and at
//! least one writes.
//! Why is this bad: futures are lazy; the requests take effect in await order, not in the order
//! the futures were created, which readers rarely expect.

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::text::line_start;
use crate::edit::{Applicability, Edit, Fix};
use crate::model::object_index::ObjectIndex;
use crate::model::{AwaitedFuture, BoundFuture, Confidence, FutureUse, Request, UseKind};
use crate::source::Span;

pub const LINT: Lint = Lint {
    name: "await-order-inverted",
    default_level: Level::Warn,
    fixes: &[Applicability::Unsafe, Applicability::DisplayOnly],
    summary: "request futures awaited in the reverse of the order they were created",
    doc: include_str!("../../lints/await-order-inverted.md"),
    reads: &[Reads::BoundFutures],
    check: Check::Model(check),
};

/// The earlier-created request and the later one that is sent before it.
struct Inversion<'m> {
    earlier: Request,
    later: Request,
    confidence: Confidence,
    /// Where the later request is awaited.
    later_await: &'m AwaitedFuture,
}

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    // Awaits by the objects of their requests: a future is compared only with the awaits that
    // may touch its objects (8,000 futures on 8,000 objects make 32 million pairs).
    let mut awaits_by_object = ObjectIndex::default();
    for (i, w) in cx.model.awaits.iter().enumerate() {
        for r in w.requests.iter().flat_map(|&k| cx.model.requests_of(k)) {
            awaits_by_object.add(i, r);
        }
    }
    let written_in_order = cx.model.awaits.windows(2).all(|w| w[0].span < w[1].span);
    for first in &cx.model.bound_futures {
        let Some(first_poll) = polled_in_own_body(first) else {
            continue;
        };
        // Its requests, once: thousands of awaits may follow it.
        let earlier: Vec<Request> = cx
            .model
            .operand_requests(&first.future)
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        if earlier.is_empty() {
            continue;
        }
        // The most certain inversion for this future, the first one written on ties.
        let mut best: Option<Inversion<'_>> = None;
        for &i in awaits_by_object.candidates(&earlier).iter() {
            let w = &cx.model.awaits[i];
            if !sent_before(cx, first, first_poll, w) {
                continue;
            }
            for inv in inversions(cx, &earlier, w) {
                if best.as_ref().map_or(true, |b| rank(&inv) >= rank(b)) {
                    best = Some(inv);
                }
            }
            // The awaits after this one are written later: none beats a definite inversion
            // (thousands of futures awaited in reverse would compare every pair).
            if written_in_order
                && best
                    .as_ref()
                    .is_some_and(|b| b.confidence == Confidence::Definite)
            {
                break;
            }
        }
        if let Some(inv) = best {
            out.push(report(cx, first, first_poll, &inv));
        }
    }
}

/// How an inversion ranks among those of one future: the most certain, then the first written.
fn rank(i: &Inversion<'_>) -> (Confidence, std::cmp::Reverse<(Span, Span, Span)>) {
    (
        i.confidence,
        std::cmp::Reverse((i.later_await.span, i.earlier.span, i.later.span)),
    )
}

/// Where a bound future is first polled, when that is an await or a join in the code that
/// bound it.
fn polled_in_own_body(f: &BoundFuture) -> Option<&FutureUse> {
    let u = f.first_use.as_ref()?;
    (matches!(u.kind, UseKind::Await | UseKind::Site) && u.body == f.body).then_some(u)
}

/// Whether `w` awaits a future made after `first`, before `first` is polled: one bound later,
/// or a request awaited where it is made (`api.delete(..).await`), which is sent before the
/// request of `first` that the code made first (a read made before a write and awaited after
/// it sees the state after the write).
fn sent_before(
    cx: &LintContext<'_>,
    first: &BoundFuture,
    first_poll: &FutureUse,
    w: &AwaitedFuture,
) -> bool {
    let order = cx.model.order();
    if !order.between(first.point(), w.point(), first_poll.point()) {
        return false;
    }
    // An await of what polls `first` itself (`select(first, stop).await`) sends nothing first.
    if w.requests.iter().any(|r| first.future.requests.contains(r)) {
        return false;
    }
    // The future awaited here was created when bound (after `first`?), or here.
    w.bound.map_or(true, |b| {
        cx.model
            .bound_futures
            .get(b)
            .is_some_and(|later| order.follows_in_pass(first.point(), later.stmt_point()))
    })
}

fn inversions<'m>(
    cx: &LintContext<'_>,
    earlier: &[Request],
    w: &'m AwaitedFuture,
) -> Vec<Inversion<'m>> {
    let mut found = Vec::new();
    for a in earlier {
        for b in w.requests.iter().flat_map(|&i| cx.model.requests_of(i)) {
            if !a.is_write() && !b.is_write() {
                continue;
            }
            if let Some(confidence) = a.same_object(b) {
                found.push(Inversion {
                    earlier: a.clone(),
                    later: b.clone(),
                    confidence,
                    later_await: w,
                });
            }
        }
    }
    found
}

fn report(
    cx: &LintContext<'_>,
    first: &BoundFuture,
    first_poll: &FutureUse,
    inv: &Inversion<'_>,
) -> Diagnostic {
    let (a, b) = (&inv.earlier, &inv.later);
    let message = match inv.confidence {
        Confidence::Definite => format!(
            "{} and {} of the same {} are awaited in the reverse of the order they were created",
            a.verb.noun,
            b.verb.noun,
            a.object_description()
        ),
        Confidence::Possible | Confidence::Unknown => format!(
            "{} of {} and {} of {} may touch the same object and are awaited in the reverse of the order they were created",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description()
        ),
    };
    let polled = match first_poll.kind {
        UseKind::Site => "polled",
        _ => "awaited",
    };
    let primary = Label {
        span: inv.later_await.span,
        message: format!("the {} is sent here, first", b.verb.noun),
    };
    let mut f = cx.report(&LINT, inv.confidence, message, primary);
    f.secondary([
        Label {
            span: a.span,
            message: format!(
                "{} here, but nothing is sent until `{}` is {polled}",
                created(a),
                first.name
            ),
        },
        Label {
            span: first_poll.span,
            message: format!("the {} is sent only here, second", a.verb.noun),
        },
    ]);
    f.note(format!(
        "futures are lazy: a request is sent when its future is first polled, so the {} reaches the API server before the {} although it was created after it",
        b.verb.noun, a.verb.noun
    ));
    f.unproved(a, b);
    f.notes(crate::model::cfg_note(&[a, b]));
    let (fix, why) = await_where_created(cx, first, first_poll, inv);
    f.fix(fix, Some(&why));
    f.help(format!(
        "await `{}` where it is created, or create the futures in the order they must reach the API server",
        first.name
    ));
    f.finish()
}

/// The fix: `.await` (and the `?` the later await had) at the end of the initialiser, and the
/// later await replaced by the value (removed when it was a statement of its own). Unsafe: the
/// request is then sent earlier. Display-only where moving the await changes more than that.
fn await_where_created(
    cx: &LintContext<'_>,
    first: &BoundFuture,
    first_poll: &FutureUse,
    inv: &Inversion<'_>,
) -> (Fix, String) {
    let name = &first.name;
    let message = format!("await `{name}` where it is created");
    let display_only = |why: String| {
        (
            Fix::new(Applicability::DisplayOnly, message.clone(), Vec::new()),
            why,
        )
    };
    let usage = match (&first_poll.kind, &first_poll.usage) {
        (UseKind::Await, Some(usage)) => usage,
        _ => {
            return display_only(format!(
                "`{name}` is polled by a join, which would need to be rewritten too"
            ))
        }
    };
    if first.branches != first_poll.branches || first.loops != first_poll.loops {
        return display_only(format!(
            "`{name}` is awaited in a branch or loop of its own, so awaiting it where it is created would send the {} also when that code does not run",
            inv.earlier.verb.noun
        ));
    }
    if first.typed {
        return display_only(format!(
            "the `let` of `{name}` names the future's type, which awaiting it changes"
        ));
    }
    let text = &cx.source.text;
    let file = cx.source.id;
    let init = first.init.span;
    let question = if usage.question_mark { "?" } else { "" };
    // `name.await?;` alone: nothing is left to do there, and the value was dropped there, so the
    // binding goes too (`let name = f;` becomes `f.await?;`), else it would be unused.
    let unbind = usage
        .statement
        .and_then(|_| binding_prefix(text, first.stmt, init));
    let init_text = &text[init.start..init.end];
    let parens = first.init.needs_parens || (unbind.is_some() && starts_block_like(init_text));
    let mut edits = Vec::new();
    // An insertion may not touch another edit: the binding and the parenthesis are one edit.
    match (unbind, parens) {
        (Some(prefix), true) => edits.push(Edit::replace(prefix, "(")),
        (Some(prefix), false) => edits.push(Edit::delete(prefix)),
        (None, true) => edits.push(Edit::insert(file, init.start, "(")),
        (None, false) => {}
    }
    if parens {
        edits.push(Edit::insert(file, init.end, format!(").await{question}")));
    } else {
        edits.push(Edit::insert(file, init.end, format!(".await{question}")));
    }
    match usage.statement {
        Some(stmt) => edits.push(Edit::delete(whole_lines(text, stmt))),
        None => edits.push(Edit::replace(usage.span, name.clone())),
    }
    (
        Fix::new(Applicability::Unsafe, message, edits),
        format!(
            "it sends the {} where `{name}` is created, before the {} (also when the code in between returns early), which may not be the order the program relies on",
            inv.earlier.verb.noun, inv.later.verb.noun
        ),
    )
}

/// `span` with the rest of its line(s) when nothing else is written there (its indentation and
/// line break included).
fn whole_lines(text: &str, span: Span) -> Span {
    let start = line_start(text, span.start);
    let line_end = crate::edit::text::line_end(text, span.end);
    if text[start..span.start].trim().is_empty() && text[span.end..line_end].trim().is_empty() {
        Span {
            start,
            end: line_end,
            ..span
        }
    } else {
        span
    }
}

/// `let name = ` (or `let mut name = `) before the initialiser of a `let` statement.
fn binding_prefix(text: &str, stmt: Span, init: Span) -> Option<Span> {
    let prefix = text.get(stmt.start..init.start)?;
    let binding = prefix.strip_prefix("let")?.trim_end().strip_suffix('=')?;
    let binding = binding.trim();
    let binding = binding.strip_prefix("mut ").unwrap_or(binding).trim();
    let simple = !binding.is_empty() && binding.chars().all(|c| c.is_alphanumeric() || c == '_');
    simple.then_some(Span {
        end: init.start,
        ..stmt
    })
}

/// An expression that, at the start of a statement, would end the statement at its block
/// (`match x { .. }.await?;` does not parse): it needs parentheses there.
fn starts_block_like(expr: &str) -> bool {
    let word = expr
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    expr.starts_with('{')
        || matches!(
            word,
            "if" | "match" | "unsafe" | "loop" | "while" | "for" | "const"
        )
}

/// "the create of Pod \"blog\" is made".
fn created(r: &Request) -> String {
    format!("the {} of {} is made", r.verb.noun, r.object_description())
}
