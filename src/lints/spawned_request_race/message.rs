//! The wording of a race: the message, the labels of both requests and the task's handle, what
//! can go wrong, and the advice.

use super::races::{Race, Rival};
use super::{LintContext, LINT};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Fix};
use crate::model::{Confidence, Request, Spawn, SpawnKind, TaskHandle};

fn plural(noun: &str) -> String {
    if noun.ends_with("ch") || noun.ends_with("sh") || noun.ends_with('s') {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// What can go wrong, in one sentence: `a` from the task, `b` the rival.
fn consequence(a: &Request, b: &Request) -> String {
    let (na, nb) = (a.verb.noun, b.verb.noun);
    match (a.is_write(), b.is_write()) {
        (true, false) => format!(
            "the {nb} can run before or after the {na} lands, and see the object either way"
        ),
        (false, true) => format!(
            "the {na} can run before or after the {nb} lands, and see the object either way"
        ),
        _ if a.verb.deletes_one() || b.verb.deletes_one() => {
            let (other, verb) = if a.verb.deletes_one() {
                (nb, b.verb)
            } else {
                (na, a.verb)
            };
            // A create after the delete does not fail: it makes the object again.
            if verb.creates() {
                return format!(
                    "the {other} can land after the delete and make the object again, or before it and be deleted with it"
                );
            }
            format!(
                "the {other} can land after the delete and fail with NotFound, or before it and be lost with the object"
            )
        }
        _ if na == nb => format!(
            "the two {} can land in either order, and the last one wins",
            plural(na)
        ),
        _ => format!("the {na} and the {nb} can land in either order, and the last one wins"),
    }
}

pub(super) fn report(
    cx: &LintContext<'_>,
    spawn: &Spawn,
    race: &Race<'_>,
    total: usize,
) -> Diagnostic {
    let task = task_word(spawn);
    let primary = Label {
        span: spawn.span,
        message: primary_message(spawn, race, task),
    };
    let advice = advice(race);
    let mut f = cx.report(&LINT, race.confidence, headline(spawn, race, task), primary);
    f.secondary(labels(cx, spawn, race, task));
    f.notes(notes(spawn, race));
    f.more_pairs(total, "race the same way");
    f.help(advice.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, advice, Vec::new()),
        None,
    );
    f.finish()
}

/// "thread" or "task", as the spawn makes one.
fn task_word(spawn: &Spawn) -> &'static str {
    match spawn.kind {
        SpawnKind::Thread | SpawnKind::ScopedThread => "thread",
        SpawnKind::Task | SpawnKind::JoinSet | SpawnKind::Call => "task",
    }
}

/// The finding's message: what races with what.
fn headline(spawn: &Spawn, race: &Race<'_>, task: &str) -> String {
    let (a, b) = (race.spawned, race.rival);
    let spelling = &spawn.spelling;
    let definite = race.confidence == Confidence::Definite;
    let races = if definite { "races" } else { "may race" };
    let rival_object = if definite {
        "the same object".to_string()
    } else {
        b.object_description()
    };
    let from_task = match &race.who {
        Rival::Dropper { .. } => format!("from a {task} spawned in `Drop::drop`"),
        _ => format!("from a {task} spawned by {spelling}"),
    };
    match &race.who {
        Rival::EventObject => format!(
            "the publish of {} {from_task} may land after the {} of {} made after the spawn, out of order with the object's writes",
            a.object_description(),
            b.verb.noun,
            b.object_description()
        ),
        Rival::Caller { next_iteration } => format!(
            "{} of {} {from_task} {races} with the {} of {rival_object} made after the {}{}",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            if spawn.kind == SpawnKind::Call {
                "call"
            } else {
                "spawn"
            },
            if *next_iteration {
                ", on the loop's next iteration"
            } else {
                ""
            }
        ),
        Rival::Task(other) => format!(
            "{} of {} {from_task} {races} with the {} of {rival_object} from a task spawned by {}",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            other.spelling
        ),
        Rival::Element(batch) if a.span == b.span => format!(
            "{} of {} from {task}s spawned by {spelling}, one per element of `{}`, {} with each other",
            plural(a.verb.noun),
            a.object_description(),
            batch.over,
            if definite { "race" } else { "may race" }
        ),
        Rival::Element(batch) => format!(
            "{} and {} of {} from {task}s spawned by {spelling}, one per element of `{}`, {} with each other",
            a.verb.noun,
            b.verb.noun,
            a.object_description(),
            batch.over,
            if definite { "race" } else { "may race" }
        ),
        Rival::Dropper { function } => format!(
            "{} of {} {from_task} may race with the {} of {} in `{function}`",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description()
        ),
        Rival::Elsewhere { function } => format!(
            "{} of {} from a {task} that loops on its own, spawned by {spelling}, may race with the {} of {} in `{function}`",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
            b.object_description()
        ),
        Rival::NextRun { function, task: true } => format!(
            "{} of {} {from_task} in the reconcile `{function}` {races} with the same task spawned by the next reconcile of the object",
            a.verb.noun,
            a.object_description(),
        ),
        Rival::Starter { reconcile } => format!(
            "{} of {} {from_task}, started by the reconcile `{reconcile}`, {races} with the {} of {rival_object} made by the reconciles of its controller",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
        ),
        Rival::NextRun { function, task: false } => format!(
            "{} of {} {from_task} in the reconcile `{function}` {races} with the {} of {rival_object} in the next reconcile of the object",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
        ),
    }
}

