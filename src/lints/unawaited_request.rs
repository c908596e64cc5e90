//! `unawaited-request`: a request future that is never awaited or polled, so the request is
//! never sent.
//!
//! What it does: finds kube request futures dropped unpolled: `let _ = api.delete(..);`, an
//! expression statement without `.await`, a `let` binding never used, `drop(fut)`.
//! Why is this bad: futures are lazy; the request is never sent, and `let _ =` even silences
//! rustc's `unused_must_use` warning.

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Edit, Fix};
use crate::model::{Confidence, Request, Unpolled, UnpolledFuture};

pub const LINT: Lint = Lint {
    name: "unawaited-request",
    default_level: Level::Warn,
    fixes: &[Applicability::Unsafe, Applicability::DisplayOnly],
    summary: "a kube request future is dropped without being awaited, so nothing is sent",
    doc: include_str!("../../lints/unawaited-request.md"),
    reads: &[Reads::UnpolledFutures],
    check: Check::Model(check),
};

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    for u in &cx.model.unpolled {
        if let Some(d) = report(cx, u) {
            out.push(d);
        }
    }
}

fn report(cx: &LintContext<'_>, u: &UnpolledFuture) -> Option<Diagnostic> {
    let requests: Vec<_> = u
        .requests
        .iter()
        .flat_map(|&i| cx.model.requests_of(i))
        .filter(|r| !r.is_controllers())
        .collect();
    let first = requests.first()?;
    let what = match requests.len() {
        1 => format!(
            "the {} of {} is",
            first.verb.noun,
            first.object_description()
        ),
        n => format!(
            "the {} of {} and {} more request{} are",
            first.verb.noun,
            first.object_description(),
            n - 1,
            if n == 2 { "" } else { "s" }
        ),
    };
    // The rewritten line, when the future is written on one line.
    let text = cx.source.snippet(u.span);
    let one_line = (!text.contains('\n') && text.len() <= 80).then_some(text);
    let (why, help) = match &u.how {
        Unpolled::LetUnderscore => (
            "`let _ =` drops the future without awaiting it".to_string(),
            match one_line {
                Some(t) => format!("await it: `let _ = {t}.await;`"),
                None => "await it: add `.await` after the future".to_string(),
            },
        ),
        Unpolled::Statement => (
            "the future is dropped at the end of the statement without being awaited".to_string(),
            match one_line {
                Some(t) => format!("await it: `{t}.await;`"),
                None => "await it: add `.await` after the future".to_string(),
            },
        ),
        Unpolled::UnusedBinding(name) => (
            format!("`{name}` holds the future but is never awaited"),
            format!("await it (`{name}.await`), or remove the binding"),
        ),
        Unpolled::Dropped(name) => (
            format!("`{name}` is dropped before it is awaited"),
            format!("await `{name}` instead of dropping it, or remove it"),
        ),
    };
    let help = if u.in_async {
        help
    } else {
        "send the request from `async` code, where it can be awaited, or remove it".to_string()
    };
    let secondary = requests
        .iter()
        .filter(|r| !u.span.contains(&r.span) || requests.len() > 1)
        .map(|r| Label {
            span: r.span,
            message: format!("would {}", describe_infinitive(r)),
        });
    // Through a call found by its name alone, the future may make no request at all.
    let confidence = requests
        .iter()
        .map(|r| r.resolution.cap())
        .max()
        .unwrap_or(Confidence::Definite);
    // Doc examples show async code in a bare `async` block (so that it compiles without
    // running) or bind a request to show its type: illustrations, not code anyone runs.
    let illustration = cx.doc_example
        && (matches!(u.how, Unpolled::UnusedBinding(_)) || (u.async_block && !u.in_async));
    let confidence = if illustration {
        Confidence::Unknown
    } else {
        confidence
    };
    let primary = Label {
        span: u.span,
        message: "this future does nothing unless it is awaited or polled".to_string(),
    };
    let mut f = cx.report(
        &LINT,
        confidence,
        format!("{what} never sent: {why}"),
        primary,
    );
    f.secondary(secondary);
    f.note("futures are lazy: a kube request is sent only when its future is polled (`.await`, a join, a spawn)");
    if u.how == Unpolled::LetUnderscore {
        f.note("rustc's `unused_must_use` warning does not fire for `let _ =`");
    }
    if illustration {
        f.note(if u.async_block {
            "a documentation example's bare `async` block is the way docs show async code that compiles without running: taken for an illustration"
        } else {
            "a documentation example binding a request it never uses again shows what the call returns: taken for an illustration"
        });
    }
    let (fix, fix_note) = add_await(cx, u, &requests);
    f.fix(fix, Some(&fix_note));
    f.help(help);
    Some(f.finish())
}

/// The fix: `.await` at the end of the future, where `.await` can be written. Unsafe: a
/// request that was never sent will be.
fn add_await(cx: &LintContext<'_>, u: &UnpolledFuture, requests: &[&Request]) -> (Fix, String) {
    let message = match &u.how {
        Unpolled::UnusedBinding(name) | Unpolled::Dropped(name) => {
            format!("await the future of `{name}` where it is created")
        }
        Unpolled::LetUnderscore | Unpolled::Statement => "await the future".to_string(),
    };
    let display_only = |why: String| {
        (
            Fix::new(Applicability::DisplayOnly, &message, Vec::new()),
            why,
        )
    };
    if let Unpolled::Dropped(name) = &u.how {
        return display_only(format!(
            "`drop({name})` may mean that the request is not wanted: await `{name}` instead, or remove it"
        ));
    }
    if !u.in_async {
        return display_only(
            "`.await` cannot be written here: the enclosing function or closure is not `async`"
                .to_string(),
        );
    }
    if u.typed {
        return display_only(
            "the `let` names the future's type, which awaiting it changes".to_string(),
        );
    }
    let file = cx.source.id;
    let expr = u.expr.span;
    let edits = if u.expr.needs_parens {
        vec![
            Edit::insert(file, expr.start, "("),
            Edit::insert(file, expr.end, ").await"),
        ]
    } else {
        vec![Edit::insert(file, expr.end, ".await")]
    };
    let sent: Vec<String> = requests.iter().map(|r| describe_infinitive(r)).collect();
    let sent = match sent.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} and {last}", init.join(", ")),
        None => "send the request".to_string(),
    };
    (
        Fix::new(Applicability::Unsafe, message, edits),
        format!("the program will then {sent}, which it never did: make sure it should"),
    )
}

/// "delete Pod \"x\"" from "deletes Pod \"x\"".
fn describe_infinitive(r: &crate::model::Request) -> String {
    // "deletes and waits for the removal of": every verb of the phrase.
    let verb = r
        .verb
        .does
        .split(" and ")
        .map(|does| match does.split_once(' ') {
            Some((v, rest)) => format!("{} {rest}", infinitive(v)),
            None => infinitive(does),
        })
        .collect::<Vec<_>>()
        .join(" and ");
    format!("{verb} {}", r.object_description())
}

fn infinitive(v: &str) -> String {
    if let Some(stem) = v.strip_suffix("ches").or_else(|| v.strip_suffix("shes")) {
        format!("{stem}{}", &v[stem.len()..stem.len() + 2])
    } else if let Some(stem) = v.strip_suffix('s') {
        stem.to_string()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::infinitive;

    #[test]
    fn infinitives_of_the_verbs() {
        for (does, to) in [
            ("patches", "patch"),
            ("publishes", "publish"),
            ("deletes", "delete"),
            ("replaces", "replace"),
            ("waits", "wait"),
        ] {
            assert_eq!(infinitive(does), to);
        }
    }
}
