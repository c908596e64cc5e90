//! `--add-suppressions`: write a suppression comment above every reported finding, as ruff's
//! `--add-noqa` does, for teams adopting the tool on a large code base.
//!
//! The comment goes on its own line above the line where the finding starts, with that line's
//! indentation, naming every lint reported there. A file is written only when its text on disk is
//! still the text that was checked, and as `--fix` writes ([`crate::fix::write`]).

use std::collections::{BTreeMap, BTreeSet};

use super::{MARKER, UNUSED_SUPPRESSION};
use crate::fix::write::WriteRoots;
use crate::outcome::{FileError, Report};
use crate::source::{display_path, SourceFile};

/// What `--add-suppressions` did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Added {
    pub comments: usize,
    pub files: usize,
    /// Findings that could not get a comment, one line each.
    pub skipped: Vec<String>,
    pub errors: Vec<FileError>,
}

/// Files outside `roots` get no comment, with a note (in `skipped`).
pub fn add_suppressions(report: &Report, roots: &WriteRoots) -> Added {
    let mut added = Added::default();
    let mut by_file: BTreeMap<usize, BTreeMap<usize, BTreeSet<&'static str>>> = BTreeMap::new();
    for d in &report.diagnostics {
        if d.lint == UNUSED_SUPPRESSION {
            continue;
        }
        let Some(source) = report.source(d.primary.span.file) else {
            continue;
        };
        let line = source.line_col(d.primary.span.start).0;
        by_file
            .entry(source.id)
            .or_default()
            .entry(line)
            .or_default()
            .insert(d.lint);
    }
    for (file, lines) in by_file {
        let Some(source) = report.source(file) else {
            continue;
        };
        if let Some(real) = roots.outside(&source.path) {
            let what = "no suppression comment added";
            added
                .skipped
                .push(WriteRoots::note(&source.display, &real, what));
            continue;
        }
        match rewrite(source, &lines, &mut added.skipped) {
            Ok(0) => {}
            Ok(n) => {
                added.comments += n;
                added.files += 1;
            }
            Err(message) => added.errors.push(FileError {
                file: source.display.clone(),
                line: None,
                column: None,
                message,
            }),
        }
    }
    added
}

/// Insert the comments into one file; returns how many were written.
fn rewrite(
    source: &SourceFile,
    lines: &BTreeMap<usize, BTreeSet<&'static str>>,
    skipped: &mut Vec<String>,
) -> Result<usize, String> {
    let bytes = crate::read::read_file(&source.path, crate::read::MAX_SOURCE_BYTES)
        .map_err(|e| format!("cannot add suppressions: {e}"))?;
    let (bom, rest) = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => ("\u{feff}", rest),
        None => ("", &bytes[..]),
    };
    if rest != source.text.as_bytes() {
        return Err("cannot add suppressions: the file changed since it was checked".to_string());
    }
    let text = &source.text;
    // A comment inserted inside a literal would change it; inside a block comment, it would
    // not count.
    let not_code = crate::prefilter::non_code_ranges(text.as_bytes());
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut insertions: Vec<(usize, String)> = Vec::new();
    for (&line, lints) in lines {
        let Some(&start) = line_starts.get(line - 1) else {
            continue;
        };
        let inside = not_code.partition_point(|r| r.end <= start);
        if not_code.get(inside).is_some_and(|r| r.start < start) {
            skipped.push(format!(
                "{}:{line}: the line starts inside a string literal or a block comment; add the suppression by hand",
                display_path(&source.path)
            ));
            continue;
        }
        let indent: String = text[start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let names: Vec<&str> = lints.iter().copied().collect();
        insertions.push((
            start,
            format!("{indent}// {MARKER} allow({}){newline}", names.join(", ")),
        ));
    }
    if insertions.is_empty() {
        return Ok(0);
    }
    let mut out = String::with_capacity(text.len() + insertions.len() * 64);
    out.push_str(bom);
    let mut at = 0;
    for (start, comment) in &insertions {
        out.push_str(&text[at..*start]);
        out.push_str(comment);
        at = *start;
    }
    out.push_str(&text[at..]);
    // As `--fix` writes: a temporary file renamed over the original, never a file cut short,
    // and the same rules for links and permissions.
    crate::fix::write::replace_source(&source.path, &bytes, out.as_bytes())
        .map_err(|e| format!("cannot add suppressions: {e}"))?;
    Ok(insertions.len())
}
