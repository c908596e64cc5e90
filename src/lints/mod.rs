//! The lints: one file each, registered in [`LINTS`].

mod await_order_inverted;
mod block_on_in_async;
mod cancellable_write;
mod concurrent_same_object;
mod spawned_request_race;
mod unawaited_request;

use crate::diagnostic::Diagnostic;
use crate::model::FileModel;
use crate::source::SourceFile;

/// What a lint sees: one linked file of the crate.
pub struct LintContext<'a> {
    pub model: &'a FileModel,
    pub source: &'a SourceFile,
    /// Report batches keyed by their element as `possible` ([`crate::Options::batch_checking`]).
    pub batch_checking: bool,
}

pub struct Lint {
    /// Public name: used in output, configuration and `explain`. Never renamed.
    pub name: &'static str,
    /// One line for `list`.
    pub summary: &'static str,
    /// The page in `lints/<name>.md`.
    pub doc: &'static str,
    pub check: fn(&LintContext<'_>, &mut Vec<Diagnostic>),
}

pub static LINTS: &[Lint] = &[
    concurrent_same_object::LINT,
    await_order_inverted::LINT,
    unawaited_request::LINT,
    spawned_request_race::LINT,
    cancellable_write::LINT,
    block_on_in_async::LINT,
];

pub fn find(name: &str) -> Option<&'static Lint> {
    LINTS.iter().find(|l| l.name == name)
}

pub fn run_all(cx: &LintContext<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for lint in LINTS {
        (lint.check)(cx, &mut out);
    }
    out
}
