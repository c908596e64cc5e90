//! `concurrent-same-object`: requests on one Kubernetes object polled concurrently.
//!
//! What it does: finds combinators (`join!`, `try_join!`, `futures::future::join*`) whose
//! operands make requests that may touch the same object, at least one of them a write.
//! Why is this bad: the combinator polls its operands at once, so the order in which the requests
//! reach the API server is undefined; a `get` joined with the `create` of the same object usually
//! answers NotFound.

use super::{Lint, LintContext};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::fix::{self, Applicability, Fix};
use crate::model::{Access, Confidence, OperandForm, Request, Site, SiteKind};

pub const LINT: Lint = Lint {
    name: "concurrent-same-object",
    summary: "requests on the same Kubernetes object run concurrently, in undefined order",
    doc: include_str!("../../lints/concurrent-same-object.md"),
    check,
};

/// Two requests of one site that may touch the same object.
struct Conflict<'m> {
    first: &'m Request,
    second: &'m Request,
    confidence: Confidence,
    /// The operands making the two requests.
    operands: (usize, usize),
}

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    for site in &cx.model.sites {
        let conflicts = conflicts(cx, site);
        // Report the combinator once, with its most certain pair (the first one written on ties).
        let Some(best) = conflicts.iter().max_by_key(|c| {
            (
                c.confidence,
                std::cmp::Reverse((c.first.span, c.second.span)),
            )
        }) else {
            continue;
        };
        out.push(report(cx, site, best, &conflicts));
    }
}

fn conflicts<'m>(cx: &LintContext<'m>, site: &Site) -> Vec<Conflict<'m>> {
    let mut found = Vec::new();
    for (i, a_op) in site.operands.iter().enumerate() {
        for (j, b_op) in site.operands.iter().enumerate().skip(i + 1) {
            for a in a_op.requests.iter().flat_map(|&r| cx.model.requests_of(r)) {
                for b in b_op.requests.iter().flat_map(|&r| cx.model.requests_of(r)) {
                    if !a.is_write() && !b.is_write() {
                        continue;
                    }
                    if let Some(confidence) = a.same_object(b) {
                        found.push(Conflict {
                            first: a,
                            second: b,
                            confidence,
                            operands: (i, j),
                        });
                    }
                }
            }
        }
    }
    found
}

