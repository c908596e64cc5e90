//! `block-on-in-async`: a call that blocks the thread on a future, made in async code.
//!
//! What it does: finds `futures::executor::block_on`, `Handle::block_on`, `Runtime::block_on`
//! (and the same through sync functions of the crate) called where the innermost enclosing
//! function, closure or `async` block is async.
//! Why is this bad: inside a tokio runtime, `Handle::block_on`/`Runtime::block_on` panic
//! ("Cannot start a runtime from within a runtime"); other executors' `block_on` block a worker
//! thread, and deadlock when the blocked future needs that thread.

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{self, Applicability, Edit, Fix};
use crate::model::{
    Blocking, BlockingCall, BlockingCaller, BlockingHelper, Body, BodyKind, Confidence,
};

pub const LINT: Lint = Lint {
    name: "block-on-in-async",
    default_level: Level::Warn,
    fixes: &[Applicability::Unsafe, Applicability::DisplayOnly],
    summary: "a call blocks the thread on a future (`block_on`) inside async code",
    doc: include_str!("../../lints/block-on-in-async.md"),
    reads: &[Reads::BlockingInAsync],
    check: Check::Model(check),
};

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    for b in &cx.model.blocking {
        let Some(body) = cx.model.body(b.body) else {
            continue;
        };
        if !body.kind.is_async() {
            continue;
        }
        out.push(report(cx, b, body));
    }
    for h in &cx.model.blocking_helpers {
        if let Some(d) = helper_report(cx, h) {
            out.push(d);
        }
    }
}

/// How surely a call of a blocking helper from async code blocks: `unknown` when the helper
/// blocks on some branches only and the call's arguments are not seen to select them;
/// `possible` when its literal arguments do (the branch is still one way of several).
fn caller_confidence(c: &BlockingCaller) -> Confidence {
    if !c.on_every_path && !c.selects_branch {
        Confidence::Unknown
    } else if c.on_every_path && c.unconditional && !c.by_name_only {
        Confidence::Definite
    } else {
        Confidence::Possible
    }
}

/// How many callers a finding names in its note; the rest are counted.
const CALLERS_SHOWN: usize = 3;

/// A blocking helper of this file, once at its `block_on`, with the async code of its unit that
/// calls it: the most certain callers first; none when a suppression covers every caller.
fn helper_report(cx: &LintContext<'_>, h: &BlockingHelper) -> Option<Diagnostic> {
    // A suppression at a caller's call leaves that caller out (it counts as used).
    let mut callers: Vec<(&BlockingCaller, Confidence)> = h
        .callers
        .iter()
        .filter(|c| !cx.suppressions.covers(LINT.name, c.span))
        .map(|c| (c, caller_confidence(c)))
        .collect();
    callers.sort_by(|(a, x), (b, y)| {
        y.cmp(x)
            .then_with(|| (&a.at, a.span.start).cmp(&(&b.at, b.span.start)))
    });
    let &(first, confidence) = callers.first()?;
    let spelling = &h.spelling;
    let function = &h.function;
    let message = match callers.len() {
        1 => format!(
            "`{function}` blocks the thread with {spelling} and is called inside {}",
            first.context
        ),
        n => format!(
            "`{function}` blocks the thread with {spelling} and is called inside async code at {n} places"
        ),
    };
    let primary = Label {
        span: h.span,
        message: "blocks the thread of its async callers until the future completes".to_string(),
    };
    let mut f = cx.report(&LINT, confidence, message, primary);
    let here = callers
        .iter()
        .filter(|(c, _)| c.span.file == h.span.file)
        .take(CALLERS_SHOWN);
    f.secondary(here.map(|(c, _)| Label {
        span: c.span,
        message: format!("called inside {}", c.context),
    }));
    f.note(runtime_note(spelling));
    let shown: Vec<String> = callers
        .iter()
        .take(CALLERS_SHOWN)
        .map(|(c, _)| {
            let chain = match c.via.len() {
                0 | 1 => String::new(),
                _ => format!(
                    " through {}",
                    c.via[..c.via.len() - 1]
                        .iter()
                        .map(|v| format!("`{v}`"))
                        .collect::<Vec<_>>()
                        .join(" → ")
                ),
            };
            format!("{} ({}:{}){chain}", c.context, c.at.0, c.at.1)
        })
        .collect();
    let more = match callers.len().saturating_sub(CALLERS_SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    f.note(format!(
        "called from async code at {} place{}: {}{more}",
        callers.len(),
        if callers.len() == 1 { "" } else { "s" },
        shown.join(", ")
    ));
    if !h.on_every_path && first.selects_branch {
        f.note(format!(
            "the blocking call is made only in some branches of `{function}`, and the literal arguments of the call in {} select them",
            first.context
        ));
    } else if !h.on_every_path {
        f.note("the blocking call is made only in some branches of the functions called, and the tool does not tell which branch the callers' arguments select");
    } else if first.via.len() > 1 && !first.on_every_path {
        f.note("the blocking call is made only in some branches of the functions on the way");
    }
    if first.by_name_only {
        f.note(
            "a method on the way is taken for the crate's only method of that name: the type of its receiver is not known",
        );
    }
    let message = format!(
        "make `{function}` async and await it, or run its calls in async code with `tokio::task::spawn_blocking` (or inside `tokio::task::block_in_place` on a multi-thread runtime)"
    );
    f.help(message.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, message, Vec::new()),
        None,
    );
    Some(f.finish())
}

