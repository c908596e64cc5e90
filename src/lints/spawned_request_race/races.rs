//! The races of a spawned task: the requests it makes, the window in which it may still run,
//! and the requests of the caller, of other tasks, of other elements and of the next reconcile
//! that land on its objects meanwhile.

use std::collections::HashMap;

use super::LintContext;
use crate::model::object_index::ObjectIndex;
use crate::model::{
    Batch, Confidence, FutureUse, ObjectName, Point, Request, Sameness, Spawn, SpawnKind,
    TaskHandle, UseKind,
};
use crate::source::Span;

/// Who makes the request the spawned write races with.
pub(super) enum Rival<'m> {
    /// The spawning code, after the spawn; `next_iteration`: only on a later iteration of a
    /// loop around both (the request is written before the spawn, or in another arm).
    Caller { next_iteration: bool },
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
    /// Code in another function of the file, while a task that the spawning code does not
    /// await writes again and again in a loop of its own (a reaper, a status loop).
    Elsewhere { function: String },
    /// The reconciles of the controller whose reconcile `reconcile` starts the task (through a
    /// call that leaves it running): they go on, for this object and others, beside it.
    Starter { reconcile: String },
}

/// Borrowed: a spawn among thousands on one object has thousands of races, of which one is
/// reported.
pub(super) struct Race<'m> {
    /// The request of the spawned task.
    pub(super) spawned: &'m Request,
    /// The request it races with.
    pub(super) rival: &'m Request,
    pub(super) who: Rival<'m>,
    pub(super) confidence: Confidence,
    /// Why the race is no evidence that the two meet (`unknown`): the rival is made only after
    /// a timer, or on another iteration with a name made anew.
    pub(super) unproved: Option<&'static str>,
    /// The rival is made in a future bound to a local and sent where it is first awaited:
    /// that `.await`, and the local's name.
    pub(super) sent_at: Option<(Span, &'m str)>,
}

/// What every spawn of the file is compared with, computed once: each task's requests, and
/// which entries lie inside a spawned task (thousands of spawns make per-spawn scans cubic);
/// tasks and entries by the objects of their requests, so that a spawn is compared only with
/// those that may touch its objects (8,000 spawns on different objects make 32 million pairs).
pub(super) struct Tasks<'m> {
    requests: Vec<Vec<Request>>,
    inside: Vec<bool>,
    tasks_by_object: ObjectIndex,
    entries_by_object: ObjectIndex,
    /// The first `.await` of the bound future each entry's request is made in, by entry
    /// (`let later = api.patch(..); spawn(..); later.await`): the request is sent there.
    awaited_at: HashMap<usize, (&'m FutureUse, &'m str)>,
}

