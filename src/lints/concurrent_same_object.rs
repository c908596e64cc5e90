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

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{self, Applicability, Fix};
use crate::model::{
    Access, Batch, Collection, Confidence, ControllerRun, ObjectName, OperandForm, Request, Site,
    SiteKind,
};

pub const LINT: Lint = Lint {
    name: "concurrent-same-object",
    default_level: Level::Warn,
    fixes: &[
        Applicability::Safe,
        Applicability::Unsafe,
        Applicability::DisplayOnly,
    ],
    summary: "requests on the same Kubernetes object run concurrently, in undefined order",
    doc: include_str!("../../lints/concurrent-same-object.md"),
    reads: &[Reads::Sites],
    check: Check::Model(check),
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
        confidence = confidence.min(Confidence::Possible);
    } else if batch.keys(a) || batch.keys(b) || varies(batch, a) || varies(batch, b) {
        confidence = confidence.min(Confidence::Possible);
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
    if let (Some(x), Some(y)) = (&c.first.controller, &c.second.controller) {
        return controllers_report(cx, site, c, (x, y));
    }
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
        (Some(p), Confidence::Possible | Confidence::Unknown) if p.same_request => format!(
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
        (Some(p), Confidence::Possible | Confidence::Unknown) => format!(
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
        (None, Confidence::Possible | Confidence::Unknown) if a.object_description() == b.object_description() => {
            format!(
                "{} of {} may touch the same object concurrently in {spelling}",
                pair_of(a.verb.noun, b.verb.noun),
                a.object_description(),
            )
        }
        (None, Confidence::Possible | Confidence::Unknown) => format!(
            "{} of {} and {} of {} may touch the same object concurrently in {spelling}",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description(),
        ),
    };
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
    f.more_pairs(
        total,
        &format!("in this {spelling} may conflict the same way"),
    );
    let (fix, why) = site_fix(cx, site, c, all);
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
    let message = if a.verb.noun == b.verb.noun {
        format!(
            "{} of the controllers reconciling with `{}` and `{}` meet on {}, concurrently in {}",
            plural(a.verb.noun),
            x.reconcile,
            y.reconcile,
            a.object_description(),
            site.spelling
        )
    } else {
        format!(
            "the {} of the controller reconciling with `{}` and the {} of the one reconciling with `{}` meet on {}, concurrently in {}",
            a.verb.noun,
            x.reconcile,
            b.verb.noun,
            y.reconcile,
            a.object_description(),
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
    f.note(format!(
        "kube never runs two reconciles of one object at once within one controller, but each controller reconciles every {kind} it watches, independently of the other"
    ));
    f.note("the controllers meet on the same objects unless their watchers select different ones (label or field selectors), which the tool does not check");
    f.help(advice.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    f.finish()
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

/// The fix of a site, with its applicability and, unless safe, why: a rewrite where one is
/// mechanically right, else advice naming the requests (display-only, no edits).
fn site_fix(
    cx: &LintContext<'_>,
    site: &Site,
    best: &Conflict<'_>,
    all: &[Conflict<'_>],
) -> (Fix, Option<String>) {
    let advice = || {
        (
            Fix::new(Applicability::DisplayOnly, advice(site, best), Vec::new()),
            None,
        )
    };
    match site.kind {
        SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => sequential_fix(cx, site, all),
        // Different elements normally name different objects: serialising them all would be
        // the wrong fix for most of them.
        _ if all
            .iter()
            .all(|c| c.batch.as_ref().is_some_and(|p| p.keyed)) =>
        {
            (
                Fix::new(Applicability::DisplayOnly, group_advice(best), Vec::new()),
                None,
            )
        }
        SiteKind::JoinAll { .. } => join_all_fix(cx, site).unwrap_or_else(advice),
        SiteKind::Buffered { .. } | SiteKind::ForEachConcurrent => {
            limit_fix(site).unwrap_or_else(advice)
        }
        _ => advice(),
    }
}

/// The fix of a join: the conflicting operands awaited in order (the others kept concurrent
/// when the site allows it).
fn sequential_fix(
    cx: &LintContext<'_>,
    site: &Site,
    conflicts: &[Conflict<'_>],
) -> (Fix, Option<String>) {
    let groups = conflict_groups(site.operands.len(), conflicts);
    let Some(rewrite) = edit::sequential::rewrite(cx.source, site, &groups) else {
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
    let forms = rewrite.serialised.iter().map(|&i| site.operands[i].form);
    let (applicability, why) = judge(site, forms, &(&rewrite).into());
    (Fix::new(applicability, message, rewrite.edits), why)
}

/// The fix of a `join_all`/`try_join_all`: its futures awaited one after another — written
/// out as a `vec![..]` of awaits when they are listed, else in a `for` loop. None when the
/// tool cannot rewrite its form.
fn join_all_fix(cx: &LintContext<'_>, site: &Site) -> Option<(Fix, Option<String>)> {
    let message = "await the futures one after another, in the order of the collection";
    match site.collection.as_ref()? {
        Collection::Listed(elements) => {
            let listed = Site {
                operands: elements.clone(),
                ..site.clone()
            };
            let all: Vec<usize> = (0..elements.len()).collect();
            let rewrite = edit::sequential::rewrite(cx.source, &listed, &[all])?;
            let forms = rewrite.serialised.iter().map(|&i| elements[i].form);
            let (applicability, why) = judge(site, forms, &(&rewrite).into());
            Some((Fix::new(applicability, message, rewrite.edits), why))
        }
        collection => {
            let rewrite = edit::batch::await_each(cx.source, site)?;
            let forms: Vec<OperandForm> = match collection {
                Collection::Mapped(m) => vec![m.body_form],
                _ => site.operands.iter().map(|o| o.form).collect(),
            };
            let loss = Loss {
                drops_comments: rewrite.drops_comments,
                ..Loss::default()
            };
            let (applicability, why) = judge(site, forms.into_iter(), &loss);
            Some((Fix::new(applicability, message, vec![rewrite.edit]), why))
        }
    }
}

/// The fix of a stream that polls several futures at once: a limit of one.
fn limit_fix(site: &Site) -> Option<(Fix, Option<String>)> {
    let limit = site.limit?;
    let method = site.spelling.trim_matches('`');
    let forms = site.operands.iter().map(|o| o.form);
    let (applicability, why) = judge(site, forms, &Loss::default());
    let call = match site.kind {
        SiteKind::ForEachConcurrent => format!("{method}(1, ..)"),
        _ => format!("{method}(1)"),
    };
    let message = format!("run one future at a time, in the order of the stream: `{call}`");
    let edits = vec![edit::Edit::replace(limit, "1")];
    Some((Fix::new(applicability, message, edits), why))
}

/// What a rewrite loses besides the concurrency.
#[derive(Default)]
struct Loss {
    /// The site's future is kept for later and becomes an `async` block.
    becomes_async_block: bool,
    drops_comments: bool,
}

impl From<&edit::sequential::Rewrite> for Loss {
    fn from(r: &edit::sequential::Rewrite) -> Loss {
        Loss {
            becomes_async_block: r.becomes_async_block,
            drops_comments: r.drops_comments,
        }
    }
}

/// How far a rewrite that awaits futures of these forms one after another can be trusted,
/// and why not more.
fn judge(
    site: &Site,
    mut forms: impl Iterator<Item = OperandForm>,
    rewrite: &Loss,
) -> (Applicability, Option<String>) {
    let opaque = forms.any(|f| f != OperandForm::Request);
    let mut unsafe_because = Vec::new();
    if matches!(site.kind, SiteKind::Buffered { .. }) && stops_at_first_error(site) {
        unsafe_because.push(format!(
            "after an error, a consumer that stops at it (`try_collect`, `?`) never sends the requests after the failing one, where {} may have sent them",
            site.spelling
        ));
    } else if stops_at_first_error(site) {
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
    if rewrite.becomes_async_block {
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
            Some(format!(
                "it would drop the comments written inside {}",
                site.spelling
            )),
        )
    } else if !unsafe_because.is_empty() {
        (Applicability::Unsafe, Some(unsafe_because.join("; ")))
    } else {
        (Applicability::Safe, None)
    }
}

/// `try_join!`, `try_join_all`, and the `try_` streams: they stop at the first error (the
/// stream methods are spelled as written, `try_buffered`, `try_for_each_concurrent`).
fn stops_at_first_error(site: &Site) -> bool {
    site.kind.is_fallible()
        || (matches!(
            site.kind,
            SiteKind::Buffered { .. } | SiteKind::ForEachConcurrent
        ) && site.spelling.starts_with("`try_"))
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
        _ if crate::model::verbs::is_event(a.verb) && crate::model::verbs::is_event(b.verb) => {
            "publishes about one object with one reason race on the Event's series: a count can be lost, or a duplicate Event created (with different reasons, the Events land in no fixed order)".to_string()
        }
        _ if a.verb.method == "create" && b.verb.deletes_one() => {
            format!("the {nb} can run before the {na} and fail with NotFound, leaving the new object in place")
        }
        _ if a.verb.deletes_one() || b.verb.deletes_one() => {
            let other = if a.verb.deletes_one() { nb } else { na };
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
        "delete" | "delete_and_finalize" => {
            format!("all but one of the {n} fail with NotFound, at random")
        }
        "publish" => format!(
            "the {n} race on the Event's series when their reason is the same: a count can be lost, or a duplicate Event created"
        ),
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

/// How to make the order defined, for the sites that are not rewritten: one line naming the
/// requests.
fn advice(site: &Site, c: &Conflict<'_>) -> String {
    let spelling = &site.spelling;
    let requests = the_requests(c);
    let same_request = c.batch.as_ref().is_some_and(|p| p.same_request);
    let once = if same_request {
        ", or make the request once"
    } else {
        ""
    };
    match site.kind {
        SiteKind::SelectFn => format!(
            "await {requests} one after another instead of racing them in {spelling}; the futures that lose the select are dropped, possibly after their request was sent"
        ),
        SiteKind::SelectMacro { .. } => {
            let write = if c.first.is_write() { &c.first } else { &c.second };
            format!(
                "await the {} of {} before {spelling} starts, or move it into the handler of the arm it must follow; the futures of the arms that lose are dropped, possibly after their request was sent",
                write.verb.noun,
                write.object_description()
            )
        }
        SiteKind::Spawn | SiteKind::JoinSet | SiteKind::ThreadScope => {
            let task = if site.kind == SiteKind::ThreadScope {
                "thread"
            } else {
                "task"
            };
            match &c.batch {
                Some(p) => format!(
                    "make {requests} from one {task}, one after another, instead of one {task} per element of `{}`{once}",
                    p.batch.over
                ),
                None => format!(
                    "make {requests} from one {task}, one after another, or wait for the {task} making the {} before starting the one making the {}",
                    c.first.verb.noun, c.second.verb.noun
                ),
            }
        }
        SiteKind::FuturesUnordered | SiteKind::FuturesOrdered => format!(
            "await {requests} one after another (`for fut in futures {{ fut.await; }}`) instead of polling them together in {spelling}{once}"
        ),
        _ => format!(
            "await {requests} one after another (a `for` loop with `.await`, or `futures::stream::iter(..).then(|f| f)`) instead of {spelling}{once}"
        ),
    }
}

/// For a batch whose elements normally name different objects.
fn group_advice(c: &Conflict<'_>) -> String {
    let over = c
        .batch
        .as_ref()
        .map_or("the collection", |p| p.batch.over.as_str());
    format!(
        "group the elements of `{over}` by the object they name, then run the groups concurrently and the requests of each group one after another"
    )
}

/// "the create and the get of Pod \"blog\"", "the deletes of Pod `name`", "the patch of Pod `a`
/// and the get of Pod `b`".
fn the_requests(c: &Conflict<'_>) -> String {
    let (a, b) = (&c.first, &c.second);
    if c.batch.as_ref().is_some_and(|p| p.same_request) {
        return format!("the {} of {}", plural(a.verb.noun), a.object_description());
    }
    let (da, db) = (a.object_description(), b.object_description());
    if da == db {
        format!("{} of {da}", the_pair_of(a.verb.noun, b.verb.noun))
    } else {
        format!(
            "the {} of {da} and the {} of {db}",
            a.verb.noun, b.verb.noun
        )
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
