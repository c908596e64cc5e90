//! Edits as data: a lint's suggestion ([`Fix`]: edits of byte ranges, with an [`Applicability`])
//! and the rewrites lints build them with. Below the lints and the diagnostics that carry fixes;
//! applying fixes to files is [`crate::fix`]'s, which sits above the run's outcome.
//!
//! - [`apply`]: pure text: applying non-overlapping edits, line endings.
//! - [`text`]: helpers for lints building replacement code (indentation, fresh names).
//! - [`sequential`]: the rewrite of a concurrency site into sequential awaits.
//! - [`batch`]: the rewrite of a `join_all` over a collection into a `for` loop of awaits.

pub mod apply;
pub mod batch;
pub mod sequential;
pub mod text;

use crate::source::Span;

/// How far a fix can be trusted to keep the program's meaning. Ordered: `Safe` is the greatest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// Shown, never applied: no mechanical rewrite is right in every program.
    DisplayOnly,
    /// Applied with `--fix --unsafe-fixes`: it removes the hazard but may change behaviour a
    /// program relies on (each lint's page says how, under `## Fix safety`).
    Unsafe,
    /// Applied with `--fix`: it keeps the program's meaning and only removes the hazard.
    Safe,
}

impl Applicability {
    /// The name used in JSON: `safe`, `unsafe`, `display-only`.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
            Applicability::DisplayOnly => "display-only",
        }
    }
}

/// Replace the bytes of `span` with `replacement` (an insertion when the span is empty).
///
/// Replacements are written with `\n` line breaks; [`apply`] writes them with the line endings
/// of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

impl Edit {
    pub fn replace(span: Span, replacement: impl Into<String>) -> Edit {
        Edit {
            span,
            replacement: replacement.into(),
        }
    }

    /// Insert `text` at byte offset `at` of `file`.
    pub fn insert(file: crate::source::FileId, at: usize, text: impl Into<String>) -> Edit {
        Edit {
            span: Span {
                file,
                start: at,
                end: at,
            },
            replacement: text.into(),
        }
    }

    pub fn delete(span: Span) -> Edit {
        Edit {
            span,
            replacement: String::new(),
        }
    }
}

/// A lint's suggestion: edits applied together, or not at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, one line, lowercase first word, no trailing period.
    pub message: String,
    /// Non-overlapping edits, in any order.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn new(applicability: Applicability, message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits,
        }
    }

    /// Applied by `--fix` (safe fixes) or `--fix --unsafe-fixes` (unsafe ones too)?
    pub fn is_applied(&self, unsafe_fixes: bool) -> bool {
        match self.applicability {
            Applicability::Safe => true,
            Applicability::Unsafe => unsafe_fixes,
            Applicability::DisplayOnly => false,
        }
    }

    /// The one file every edit is in; None for a fix without edits or across files (such fixes
    /// are shown but never applied).
    pub fn file(&self) -> Option<crate::source::FileId> {
        let first = self.edits.first()?.span.file;
        self.edits
            .iter()
            .all(|e| e.span.file == first)
            .then_some(first)
    }
}

/// The fix as plain text for a `help` line: its message, then the code of each edit (common
/// indentation removed), indented by four spaces.
pub fn help_text(fix: &Fix) -> String {
    let mut out = format!("{}:", fix.message);
    for edit in &fix.edits {
        let code = edit.replacement.replace("\r\n", "\n");
        let mut lines = code.split('\n');
        let first = lines.next().unwrap_or("");
        let rest: Vec<&str> = lines.collect();
        let common = rest
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        out.push_str("\n    ");
        out.push_str(first);
        for l in rest {
            out.push_str("\n    ");
            out.push_str(l.get(common..).unwrap_or(l.trim_start()));
        }
    }
    out
}