fn report(cx: &LintContext<'_>, site: &Site, c: &Conflict<'_>, all: &[Conflict<'_>]) -> Diagnostic {
    let total = all.len();
    let (a, b) = (c.first, c.second);
    let message = match c.confidence {
        Confidence::Definite => format!(
            "{} of the same {} run concurrently in {}",
            pair_of(a.verb.noun, b.verb.noun),
            a.object_description(),
            site.spelling
        ),
        Confidence::Possible => format!(
            "{} of {} and {} of {} may touch the same object concurrently in {}",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description(),
            site.spelling
        ),
    };
    let mut notes = vec![consequence(a, b)];
    if c.confidence == Confidence::Possible {
        notes.push(format!(
            "the tool cannot prove that {} and {} are different objects",
            a.object_description(),
            b.object_description()
        ));
    }
    if total > 1 {
        notes.push(format!(
            "{} more pair{} of requests in this {} may conflict the same way",
            total - 1,
            if total == 2 { "" } else { "s" },
            site.spelling
        ));
    }
    let (fix, why) = sequential_fix(cx, site, all);
    match (fix.applicability, why) {
        (Applicability::Unsafe, Some(why)) => notes.push(format!("the fix is unsafe: {why}")),
        (Applicability::DisplayOnly, Some(why)) => {
            notes.push(format!("the fix is not applied automatically: {why}"))
        }
        _ => {}
    }
    let help = if fix.edits.is_empty() {
        sequential_help(cx, site)
    } else {
        fix::help_text(&fix)
    };
    Diagnostic {
        lint: LINT.name,
        severity: Severity::for_confidence(c.confidence),
        confidence: c.confidence,
        message,
        primary: Label {
            span: site.span,
            message: format!(
                "{} polls these futures at the same time, so their order at the API server is undefined",
                site.spelling
            ),
        },
        secondary: vec![
            Label {
                span: a.span,
                message: a.describe(),
            },
            Label {
                span: b.span,
                message: b.describe(),
            },
        ],
        notes,
        help: Some(help),
        fix: Some(fix),
    }
}

/// Operands that must run in order: connected by conflicts, each group in written order.
fn conflict_groups(operands: usize, conflicts: &[Conflict<'_>]) -> Vec<Vec<usize>> {
    // Union-find over operand indices; tiny, so no ranks.
    let mut parent: Vec<usize> = (0..operands).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in conflicts {
        let (a, b) = (
            root(&mut parent, c.operands.0),
            root(&mut parent, c.operands.1),
        );
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..operands {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|g| g[0] == r) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.retain(|g| g.len() > 1);
    groups
}

/// The fix: the conflicting operands awaited in order (the others kept concurrent when the
/// site allows it), with its applicability and, unless safe, why.
fn sequential_fix(
    cx: &LintContext<'_>,
    site: &Site,
    conflicts: &[Conflict<'_>],
) -> (Fix, Option<String>) {
    let groups = conflict_groups(site.operands.len(), conflicts);
    let Some(rewrite) = fix::sequential::rewrite(cx.source, site, &groups) else {
        let fix = Fix::new(
            Applicability::DisplayOnly,
            "await the requests one after another, in the order written",
            Vec::new(),
        );
        return (
            fix,
            Some("the tool cannot rewrite this form of join".into()),
        );
    };
    let message = if rewrite.partial {
        "await the conflicting requests one after another and keep the others concurrent"
    } else {
        "await the requests one after another, in the order written"
    };
    let fallible = matches!(
        site.kind,
        SiteKind::JoinMacro { fallible: true } | SiteKind::JoinFn { fallible: true }
    );
    let opaque = rewrite
        .serialised
        .iter()
        .any(|&i| site.operands[i].form != OperandForm::Request);
    let mut unsafe_because = Vec::new();
    if fallible {
        unsafe_because.push(format!(
            "after an error, the requests after the failing one are never sent, where {} may have sent them",
            site.spelling
        ));
    }
    if opaque {
        unsafe_because.push(
            "a future that is not a plain request may wait for another one (a channel, a lock) and then never finish when they are awaited in order"
                .to_string(),
        );
    }
    let (applicability, why) = if rewrite.becomes_async_block {
        (
            Applicability::DisplayOnly,
            Some(format!(
                "the future of {} is kept for later, and an `async` block has another type (it is not `Unpin`)",
                site.spelling
            )),
        )
    } else if rewrite.drops_comments {
        (
            Applicability::DisplayOnly,
            Some("it would drop the comments written inside the join".to_string()),
        )
    } else if !unsafe_because.is_empty() {
        (Applicability::Unsafe, Some(unsafe_because.join("; ")))
    } else {
        (Applicability::Safe, None)
    };
    (Fix::new(applicability, message, rewrite.edits), why)
}

/// What can go wrong, in one sentence, for the pair in the order written.
fn consequence(a: &Request, b: &Request) -> String {
    let (na, nb) = (a.verb.noun, b.verb.noun);
    let text = match (a.verb.access, b.verb.access) {
        (Access::Write, Access::Read) if a.verb.method == "create" => {
            format!("the {nb} can reach the API server before the {na} takes effect and answer NotFound")
        }
        (Access::Write, Access::Read) => {
            format!("the {nb} can reach the API server before the {na} takes effect and see the old state")
        }
        (Access::Read, Access::Write) => {
            format!(
                "the {na} can see the object before or after the {nb}, differently from run to run"
            )
        }
        _ if a.verb.method == "create" && b.verb.method == "delete" => {
            format!("the {nb} can run before the {na} and fail with NotFound, leaving the new object in place")
        }
        _ if a.verb.method == "delete" || b.verb.method == "delete" => {
            let other = if a.verb.method == "delete" { nb } else { na };
            format!("the {other} can run after the delete and fail with NotFound, or before it and be lost with the object")
        }
        _ => format!(
            "{} can land in either order, and the last one wins",
            the_pair_of(na, nb)
        ),
    };
    text
}

/// "create and get", "two patches".
fn pair_of(a: &str, b: &str) -> String {
    if a == b {
        format!("two {}", plural(a))
    } else {
        format!("{a} and {b}")
    }
}

/// "the create and the get", "the two patches".
fn the_pair_of(a: &str, b: &str) -> String {
    if a == b {
        format!("the two {}", plural(a))
    } else {
        format!("the {a} and the {b}")
    }
}

fn plural(noun: &str) -> String {
    if noun.ends_with("ch") || noun.ends_with("sh") || noun.ends_with('s') || noun.ends_with('x') {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// The site rewritten as sequential awaits, in the order written.
fn sequential_help(cx: &LintContext<'_>, site: &Site) -> String {
    let fallible = matches!(
        site.kind,
        SiteKind::JoinMacro { fallible: true } | SiteKind::JoinFn { fallible: true }
    );
    let operand_text = |i: usize| {
        let text = cx.source.snippet(site.operands[i].span);
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let elements = site
        .binding
        .as_ref()
        .and_then(|b| b.elements.as_ref())
        .filter(|e| e.len() == site.operands.len());
    let question = if fallible { "?" } else { "" };
    let lines: Vec<String> = (0..site.operands.len())
        .map(|i| match elements {
            Some(names) => format!("let {} = {}.await{question};", names[i], operand_text(i)),
            None => format!("{}.await{question};", operand_text(i)),
        })
        .collect();
    format!(
        "await the requests one after another, in the order written:\n{}",
        lines
            .iter()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}
