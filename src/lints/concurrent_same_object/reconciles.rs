//! One controller, many reconciles: kube runs the reconciles of different objects at once, so a
//! write whose object does not depend on the reconciled one is made concurrently by every
//! reconcile in flight (a read-modify-write of it loses updates).

use std::collections::HashMap;

use super::message::plural;
use super::LINT;
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Fix};
use crate::lints::LintContext;
use crate::model::{Confidence, ControllerRun, Request};

pub(super) fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    for (run, requests) in cx.model.controller_runs() {
        // The shared writes of this run, one group per object (in the words of the requests).
        let mut groups: Vec<Vec<(&Request, Confidence)>> = Vec::new();
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        for (i, r) in requests.iter().enumerate() {
            let Some(confidence) = r.shared_across_reconciles() else {
                continue;
            };
            let first = requests[..i]
                .iter()
                .position(|o| o.shared_across_reconciles().is_some() && o.same_words(r))
                .unwrap_or(i);
            let g = *group_of.entry(first).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push((r, confidence));
        }
        for group in &groups {
            if let Some(d) = report(cx, run, requests, group) {
                out.push(d);
            }
        }
    }
}

/// The finding of one group of shared writes (one object), at its most certain write, with the
/// controller's `run` as its site; None when a suppression comment covers either. The write may
/// be in another file (a helper the reconcile calls), whose suppressions the policy of this
/// file does not see: both places are asked here. A doc example's spans and those of the file
/// it documents share one file id: its findings stay at the `run`.
fn report(
    cx: &LintContext<'_>,
    run: &ControllerRun,
    requests: &[Request],
    group: &[(&Request, Confidence)],
) -> Option<Diagnostic> {
    // The most certain write, the first written on ties.
    let (w, confidence) = group
        .iter()
        .copied()
        .fold(group[0], |best, x| if x.1 > best.1 { x } else { best });
    if cx.suppressions.covers(LINT.name, w.written_at)
        || cx.suppressions.covers(LINT.name, run.span)
    {
        return None;
    }
    let object = w.object_description();
    let message = format!(
        "every reconcile of `{}` in flight {} {object}: the controller runs the reconciles of different objects at the same time",
        run.reconcile, w.verb.does
    );
    let at_run = Label {
        span: run.span,
        message: format!(
            "this controller runs reconciles of different objects concurrently, each of which {} {object}",
            w.verb.does
        ),
    };
    let mut f = if cx.doc_example {
        let mut f = cx.report(&LINT, confidence, message, at_run);
        for (r, _) in group {
            f.note(format!("the write: {}", r.describe()));
        }
        f
    } else {
        let at_write = Label {
            span: w.written_at,
            message: format!(
                "every reconcile of `{}` in flight makes this {}, at the same time",
                run.reconcile, w.verb.noun
            ),
        };
        let mut f = cx.report(&LINT, confidence, message, at_write);
        f.site(Label {
            span: run.span,
            message: "reconciles of different objects run concurrently here".to_string(),
        });
        f.note(format!(
            "the way from the controller's `run` ({}:{}) to the write: {}",
            cx.source.display,
            run.line,
            w.describe()
        ));
        for (r, _) in group.iter().filter(|(r, _)| !std::ptr::eq(*r, w)) {
            f.secondary([Label {
                span: r.written_at,
                message: format!("{} {object} here too", r.verb.does),
            }]);
            f.note(format!("another write of it: {}", r.describe()));
        }
        f
    };
    let read = requests.iter().find(|r| !r.is_write() && r.same_words(w));
    if let (Some(read), false) = (read, cx.doc_example) {
        f.secondary([Label {
            span: read.written_at,
            message: format!("{} {object} first", read.verb.does),
        }]);
    }
    f.note(match read {
        Some(read) => format!(
            "each reconcile also reads it ({}): a read-modify-write, whose updates are lost when two reconciles interleave",
            read.describe()
        ),
        None => format!(
            "the {} of different reconciles reach the API server in undefined order: each overwrites what the others wrote",
            plural(w.verb.noun)
        ),
    });
    if let Some(note) = super::message::refreshed_version_note(w) {
        f.note(note);
    }
    f.note("kube runs the reconciles of one object one at a time, but those of different objects concurrently (`controller::Config::concurrency`, no limit by default)");
    if confidence != Confidence::Definite {
        if let Some(note) = w.across_reconciles_note() {
            f.note(note);
        }
    }
    f.notes(crate::model::cfg_note(&[w]));
    let advice = "name the object after the reconciled one (one object per reconcile), carry the `resourceVersion` read in the write (it then fails with 409 Conflict instead of overwriting), or run one reconcile at a time: `.with_config(Config::default().concurrency(1))`";
    f.help(advice);
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    Some(f.finish())
}
