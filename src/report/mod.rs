//! Output formats: one file each, all reading the same [`crate::check::Report`].

pub mod github;
pub mod human;
pub mod json;
pub mod rustc_json;
pub mod sarif;
pub mod short;
pub mod statistics;
pub mod visible;

use crate::outcome::Report;
use crate::source::Span;

/// 1-based (line, column, end line, end column) of a span in its file.
pub fn position(report: &Report, span: Span) -> Option<(usize, usize, usize, usize)> {
    let source = report.source(span.file)?;
    let (line, column) = source.line_col(span.start);
    let (end_line, end_column) = source.line_col(span.end);
    Some((line, column, end_line, end_column))
}

/// The file a span points into, as shown to users.
pub fn file_name(report: &Report, span: Span) -> String {
    report
        .source(span.file)
        .map(|s| s.display.clone())
        .unwrap_or_default()
}
