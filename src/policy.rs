//! The policy: what is reported of a file's findings (suppressions, the minimum confidence,
//! each lint's level, unused suppressions), in one place for every run.

use crate::config::{Level, Settings};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lints;
use crate::model::Confidence;
use crate::source::SourceFile;
use crate::suppression::{self, FileSuppressions};

/// How findings are filtered: the settings of a file's crate, with a floor under their minimum
/// confidence (the caller's, `Confidence::Unknown` for none).
#[derive(Clone, Copy, Debug)]
pub struct Policy<'a> {
    pub settings: &'a Settings,
    pub min_confidence: Confidence,
}

impl Policy<'_> {
    /// What is reported of a file's findings, in this order: suppressed ones dropped, then
    /// those below the minimum confidence, then each at its configured level (allowed ones
    /// dropped), plus unused suppressions when asked for. `elsewhere`: the (comment, name)
    /// indices of this file's suppressions that covered parts of findings other than their
    /// primary spans ([`suppression::RunSuppressions::used_in`]): used too.
    pub fn apply(
        &self,
        source: &SourceFile,
        suppressions: &FileSuppressions,
        found: Vec<Diagnostic>,
        elsewhere: &[(usize, usize)],
    ) -> Vec<Diagnostic> {
        let settings = self.settings;
        let (found, used) = suppression::apply(source, suppressions, found, elsewhere);
        let min_confidence = self.min_confidence.max(settings.min_confidence);
        let mut found: Vec<Diagnostic> = found
            .into_iter()
            .filter(|d| d.confidence >= min_confidence)
            .filter_map(|d| with_level(d, settings))
            .collect();
        if settings.report_unused_suppressions {
            let unused = suppression::unused(suppressions, &used);
            found.extend(lints::run_on_unused_suppressions(source, &unused));
        }
        found
    }
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
