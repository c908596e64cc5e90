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

use super::{Lint, LintContext};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::fix::{self, Applicability, Fix};
use crate::model::{Access, Batch, Confidence, ObjectName, OperandForm, Request, Site, SiteKind};

pub const LINT: Lint = Lint {
    name: "concurrent-same-object",
    summary: "requests on the same Kubernetes object run concurrently, in undefined order",
    doc: include_str!("../../lints/concurrent-same-object.md"),
    check,
};

/// Two requests of one site that may touch the same object.
struct Conflict<'s> {
    first: Request,
    second: Request,
    confidence: Confidence,
    /// The operands making the two requests (the same one for a batch with itself).
    operands: (usize, usize),
    /// Both come from one batch operand, for different elements.
    batch: Option<BatchPair<'s>>,
}

struct BatchPair<'s> {
    batch: &'s Batch,
    /// The same request, made once per element.
    same_request: bool,
    /// Both objects are computed from the element (reported only with batch checking).
    keyed: bool,
}

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    for site in &cx.model.sites {
        let conflicts = conflicts(cx, site);
        // Report the site once, with its most certain pair (the first one written on ties).
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

fn conflicts<'s>(cx: &LintContext<'_>, site: &'s Site) -> Vec<Conflict<'s>> {
    let operands: Vec<Vec<(usize, Request)>> = site
        .operands
        .iter()
        .map(|op| cx.model.operand_requests(op))
        .collect();
    let mut found = Vec::new();
    // Requests of different operands run concurrently.
    for (i, a_reqs) in operands.iter().enumerate() {
        for (j, b_reqs) in operands.iter().enumerate().skip(i + 1) {
            for (_, a) in a_reqs {
                for (_, b) in b_reqs {
                    if !a.is_write() && !b.is_write() {
                        continue;
                    }
                    if let Some(confidence) = a.same_object(b) {
                        found.push(Conflict {
                            first: a.clone(),
                            second: b.clone(),
                            confidence,
                            operands: (i, j),
                            batch: None,
                        });
                    }
                }
            }
        }
    }
    // A batch runs its requests once per element, the elements concurrently.
    for (i, (op, reqs)) in site.operands.iter().zip(&operands).enumerate() {
        let Some(batch) = &op.batch else { continue };
        for (x, (ia, a)) in reqs.iter().enumerate() {
            for (ib, b) in &reqs[x..] {
                if let Some(mut c) = batch_conflict(cx, batch, (*ia, a), (*ib, b)) {
                    c.operands = (i, i);
                    found.push(c);
                }
            }
        }
    }
    found
}

/// Request `a` for one element and `b` for another.
fn batch_conflict<'s>(
    cx: &LintContext<'_>,
    batch: &'s Batch,
    (ia, a): (usize, &Request),
    (ib, b): (usize, &Request),
) -> Option<Conflict<'s>> {
    if !a.is_write() && !b.is_write() {
        return None;
    }
    let mut confidence = a.same_object(b)?;
    let keyed = batch.keys(a) && batch.keys(b);
    if keyed {
        // Different elements normally name different objects.
        if !cx.batch_checking {
            return None;
        }
        confidence = Confidence::Possible;
    } else if batch.keys(a) || batch.keys(b) || varies(batch, a) || varies(batch, b) {
        confidence = Confidence::Possible;
    }
    Some(Conflict {
        first: a.clone(),
        second: b.clone(),
        confidence,
        operands: (0, 0),
        batch: Some(BatchPair {
            batch,
            same_request: ia == ib && a.span == b.span,
            keyed,
        }),
    })
}

/// The object name is rooted at a binding made anew for each element: not provably the same.
fn varies(batch: &Batch, r: &Request) -> bool {
    match &r.object {
        ObjectName::One { name, .. } => batch.is_local(name),
        ObjectName::All => false,
    }
}

