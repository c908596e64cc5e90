//! `--format short`: one line per finding, `path:line:col: severity[lint]: message`, as
//! compilers print for editors and `grep`. Errors use the same shape without a lint.

use super::{file_name, position};
use crate::outcome::Report;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let (line, column, _, _) = position(report, d.primary.span).unwrap_or((0, 0, 0, 0));
        out.push_str(&format!(
            "{}:{line}:{column}: {}[{}]: {}\n",
            one_line(&file_name(report, d.primary.span)),
            d.severity.as_str(),
            d.lint,
            one_line(&d.message)
        ));
    }
    for e in &report.errors {
        let position = match (e.line, e.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            (Some(l), None) => format!(":{l}"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{}{position}: error: {}\n",
            one_line(&e.file),
            one_line(&e.message)
        ));
    }
    out
}

/// Messages are one line already; make sure of it, so each finding stays one line, and show
/// control characters from the files visibly.
fn one_line(text: &str) -> String {
    super::visible::visible(&text.replace(['\r', '\n'], " ")).into_owned()
}
