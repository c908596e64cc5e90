//! `unused-suppression`: a suppression comment names a lint that reports nothing where the
//! comment applies. Its findings start from the suppression comments, not from the model: the
//! policy ([`crate::policy`]) knows which names suppressed something once the lints of the code
//! have run, and `crate::suppression::unused` gives the names that did not ([`UnusedName`]);
//! this lint words the finding and its fix (removing the name, or the comment). Reported only
//! when asked for (`--report-unused-suppressions`); it cannot be given a level or be suppressed.

use super::{Check, Level, Lint};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::edit::{Applicability, Edit, Fix};
use crate::model::Confidence;
use crate::source::{SourceFile, Span};

pub const LINT: Lint = Lint {
    name: "unused-suppression",
    default_level: Level::Warn,
    fixes: &[Applicability::Safe],
    summary: "a suppression comment names a lint that reports nothing where the comment applies",
    doc: include_str!("../../lints/unused-suppression.md"),
    reads: &[],
    check: Check::SuppressionComments(check),
};

/// A name of a suppression comment that suppressed nothing, and the comment it stands in: the
/// facts this lint's findings start from. The suppression comments are parsed and matched in
/// `crate::suppression`, which sits above the lints (it needs the findings), so it hands them
/// over in this form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnusedName {
    /// As written: a lint name or `all`.
    pub name: String,
    /// The name is `all`, which stands for every lint.
    pub is_all: bool,
    pub span: Span,
    /// The whole comment, from `//` to the end of the line.
    pub comment: Span,
    /// Nothing but whitespace before the comment on its line.
    pub own_line: bool,
    /// The spans of every name of the comment, in order; this one is `names[index]`.
    pub names: Vec<Span>,
    pub index: usize,
}

/// An `unused-suppression` warning for every name that suppressed nothing, with the fix that
/// removes it.
fn check(source: &SourceFile, unused: &[UnusedName], out: &mut Vec<Diagnostic>) {
    for name in unused {
        let what = if name.is_all {
            "any lint".to_string()
        } else {
            format!("`{}`", name.name)
        };
        let only = name.names.len() == 1;
        out.push(Diagnostic {
            lint: LINT.name,
            severity: Severity::Warning,
            confidence: Confidence::Definite,
            message: format!("suppression of {what} suppresses nothing"),
            primary: Label {
                span: name.span,
                message: format!("no finding of {what} where this comment applies"),
            },
            secondary: Vec::new(),
            site: None,
            notes: vec![
                "a suppression applies to its own line, the line below it, or the whole item when it opens a function, impl or module body".to_string(),
            ],
            help: Some(if only {
                "remove the comment".to_string()
            } else {
                format!("remove `{}` from the list", name.name)
            }),
            fix: Some(removal(source, name)),
        });
    }
}

/// The safe fix of an unused name: the whole comment when it is the only name (with its line
/// when the comment stands on its own line, with the spaces before it when it trails code),
/// else the name and the comma that separates it from its neighbour.
fn removal(source: &SourceFile, unused: &UnusedName) -> Fix {
    let text = &source.text;
    let span = |start: usize, end: usize| Span {
        file: source.id,
        start,
        end,
    };
    let comment = unused.comment;
    let (message, edit) = if unused.names.len() == 1 {
        let start = if unused.own_line {
            text[..comment.start].rfind('\n').map_or(0, |i| i + 1)
        } else {
            text[..comment.start].trim_end_matches([' ', '\t']).len()
        };
        let end = if unused.own_line {
            text[comment.end..]
                .find('\n')
                .map_or(text.len(), |i| comment.end + i + 1)
        } else {
            comment.end
        };
        ("remove the comment".to_string(), span(start, end))
    } else {
        let (names, j) = (&unused.names, unused.index);
        let removed = if j + 1 < names.len() {
            span(names[j].start, names[j + 1].start)
        } else {
            span(names[j - 1].end, names[j].end)
        };
        (format!("remove `{}` from the list", unused.name), removed)
    };
    Fix::new(Applicability::Safe, message, vec![Edit::delete(edit)])
}
