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

/// Where a lint's page shows how to confirm its hazard at run time with the kube-order-test
/// crate (`lints/<lint>.md#confirm`, the page `explain` prints), if it has a `## Confirm` section.
pub fn confirm_section(lint: &str) -> Option<String> {
    let page = crate::lints::find(lint)?.doc;
    page.lines()
        .any(|line| line.trim_end() == "## Confirm")
        .then(|| format!("lints/{lint}.md#confirm"))
}

/// The help line that points a finding at its lint's `## Confirm` section.
pub fn confirm_help(lint: &str) -> Option<String> {
    confirm_section(lint).map(|_| {
        format!("confirm it at run time with kube-order-test: `kube-order-lint explain {lint}`, section Confirm")
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lint_of_the_code_points_at_its_confirm_section() {
        for lint in crate::lints::LINTS {
            assert_eq!(
                confirm_section(lint.name),
                Some(format!("lints/{}.md#confirm", lint.name)),
                "{}: no `## Confirm` section",
                lint.name
            );
        }
        assert_eq!(confirm_section("unused-suppression"), None);
        assert_eq!(confirm_section("no-such-lint"), None);
    }
}