impl<'m> Tasks<'m> {
    pub(super) fn of(cx: &LintContext<'m>) -> Tasks<'m> {
        let model = cx.model;
        let mut awaited_at = HashMap::new();
        for bound in &model.bound_futures {
            let Some(first) = bound
                .first_use
                .as_ref()
                .filter(|u| u.kind == UseKind::Await)
            else {
                continue;
            };
            for &i in &bound.future.requests {
                awaited_at.insert(i, (first, bound.name.as_str()));
            }
        }
        let inside = crate::model::order::made_in_spawned_tasks(&model.spawns, &model.raw);
        let requests: Vec<Vec<Request>> =
            model.spawns.iter().map(|s| task_requests(cx, s)).collect();
        let mut tasks_by_object = ObjectIndex::default();
        for (o, task) in requests.iter().enumerate() {
            task.iter().for_each(|r| tasks_by_object.add(o, r));
        }
        let mut entries_by_object = ObjectIndex::default();
        for i in 0..model.raw.len() {
            model
                .requests_of(i)
                .iter()
                .for_each(|r| entries_by_object.add(i, r));
        }
        Tasks {
            requests,
            inside,
            tasks_by_object,
            entries_by_object,
            awaited_at,
        }
    }
}

/// The requests a task makes. Those it makes one message at a time for a channel it drains
/// are kept marked (`in_channel_loop`): the task is then the single writer those messages ask
/// for, and they race only with another writer of the object (see [`single_writer_excuses`]).
/// A call that leaves a task running: the requests of that task, not the call's others.
fn task_requests(cx: &LintContext<'_>, spawn: &Spawn) -> Vec<Request> {
    cx.model
        .operand_requests(&spawn.task)
        .into_iter()
        .map(|(_, r)| r)
        .filter(|r| spawn.kind != SpawnKind::Call || r.left_running.is_some())
        .collect()
}

/// The controller run a call that leaves a task running is, if it is one: its reconcile
/// starts the task.
fn started_by_reconcile<'m>(cx: &'m LintContext<'_>, spawn: &Spawn) -> Option<&'m str> {
    if spawn.kind != SpawnKind::Call {
        return None;
    }
    let &i = spawn.task.requests.first()?;
    let run = cx.model.raw.get(i)?.controller.as_deref()?;
    Some(run.reconcile.as_str())
}

/// A channel consumer is the single writer of what its messages ask for: its writes race with
/// another writer of the object, not with the reads of the code that sends it messages.
fn single_writer_excuses(a: &Request, b: &Request) -> bool {
    (a.in_channel_loop || b.in_channel_loop) && !(a.is_write() && b.is_write())
}

/// Two deletes of one object end the same in either order (the second gets NotFound): no
/// hazard on their own. A re-create after one of them is a pair of its own (create and delete).
fn deletes_alike(a: &Request, b: &Request) -> bool {
    a.verb.deletes_one() && b.verb.deletes_one()
}

/// A write guarded by the resourceVersion it read applies only atop that version, and a list
/// sees the object whole at one version or the other: no evidence of a same-object hazard.
fn guarded_write_and_list(a: &Request, b: &Request) -> bool {
    let list = |r: &Request| !r.is_write() && matches!(r.object, ObjectName::All);
    let guarded = Request::carries_resource_version;
    (guarded(a) && list(b)) || (guarded(b) && list(a))
}

/// Two writes that each apply only atop the state they read (a `resourceVersion` they carry),
/// or a Lease PUT that only creates: whichever lands second fails (409 Conflict, or 422 for the
/// PUT) and nothing is overwritten, as in a leader election's contenders. No hazard.
fn conditional_writes(a: &Request, b: &Request) -> bool {
    let conditional = |r: &Request| r.is_write() && applies_only_atop_its_read(r);
    conditional(a) && conditional(b)
}

/// A write that lands only on the state it read (a `resourceVersion` it carries), or a Lease
/// PUT that only creates.
fn applies_only_atop_its_read(r: &Request) -> bool {
    r.is_guarded() || r.is_lease_create_put()
}

/// The pairs no rival races with, whoever it is: a channel consumer's own messages, deletes
/// alike, and two conditional writes.
fn excused(a: &Request, b: &Request) -> bool {
    single_writer_excuses(a, b) || deletes_alike(a, b) || conditional_writes(a, b)
}

/// Two tasks contending for one object through conditional writes (leader electors): a read of
/// one against a conditional write of the other, when the reading task writes the object only
/// conditionally too. Whichever version the read saw, a decision made on a stale one fails at
/// its write (409 Conflict): no hazard between the two tasks.
fn contenders(a: &Request, b: &Request, a_task: &[Request], b_task: &[Request]) -> bool {
    let (read, write, reader) = match (a.is_write(), b.is_write()) {
        (false, true) => (a, b, a_task),
        (true, false) => (b, a, b_task),
        _ => return false,
    };
    applies_only_atop_its_read(write)
        && reader
            .iter()
            .filter(|r| r.is_write() && r.same_object(read).is_some())
            .all(applies_only_atop_its_read)
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

pub(super) fn races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &'m Spawn,
    index: usize,
    tasks: &'m Tasks,
) -> Vec<Race<'m>> {
    let requests = &tasks.requests[index];
    if !requests.iter().any(Request::is_write) {
        return Vec::new();
    }
    // A controller whose reconcile starts the task: compared with the reconciles only (the
    // run's place among the caller's code is the controller's, which the controller rules and
    // the spawns around it cover).
    if let Some(reconcile) = started_by_reconcile(cx, spawn) {
        return starter_races(cx, spawn, reconcile, requests);
    }
    let Some(function) = cx.model.body(spawn.body).and_then(|b| b.function) else {
        return Vec::new();
    };
    let mut found = caller_races(cx, spawn, function, requests, tasks);
    found.extend(task_races(cx, spawn, function, requests, tasks));
    // A handle moved somewhere (`AbortOnDropHandle::new(tokio::spawn(..))`) may be awaited or
    // aborted before the next element's task starts: only dropped handles are followed.
    // A spawn followed by leaving its loop makes one task, not one per element.
    if let (Some(batch), TaskHandle::Detached) = (&spawn.task.batch, spawn.handle) {
        if !cx.model.order().ends_its_loop(spawn.point()) {
            found.extend(element_races(cx, batch, requests));
        }
    }
    found.extend(next_run_races(cx, spawn, function, requests, tasks));
    found.extend(drop_races(cx, spawn, function, requests));
    found.extend(elsewhere_races(cx, spawn, index, function, tasks));
    found
}