/// Why blocking there is wrong: tokio's `block_on` panics inside a runtime, others block.
fn runtime_note(spelling: &str) -> String {
    if panics_in_runtime(spelling) {
        format!(
            "inside a tokio runtime, {spelling} panics with \"Cannot start a runtime from within a runtime\""
        )
    } else {
        format!(
            "{spelling} blocks a worker thread of the runtime until the future completes, and deadlocks when that future needs the blocked thread"
        )
    }
}

/// "the async fn `reconcile`", "an `async` block in `reconcile`".
fn context(cx: &LintContext<'_>, body: &Body) -> String {
    let function = cx
        .model
        .function_of(body.function)
        .map(|f| format!(" in `{}`", f.name));
    match body.kind {
        BodyKind::AsyncFn => match cx.model.function_of(body.function) {
            Some(f) => format!("the async fn `{}`", f.name),
            None => "an async fn".to_string(),
        },
        BodyKind::AsyncBlock => format!("an `async` block{}", function.unwrap_or_default()),
        BodyKind::AsyncClosure => format!("an async closure{}", function.unwrap_or_default()),
        // Not reported: sync code.
        BodyKind::Fn | BodyKind::Closure | BodyKind::Item => "sync code".to_string(),
    }
}

/// tokio's `Handle::block_on` and `Runtime::block_on` (the method form is one of them, or
/// another executor's) panic inside a runtime; `futures::executor::block_on` and friends block.
fn panics_in_runtime(spelling: &str) -> bool {
    let path = spelling.trim_matches('`');
    path.contains(".block_on")
        || path.contains("Handle")
        || path.contains("Runtime")
        || path.starts_with("tokio")
}

fn report(cx: &LintContext<'_>, b: &Blocking, body: &Body) -> Diagnostic {
    let context = context(cx, body);
    let spelling = &b.spelling;
    let (message, primary) = match b.via.first() {
        None => (
            format!("{spelling} blocks the thread inside {context}"),
            "blocks this thread until the future completes".to_string(),
        ),
        Some(first) => (
            format!("`{first}` blocks the thread with {spelling} and is called inside {context}"),
            format!("`{first}` blocks this thread until a future completes"),
        ),
    };
    // A helper that blocks on one branch only (a DNS lookup for a host name, not for an
    // address) blocks this caller only if its arguments select that branch, which the tool
    // does not tell: no evidence.
    let confidence = if !b.on_every_path {
        Confidence::Unknown
    } else if b.unconditional && !b.by_name_only {
        Confidence::Definite
    } else {
        Confidence::Possible
    };
    let primary = Label {
        span: b.span,
        message: primary,
    };
    let mut f = cx.report(&LINT, confidence, message, primary);
    f.secondary([Label {
        span: body.span,
        message: format!("{context} runs on a thread of the async runtime"),
    }]);
    f.note(runtime_note(spelling));
    if let (Some((file, line)), false) = (&b.defined_at, b.via.is_empty()) {
        let chain = b
            .via
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(" → ");
        f.note(format!(
            "{chain} is sync and calls {spelling} at {file}:{line}"
        ));
    }
    if !b.on_every_path {
        f.note("the blocking call is made only in some branches of the functions called, and the tool does not tell which branch this call's arguments select");
    } else if !b.unconditional {
        f.note("the call is made only in some branches of its function");
    }
    if b.by_name_only {
        f.note(
            "a method on the way is taken for the crate's only method of that name: the type of its receiver is not known",
        );
    }
    match &b.direct {
        Some(call) => {
            let (fix, why) = await_fix(cx, call);
            f.help(edit::help_text(&fix));
            f.fix(fix, Some(why));
        }
        None => {
            let first = b.via.first().map(String::as_str).unwrap_or("the function");
            let message = format!(
                "make `{first}` async and await it, or run it with `tokio::task::spawn_blocking` (or inside `tokio::task::block_in_place` on a multi-thread runtime)"
            );
            f.help(message.clone());
            f.fix(
                Fix::new(Applicability::DisplayOnly, message, Vec::new()),
                None,
            );
        }
    }
    f.finish()
}

/// `block_on(fut)` → `fut.await`: unsafe (the enclosing future now yields here), or display-only
/// when the receiver does more than name a runtime. Returns the fix and why it is not safe.
fn await_fix(cx: &LintContext<'_>, call: &BlockingCall) -> (Fix, &'static str) {
    let future = cx.source.snippet(call.future);
    let replacement = if call.future_needs_parens {
        format!("({future}).await")
    } else {
        format!("{future}.await")
    };
    let message = "await the future instead of blocking on it";
    let edits = vec![Edit::replace(call.span, replacement)];
    if !call.receiver_is_plain {
        return (
            Fix::new(Applicability::DisplayOnly, message, edits),
            "it would drop the code that makes the runtime, which does more than name one",
        );
    }
    (
        Fix::new(Applicability::Unsafe, message, edits),
        "the enclosing future now yields here, so what it holds across this point must be `Send` when it is spawned, and futures polled with it run meanwhile",
    )
}
