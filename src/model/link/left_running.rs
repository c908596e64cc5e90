//! Tasks a crate function spawns and leaves running when it returns (`SourceController::new`
//! spawning a controller's `run`, keeping the handle in the value it returns): their requests
//! are marked in the function's summary ([`Request::left_running`]), and in a caller the call
//! of such a function is a spawn of its own ([`SpawnKind::Call`]), since the call returns while
//! the task goes on.

use foldhash::HashMap;

use super::{display_name, Linker};
use crate::model::order::made_in_spawned_tasks;
use crate::model::{LeftRunning, Operand, OperandForm, Request, Spawn, SpawnKind, TaskHandle};

impl Linker<'_> {
    /// The entries of function `k` of file `pos` made by a task the function leaves running,
    /// with that task. A task is left running when its handle is dropped (nothing can await
    /// it), or moved out of a function that is not `async` (returned, or kept in what it
    /// returns: such a function cannot wait for the task itself); not when it is aborted
    /// there, joined there, or handed to a `JoinSet` or a thread scope.
    pub(super) fn left_running_entries(&self, pos: usize, k: usize) -> HashMap<usize, LeftRunning> {
        let facts = self.shared.facts(pos);
        let mut out = HashMap::default();
        if facts.spawns.is_empty() {
            return out;
        }
        let function = &facts.functions[k];
        let entries = self.shared.entries_of_function(pos, k);
        for spawn in &facts.spawns {
            let of_function = facts
                .bodies
                .get(spawn.body as usize)
                .and_then(|b| b.function)
                == Some(k);
            if !of_function || spawn.aborted.is_some() {
                continue;
            }
            let handle_kept = match (spawn.kind, spawn.handle) {
                (SpawnKind::Task | SpawnKind::Thread, TaskHandle::Detached) => false,
                (SpawnKind::Task | SpawnKind::Thread, TaskHandle::Unknown)
                    if !function.is_async =>
                {
                    true
                }
                _ => continue,
            };
            let left = LeftRunning {
                spawn: spawn.spelling.clone(),
                function: display_name(function),
                handle_kept,
            };
            // The task's future, also one bound before the spawn (`let fut = ..; spawn(fut)`),
            // and what is written inside it.
            for &i in entries {
                if spawn.task.requests.contains(&i) || spawn.span.contains(&facts.requests[i].span)
                {
                    out.entry(i).or_insert_with(|| left.clone());
                }
            }
        }
        out
    }

    /// The file's spawns, and one for each call of a crate function that leaves a task running
    /// (its requests marked [`Request::left_running`]): the task runs from the call on. Not for
    /// a call that is itself part of a spawned task's future (that spawn is the task), nor for
    /// a call whose future is bound or dropped unpolled (where it runs is that future's).
    /// `requests`: the file's entries as resolved.
    pub(super) fn spawns_with_calls(&self, pos: usize, requests: &[Vec<Request>]) -> Vec<Spawn> {
        let facts = self.shared.facts(pos);
        let mut spawns = facts.spawns.clone();
        let inside = made_in_spawned_tasks(&facts.spawns, &facts.requests);
        let in_future = |i: &usize| {
            facts.spawns.iter().any(|s| s.task.requests.contains(i))
                || facts
                    .bound_futures
                    .iter()
                    .any(|b| b.future.requests.contains(i))
                || facts.unpolled.iter().any(|u| u.requests.contains(i))
        };
        for (i, resolved) in requests.iter().enumerate() {
            let Some(left) = resolved.iter().find_map(|r| r.left_running.as_deref()) else {
                continue;
            };
            let raw = &facts.requests[i];
            // A controller's run whose reconcile starts the task is compared with its own
            // reconciles, wherever the run's stream goes (see `Rival::Starter`); it starts
            // nothing when it is never polled.
            let run = self
                .with_linked_run(pos, raw)
                .is_some_and(|r| r.controller.is_some());
            let unpolled = facts.unpolled.iter().any(|u| u.requests.contains(&i));
            if unpolled || (!run && (inside[i] || in_future(&i))) {
                continue;
            }
            // A handle moved out of the function may come back to this caller, which may
            // await it where the call's result is awaited; a dropped one never.
            let kept = resolved
                .iter()
                .filter_map(|r| r.left_running.as_deref())
                .any(|l| l.handle_kept);
            let awaited = facts
                .awaits
                .iter()
                .find(|a| a.requests.contains(&i))
                .map(|a| a.span);
            let (handle, handle_used) = match (kept, awaited) {
                (false, _) => (TaskHandle::Detached, None),
                (true, at) => (TaskHandle::Unknown, at),
            };
            spawns.push(Spawn {
                kind: SpawnKind::Call,
                span: raw.span,
                spelling: format!("{} in `{}`", left.spawn, left.function),
                task: Operand {
                    span: raw.span,
                    requests: vec![i],
                    form: OperandForm::Other {
                        needs_parens: false,
                    },
                    batch: None,
                    arguments: Vec::new(),
                },
                handle,
                body: raw.body,
                branches: raw.branches.clone(),
                loops: raw.loops.clone(),
                handle_used,
                set_joined: None,
                aborted: None,
            });
        }
        spawns
    }
}
