//! `spawned-request-race`: a write sent from a spawned task races with later requests on the
//! same object.
//!
//! What it does: finds a task (`tokio::spawn`, `spawn_local`, `JoinSet::spawn`, a thread that
//! `block_on`s a request, a spawn in `Drop::drop`) that writes an object, while the code that
//! spawned it makes requests on that object before the task's handle is awaited, or a second
//! task does, or the same task spawned once per element does.
//! Why is this bad: a spawned task runs on its own; until its handle is awaited, its requests
//! and those made afterwards reach the API server in no fixed order.

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::{Diagnostic, Label};
use crate::edit::{Applicability, Fix};
use crate::model::{
    excludes, Batch, Confidence, ObjectName, Request, Spawn, SpawnKind, TaskHandle,
};
use crate::source::Span;

pub const LINT: Lint = Lint {
    name: "spawned-request-race",
    default_level: Level::Warn,
    fixes: &[Applicability::DisplayOnly],
    summary: "a write from a spawned task races with later requests on the same object",
    doc: include_str!("../../lints/spawned-request-race.md"),
    reads: &[Reads::Spawns],
    check: Check::Model(check),
};

/// Who makes the request the spawned write races with.
enum Rival<'m> {
    /// The spawning code, after the spawn.
    Caller,
    /// Another spawned task.
    Task(&'m Spawn),
    /// The same task, spawned for another element.
    Element(&'m Batch),
    /// Code elsewhere in the file, while the task spawned by `Drop::drop` runs.
    Dropper { function: String },
    /// The spawning code, writing the object that the task's Event is about.
    EventObject,
    /// The next run of the reconcile that spawned the task, for the same object: a request it
    /// makes before the spawn, or (`task`) the same task spawned again.
    NextRun { function: String, task: bool },
}

struct Race<'m> {
    /// The request of the spawned task.
    spawned: Request,
    /// The request it races with.
    rival: Request,
    who: Rival<'m>,
    confidence: Confidence,
}

/// What every spawn of the file is compared with, computed once: each task's requests, and
/// which entries lie inside a spawned task (thousands of spawns make per-spawn scans cubic).
struct Tasks {
    requests: Vec<Vec<Request>>,
    inside: Vec<bool>,
}

impl Tasks {
    fn of(cx: &LintContext<'_>) -> Tasks {
        let model = cx.model;
        let mut spans: Vec<Span> = model.spawns.iter().map(|s| s.span).collect();
        spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
        // Outermost spans only (a spawn inside a task lies within it): disjoint and sorted.
        let mut outer: Vec<Span> = Vec::new();
        for s in spans {
            if outer.last().map_or(true, |o| !o.contains(&s)) {
                outer.push(s);
            }
        }
        let inside = model
            .raw
            .iter()
            .map(|raw| {
                let i = outer.partition_point(|o| o.start <= raw.span.start);
                i > 0 && outer[i - 1].contains(&raw.span)
            })
            .collect();
        Tasks {
            requests: model.spawns.iter().map(|s| task_requests(cx, s)).collect(),
            inside,
        }
    }
}

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    let tasks = Tasks::of(cx);
    for (k, spawn) in cx.model.spawns.iter().enumerate() {
        let races = races(cx, spawn, k, &tasks);
        // The most certain race; among equals, one in the spawning function, else the first
        // function by name, then the first written: not the first function in the file, so
        // that the finding does not depend on the order functions are written in.
        let Some(best) = races.iter().max_by_key(|r| {
            let elsewhere = match &r.who {
                Rival::Dropper { function } => Some(function.as_str()),
                _ => None,
            };
            // A race within this run is the clearer story than one with the next run.
            let this_run = !matches!(r.who, Rival::NextRun { .. });
            (
                r.confidence,
                this_run,
                std::cmp::Reverse(elsewhere),
                std::cmp::Reverse((r.rival.span.start, r.spawned.span.start)),
            )
        }) else {
            continue;
        };
        out.push(report(cx, spawn, best, races.len()));
    }
}

/// Where the task's handle can first have been awaited: the end of the window in which the
/// task surely still may run, and whether that is known (else later requests only may race).
fn window_end(spawn: &Spawn) -> (Option<usize>, bool) {
    match spawn.handle {
        TaskHandle::Detached => (None, true),
        TaskHandle::Joined(at) => (Some(at.start), true),
        TaskHandle::InSet => match spawn.set_joined {
            Some(j) => (Some(j.start), true),
            None => (None, false),
        },
        TaskHandle::Unknown => match spawn.handle_used {
            Some(u) => (Some(u.start), true),
            None => (None, false),
        },
    }
}