fn report(cx: &LintContext<'_>, site: &Site, c: &Conflict<'_>, all: &[Conflict<'_>]) -> Diagnostic {
    let total = all.len();
    let (a, b) = (&c.first, &c.second);
    let spelling = &site.spelling;
    let message = match (&c.batch, c.confidence) {
        (Some(p), Confidence::Definite) if p.same_request => format!(
            "{} of the same {} run concurrently, one per element of `{}`, in {spelling}",
            plural(a.verb.noun),
            a.object_description(),
            p.batch.over
        ),
        (Some(p), Confidence::Possible) if p.same_request => format!(
            "{} of {}, one per element of `{}`, may touch the same object concurrently in {spelling}",
            plural(a.verb.noun),
            a.object_description(),
            p.batch.over
        ),
        (Some(p), Confidence::Definite) => format!(
            "{} of the same {} run concurrently for different elements of `{}` in {spelling}",
            pair_of(a.verb.noun, b.verb.noun),
            a.object_description(),
            p.batch.over
        ),
        (Some(p), Confidence::Possible) => format!(
            "{} of {} and {} of {} for different elements of `{}` may touch the same object concurrently in {spelling}",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description(),
            p.batch.over
        ),
        (None, Confidence::Definite) => format!(
            "{} of the same {} run concurrently in {spelling}",
            pair_of(a.verb.noun, b.verb.noun),
            a.object_description(),
        ),
        // "get and patch of Lease may touch …": one description when both read alike.
        (None, Confidence::Possible) if a.object_description() == b.object_description() => {
            format!(
                "{} of {} may touch the same object concurrently in {spelling}",
                pair_of(a.verb.noun, b.verb.noun),
                a.object_description(),
            )
        }
        (None, Confidence::Possible) => format!(
            "{} of {} and {} of {} may touch the same object concurrently in {spelling}",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description(),
        ),
    };
    let same_request = c.batch.as_ref().is_some_and(|p| p.same_request);
    let mut notes = vec![if same_request {
        repeated_consequence(a)
    } else {
        consequence(a, b)
    }];
    match &c.batch {
        Some(p) if p.keyed => notes.push(format!(
            "the objects are computed from the element: different elements of `{}` normally name different objects (reported because batch checking is on)",
            p.batch.over
        )),
        _ if c.confidence == Confidence::Possible && same_request => notes.push(format!(
            "the tool cannot prove that {} names a different object for each element",
            a.object_description()
        )),
        _ if c.confidence == Confidence::Possible => notes.push(format!(
            "the tool cannot prove that {} and {} are different objects",
            a.object_description(),
            b.object_description()
        )),
        _ => {}
    }
    if total > 1 {
        notes.push(format!(
            "{} more pair{} of requests in this {} may conflict the same way",
            total - 1,
            if total == 2 { "" } else { "s" },
            spelling
        ));
    }
    // Joins with their operands written out can be rewritten; other sites get advice.
    let (fix, help) = match site.kind {
        SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => {
            let (fix, why) = sequential_fix(cx, site, all);
            match (fix.applicability, why) {
                (Applicability::Unsafe, Some(why)) => {
                    notes.push(format!("the fix is unsafe: {why}"))
                }
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
            (Some(fix), help)
        }
        _ => (None, advice(site, c)),
    };
    let per_element = |r: &Request| match &c.batch {
        Some(p) => format!("{}, once per element of `{}`", r.describe(), p.batch.over),
        None => r.describe(),
    };
    let mut secondary = vec![Label {
        span: a.span,
        message: per_element(a),
    }];
    if !same_request {
        secondary.push(Label {
            span: b.span,
            message: per_element(b),
        });
    }
    Diagnostic {
        lint: LINT.name,
        severity: Severity::for_confidence(c.confidence),
        confidence: c.confidence,
        message,
        primary: Label {
            span: site.span,
            message: format!(
                "{}, so their order at the API server is undefined",
                site.kind.how_concurrent(spelling)
            ),
        },
        secondary,
        notes,
        help: Some(help),
        fix,
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
    let fallible = site.kind.is_fallible();
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

/// The same request made for several elements at once.
fn repeated_consequence(r: &Request) -> String {
    let n = plural(r.verb.noun);
    match r.verb.method {
        "delete" => format!("all but one of the {n} fail with NotFound, at random"),
        "create" => format!("all but one of the {n} fail with AlreadyExists, at random"),
        "restart" | "evict" | "cordon" | "uncordon" => {
            format!(
                "the same {} is sent once per element, all at once",
                r.verb.noun
            )
        }
        _ => format!("the {n} land in no fixed order, and the last one wins"),
    }
}

/// How to make the order defined, for the sites that are not rewritten.
fn advice(site: &Site, c: &Conflict<'_>) -> String {
    match site.kind {
        SiteKind::SelectFn => {
            "await the requests one after another; the futures that lose the select are dropped, possibly after their request was sent".to_string()
        }
        SiteKind::SelectMacro { .. } => {
            "await the write before the select starts, or move it into the handler of the arm it must follow; the futures of the arms that lose are dropped, possibly after their request was sent".to_string()
        }
        SiteKind::Spawn | SiteKind::JoinSet | SiteKind::ThreadScope => {
            "make the requests on one object from one task, one after another, or await each task before starting the next".to_string()
        }
        _ if c.batch.as_ref().is_some_and(|p| p.same_request) => {
            "make the request once, or await the futures one after another (a `for` loop with `.await`, or `futures::stream::iter(..).then(|f| f)`)".to_string()
        }
        _ => "await the requests one after another (a `for` loop with `.await`, or `futures::stream::iter(..).then(|f| f)`), in the order the object needs".to_string(),
    }
}

/// The site rewritten as sequential awaits, in the order written.
fn sequential_help(cx: &LintContext<'_>, site: &Site) -> String {
    let fallible = site.kind.is_fallible();
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
