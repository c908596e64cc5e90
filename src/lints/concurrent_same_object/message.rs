//! The wording of a finding: what can go wrong, the requests named, and the advice of the sites
//! the tool does not rewrite.

use super::conflicts::Conflict;
use super::LintContext;
use crate::model::{Access, Confidence, ControllerRun, Request, Site, SiteKind};

/// The finding's message: the pair, the objects and the site, as sure as the confidence.
pub(super) fn headline(site: &Site, c: &Conflict<'_>) -> String {
    let (a, b) = (&c.first, &c.second);
    let spelling = &site.spelling;
    match (&c.batch, c.confidence) {
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
    }
}

/// What can go wrong, in one sentence, for the pair in the order written.
pub(super) fn consequence(a: &Request, b: &Request) -> String {
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
        _ if a.verb.deletes_one() && b.verb.method == "create" => {
            format!("the {nb} can run after the {na} and make the object again, or before it and be deleted with it")
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

/// How many requests of the site touch the object of a finding, and how many more of their
/// pairs conflict than the one shown: "3 requests in this `join!` may touch Pod \"a\": 1 more
/// pair of them may conflict the same way".
pub(super) fn group_note(requests: usize, pairs: usize, spelling: &str, a: &Request) -> String {
    let more = pairs.saturating_sub(1);
    format!(
        "{requests} requests in this {spelling} may touch {}: {more} more pair{} of them may conflict the same way",
        a.object_description(),
        if more == 1 { "" } else { "s" }
    )
}

/// Why a write whose body carries a `resourceVersion` is still reported: the version was copied
/// from a fresh read into an older copy of the object (see `Request::version_refreshed`).
pub(super) fn refreshed_version_note(w: &Request) -> Option<String> {
    w.version_refreshed().then(|| {
        format!(
            "in {}, the body's `resourceVersion` is copied from a fresh read of the object into an older copy of it, so it does not guard against the writes made before that read (it fails with 409 Conflict only when a write lands between the read and itself)",
            w.describe()
        )
    })
}

pub(super) fn plural(noun: &str) -> String {
    if noun.ends_with("ch") || noun.ends_with("sh") || noun.ends_with('s') || noun.ends_with('x') {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// The same request made for several elements at once.
pub(super) fn repeated_consequence(r: &Request) -> String {
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
pub(super) fn advice(site: &Site, c: &Conflict<'_>) -> String {
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
pub(super) fn group_advice(c: &Conflict<'_>) -> String {
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
pub(super) fn sequential_help(cx: &LintContext<'_>, site: &Site) -> String {
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

/// The evidence of two controllers' writes named by one field of objects of one kind: the
/// object `x` reconciles and one `y` fetches (for its write `fetched`). None when the fetched
/// side says nothing of its object.
pub(super) fn fetched_field_note(
    (x, y, fetched): (&ControllerRun, &ControllerRun, &Request),
) -> Option<String> {
    let of = fetched.fetched.as_deref()?;
    Some(format!(
        "both names are the `{field}` of a {kind}: the one `{rx}` reconciles and one `{ry}` fetches by `{by}` ({which}), which can be that one (evidence that the writes can meet on one object, not proof)",
        field = crate::model::fields_text(&of.fields),
        kind = of.kind,
        rx = x.reconcile,
        ry = y.reconcile,
        by = of.by,
        which = match of.by.starts_with("list") {
            true => "any of those listed",
            false => "named by other data",
        },
    ))
}
