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
