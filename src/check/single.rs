//! One text linted on its own (`check_text`) or against the run it came from (`recheck`,
//! `Rechecker` for many).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::analyse::{analyse_text, internal_error, strip_bom, Analysed};
use super::lint_file::{lint_file, FileToLint};
use crate::config::Settings;
use crate::model::link::{LinkIndex, Linker};
use crate::model::Confidence;
use crate::outcome::{FileError, Report};
use crate::parse::on_worker_stack;
use crate::source::SourceFile;
use crate::suppression::RunSuppressions;

/// Analyse one source text on its own (no module following): the entry point for tests, fuzzing
/// and integrations. The analysis runs on a thread of its own with a [`crate::parse::WORKER_STACK`] stack; a
/// panic (a bug) is passed on to the caller, so that tests and fuzzers see it.
pub fn check_text(path: &Path, text: &str) -> Report {
    on_worker_stack(|| check_text_on_current_thread(path, text))
}

/// [`check_text`] on the calling thread, whose stack must hold the analysis: [`crate::parse::WORKER_STACK`]
/// bytes always do. For callers that run it on threads of their own (the fuzz targets).
pub fn check_text_on_current_thread(path: &Path, text: &str) -> Report {
    let mut report = Report::default();
    let mut text = text.to_string();
    strip_bom(&mut text);
    match analyse_text(0, path, text, false, &[]) {
        Err(e) => {
            report.files_failed = 1;
            report.errors.push(e);
        }
        Ok(analysed) => {
            let Analysed {
                source,
                facts,
                suppressions,
                suppression_errors,
                ..
            } = analysed;
            report.files_checked = 1;
            report.files_parsed = 1;
            report.errors.extend(suppression_errors);
            let displays = HashMap::from([(0, source.display.clone())]);
            let linker = Linker::new(vec![(0, &facts)], displays, &[]);
            // On its own, a text has no configuration: every finding is reported, at the
            // level its lint reports it.
            let settings = Settings {
                min_confidence: Confidence::Unknown,
                ..Settings::default()
            };
            let run_suppressions = RunSuppressions::new([(&source, &suppressions)]);
            let file = FileToLint {
                id: 0,
                source: &source,
                suppressions: &suppressions,
                run_suppressions: &run_suppressions,
                settings: &settings,
            };
            let linted = lint_file(&linker, file, Confidence::Unknown, false);
            drop(linker);
            report.diagnostics = linted.diagnostics;
            report.statistics = linted.statistics;
            report
                .diagnostics
                .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            report.linked.displays.insert(0, source.display.clone());
            report.linked.facts.push((0, facts));
            report.sources.push(source);
        }
    }
    proc_macro2::extra::invalidate_current_thread_spans();
    report
}

/// Check a new text of a file of `report` (same id and path), linked against the same crate's
/// other files and filtered as the run filtered it (suppressions, confidence, levels): how
/// `--fix` re-checks a file between rounds. The result holds this one file and what would be
/// reported on it; a text that does not parse is an error with its position. To re-check many
/// files, a [`Rechecker`] indexes the run once.
pub fn recheck(report: &Report, file: &SourceFile, text: &str) -> Result<Report, FileError> {
    Rechecker::new(report).recheck(file, text)
}

/// [`recheck`] for many files of one run: the run's files are indexed once, the first time a
/// file is re-checked, and each new text is laid on that index in place of its file's.
pub struct Rechecker<'r> {
    report: &'r Report,
    index: OnceLock<Arc<LinkIndex<'r>>>,
}

impl<'r> Rechecker<'r> {
    pub fn new(report: &'r Report) -> Self {
        Rechecker {
            report,
            index: OnceLock::new(),
        }
    }

    /// See [`recheck`].
    pub fn recheck(&self, file: &SourceFile, text: &str) -> Result<Report, FileError> {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let linked = &self.report.linked;
            let analysed = analyse_text(
                file.id,
                &file.path,
                text.to_string(),
                false,
                &linked.wrappers,
            )?;
            let index = self.index.get_or_init(|| Arc::new(linked.run_index()));
            let linker = linked.linker_on(index, file.id, &analysed.facts);
            let default_settings = Settings::default();
            let settings = linked
                .settings
                .get(&file.id)
                .map_or(&default_settings, |s| s.as_ref());
            // The run's other files' suppression comments are not kept: a blocking helper's
            // callers there are not left out (the helper's finding has no fix to re-check).
            let run_suppressions =
                RunSuppressions::new([(&analysed.source, &analysed.suppressions)]);
            let to_lint = FileToLint {
                id: file.id,
                source: &analysed.source,
                suppressions: &analysed.suppressions,
                run_suppressions: &run_suppressions,
                settings,
            };
            let mut found = lint_file(
                &linker,
                to_lint,
                linked.min_confidence,
                linked.batch_checking,
            )
            .diagnostics;
            drop(linker);
            found.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            Ok(Report {
                diagnostics: found,
                sources: vec![analysed.source],
                files_checked: 1,
                files_parsed: 1,
                ..Report::default()
            })
        }));
        proc_macro2::extra::invalidate_current_thread_spans();
        result.unwrap_or_else(|panic| {
            Err(FileError {
                file: file.display.clone(),
                line: None,
                column: None,
                message: internal_error(&*panic),
            })
        })
    }
}
