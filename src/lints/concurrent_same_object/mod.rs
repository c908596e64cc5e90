//! `concurrent-same-object`: requests on one Kubernetes object polled concurrently.
//!
//! What it does: finds concurrency sites (`join!`, `try_join!`, `join_all`, `select!`,
//! `FuturesUnordered`, `buffer_unordered`, `for_each_concurrent`, `JoinSet`, spawned tasks, thread
//! scopes, …) whose futures make requests that may touch the same object, at least one of them a
//! write. A batch (one future per element of a collection) conflicts with itself when the object
//! does not depend on the element.
//! Why is this bad: the site polls its futures at once, so the order in which the requests reach
//! the API server is undefined; a `get` joined with the `create` of the same object usually
//! answers NotFound.
//!
//! The declaration, the check and the finding assembled here; the conflicting pairs are found in
//! [`conflicts`], worded in [`message`] and fixed in [`fix`].

mod conflicts;
mod fix;
mod handlers;
mod message;
mod reconciles;

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{self, Applicability, Fix};
use crate::model::{Confidence, ControllerRun, Request, Site, SiteKind};
use conflicts::{by_object, conflicts, Conflict, ObjectGroup};
use fix::site_fix;
use message::{consequence, group_note, plural, repeated_consequence, sequential_help};

pub const LINT: Lint = Lint {
    name: "concurrent-same-object",
    default_level: Level::Warn,
    fixes: &[
        Applicability::Safe,
        Applicability::Unsafe,
        Applicability::DisplayOnly,
    ],
    summary: "requests on the same Kubernetes object run concurrently, in undefined order",
    doc: include_str!("../../../lints/concurrent-same-object.md"),
    reads: &[Reads::Sites, Reads::Controllers, Reads::Handlers],
    check: Check::Model(check),
};

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    reconciles::check(cx, out);
    handlers::check(cx, out);
    for site in &cx.model.sites {
        let conflicts = conflicts(cx, site);
        // Report each object the site's requests conflict on once, with its most certain pair
        // (the first one written on ties): a `join!` of thousands of operands on fifty objects
        // is fifty findings, not a finding per pair.
        // A join's rewrite serialises every group at once: built once, the same for each.
        let mut join_fix = None;
        for group in by_object(&conflicts) {
            let Some(best) = group.conflicts.iter().copied().max_by_key(|c| {
                (
                    c.confidence,
                    std::cmp::Reverse((c.first.span, c.second.span)),
                )
            }) else {
                continue;
            };
            let fix = match site.kind {
                SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => join_fix
                    .get_or_insert_with(|| site_fix(cx, site, best, &conflicts))
                    .clone(),
                _ => site_fix(cx, site, best, &conflicts),
            };
            out.push(report(cx, site, best, &group, fix));
        }
    }
}

/// The finding of one object's conflicts (`group`) at `site`, with the site's fix (built from
/// all its conflicts, so that every finding of a join carries the same rewrite).
fn report(
    cx: &LintContext<'_>,
    site: &Site,
    c: &Conflict<'_>,
    group: &ObjectGroup<'_, '_>,
    (fix, why): (Fix, Option<String>),
) -> Diagnostic {
    if let (Some(x), Some(y)) = (&c.first.controller, &c.second.controller) {
        return controllers_report(cx, site, c, (x, y));
    }
    let total = group.pairs;
    let (a, b) = (&c.first, &c.second);
    let spelling = &site.spelling;
    let message = message::headline(site, c);
    let same_request = c.batch.as_ref().is_some_and(|p| p.same_request);
    let primary = Label {
        span: site.span,
        message: format!(
            "{}, so their order at the API server is undefined",
            site.kind.how_concurrent(spelling)
        ),
    };
    let mut f = cx.report(&LINT, c.confidence, message, primary);
    f.note(if same_request {
        repeated_consequence(a)
    } else {
        consequence(a, b)
    });
    match &c.batch {
        Some(p) if p.shared.is_some() => {
            f.note(format!(
                "the object is named by the element's {}, which several elements of `{}` can share: they then name one object",
                p.shared.unwrap_or_default(),
                p.batch.over
            ));
        }
        Some(p) if p.keyed => {
            f.note(format!(
                "the objects are computed from the element: different elements of `{}` normally name different objects (reported because batch checking is on)",
                p.batch.over
            ));
        }
        _ if c.confidence != Confidence::Definite && same_request => {
            f.note(format!(
                "the tool cannot prove that {} names a different object for each element",
                a.object_description()
            ));
        }
        _ => {
            f.unproved(a, b);
        }
    }
    f.notes(crate::model::cfg_note(&[a, b]));
    match group.requests {
        n if n > 2 => {
            f.note(group_note(n, total, spelling, a));
        }
        _ => {
            f.more_pairs(
                total,
                &format!("in this {spelling} may conflict the same way"),
            );
        }
    }
    let help = match site.kind {
        _ if !fix.edits.is_empty() => edit::help_text(&fix),
        SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => sequential_help(cx, site),
        _ => fix.message.clone(),
    };
    f.fix(fix, why.as_deref());
    let per_element = |r: &Request| match &c.batch {
        Some(p) => format!("{}, once per element of `{}`", r.describe(), p.batch.over),
        None => r.describe(),
    };
    f.secondary([Label {
        span: a.span,
        message: per_element(a),
    }]);
    if !same_request {
        f.secondary([Label {
            span: b.span,
            message: per_element(b),
        }]);
    }
    f.help(help);
    f.finish()
}

