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

/// The directory GitHub resolves annotation and SARIF paths from, canonical: `GITHUB_WORKSPACE`
/// when set (in a workflow), else the top level of the git repository around the current
/// directory, else the current directory. The repository is found by its `.git` (a directory,
/// or a file in a worktree or submodule) without running git, whose configuration in a checked
/// repository can name commands to run.
pub fn repository_root() -> Option<std::path::PathBuf> {
    if let Some(workspace) = std::env::var_os("GITHUB_WORKSPACE").filter(|w| !w.is_empty()) {
        return Some(crate::discover::canonical(std::path::Path::new(&workspace)));
    }
    let cwd = crate::discover::canonical(&std::env::current_dir().ok()?);
    let top = cwd.ancestors().find(|dir| dir.join(".git").exists());
    Some(top.unwrap_or(&cwd).to_path_buf())
}

/// `path` relative to `root`, with `/` separators, if it lies under it.
pub fn under_root(path: &std::path::Path, root: &std::path::Path) -> Option<String> {
    let absolute = crate::discover::canonical(path);
    let rest = absolute.strip_prefix(root).ok()?;
    Some(crate::source::slash_path(rest))
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