impl Race<'_> {
    fn unproved(mut self, why: Option<&'static str>) -> Self {
        if why.is_some() {
            self.unproved = why;
            self.confidence = Confidence::Unknown;
        }
        self
    }
}

const AFTER_TIMER: &str =
    "the code waits for a timer before it, which most likely outlasts the task's request";
const NAMED_ANEW: &str =
    "it is made on a later iteration of the loop, and the object's name is made anew on each one";

/// The race of the task's request `a` with `b`, if they may meet on one object (or `a` is an
/// Event about the object the caller writes); `certain`: the window is known.
fn pair_race<'m>(
    a: &'m Request,
    b: &'m Request,
    who: Rival<'m>,
    certain: bool,
) -> Option<Race<'m>> {
    if !a.is_write() && !b.is_write() || excused(a, b) || guarded_write_and_list(a, b) {
        return None;
    }
    // A detached Event about the object the caller then writes: a different object, whose
    // order with the object's writes is what readers of events rely on.
    let (confidence, who) = match (a.same_object(b), &who) {
        (Some(c), _) => (c, who),
        (None, Rival::Caller { .. }) => (a.event_about(b)?, Rival::EventObject),
        (None, _) => return None,
    };
    let confidence = if certain {
        confidence
    } else {
        confidence.min(Confidence::Possible)
    };
    Some(Race {
        spawned: a,
        rival: b,
        who,
        confidence,
        unproved: None,
        sent_at: None,
    })
}

/// Requests of the spawning code after the spawn (not those of other tasks).
fn caller_races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &Spawn,
    function: usize,
    requests: &'m [Request],
    tasks: &'m Tasks,
) -> Vec<Race<'m>> {
    let model = cx.model;
    let order = model.order();
    let mut found = Vec::new();
    let writes = requests.iter().filter(|a| a.is_write());
    for &i in tasks.entries_by_object.candidates(writes).iter() {
        let raw = &model.raw[i];
        // A future bound before the spawn and awaited after it is sent at its `.await`.
        let awaited = tasks.awaited_at.get(&i);
        let sent = match awaited {
            Some((first, _)) => first.point(),
            None => raw.point(),
        };
        if raw.function != Some(function) || !order.while_task_runs(spawn, sent) || tasks.inside[i]
        {
            continue;
        }
        let way = Way::to(cx, spawn, sent);
        // A task the call leaves running is not the caller's: it is a task of its own (a
        // spawn at the call, compared as one).
        for b in model
            .requests_of(i)
            .iter()
            .filter(|b| b.left_running.is_none())
        {
            for a in requests.iter().filter(|a| a.is_write()) {
                let who = Rival::Caller {
                    next_iteration: way.next_iteration,
                };
                let race = pair_race(a, b, who, spawn.window_known()).map(|mut r| {
                    if r.confidence == Confidence::Unknown && listed_against_named(a, b) {
                        r.confidence = Confidence::Possible.min(a.pair_cap(b));
                    }
                    r.sent_at = awaited.map(|(first, name)| (first.span, *name));
                    r
                });
                found.extend(race.map(|r| r.unproved(way.unproved(cx, spawn, a, b))));
            }
        }
    }
    found
}

/// Tasks spawned while this one may still run.
fn task_races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &Spawn,
    function: usize,
    requests: &'m [Request],
    tasks: &'m Tasks,
) -> Vec<Race<'m>> {
    let model = cx.model;
    let order = model.order();
    let mut found = Vec::new();
    for &o in tasks.tasks_by_object.candidates(requests).iter() {
        let other = &model.spawns[o];
        if std::ptr::eq(other, spawn)
            || model.body(other.body).and_then(|b| b.function) != Some(function)
            || !order.while_task_runs(spawn, other.call_point())
            || reported_as_site(spawn, other)
        {
            continue;
        }
        let way = Way::to(cx, spawn, other.call_point());
        for b in &tasks.requests[o] {
            for a in requests {
                if contenders(a, b, requests, &tasks.requests[o]) {
                    continue;
                }
                let race = pair_race(a, b, Rival::Task(other), spawn.window_known());
                found.extend(race.map(|r| r.unproved(way.unproved(cx, spawn, a, b))));
            }
        }
    }
    found
}

/// One task per element, none awaited before the next starts (joined ones are sites).
fn element_races<'m>(
    cx: &LintContext<'_>,
    batch: &'m Batch,
    requests: &'m [Request],
) -> Vec<Race<'m>> {
    let mut found = Vec::new();
    for (x, a) in requests.iter().enumerate() {
        for b in &requests[x..] {
            if !a.is_write() && !b.is_write()
                || a.in_channel_loop
                || b.in_channel_loop
                || deletes_alike(a, b)
                || conditional_writes(a, b)
            {
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
            found.push(Race {
                spawned: a,
                rival: b,
                who: Rival::Element(batch),
                confidence,
                unproved: None,
                sent_at: None,
            });
        }
    }
    found
}

