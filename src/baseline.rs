//! Baselines: `--write-baseline FILE` records the current findings, `--baseline FILE` reports
//! only findings that are not in it.
//!
//! A finding is keyed by its file (relative to the baseline's directory), its lint and its
//! [fingerprint](crate::fingerprint) — never by line numbers, so edits elsewhere in a file do not
//! resurrect recorded findings. Identical findings in one file are counted: a baseline with two
//! entries hides two of them, and a third is reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::discover::canonical;
use crate::fingerprint::fingerprint;
use crate::outcome::Report;
use crate::source::display_path;

/// The format version written in every baseline.
pub const FORMAT: u32 = 1;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Always "kube-order-lint-baseline".
    pub kind: String,
    pub format: u32,
    pub findings: Vec<Entry>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The file, relative to the baseline's directory, with `/` separators.
    pub file: String,
    pub lint: String,
    pub fingerprint: String,
    /// For people reading the file; not compared.
    #[serde(default)]
    pub message: String,
}

const KIND: &str = "kube-order-lint-baseline";

/// A baseline that cannot be used, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineError(pub String);

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Directory that baseline paths are relative to.
fn base_dir(baseline: &Path) -> PathBuf {
    let dir = match baseline.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    canonical(dir)
}

fn entry_file(report: &Report, file: crate::source::FileId, base: &Path) -> String {
    let Some(source) = report.source(file) else {
        return String::new();
    };
    let path = canonical(&source.path);
    crate::source::slash_path(&pathdiff::diff_paths(&path, base).unwrap_or(path))
}

/// The baseline of a report's findings, for a baseline file at `path`.
pub fn from_report(report: &Report, path: &Path) -> Baseline {
    let base = base_dir(path);
    let findings = report
        .diagnostics
        .iter()
        .map(|d| Entry {
            file: entry_file(report, d.primary.span.file, &base),
            lint: d.lint.to_string(),
            fingerprint: fingerprint(report, d),
            message: d.message.clone(),
        })
        .collect();
    Baseline {
        kind: KIND.to_string(),
        format: FORMAT,
        findings,
    }
}

pub fn write(report: &Report, path: &Path) -> Result<usize, BaselineError> {
    let baseline = from_report(report, path);
    let mut text = serde_json::to_string_pretty(&baseline).map_err(|e| {
        BaselineError(format!(
            "{}: cannot write baseline: {e}",
            display_path(path)
        ))
    })?;
    text.push('\n');
    crate::fix::write::write_output(path, text.as_bytes()).map_err(|e| {
        BaselineError(format!(
            "{}: cannot write baseline: {e}",
            display_path(path)
        ))
    })?;
    Ok(baseline.findings.len())
}

pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
    let shown = display_path(path);
    let text = crate::read::read_text(path, crate::read::MAX_SMALL_FILE_BYTES)
        .map_err(|e| BaselineError(format!("{shown}: cannot read baseline: {e}")))?;
    let baseline: Baseline = serde_json::from_str(&text)
        .map_err(|e| BaselineError(format!("{shown}: malformed baseline: {e}")))?;
    if baseline.kind != KIND {
        return Err(BaselineError(format!(
            "{shown}: malformed baseline: `kind` is {:?}, expected {KIND:?}",
            baseline.kind
        )));
    }
    if baseline.format != FORMAT {
        return Err(BaselineError(format!(
            "{shown}: unsupported baseline format {} (this version reads format {FORMAT}); write it again with --write-baseline",
            baseline.format
        )));
    }
    // A lint written with underscores (by hand) is the lint of its canonical name.
    let mut baseline = baseline;
    for e in &mut baseline.findings {
        if let Some(name) = crate::config::canonical_lint_name(&e.lint) {
            e.lint = name.to_string();
        }
    }
    Ok(baseline)
}

/// Drop the findings recorded in `baseline` (read from `path`); returns how many entries
/// matched nothing (findings fixed since).
pub fn filter(report: &mut Report, baseline: &Baseline, path: &Path) -> usize {
    let base = base_dir(path);
    let mut remaining: HashMap<(&str, &str, &str), usize> = HashMap::new();
    for e in &baseline.findings {
        *remaining
            .entry((e.file.as_str(), e.lint.as_str(), e.fingerprint.as_str()))
            .or_default() += 1;
    }
    let keys: Vec<(String, String)> = report
        .diagnostics
        .iter()
        .map(|d| {
            (
                entry_file(report, d.primary.span.file, &base),
                fingerprint(report, d),
            )
        })
        .collect();
    let mut keep = Vec::with_capacity(keys.len());
    for (d, (file, fp)) in report.diagnostics.iter().zip(&keys) {
        let known = remaining
            .get_mut(&(file.as_str(), d.lint, fp.as_str()))
            .filter(|n| **n > 0);
        match known {
            Some(n) => {
                *n -= 1;
                keep.push(false);
            }
            None => keep.push(true),
        }
    }
    let mut flags = keep.into_iter();
    report.diagnostics.retain(|_| flags.next().unwrap_or(true));
    remaining.values().sum()
}
