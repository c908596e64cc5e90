//! The policy: what is reported of a file's findings (suppressions, the minimum confidence,
//! each lint's level, unused suppressions), in one place for every run.

use crate::config::{Level, Settings};
use crate::diagnostic::{Diagnostic, Severity};
use crate::model::Confidence;
use crate::source::SourceFile;
use crate::suppression::{self, FileSuppressions};

/// What is reported of a file's findings: suppressed ones and those below the minimum
/// confidence dropped, each at its configured level, plus unused suppressions when asked for.
pub fn reported(
    source: &SourceFile,
    suppressions: &FileSuppressions,
    settings: &Settings,
    min_confidence: Confidence,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let (found, used) = suppression::apply(source, suppressions, found);
    let min_confidence = min_confidence.max(settings.min_confidence);
    let mut found: Vec<Diagnostic> = found
        .into_iter()
        .filter(|d| d.confidence >= min_confidence)
        .filter_map(|d| with_level(d, settings))
        .collect();
    if settings.report_unused_suppressions {
        found.extend(suppression::unused(source, suppressions, &used));
    }
    found
}

/// The finding at its configured level: dropped when allowed, as the lint reports it when
/// warned (a `possible` finding is a note), an error when denied.
fn with_level(mut d: Diagnostic, settings: &Settings) -> Option<Diagnostic> {
    match settings.levels.level(d.lint) {
        Level::Allow => None,
        Level::Warn => Some(d),
        Level::Deny => {
            d.severity = Severity::Error;
            Some(d)
        }
    }
}