/// A task spawned by `Drop::drop` runs after the value was dropped, wherever that is: it races
/// with what the rest of the file does to the object.
fn drop_races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &Spawn,
    function: usize,
    requests: &'m [Request],
) -> Vec<Race<'m>> {
    let model = cx.model;
    let in_drop = model
        .function_of(Some(function))
        .is_some_and(|f| f.name == "drop" && f.trait_name.as_deref() == Some("Drop"));
    if !in_drop || matches!(spawn.handle, TaskHandle::Joined(_)) {
        return Vec::new();
    }
    let mut found = Vec::new();
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
                if excused(a, b) {
                    continue;
                }
                if let Some(confidence) = a.same_object(b) {
                    found.push(Race {
                        spawned: a,
                        rival: b,
                        who: Rival::Dropper {
                            function: name.clone(),
                        },
                        confidence: confidence.min(Confidence::Possible),
                        unproved: None,
                        sent_at: None,
                    });
                }
            }
        }
    }
    found
}

/// A task that the spawning code does not await and that writes in a loop of its own runs
/// for as long as the process does: its writes race with the writes of the same kind made in
/// the file's other functions (a step, a handler), whenever those run. The task's own requests
/// (through helpers of this file) are not rivals. A name taken from a list of the kind
/// (`Request::name_from_list`) is evidence that the two can be one object; without evidence
/// the pair is not reported. Where the other function runs is not known: at most `possible`.
/// The task's writes made in a loop of the task itself (not one around the spawn), in a body
/// of their own: a background loop that writes again and again (a reaper, a status loop).
fn looped_writes<'m>(
    cx: &LintContext<'_>,
    spawn: &Spawn,
    index: usize,
    tasks: &'m Tasks,
) -> Vec<&'m Request> {
    let model = cx.model;
    // The entry each of the task's requests comes from, in `task_requests`' order.
    let entries = spawn
        .task
        .requests
        .iter()
        .flat_map(|&i| std::iter::repeat(i).take(model.requests_of(i).len()));
    entries
        .zip(&tasks.requests[index])
        .filter(|(i, a)| {
            let raw = &model.raw[*i];
            let own_loop = raw.loops.iter().any(|l| !spawn.loops.contains(l));
            a.is_write() && raw.body != spawn.body && own_loop
        })
        .map(|(_, a)| a)
        .collect()
}

/// One of the two names an element of a list of its kind, the other an object of that kind
/// named on its own: the list holds whichever object the other names (when it lies in the
/// list's namespace), so their `unknown` pair is `possible`, as it is for a writer elsewhere.
/// Two names from lists may be two different elements.
fn listed_against_named(a: &Request, b: &Request) -> bool {
    a.name_from_list != b.name_from_list
        && a.handle.kind.is_some()
        && a.handle.kind == b.handle.kind
        && a.handle.compare(&b.handle) != Sameness::Different
}