/// The requests a task makes. Those it makes one message at a time for a channel it drains
/// are kept marked (`in_channel_loop`): the task is then the single writer those messages ask
/// for, and they race only with another writer of the object (see [`single_writer_excuses`]).
fn task_requests(cx: &LintContext<'_>, spawn: &Spawn) -> Vec<Request> {
    cx.model
        .operand_requests(&spawn.task)
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// A channel consumer is the single writer of what its messages ask for: its writes race with
/// another writer of the object, not with the reads of the code that sends it messages.
fn single_writer_excuses(a: &Request, b: &Request) -> bool {
    (a.in_channel_loop || b.in_channel_loop) && !(a.is_write() && b.is_write())
}

/// Both tasks are joined in a way `concurrent-same-object` reports (tasks joined after the
/// other started, one `JoinSet`, one thread scope).
fn reported_as_site(a: &Spawn, b: &Spawn) -> bool {
    let joined_task = |s: &Spawn| {
        matches!(s.kind, SpawnKind::Task | SpawnKind::Thread)
            && matches!(s.handle, TaskHandle::Joined(_))
    };
    (joined_task(a) && joined_task(b))
        || (a.kind == SpawnKind::JoinSet && b.kind == SpawnKind::JoinSet)
        || (a.kind == SpawnKind::ScopedThread && b.kind == SpawnKind::ScopedThread)
}

fn races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &'m Spawn,
    index: usize,
    tasks: &Tasks,
) -> Vec<Race<'m>> {
    let model = cx.model;
    let requests = &tasks.requests[index];
    if !requests.iter().any(Request::is_write) {
        return Vec::new();
    }
    let Some(function) = model.body(spawn.body).and_then(|b| b.function) else {
        return Vec::new();
    };
    let (end, known) = window_end(spawn);
    let in_window = |span: Span, branches: &[(u32, u32)]| {
        span.start >= spawn.span.end
            && end.map_or(true, |e| span.start < e)
            && !excludes(&spawn.branches, branches)
    };
    let runs_after =
        |raw: &crate::model::RawRequest| model.runs_after(spawn.body, spawn.span.end, raw);
    let mut found = Vec::new();
    let mut pair = |a: &Request, b: &Request, who: Rival<'m>, certain: bool| {
        if !a.is_write() && !b.is_write() || single_writer_excuses(a, b) {
            return;
        }
        // A detached Event about the object the caller then writes: a different object, whose
        // order with the object's writes is what readers of events rely on.
        let (confidence, who) = match (a.same_object(b), &who) {
            (Some(c), _) => (c, who),
            (None, Rival::Caller) => match a.event_about(b) {
                Some(c) => (c, Rival::EventObject),
                None => return,
            },
            (None, _) => return,
        };
        let confidence = if certain {
            confidence
        } else {
            confidence.min(Confidence::Possible)
        };
        found.push(Race {
            spawned: a.clone(),
            rival: b.clone(),
            who,
            confidence,
        });
    };
    // Requests of the spawning code after the spawn (not those of other tasks).
    for (i, raw) in model.raw.iter().enumerate() {
        if raw.function != Some(function)
            || !in_window(raw.span, &raw.branches)
            || !runs_after(raw)
            || tasks.inside[i]
        {
            continue;
        }
        for b in model.requests_of(i) {
            for a in requests.iter().filter(|a| a.is_write()) {
                pair(a, b, Rival::Caller, known);
            }
        }
    }
    // Tasks spawned while this one may still run.
    for (o, other) in model.spawns.iter().enumerate() {
        let made_after = other.body == spawn.body
            || model
                .body(other.body)
                .is_some_and(|b| b.span.start >= spawn.span.end);
        if std::ptr::eq(other, spawn)
            || !made_after
            || model.body(other.body).and_then(|b| b.function) != Some(function)
            || !in_window(other.span, &other.branches)
            || reported_as_site(spawn, other)
        {
            continue;
        }
        for b in &tasks.requests[o] {
            for a in requests {
                pair(a, b, Rival::Task(other), known);
            }
        }
    }
    // One task per element, none awaited before the next starts (joined ones are sites).
    // A handle moved somewhere (`AbortOnDropHandle::new(tokio::spawn(..))`) may be awaited or
    // aborted before the next element's task starts: only dropped handles are followed.
    if let (Some(batch), TaskHandle::Detached) = (&spawn.task.batch, spawn.handle) {
        let certain = true;
        for (x, a) in requests.iter().enumerate() {
            for b in &requests[x..] {
                if !a.is_write() && !b.is_write() || a.in_channel_loop || b.in_channel_loop {
                    continue;
                }
                let Some(mut confidence) = a.same_object(b) else {
                    continue;
                };
                if batch.keys(a) && batch.keys(b) {
                    // Different elements normally name different objects.
                    if !cx.batch_checking {
                        continue;
                    }
                    confidence = confidence.min(Confidence::Possible);
                } else if batch.keys(a) || batch.keys(b) || varies(batch, a) || varies(batch, b) {
                    confidence = confidence.min(Confidence::Possible);
                }
                if !certain {
                    confidence = confidence.min(Confidence::Possible);
                }
                found.push(Race {
                    spawned: a.clone(),
                    rival: b.clone(),
                    who: Rival::Element(batch),
                    confidence,
                });
            }
        }
    }
    found.extend(next_run_races(cx, spawn, function, requests, tasks));
    // A task spawned by `Drop::drop` runs after the value was dropped, wherever that is: it
    // races with what the rest of the file does to the object.
    let in_drop = model
        .function_of(Some(function))
        .is_some_and(|f| f.name == "drop" && f.trait_name.as_deref() == Some("Drop"));
    if in_drop && !matches!(spawn.handle, TaskHandle::Joined(_)) {
        for (i, raw) in model.raw.iter().enumerate() {
            let Some(other_fn) = raw.function.filter(|&f| f != function) else {
                continue;
            };
            let name = model
                .function_of(Some(other_fn))
                .map(|f| f.name.clone())
                .unwrap_or_default();
            for b in model.requests_of(i) {
                for a in requests.iter().filter(|a| a.is_write()) {
                    if single_writer_excuses(a, b) {
                        continue;
                    }
                    if let Some(confidence) = a.same_object(b) {
                        found.push(Race {
                            spawned: a.clone(),
                            rival: b.clone(),
                            who: Rival::Dropper {
                                function: name.clone(),
                            },
                            confidence: confidence.min(Confidence::Possible),
                        });
                    }
                }
            }
        }
    }
    found
}

