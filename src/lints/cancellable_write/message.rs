//! The finding of one cancellable write: how sure it is, given what follows it, and its wording.

use super::cancellables::{follow_up, Cancellable, Canceller, FollowUp};
use super::{LintContext, LINT};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Fix};
use crate::model::{Confidence, Request};

pub(super) fn report_write(
    cx: &LintContext<'_>,
    c: &Cancellable<'_>,
    index: usize,
    write: &Request,
) -> Option<Diagnostic> {
    let follow = follow_up(cx, c, index, write);
    let through_helper = !write.via.is_empty();
    // A function of the crate raced against something (a whole controller loop against a
    // shutdown signal) is reported only when the same object is written again afterwards.
    if through_helper && !matches!(follow, FollowUp::Write { .. }) {
        return None;
    }
    let (message, confidence) = message_and_confidence(c, write, &follow);
    // `select` functions hand the losing future back: it is dropped only if not polled again.
    let confidence = match c.how {
        Canceller::SelectFn { dropped: false } => confidence.min(Confidence::Possible),
        _ => confidence,
    };
    // A write reached through a call found by its name alone may not be made at all.
    let confidence = confidence.min(write.resolution.cap());
    // A write carrying the resourceVersion it read cannot land late silently: after another
    // write of the object it fails with 409 Conflict. The value is not known (it may be empty
    // when the code runs), so this takes the evidence away rather than proving it safe.
    // An object kept in a field may carry one: no evidence either way.
    let confidence = match write.carries_resource_version()
        || write.is_lease_create_put()
        || write.body_is_stored()
    {
        true => Confidence::Unknown,
        false => confidence,
    };
    let noun = write.verb.noun;
    let by = &c.by;
    let mut notes = vec![
        how_dropped(c),
        format!("the caller cannot know whether the {noun} took effect"),
    ];
    if write.is_lease_create_put() {
        notes.push(format!(
            "the API server refuses to update a Lease without a `resourceVersion`: landing late, the {noun} creates the Lease if it is absent and fails with 422 if it exists, so it cannot overwrite a newer write"
        ));
    } else if write.body_is_stored() {
        notes.push(format!(
            "its body is an object kept in a field, which may carry the `resourceVersion` it was stored with: then, landing after another write of the object, the {noun} fails with 409 Conflict; the tool does not follow what was stored"
        ));
    } else if write.carries_resource_version() {
        notes.push(format!(
            "its body carries a `resourceVersion` precondition: landing after another write of the object, the {noun} fails with 409 Conflict and the code finds out (unless the version is empty when it runs)"
        ));
    }
    let mut secondary = vec![Label {
        span: c.span,
        message: match c.how {
            Canceller::Abort => "the task is aborted here".to_string(),
            Canceller::Timeout => "the deadline can drop the future".to_string(),
            _ => format!("{by} can drop the future"),
        },
    }];
    follow_up_notes(cx, write, &follow, &mut notes, &mut secondary);
    notes.extend(match &follow {
        FollowUp::Write { next, .. } => crate::model::cfg_note(&[write, next]),
        _ => crate::model::cfg_note(&[write]),
    });
    let advice = advice(c.how, write);
    let primary = Label {
        span: write.span,
        message: format!("{}, in a future that can be dropped", write.describe()),
    };
    let mut f = cx.report(&LINT, confidence, message, primary);
    f.secondary(secondary);
    f.notes(notes);
    f.help(advice.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    Some(f.finish())
}

/// The finding's message, and how sure it is from what follows the write alone.
fn message_and_confidence(
    c: &Cancellable<'_>,
    write: &Request,
    follow: &FollowUp,
) -> (String, Confidence) {
    let object = write.object_description();
    let noun = write.verb.noun;
    let by = &c.by;
    match follow {
        FollowUp::Write {
            next,
            demoted,
            next_iteration,
        } => match write.same_object(next) {
            Some(Confidence::Definite) if demoted.is_none() => (
                format!(
                    "{noun} of {object} cancelled by {by} may still take effect after the {} of the same object that follows it{}",
                    next.verb.noun,
                    on_next_iteration(*next_iteration)
                ),
                Confidence::Definite,
            ),
            other => (
                format!(
                    "{noun} of {object} cancelled by {by} may still take effect after the {} of {} that follows it{}",
                    next.verb.noun,
                    next.object_description(),
                    on_next_iteration(*next_iteration)
                ),
                match demoted {
                    Some(_) => Confidence::Unknown,
                    None => other.unwrap_or(Confidence::Unknown).min(Confidence::Possible),
                },
            ),
        },
        FollowUp::Retry => (
            format!(
                "{noun} of {object} cancelled by {by} is sent again by the loop while the first one may still take effect"
            ),
            Confidence::Definite,
        ),
        FollowUp::Weak { .. } => (
            format!("{noun} of {object} can be cancelled by {by} after it was sent"),
            Confidence::Possible,
        ),
        // No second request on the object: nothing for a late landing to overtake.
        FollowUp::None => (
            format!("{noun} of {object} can be cancelled by {by} after it was sent"),
            Confidence::Unknown,
        ),
    }
}

/// How the canceller drops the write's future.
fn how_dropped(c: &Cancellable<'_>) -> String {
    let by = &c.by;
    match c.how {
        Canceller::SelectArm => format!(
            "when another arm finishes first, {by} drops this future, possibly after its request reached the API server"
        ),
        Canceller::SelectFn { dropped: true } => format!(
            "when the other future finishes first, {by} hands this one back and it is dropped, possibly after its request reached the API server"
        ),
        Canceller::SelectFn { dropped: false } => format!(
            "when the other future finishes first, {by} hands this one back; unless it is polled again, it is dropped, possibly after its request reached the API server"
        ),
        Canceller::Timeout => format!(
            "when the deadline passes, {by} drops the future, possibly after its request reached the API server"
        ),
        Canceller::Abort => {
            "`abort()` cancels the task at its next `.await`, possibly after its request reached the API server".to_string()
        }
        Canceller::Abortable => format!(
            "`abort()` on the `AbortHandle` that {by} returns drops the future, possibly after its request reached the API server"
        ),
    }
}

/// The notes and labels that say what follows the write.
fn follow_up_notes(
    cx: &LintContext<'_>,
    write: &Request,
    follow: &FollowUp,
    notes: &mut Vec<String>,
    secondary: &mut Vec<Label>,
) {
    let noun = write.verb.noun;
    match follow {
        FollowUp::Write { next, demoted, .. } => {
            if let Some(why) = demoted {
                notes.push(why.to_string());
            }
            notes.push(if next.verb.noun == noun {
                format!(
                    "the second {noun} is made as if the first had not happened, but both can reach the API server, in either order"
                )
            } else {
                format!(
                    "the {} is made as if the {noun} had not happened, but both can reach the API server, in either order",
                    next.verb.noun
                )
            });
            secondary.push(Label {
                span: next.span,
                message: format!("{}, afterwards", next.describe()),
            });
        }
        FollowUp::Retry => notes.push(format!(
            "the loop sends the {noun} again, as if the first one had not happened"
        )),
        FollowUp::Weak { again: Some(j) } => {
            if let Some(call) = cx.model.raw.get(*j) {
                notes.push(format!(
                    "the function making it is called again (line {}), which sends the {noun} again as if the first one had not happened",
                    call.line
                ));
            }
        }
        FollowUp::Weak { again: None } => {}
        FollowUp::None => notes.push(format!(
            "nothing writes the object again after the cancellation, nor retries the {noun}: no second request for a late landing to overtake"
        )),
    }
}

/// How to keep the write from being dropped, or make a late landing harmless: a write with a
/// body can carry the resourceVersion it read (a create cannot; a delete's is in its params).
fn advice(how: Canceller, write: &Request) -> String {
    let noun = write.verb.noun;
    let harmless = match crate::model::verbs::body_arg(write.verb) {
        Some(_) => format!(
            "make what follows idempotent (server-side apply), or send the {noun} with the resourceVersion the code read"
        ),
        None => "or make what follows idempotent (server-side apply)".to_string(),
    };
    match how {
        Canceller::SelectArm => format!(
            "finish the {noun} before racing it: await it before the select, or move it into the handler of its arm; {harmless}"
        ),
        Canceller::SelectFn { .. } => {
            format!("await the {noun} before the select, {harmless}")
        }
        Canceller::Timeout => format!(
            "await the {noun} without a deadline (the kube client has its own timeouts), {harmless}"
        ),
        Canceller::Abort | Canceller::Abortable => format!(
            "let the task finish its {noun} before stopping it (signal it, then await its handle), {harmless}"
        ),
    }
}

fn on_next_iteration(next_iteration: bool) -> &'static str {
    if next_iteration {
        " on the loop's next iteration"
    } else {
        ""
    }
}