fn elsewhere_races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &Spawn,
    index: usize,
    function: usize,
    tasks: &'m Tasks,
) -> Vec<Race<'m>> {
    let model = cx.model;
    // Awaited or aborted by the spawning code: its lifetime is that code's, not the process's.
    if matches!(spawn.handle, TaskHandle::Joined(_))
        || spawn.aborted.is_some()
        || spawn.kind == SpawnKind::ScopedThread
    {
        return Vec::new();
    }
    let looped = looped_writes(cx, spawn, index, tasks);
    if looped.is_empty() {
        return Vec::new();
    }
    // The task's own requests, and the spawning function's and its tasks' (reached again
    // through a caller of it: those are the caller's, the tasks' and the next run's races, not
    // a writer elsewhere).
    let spawner: Vec<&Request> = (0..model.raw.len())
        .filter(|&i| model.raw[i].function == Some(function))
        .flat_map(|i| model.requests_of(i))
        .collect();
    let own = |b: &Request| {
        tasks.requests[index]
            .iter()
            .chain(spawner.iter().copied())
            .any(|a| a.defined_at == b.defined_at && a.verb == b.verb)
    };
    let mut found = Vec::new();
    for &i in tasks
        .entries_by_object
        .candidates(looped.iter().copied())
        .iter()
    {
        let raw = &model.raw[i];
        let Some(other_fn) = raw.function.filter(|&f| f != function) else {
            continue;
        };
        if tasks.inside[i] {
            continue;
        }
        let name = model
            .function_of(Some(other_fn))
            .map(|f| f.name.clone())
            .unwrap_or_default();
        for b in model
            .requests_of(i)
            .iter()
            .filter(|b| b.is_write() && !own(b))
        {
            for &a in &looped {
                if excused(a, b) {
                    continue;
                }
                let Some(same) = a.same_object(b) else {
                    continue;
                };
                let listed = if a.name_from_list || b.name_from_list {
                    Confidence::Possible
                } else {
                    Confidence::Unknown
                };
                let confidence = same.max(listed).min(Confidence::Possible);
                // Two functions of a file naming objects of unrelated origin say nothing, and
                // would pair every background loop with every writer of its kind.
                if confidence < Confidence::Possible {
                    continue;
                }
                found.push(Race {
                    spawned: a,
                    rival: b,
                    who: Rival::Elsewhere {
                        function: name.clone(),
                    },
                    confidence,
                    unproved: None,
                    sent_at: None,
                });
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
    cx: &'m LintContext<'_>,
    spawn: &Spawn,
    function: usize,
    requests: &'m [Request],
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
    let order = model.order();
    let earlier = model.raw.iter().enumerate().filter(|(i, raw)| {
        raw.function == Some(function)
            && !tasks.inside[*i]
            && order.precedes(raw.point(), spawn.call_point())
    });
    let rivals = earlier
        .flat_map(|(i, _)| model.requests_of(i).iter().map(|b| (b, false)))
        .chain(requests.iter().map(|b| (b, true)));
    let mut found = Vec::new();
    for (b, task) in rivals {
        for a in requests.iter().filter(|a| a.is_write() && stable(a)) {
            if !stable(b)
                || a.in_channel_loop
                || b.in_channel_loop
                || deletes_alike(a, b)
                || conditional_writes(a, b)
            {
                continue;
            }
            if let Some(confidence) = a.same_object(b) {
                found.push(Race {
                    spawned: a,
                    rival: b,
                    who: Rival::NextRun {
                        function: reconcile.name.clone(),
                        task,
                    },
                    confidence,
                    unproved: None,
                    sent_at: None,
                });
            }
        }
    }
    found
}

/// A controller's reconcile that starts a task and leaves it running (a second controller
/// built and spawned by a constructor it calls): the task runs beside every later reconcile of
/// the controller, of this object and of others, so the reconcile's own requests race with it.
fn starter_races<'m>(
    cx: &'m LintContext<'_>,
    spawn: &Spawn,
    reconcile: &str,
    requests: &'m [Request],
) -> Vec<Race<'m>> {
    let Some(&i) = spawn.task.requests.first() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let own = cx
        .model
        .requests_of(i)
        .iter()
        .filter(|b| b.left_running.is_none());
    for b in own {
        for a in requests.iter().filter(|a| a.is_write()) {
            let who = Rival::Starter {
                reconcile: reconcile.to_string(),
            };
            found.extend(pair_race(a, b, who, spawn.window_known()));
        }
    }
    found
}

/// How the rival is reached from the spawn, as far as it bears on the evidence.
struct Way<'p> {
    rival: Point<'p>,
    /// Only on a later iteration of a loop around both.
    next_iteration: bool,
    /// The code waits for a timer on every way there.
    after_timer: bool,
}

impl<'p> Way<'p> {
    fn to(cx: &LintContext<'_>, spawn: &Spawn, rival: Point<'p>) -> Way<'p> {
        Way {
            rival,
            next_iteration: !cx.model.order().follows_in_pass(spawn.point(), rival),
            after_timer: cx.model.waits_on_every_way(spawn.point(), rival),
        }
    }

    /// Why a race of the task's `a` with the rival's `b` this way is no evidence, if it is not.
    fn unproved(
        &self,
        cx: &LintContext<'_>,
        spawn: &Spawn,
        a: &Request,
        b: &Request,
    ) -> Option<&'static str> {
        let order = cx.model.order();
        // Round a loop, a name made anew on each iteration may be another object.
        let named_anew =
            |r: &&Request| order.object_varies_round_the_loop(spawn.point(), self.rival, r);
        if self.after_timer {
            Some(AFTER_TIMER)
        } else if self.next_iteration && [a, b].iter().any(named_anew) {
            Some(NAMED_ANEW)
        } else {
            None
        }
    }
}

/// The object name is rooted at a binding made anew for each element.
fn varies(batch: &Batch, r: &Request) -> bool {
    match &r.object {
        ObjectName::One { name, .. } => batch.is_local(name),
        ObjectName::All => false,
    }
}