/// What the primary label says of the spawn.
fn primary_message(spawn: &Spawn, race: &Race<'_>, task: &str) -> String {
    match (&race.who, spawn.handle) {
        (Rival::Dropper { .. }, _) => {
            format!("the {task} starts when the value is dropped, and nothing waits for it")
        }
        (Rival::Starter { .. }, _) => {
            format!("a reconcile of this controller starts the {task} and returns while it runs")
        }
        (_, _) if spawn.kind == SpawnKind::Call => {
            format!("the call starts a {task} and returns while it runs")
        }
        (_, TaskHandle::Detached) => {
            format!("the {task} starts here, and its handle is dropped: nothing waits for it")
        }
        (_, TaskHandle::Joined(_)) => {
            format!("the {task} starts here and runs on its own until its handle is awaited")
        }
        (_, TaskHandle::InSet) if spawn.set_joined.is_some() => {
            format!("the {task} starts here and runs on its own until the set is joined")
        }
        _ => format!("the {task} starts here and runs on its own"),
    }
}

/// The request in the task, the rival request, and where the task is first awaited.
fn labels(cx: &LintContext<'_>, spawn: &Spawn, race: &Race<'_>, task: &str) -> Vec<Label> {
    let (a, b) = (race.spawned, race.rival);
    let mut secondary = vec![Label {
        span: a.span,
        message: format!("{}, in the {task}", a.describe()),
    }];
    if b.span != a.span {
        let while_ = match &race.who {
            Rival::Caller {
                next_iteration: true,
            } => format!("on the next iteration, while the {task} may still run"),
            Rival::Caller { .. } | Rival::EventObject => format!("while the {task} may still run"),
            Rival::Task(_) => "in the other task".to_string(),
            Rival::Element(_) => format!("in the same {task}, for another element"),
            Rival::Dropper { .. } | Rival::Elsewhere { .. } => {
                format!("elsewhere, while the {task} may still run")
            }
            Rival::NextRun { .. } => {
                format!("in the next reconcile, while the {task} may still run")
            }
            Rival::Starter { .. } => {
                format!("in the controller's reconciles, while the {task} runs")
            }
        };
        secondary.push(Label {
            span: b.span,
            message: format!("{}, {while_}", b.describe()),
        });
    }
    // A reconcile's own request, seen through its controller's run like the task's: shown
    // where it is written when that is in this file.
    if b.span == a.span
        && matches!(race.who, Rival::Starter { .. })
        && b.written_at.file == cx.source.id
    {
        secondary.push(Label {
            span: b.written_at,
            message: format!(
                "{}, in the controller's reconciles, while the {task} runs",
                b.describe()
            ),
        });
    }
    if let Some((at, name)) = race.sent_at {
        secondary.push(Label {
            span: at,
            message: format!(
                "the {} is sent only here, when `{name}` is first awaited",
                b.verb.noun
            ),
        });
    }
    if let Some(at) = spawn
        .joined_after(b.span)
        .filter(|at| at.file == cx.source.id)
    {
        secondary.push(Label {
            span: at,
            message: if task == "thread" {
                "the thread is joined only here".to_string()
            } else {
                format!("the {task} is awaited only here")
            },
        });
    }
    secondary
}

