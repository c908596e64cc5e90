//! `concurrent-same-object`: requests on one Kubernetes object polled concurrently.
//!
//! What it does: finds combinators (`join!`, `try_join!`, `futures::future::join*`) whose
//! operands make requests that may touch the same object, at least one of them a write.
//! Why is this bad: the combinator polls its operands at once, so the order in which the requests
//! reach the API server is undefined; a `get` joined with the `create` of the same object usually
//! answers NotFound.

use super::{Lint, LintContext};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::model::{Access, Confidence, Request, Site, SiteKind};

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
        out.push(report(cx, site, best, conflicts.len()));
    }
}

fn conflicts<'m>(cx: &LintContext<'m>, site: &Site) -> Vec<Conflict<'m>> {
    let mut found = Vec::new();
    for (i, a_op) in site.operands.iter().enumerate() {
        for b_op in &site.operands[i + 1..] {
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
                        });
                    }
                }
            }
        }
    }
    found
}

fn report(cx: &LintContext<'_>, site: &Site, c: &Conflict<'_>, total: usize) -> Diagnostic {
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
        help: Some(sequential_help(cx, site)),
    }
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
