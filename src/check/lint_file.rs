//! One file linted: its model linked in its unit, every lint run, the policy applied. The one
//! path of a run ([`super::assemble`]), of [`super::check_text`] and of [`super::recheck`]
//! (`--fix` between rounds), so that the three cannot filter differently.

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::doc_examples;
use crate::lints::{self, LintContext};
use crate::model::link::Linker;
use crate::model::stats::ModelStatistics;
use crate::model::Confidence;
use crate::policy::Policy;
use crate::source::{FileId, SourceFile};
use crate::suppression::FileSuppressions;

/// A file to lint, as analysed.
pub(super) struct FileToLint<'a> {
    pub(super) id: FileId,
    pub(super) source: &'a SourceFile,
    pub(super) suppressions: &'a FileSuppressions,
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
    let model = linker.link(file.id);
    let cx = LintContext {
        model: &model,
        source: file.source,
        batch_checking: batch_requested || file.settings.batch_checking,
    };
    let policy = Policy {
        settings: file.settings,
        min_confidence,
    };
    let mut found = lints::run_all(&cx);
    if file.settings.doc_examples {
        let examples = doc_examples::check(file.source, linker.wrappers(), cx.batch_checking);
        found.extend(examples.diagnostics);
    }
    Linted {
        diagnostics: policy.apply(file.source, file.suppressions, found),
        statistics: ModelStatistics::of(&model),
    }
}