/// Two controllers run at once whose reconciles write the same objects: kube keeps the
/// reconciles of one object apart only within one controller.
fn controllers_report(
    cx: &LintContext<'_>,
    site: &Site,
    c: &Conflict<'_>,
    (x, y): (&ControllerRun, &ControllerRun),
) -> Diagnostic {
    let (a, b) = (&c.first, &c.second);
    let kind = a.handle.kind_or_object();
    // One reconcile writes each object it is handed: the object they meet on is the other's.
    let covering =
        Request::covering_pair(a, b).map(|(every, named)| match std::ptr::eq(every, &**a) {
            true => (x, y, named),
            false => (y, x, named),
        });
    let object = match covering {
        Some((_, _, named)) => named.object_description(),
        None => a.object_description(),
    };
    let message = if a.verb.noun == b.verb.noun {
        format!(
            "{} of the controllers reconciling with `{}` and `{}` meet on {}, concurrently in {}",
            plural(a.verb.noun),
            x.reconcile,
            y.reconcile,
            object,
            site.spelling
        )
    } else {
        format!(
            "the {} of the controller reconciling with `{}` and the {} of the one reconciling with `{}` meet on {}, concurrently in {}",
            a.verb.noun,
            x.reconcile,
            b.verb.noun,
            y.reconcile,
            object,
            site.spelling
        )
    };
    // At the controller's `run` when it is in this file, else at the call leading to it.
    let label = |r: &Request, run: &ControllerRun| Label {
        span: if run.span.file == site.span.file {
            run.span
        } else {
            r.span
        },
        message: format!("this controller's reconcile: {}", r.describe()),
    };
    let advice = format!(
        "let one controller own these writes of {kind} (the other can read them, or ask it through the object's spec), or reconcile both in one controller"
    );
    let primary = Label {
        span: site.span,
        message: format!(
            "{}: both controllers run at once",
            site.kind.how_concurrent(&site.spelling)
        ),
    };
    let mut f = cx.report(&LINT, c.confidence, message, primary);
    f.secondary([label(a, x), label(b, y)]);
    f.note(consequence(a, b));
    if let Some((every, other, named)) = covering {
        f.note(format!(
            "the reconcile `{}` writes each {kind} it is handed, so it writes whichever one `{}` writes ({}): the name is not compared, the evidence is that one of the two writes every {kind} its controller watches",
            every.reconcile,
            other.reconcile,
            named.object_description()
        ));
    }
    // One name a field of the object reconciled, the other that field of a fetched one.
    let by_field = Request::reconciled_fetched_pair(a, b).map(|(reconciled, fetched)| {
        match std::ptr::eq(reconciled, &**a) {
            true => (x, y, fetched),
            false => (y, x, fetched),
        }
    });
    if let Some(note) = by_field.and_then(message::fetched_field_note) {
        f.note(note);
    }
    for note in [&**a, &**b]
        .into_iter()
        .filter_map(message::refreshed_version_note)
    {
        f.note(note);
    }
    // A read of the written object before the write, in either reconcile: a read-modify-write.
    for (w, run, operand) in [(a, x, c.operands.0), (b, y, c.operands.1)] {
        let requests = cx.model.operand_requests(&site.operands[operand]);
        if let Some((_, read)) = requests
            .iter()
            .find(|(_, r)| !r.is_write() && r.same_words(w))
        {
            f.note(format!(
                "the reconcile `{}` reads the object before writing it ({}): a read-modify-write, whose update the other controller's write can undo",
                run.reconcile,
                read.describe()
            ));
        }
    }
    match by_field {
        Some((_, _, fetched)) => {
            f.note(format!(
                "each controller reconciles its own objects, independently of the other: nothing orders their writes of one {kind}"
            ));
            if let Some(of) = fetched.fetched.as_deref() {
                f.note(format!(
                    "the writes meet when the {} fetched is one the other controller reconciles, which the tool does not check",
                    of.kind
                ));
            }
        }
        None => {
            f.note(format!(
                "kube never runs two reconciles of one object at once within one controller, but each controller reconciles every {kind} it watches, independently of the other"
            ));
            f.note("the controllers meet on the same objects unless their watchers select different ones (label or field selectors), which the tool does not check");
        }
    }
    f.help(advice.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    f.finish()
}
