//! The report builder: a lint says what it found, and the notes every lint shares are worded
//! here once (a fix's safety, the confidence note, the "N more pairs" note).
//!
//! ```text
//! let mut f = cx.report(&LINT, confidence, message, primary);
//! f.note(consequence);
//! f.unproved(a, b);              // only when the finding is short of proof
//! f.more_pairs(total, "race the same way");
//! f.fix(fix, why);               // with "the fix is unsafe: …" when it is
//! out.push(f.finish());
//! ```

use super::{Lint, LintContext};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::edit::{Applicability, Fix};
use crate::model::{Confidence, Request};

/// A finding being written; [`Finding::finish`] gives the diagnostic.
pub struct Finding {
    diagnostic: Diagnostic,
}

impl LintContext<'_> {
    /// A finding of `lint` at `primary`, at the severity its confidence gets by default (a
    /// `possible` finding is a note; the policy applies the configured level later).
    pub fn report(
        &self,
        lint: &Lint,
        confidence: Confidence,
        message: impl Into<String>,
        primary: Label,
    ) -> Finding {
        Finding {
            diagnostic: Diagnostic {
                lint: lint.name,
                severity: Severity::for_confidence(confidence),
                confidence,
                message: message.into(),
                primary,
                secondary: Vec::new(),
                site: None,
                notes: Vec::new(),
                help: None,
                fix: None,
            },
        }
    }
}

impl Finding {
    pub fn secondary(&mut self, labels: impl IntoIterator<Item = Label>) -> &mut Self {
        self.diagnostic.secondary.extend(labels);
        self
    }

    /// Where the finding is made, when it points elsewhere (see [`Diagnostic::site`]): a
    /// secondary label, the first.
    pub fn site(&mut self, label: Label) -> &mut Self {
        self.diagnostic.site = Some(label.span);
        self.diagnostic.secondary.insert(0, label);
        self
    }

    pub fn note(&mut self, note: impl Into<String>) -> &mut Self {
        self.diagnostic.notes.push(note.into());
        self
    }

    pub fn notes(&mut self, notes: impl IntoIterator<Item = String>) -> &mut Self {
        self.diagnostic.notes.extend(notes);
        self
    }

    /// The confidence note, unless the finding is `definite`: which two objects the tool
    /// cannot tell apart, and why when it knows.
    pub fn unproved(&mut self, a: &Request, b: &Request) -> &mut Self {
        if self.diagnostic.confidence != Confidence::Definite {
            self.diagnostic.notes.push(a.unproved_note(b));
        }
        self
    }

    /// `total` pairs found at this place, one reported: "N more pairs of requests {how}".
    pub fn more_pairs(&mut self, total: usize, how: &str) -> &mut Self {
        if total > 1 {
            self.diagnostic.notes.push(format!(
                "{} more pair{} of requests {how}",
                total - 1,
                if total == 2 { "" } else { "s" }
            ));
        }
        self
    }

    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.diagnostic.help = Some(help.into());
        self
    }

    /// The fix, and `why` it is not safe as a note when it is not: "the fix is unsafe: …" or
    /// "the fix is not applied automatically: …" (`why` of a safe fix is not written).
    pub fn fix(&mut self, fix: Fix, why: Option<&str>) -> &mut Self {
        if let Some(note) = why.and_then(|why| fix_safety_note(fix.applicability, why)) {
            self.diagnostic.notes.push(note);
        }
        self.diagnostic.fix = Some(fix);
        self
    }

    pub fn finish(self) -> Diagnostic {
        self.diagnostic
    }
}

/// How a fix that is not safe says why; None for a safe fix.
fn fix_safety_note(applicability: Applicability, why: &str) -> Option<String> {
    match applicability {
        Applicability::Safe => None,
        Applicability::Unsafe => Some(format!("the fix is unsafe: {why}")),
        Applicability::DisplayOnly => Some(format!("the fix is not applied automatically: {why}")),
    }
}