/// What can go wrong, why the tool thinks the task may still run, and how sure it is.
fn notes(spawn: &Spawn, race: &Race<'_>) -> Vec<String> {
    let (a, b) = (race.spawned, race.rival);
    let definite = race.confidence == Confidence::Definite;
    let mut notes = vec![match &race.who {
        Rival::EventObject => format!(
            "nothing waits for the publish: the Event can be created after the {} that follows it, and readers of the object's events see them out of order with its changes",
            b.verb.noun
        ),
        Rival::Element(_) if a.span == b.span => format!(
            "the {} land in no fixed order, and the last one wins",
            plural(a.verb.noun)
        ),
        _ => consequence(a, b),
    }];
    let known = spawn.window_known();
    match &race.who {
        Rival::Dropper { .. } => notes.push(
            "the value can be dropped before, during or after the other requests, and the task runs after that".to_string(),
        ),
        Rival::Elsewhere { .. } => notes.push(format!(
            "nothing in the spawning function waits for the task, which makes the {} again and again in a loop: it runs whenever the other function does",
            a.verb.noun
        )),
        Rival::NextRun { .. } => notes.push(
            "the reconcile returns while the task runs, and the controller reconciles the object again: on a requeue, or on the change the task's own write makes".to_string(),
        ),
        Rival::Starter { reconcile } => notes.push(format!(
            "`{reconcile}` starts the {} through {} and returns while it runs: the controller's later reconciles, of this object and of others, make their requests beside it{}",
            task_word(spawn),
            spawn.spelling,
            // Labelled where it is written when that is in this file.
            if b.written_at.file == spawn.span.file {
                String::new()
            } else {
                format!(": {}", b.describe())
            }
        )),
        _ if !known && spawn.kind == SpawnKind::Call => notes.push(format!(
            "the task is spawned by {} and its handle kept in what the function returns: unless that is awaited or aborted first, they race",
            spawn.spelling
        )),
        _ if !known => notes.push(
            "the task's handle is moved where the tool cannot follow it: unless it is awaited first, they race".to_string(),
        ),
        _ => {}
    }
    if let Some(why) = race.unproved {
        notes.push(format!(
            "no evidence that the {} meets the task's request: {why} (reported because unknown findings were asked for)",
            b.verb.noun
        ));
    }
    if let Rival::Element(batch) = &race.who {
        if batch.keys(a) && batch.keys(b) {
            notes.push(format!(
                "the objects are computed from the element: different elements of `{}` normally name different objects (reported because batch checking is on)",
                batch.over
            ));
        }
    }
    if a.in_channel_loop {
        notes.push(format!(
            "the task makes its {} one message at a time, from a channel it drains, but it is not the only writer of the object: this {} does not go through it",
            a.verb.noun, b.verb.noun
        ));
    }
    if let Some((every, other)) = Request::covering_pair(a, b) {
        let kind = every.handle.kind_or_object();
        notes.push(format!(
            "the reconcile `{}` writes each {kind} it is handed, so it writes whichever one the {} names: the name is not compared, the evidence is that one of the two writes every {kind} its controller watches",
            every.controller.as_ref().map_or("", |c| c.reconcile.as_str()),
            if std::ptr::eq(other, a) { "task" } else { "other request" },
        ));
    } else if a.is_controllers() && b.is_controllers() {
        // Two controllers' reconciles: "each Deployment reconciled" on both sides.
        notes.push(format!(
            "the two are controllers, reconciling with `{}` and `{}`: kube keeps the reconciles of one object apart only within one controller",
            a.controller.as_ref().map_or("", |c| c.reconcile.as_str()),
            b.controller.as_ref().map_or("", |c| c.reconcile.as_str()),
        ));
    } else if matches!(race.who, Rival::EventObject) {
        notes.push(
            "the Event's reference and the object's name come from the same value; the kind of the reference is not checked".to_string(),
        );
    } else if matches!(race.who, Rival::Elsewhere { .. } | Rival::Caller { .. })
        && race.confidence == Confidence::Possible
        && (a.name_from_list || b.name_from_list)
    {
        let listed = if a.name_from_list { a } else { b };
        notes.push(format!(
            "the {} names an element of a list of {}: any such object, the other one included when it lies in the list's namespace and matches its selector",
            listed.verb.noun,
            listed.handle.kind_or_object()
        ));
    } else if !definite && a.same_object(b) != Some(Confidence::Definite) {
        notes.push(a.unproved_note(b));
    }
    notes.extend(crate::model::cfg_note(&[a, b]));
    notes
}

/// The help: how to order the writes.
fn advice(race: &Race<'_>) -> String {
    let (a, b) = (race.spawned, race.rival);
    match &race.who {
        Rival::EventObject => format!(
            "await the publish before the {} of the object, or publish the Event after it, from the same code",
            b.verb.noun
        ),
        _ if a.is_controllers() && b.is_controllers() => format!(
            "let one controller own these writes of {} (the other can read them), or reconcile both in one controller",
            a.handle.kind_or_object()
        ),
        Rival::Dropper { .. } => format!(
            "make the {} where the value is dropped and await it, or send every write on this object to one task that makes them in order",
            a.verb.noun
        ),
        Rival::Element(_) => format!(
            "make the {} once, or await each task before spawning the next",
            a.verb.noun
        ),
        Rival::Elsewhere { .. } => format!(
            "make the task's {} conditional on what it read (a resourceVersion or uid precondition), or let one writer own this object",
            a.verb.noun
        ),
        Rival::NextRun { .. } => format!(
            "await the {} in the reconcile before it returns, or make it from one long-lived task that the reconciles send to in order",
            a.verb.noun
        ),
        _ => format!(
            "await the task's handle before the {} of this object, or send every write on it to one task that makes them in order (a channel it drains)",
            b.verb.noun
        ),
    }
}