/// A reconcile that leaves a task running returns while the task may still write; the
/// controller then reconciles the same object again (the task's own write is a change that
/// triggers it). That run's requests before the spawn, and the task it spawns again, race with
/// the task. Only names that every run computes alike (from the reconciled object, the
/// context or literals) name the same object in both runs.
fn next_run_races<'m>(
    cx: &LintContext<'_>,
    spawn: &Spawn,
    function: usize,
    requests: &[Request],
    tasks: &Tasks,
) -> Vec<Race<'m>> {
    let model = cx.model;
    let Some(reconcile) = model.function_of(Some(function)).filter(|f| f.reconciler) else {
        return Vec::new();
    };
    if spawn.handle != TaskHandle::Detached {
        return Vec::new();
    }
    let stable = |r: &Request| reconcile.computes_alike_in_every_run(r);
    let earlier = model.raw.iter().enumerate().filter(|(i, raw)| {
        raw.function == Some(function) && !tasks.inside[*i] && raw.span.end <= spawn.span.start
    });
    let rivals = earlier
        .flat_map(|(i, _)| model.requests_of(i).iter().map(|b| (b, false)))
        .chain(requests.iter().map(|b| (b, true)));
    let mut found = Vec::new();
    for (b, task) in rivals {
        for a in requests.iter().filter(|a| a.is_write() && stable(a)) {
            if !stable(b) || a.in_channel_loop || b.in_channel_loop {
                continue;
            }
            if let Some(confidence) = a.same_object(b) {
                found.push(Race {
                    spawned: a.clone(),
                    rival: b.clone(),
                    who: Rival::NextRun {
                        function: reconcile.name.clone(),
                        task,
                    },
                    confidence,
                });
            }
        }
    }
    found
}

/// The object name is rooted at a binding made anew for each element.
fn varies(batch: &Batch, r: &Request) -> bool {
    match &r.object {
        ObjectName::One { name, .. } => batch.is_local(name),
        ObjectName::All => false,
    }
}

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
            let other = if a.verb.deletes_one() { nb } else { na };
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

