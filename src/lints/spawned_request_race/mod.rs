//! `spawned-request-race`: a write sent from a spawned task races with later requests on the
//! same object.
//!
//! What it does: finds a task (`tokio::spawn`, `spawn_local`, `JoinSet::spawn`, a thread that
//! `block_on`s a request, a spawn in `Drop::drop`) that writes an object, while the code that
//! spawned it makes requests on that object before the task's handle is awaited, or a second
//! task does, or the same task spawned once per element does.
//! Why is this bad: a spawned task runs on its own; until its handle is awaited, its requests
//! and those made afterwards reach the API server in no fixed order.
//!
//! The declaration and the check here; the races are found in [`races`] and worded in
//! [`message`].

mod message;
mod races;

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::Diagnostic;
use crate::edit::Applicability;
use message::report;
use races::{races, Rival, Tasks};

pub const LINT: Lint = Lint {
    name: "spawned-request-race",
    default_level: Level::Warn,
    fixes: &[Applicability::DisplayOnly],
    summary: "a write from a spawned task races with later requests on the same object",
    doc: include_str!("../../../lints/spawned-request-race.md"),
    // A controller run, or a call of a crate function from async code, may start a task the
    // function leaves running (a spawn made at link time, `SpawnKind::Call`).
    reads: &[Reads::Spawns, Reads::Controllers, Reads::BlockingInAsync],
    check: Check::Model(check),
};

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    let tasks = Tasks::of(cx);
    for (k, spawn) in cx.model.spawns.iter().enumerate() {
        let races = races(cx, spawn, k, &tasks);
        // The most certain race; among equals, one in the spawning function, else the first
        // function by name, then the first written: not the first function in the file, so
        // that the finding does not depend on the order functions are written in.
        let Some(best) = races.iter().max_by_key(|r| {
            let elsewhere = match &r.who {
                Rival::Dropper { function } | Rival::Elsewhere { function } => {
                    Some(function.as_str())
                }
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
