//! One file linted: its model linked in its unit, every lint run, the policy applied. The one
//! path of a run ([`super::assemble`], which runs its steps on different workers), of
//! [`super::check_text`] and of [`super::recheck`] (`--fix` between rounds), so that the three
//! cannot filter differently.

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::doc_examples::{self, Documented};
use crate::lints::{self, LintContext};
use crate::model::link::Linker;
use crate::model::stats::ModelStatistics;
use crate::model::Confidence;
use crate::policy::Policy;
use crate::prefilter::Prefilter;
use crate::source::{FileId, SourceFile};
use crate::suppression::{FileSuppressions, RunSuppressions};

/// A file to lint, as analysed.
pub(super) struct FileToLint<'a> {
    pub(super) id: FileId,
    pub(super) source: &'a SourceFile,
    pub(super) suppressions: &'a FileSuppressions,
    /// The suppressions of the run's files (this one's among them), for the parts of findings
    /// other than their primary spans.
    pub(super) run_suppressions: &'a RunSuppressions<'a>,
    /// The settings of the file's crate.
    pub(super) settings: &'a Settings,
}

/// What is reported on a file, and what its model saw (`--statistics`).
pub(super) struct Linted {
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) statistics: ModelStatistics,
}

/// `linker` holds the facts of the file's unit; `min_confidence` is the run's floor under the
/// crate's settings; `batch_requested`, batch checking asked for by the caller (the crate's
/// settings may ask for it too).
pub(super) fn lint_file(
    linker: &Linker<'_>,
    file: FileToLint<'_>,
    min_confidence: Confidence,
    batch_requested: bool,
) -> Linted {
    let (mut found, statistics) = unit_findings(linker, &file, batch_requested);
    let documented = Documented {
        linker,
        crate_name: None,
    };
    found.extend(example_findings(&file, &documented, None, batch_requested));
    Linted {
        diagnostics: reported(&file, min_confidence, found),
        statistics,
    }
}

/// The steps of [`lint_file`], for a run that takes the examples of its files apart from their
/// files (each example is linked on its own in the unit's scope) to spread them over the
/// workers: the findings of the lints on the file's model, and what its model saw.
pub(super) fn unit_findings(
    linker: &Linker<'_>,
    file: &FileToLint<'_>,
    batch_requested: bool,
) -> (Vec<Diagnostic>, ModelStatistics) {
    let model = linker.link(file.id);
    let cx = LintContext {
        model: &model,
        source: file.source,
        batch_checking: batch_requested || file.settings.batch_checking,
        doc_example: false,
        suppressions: file.run_suppressions,
    };
    (lints::run_all(&cx), ModelStatistics::of(&model))
}

/// The findings in the file's doc-comment examples, when its settings ask for them: each
/// linked in the scope of the crate it documents. `prefilter`: which examples may matter (see
/// [`doc_examples::check`]).
pub(super) fn example_findings(
    file: &FileToLint<'_>,
    documented: &Documented<'_, '_>,
    prefilter: Option<&Prefilter>,
    batch_requested: bool,
) -> Vec<Diagnostic> {
    if !file.settings.doc_examples {
        return Vec::new();
    }
    let batch_checking = batch_requested || file.settings.batch_checking;
    doc_examples::check(file.source, documented, prefilter, batch_checking).diagnostics
}

/// What is reported of the findings of a file (the lints' first, then its examples'), once the
/// findings of every file whose suppressions it may use are made (its unit's).
pub(super) fn reported(
    file: &FileToLint<'_>,
    min_confidence: Confidence,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let policy = Policy {
        settings: file.settings,
        min_confidence,
    };
    let elsewhere = file.run_suppressions.used_in(file.id);
    policy.apply(file.source, file.suppressions, found, &elsewhere)
}
