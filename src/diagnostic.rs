//! What a lint reports. Every output format reads this one type.

use crate::model::Confidence;
use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A `possible` finding: the tool cannot prove the requests touch the same object.
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Default severity of a finding: `possible` findings are reported one level lower.
    pub fn for_confidence(confidence: Confidence) -> Severity {
        match confidence {
            Confidence::Definite => Severity::Warning,
            Confidence::Possible | Confidence::Unknown => Severity::Note,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The lint's public name, e.g. `concurrent-same-object`.
    pub lint: &'static str,
    pub severity: Severity,
    pub confidence: Confidence,
    /// One line, lowercase first word, no trailing period.
    pub message: String,
    /// Where the hazard is (the combinator); `line`/`column` in outputs come from here.
    pub primary: Label,
    /// The requests involved.
    pub secondary: Vec<Label>,
    /// Where the finding is made, when that is not where it points: the span of one of the
    /// `secondary` labels (a controller's `run`, whose reconciles of different objects make the
    /// write at `primary` concurrently, possibly in another file). A suppression comment there
    /// suppresses the finding too, and it stands in for `primary` when the primary's file is
    /// not shown ([`Diagnostic::move_to_site`]).
    pub site: Option<Span>,
    /// Consequences and context, one sentence each.
    pub notes: Vec<String>,
    /// What to do instead, possibly with code on following lines.
    pub help: Option<String>,
    /// The suggestion as edits, when there is one (`--fix`, `--diff`, JSON `fix`).
    pub fix: Option<crate::edit::Fix>,
}

impl Diagnostic {
    /// The finding placed at its site (see [`Diagnostic::site`]), its primary label dropped:
    /// for when the primary's file cannot be shown. Unchanged without a site.
    pub fn move_to_site(&mut self) {
        let Some(site) = self.site.take() else {
            return;
        };
        if let Some(i) = self.secondary.iter().position(|l| l.span == site) {
            self.primary = self.secondary.remove(i);
        }
    }

    /// Every file its labels point into, the primary's first.
    pub fn files(&self) -> impl Iterator<Item = crate::source::FileId> + '_ {
        std::iter::once(self.primary.span.file).chain(self.secondary.iter().map(|l| l.span.file))
    }

    /// Order of output: by file, then position, then lint.
    pub fn sort_key(&self) -> (usize, usize, usize, &'static str) {
        (
            self.primary.span.file,
            self.primary.span.start,
            self.primary.span.end,
            self.lint,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(file: usize, start: usize, message: &str) -> Label {
        Label {
            span: Span {
                file,
                start,
                end: start + 1,
            },
            message: message.to_string(),
        }
    }

    #[test]
    fn a_finding_moved_to_its_site_points_there_and_keeps_its_other_labels() {
        let mut d = Diagnostic {
            lint: "concurrent-same-object",
            severity: Severity::Warning,
            confidence: Confidence::Definite,
            message: "m".into(),
            primary: label(1, 10, "the write"),
            secondary: vec![label(0, 5, "the run"), label(1, 3, "the read")],
            site: Some(label(0, 5, "").span),
            notes: Vec::new(),
            help: None,
            fix: None,
        };
        assert_eq!(d.files().collect::<Vec<_>>(), [1, 0, 1]);
        d.move_to_site();
        assert_eq!(d.primary, label(0, 5, "the run"));
        assert_eq!(d.secondary, [label(1, 3, "the read")]);
        assert_eq!(d.site, None);
        // Without a site, nothing moves.
        let before = d.primary.clone();
        d.move_to_site();
        assert_eq!(d.primary, before);
    }
}
