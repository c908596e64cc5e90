//! The lints: one file each, declared in the registry: [`LINTS`], the lints of the code, and
//! [`unused_suppression`], the lint of the suppression comments ([`registry`] gives both).
//! A declaration says what the lint is (name, default level, the fixes it offers, summary,
//! page, the facts it reads); the lint's file holds the decision and the message, written
//! through [`finding::Finding`].

mod await_order_inverted;
mod block_on_in_async;
mod cancellable_write;
mod concurrent_same_object;
pub mod finding;
mod spawned_request_race;
mod unawaited_request;
pub mod unused_suppression;

use crate::diagnostic::Diagnostic;
use crate::edit::Applicability;
use crate::model::{FileFacts, FileModel, RawKind};
use crate::source::{SourceFile, Span};

/// What a lint sees: one linked file of the crate.
pub struct LintContext<'a> {
    pub model: &'a FileModel,
    pub source: &'a SourceFile,
    /// Report batches keyed by their element as `possible` ([`crate::Options::batch_checking`]).
    pub batch_checking: bool,
    /// The file is a documentation example (see [`crate::doc_examples`]): an illustration first.
    pub doc_example: bool,
    /// The suppression comments of the run, for the places a finding is made of besides its
    /// primary span (which the policy matches).
    pub suppressions: &'a dyn Suppressions,
}

/// Suppression comments, asked about a place that makes a finding on its own without being
/// its primary span: each async caller of a blocking helper (its calls may be in other files).
/// A lint leaves out the places covered; the policy matches the finding's primary span.
/// Implemented above the lints, over the run's files
/// ([`crate::suppression::RunSuppressions`]).
pub trait Suppressions: Sync {
    /// A suppression comment for `lint` covers `place` (it then counts as used).
    fn covers(&self, lint: &'static str, place: Span) -> bool;
}

/// No suppression comment anywhere: a doc example's findings (examples have none).
pub struct NoSuppressions;

impl Suppressions for NoSuppressions {
    fn covers(&self, _: &'static str, _: Span) -> bool {
        false
    }
}

pub struct Lint {
    /// Public name: used in output, configuration and `explain`. Never renamed.
    pub name: &'static str,
    /// Its level unless configured ([`crate::config::Levels::level`]).
    pub default_level: Level,
    /// The kinds of fix its findings come with; empty for none. `tests/fix_availability.rs`
    /// checks this against what the UI cases and the lint's page produce.
    pub fixes: &'static [Applicability],
    /// One line for `list`.
    pub summary: &'static str,
    /// The page in `lints/<name>.md`.
    pub doc: &'static str,
    /// The facts its findings start from ([`Reads`]).
    pub reads: &'static [Reads],
    pub check: Check,
}

/// How a lint decides.
#[derive(Clone, Copy)]
pub enum Check {
    /// On each linked file's model: the lints of the code.
    Model(fn(&LintContext<'_>, &mut Vec<Diagnostic>)),
    /// On the names of a file's suppression comments that suppressed nothing, after the lints
    /// of the code: run by the policy ([`crate::policy`]), which knows which names suppressed
    /// something.
    SuppressionComments(fn(&SourceFile, &[unused_suppression::UnusedName], &mut Vec<Diagnostic>)),
}

/// What a lint's findings become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported as a warning.
    Warn,
    /// Reported as an error.
    Deny,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

/// The facts of a file a lint's findings start from. A file with none of the facts any lint
/// reads is not linted and its text is not kept: most files of a crate only lend their facts
/// to others (helpers, types). The rule is derived from these declarations, so a new lint
/// cannot be skipped by it without saying so in its registry entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Concurrency sites (`join!`, `select!`, `join_all`, ...).
    Sites,
    /// Spawned tasks.
    Spawns,
    /// `timeout(..)` wrappers.
    Timeouts,
    /// Futures bound to a name before they are awaited.
    BoundFutures,
    /// Futures dropped without being polled.
    UnpolledFutures,
    /// Controllers run (`Controller::new(..).run(reconcile, ..)`).
    Controllers,
    /// Web handlers registered with an HTTP server (`Router::new().route(..)`).
    Handlers,
    /// Blocking calls, or calls of crate functions (which may block) from async code.
    BlockingInAsync,
}

impl Reads {
    pub fn present_in(self, facts: &FileFacts) -> bool {
        match self {
            Reads::Sites => !facts.sites.is_empty(),
            Reads::Spawns => !facts.spawns.is_empty(),
            Reads::Timeouts => !facts.timeouts.is_empty(),
            Reads::BoundFutures => !facts.bound_futures.is_empty(),
            Reads::UnpolledFutures => !facts.unpolled.is_empty(),
            Reads::Controllers => facts.requests.iter().any(|r| r.controller.is_some()),
            Reads::Handlers => !facts.handlers.is_empty(),
            Reads::BlockingInAsync => {
                !facts.blocking.is_empty()
                    || facts.requests.iter().any(|r| {
                        matches!(r.kind, RawKind::Helper(_))
                            && facts
                                .bodies
                                .get(r.body as usize)
                                .is_some_and(|b| b.kind.is_async())
                    })
            }
        }
    }
}

/// Some lint reads a fact of `facts` ([`Reads`]): the file is linted.
pub fn read_by_a_lint(facts: &FileFacts) -> bool {
    LINTS
        .iter()
        .flat_map(|l| l.reads)
        .any(|r| r.present_in(facts))
}

/// Findings made in other files may point into this one: it writes through what may be an
/// `Api` handle, and a controller's reconcile run elsewhere may make the write (a finding of
/// `concurrent-same-object` is then shown at the write). Its text is kept.
pub fn pointed_into(facts: &FileFacts) -> bool {
    facts.requests.iter().any(|r| match &r.kind {
        RawKind::Api(call) => call.verb.access == crate::model::Access::Write,
        RawKind::Helper(_) => false,
    })
}

pub static LINTS: &[Lint] = &[
    concurrent_same_object::LINT,
    await_order_inverted::LINT,
    unawaited_request::LINT,
    spawned_request_race::LINT,
    cancellable_write::LINT,
    block_on_in_async::LINT,
];

/// Every lint declared: those of the code, then `unused-suppression`.
pub fn registry() -> impl Iterator<Item = &'static Lint> {
    LINTS.iter().chain([&unused_suppression::LINT])
}

/// A lint page as people read it (`explain`, SARIF help): the examples without the `//~ lint`
/// markers that tell the tests (tests/lint_docs.rs) which lines an example is reported on.
pub fn without_test_markers(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut in_code = false;
    for line in page.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let marker = line.find("//~").filter(|&at| {
            in_code
                && line[at + 3..]
                    .split_whitespace()
                    .all(|name| registry().any(|l| l.name == name))
        });
        match marker {
            Some(at) => {
                out.push_str(line[..at].trim_end());
                if line.ends_with('\n') {
                    out.push('\n');
                }
            }
            None => out.push_str(line),
        }
    }
    out
}

/// A lint of the code by name (the lints levels and suppressions can name).
pub fn find(name: &str) -> Option<&'static Lint> {
    LINTS.iter().find(|l| l.name == name)
}

/// The findings of the lint of the suppression comments on a file's unused names.
pub fn run_on_unused_suppressions(
    source: &SourceFile,
    unused: &[unused_suppression::UnusedName],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Check::SuppressionComments(check) = unused_suppression::LINT.check {
        check(source, unused, &mut out);
    }
    out
}

pub fn run_all(cx: &LintContext<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for lint in LINTS {
        if let Check::Model(check) = lint.check {
            check(cx, &mut out);
        }
    }
    out
}