fn report(cx: &LintContext<'_>, spawn: &Spawn, race: &Race<'_>, total: usize) -> Diagnostic {
    let (a, b) = (&race.spawned, &race.rival);
    let spelling = &spawn.spelling;
    let definite = race.confidence == Confidence::Definite;
    let races = if definite { "races" } else { "may race" };
    let rival_object = if definite {
        "the same object".to_string()
    } else {
        b.object_description()
    };
    let task = match spawn.kind {
        SpawnKind::Thread | SpawnKind::ScopedThread => "thread",
        SpawnKind::Task | SpawnKind::JoinSet => "task",
    };
    let from_task = match &race.who {
        Rival::Dropper { .. } => format!("from a {task} spawned in `Drop::drop`"),
        _ => format!("from a {task} spawned by {spelling}"),
    };
    let message = match &race.who {
        Rival::EventObject => format!(
            "the publish of {} {from_task} may land after the {} of {} made after the spawn, out of order with the object's writes",
            a.object_description(),
            b.verb.noun,
            b.object_description()
        ),
        Rival::Caller => format!(
            "{} of {} {from_task} {races} with the {} of {rival_object} made after the spawn",
            a.verb.noun,
            a.object_description(),
            b.verb.noun
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
        Rival::NextRun { function, task: true } => format!(
            "{} of {} {from_task} in the reconcile `{function}` {races} with the same task spawned by the next reconcile of the object",
            a.verb.noun,
            a.object_description(),
        ),
        Rival::NextRun { function, task: false } => format!(
            "{} of {} {from_task} in the reconcile `{function}` {races} with the {} of {rival_object} in the next reconcile of the object",
            a.verb.noun,
            a.object_description(),
            b.verb.noun,
        ),
    };
    let primary = match (&race.who, spawn.handle) {
        (Rival::Dropper { .. }, _) => {
            format!("the {task} starts when the value is dropped, and nothing waits for it")
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
    };
    let mut secondary = vec![Label {
        span: a.span,
        message: format!("{}, in the {task}", a.describe()),
    }];
    if b.span != a.span {
        let while_ = match &race.who {
            Rival::Caller | Rival::EventObject => format!("while the {task} may still run"),
            Rival::Task(_) => "in the other task".to_string(),
            Rival::Element(_) => format!("in the same {task}, for another element"),
            Rival::Dropper { .. } => format!("elsewhere, while the {task} may still run"),
            Rival::NextRun { .. } => {
                format!("in the next reconcile, while the {task} may still run")
            }
        };
        secondary.push(Label {
            span: b.span,
            message: format!("{}, {while_}", b.describe()),
        });
    }
    let joined = match spawn.handle {
        TaskHandle::Joined(at) => Some(at),
        TaskHandle::InSet => spawn.set_joined,
        _ => None,
    };
    if let Some(at) = joined {
        if at.start > b.span.start && cx.source.id == at.file && at.start < at.end {
            secondary.push(Label {
                span: at,
                message: if task == "thread" {
                    "the thread is joined only here".to_string()
                } else {
                    format!("the {task} is awaited only here")
                },
            });
        }
    }
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
    let (_, known) = window_end(spawn);
    match &race.who {
        Rival::Dropper { .. } => notes.push(
            "the value can be dropped before, during or after the other requests, and the task runs after that".to_string(),
        ),
        Rival::NextRun { .. } => notes.push(
            "the reconcile returns while the task runs, and the controller reconciles the object again: on a requeue, or on the change the task's own write makes".to_string(),
        ),
        _ if !known => notes.push(
            "the task's handle is moved where the tool cannot follow it: unless it is awaited first, they race".to_string(),
        ),
        _ => {}
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
    if a.is_controllers() && b.is_controllers() {
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
    } else if !definite && a.same_object(b) != Some(Confidence::Definite) {
        notes.push(a.unproved_note(b));
    }
    notes.extend(crate::model::cfg_note(&[a, b]));
    let message_fix = match &race.who {
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
        Rival::NextRun { .. } => format!(
            "await the {} in the reconcile before it returns, or make it from one long-lived task that the reconciles send to in order",
            a.verb.noun
        ),
        _ => format!(
            "await the task's handle before the {} of this object, or send every write on it to one task that makes them in order (a channel it drains)",
            b.verb.noun
        ),
    };
    let primary = Label {
        span: spawn.span,
        message: primary,
    };
    let mut f = cx.report(&LINT, race.confidence, message, primary);
    f.secondary(secondary);
    f.notes(notes);
    f.more_pairs(total, "race the same way");
    f.help(message_fix.clone());
    f.fix(
        Fix::new(Applicability::DisplayOnly, message_fix, Vec::new()),
        None,
    );
    f.finish()
}
