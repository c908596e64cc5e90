//! A web server runs its handlers once per HTTP request, concurrently: two invocations (of one
//! handler, or of two handlers of the server) whose writes on one object conflict (a delete and
//! a create, a read-modify-write and another write) race like the operands of a `join!`.

use super::LINT;
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Fix};
use crate::lints::LintContext;
use crate::model::handlers::HandlerConflict;
use crate::model::{Confidence, HandlerRoute, Request};

/// Two requests made by two invocations, with the routes that make them.
struct Pair<'m> {
    first: (&'m HandlerRoute, &'m Request),
    second: (&'m HandlerRoute, &'m Request),
    conflict: HandlerConflict,
    confidence: Confidence,
    /// The invocation making `first` reads the object before (a read-modify-write).
    read: Option<&'m Request>,
}

pub(super) fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    for server in cx.model.handler_servers() {
        // The most certain pair of each object (in the words of its first write).
        let mut best: Vec<Pair<'_>> = Vec::new();
        for (i, &(route_a, reqs_a)) in server.iter().enumerate() {
            for &(route_b, reqs_b) in &server[i..] {
                let same_route = std::ptr::eq(route_a, route_b);
                for (ia, a) in reqs_a.iter().enumerate() {
                    let start = if same_route { ia } else { 0 };
                    for b in &reqs_b[start..] {
                        let Some(pair) = pair(reqs_a, reqs_b, (route_a, a), (route_b, b)) else {
                            continue;
                        };
                        match best
                            .iter_mut()
                            .find(|p| p.first.1.same_words(a) || p.first.1.same_words(b))
                        {
                            Some(p)
                                if (pair.confidence, pair.conflict)
                                    > (p.confidence, p.conflict) =>
                            {
                                *p = pair
                            }
                            Some(_) => {}
                            None => best.push(pair),
                        }
                    }
                }
            }
        }
        out.extend(best.iter().filter_map(|p| report(cx, p)));
    }
}

/// The pair two requests of two invocations make, when they conflict on one object.
fn pair<'m>(
    reqs_a: &'m [Request],
    reqs_b: &'m [Request],
    (route_a, a): (&'m HandlerRoute, &'m Request),
    (route_b, b): (&'m HandlerRoute, &'m Request),
) -> Option<Pair<'m>> {
    let read_of =
        |reqs: &'m [Request], w: &Request| reqs.iter().find(|r| !r.is_write() && r.same_words(w));
    let (read_a, read_b) = (read_of(reqs_a, a), read_of(reqs_b, b));
    let conflict = a.conflicts_across_requests(b, (read_a.is_some(), read_b.is_some()))?;
    let confidence = a.same_object_across_requests(b)?;
    // The write read first is the one to show first.
    let (first, second, read) = match (conflict, read_a, read_b) {
        (HandlerConflict::LostUpdate, None, Some(r)) => ((route_b, b), (route_a, a), Some(r)),
        (HandlerConflict::LostUpdate, r, _) => ((route_a, a), (route_b, b), r),
        // The delete first.
        _ if b.verb.method == "delete" => ((route_b, b), (route_a, a), None),
        _ => ((route_a, a), (route_b, b), None),
    };
    Some(Pair {
        first,
        second,
        conflict,
        confidence,
        read,
    })
}

/// The finding of one object's most certain pair, at the first write, with the route of its
/// handler as the site; None when a suppression comment covers the writes or the route.
fn report(cx: &LintContext<'_>, p: &Pair<'_>) -> Option<Diagnostic> {
    let ((route, w), (other_route, other)) = (p.first, p.second);
    if cx.suppressions.covers(LINT.name, w.written_at)
        || cx.suppressions.covers(LINT.name, route.raw.span)
    {
        return None;
    }
    let object = w.object_description();
    let same_handler = route.handler == other_route.handler;
    let handlers = if same_handler {
        format!("two HTTP requests to `{}`", route.handler)
    } else {
        format!(
            "an HTTP request to `{}` and one to `{}`",
            route.handler, other_route.handler
        )
    };
    let message = match p.conflict {
        HandlerConflict::DeleteAndWrite => format!(
            "{handlers} can {} and {} {object} at the same time: the server handles requests concurrently",
            w.verb.method, other.verb.method
        ),
        HandlerConflict::LostUpdate => format!(
            "{handlers} can read and write {object} at the same time, and one update is lost: the server handles requests concurrently"
        ),
    };
    let at_route = |r: &HandlerRoute| Label {
        span: r.raw.span,
        message: format!(
            "`{}` handles {} {}: once per HTTP request, concurrently",
            r.handler,
            r.method,
            if r.path.is_empty() {
                "requests"
            } else {
                &r.path
            }
        ),
    };
    let mut f = if cx.doc_example {
        let mut f = cx.report(&LINT, p.confidence, message, at_route(route));
        f.note(format!("the write: {}", w.describe()));
        f.note(format!("the other write: {}", other.describe()));
        f
    } else {
        let at_write = Label {
            span: w.written_at,
            message: format!(
                "each request to `{}` makes this {}, concurrently with the others",
                route.handler, w.verb.noun
            ),
        };
        let mut f = cx.report(&LINT, p.confidence, message, at_write);
        f.site(at_route(route));
        f.note(format!(
            "the way from the route ({}:{}) to the write: {}",
            cx.source.display,
            route.raw.line,
            w.describe()
        ));
        if !std::ptr::eq(w, other) {
            f.secondary([Label {
                span: other.written_at,
                message: format!("{} {object} in another request", other.verb.does),
            }]);
            f.note(format!(
                "the other write ({}:{}, `{}`): {}",
                cx.source.display,
                other_route.raw.line,
                other_route.handler,
                other.describe()
            ));
        }
        if let Some(read) = p.read {
            f.secondary([Label {
                span: read.written_at,
                message: format!("{} {object} first", read.verb.does),
            }]);
        }
        f
    };
    f.note(match p.conflict {
        HandlerConflict::DeleteAndWrite => "whichever reaches the API server last decides whether the object exists afterwards: a delete handled after the write undoes it, or the write brings back what the other request deleted".to_string(),
        HandlerConflict::LostUpdate => format!(
            "each invocation reads the object and writes it back ({}): when two interleave, one's update is lost",
            p.read.map_or_else(String::new, |r| r.describe())
        ),
    });
    for note in [w, other]
        .into_iter()
        .filter_map(super::message::refreshed_version_note)
    {
        f.note(note);
    }
    f.note("an HTTP server runs a handler once per request, concurrently with itself and with the other handlers of the server: nothing keeps two requests on one object apart (unlike kube's `Controller`, which never reconciles one object twice at once)");
    if p.confidence != Confidence::Definite {
        if let Some(note) = w.across_requests_note(&handlers) {
            f.note(note);
        }
    }
    f.notes(crate::model::cfg_note(&[w, other]));
    let advice = "serialise the requests on one object (a lock or a queue keyed by its name), carry the `resourceVersion` read in the write (it then fails with 409 Conflict instead of overwriting), or let a controller own the object and have the handler only record what was asked (in a spec)";
    f.help(advice);
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    Some(f.finish())
}
