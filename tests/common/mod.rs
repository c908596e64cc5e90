//! Shared by the test files: marker checks in the detection terms of ast-grep's rule tests.
//!
//! A line ending in `//~ <lint>` must carry a finding of that lint (else *Missing*); a finding on
//! a line without the marker is *Noisy*.

#![allow(dead_code)]

pub mod cli;

use std::collections::BTreeSet;

use kube_order_lint::Report;

/// `(line, lint)` pairs marked with `//~ lint` in a source text (1-based lines).
pub fn markers(text: &str) -> BTreeSet<(usize, String)> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((_, rest)) = line.split_once("//~") {
            for lint in rest.split(|c: char| c == ',' || c.is_whitespace()) {
                if !lint.is_empty() {
                    out.insert((i + 1, lint.to_string()));
                }
            }
        }
    }
    out
}

/// `(line, lint)` of each finding's primary span, in the file shown as `file` (all files when
/// None).
pub fn findings(report: &Report, file: Option<&str>) -> BTreeSet<(usize, String)> {
    report
        .diagnostics
        .iter()
        .filter_map(|d| {
            let source = report.source(d.primary.span.file)?;
            if file.is_some_and(|f| f != source.display) {
                return None;
            }
            Some((source.line_col(d.primary.span.start).0, d.lint.to_string()))
        })
        .collect()
}

/// Failures as readable lines: "Missing: line 12: concurrent-same-object".
pub fn compare_markers(text: &str, report: &Report) -> Vec<String> {
    compare(markers(text), findings(report, None))
}

/// The same for one file of a multi-file report.
pub fn compare_markers_in(file: &str, text: &str, report: &Report) -> Vec<String> {
    compare(markers(text), findings(report, Some(file)))
}

fn compare(expected: BTreeSet<(usize, String)>, found: BTreeSet<(usize, String)>) -> Vec<String> {
    let mut failures = Vec::new();
    for (line, lint) in expected.difference(&found) {
        failures.push(format!(
            "Missing: line {line}: no `{lint}` finding on a marked line"
        ));
    }
    for (line, lint) in found.difference(&expected) {
        failures.push(format!(
            "Noisy: line {line}: `{lint}` reported on an unmarked line"
        ));
    }
    failures
}

/// `errors` of a JSON run as `file:line:column: message` lines.
pub fn json_errors(doc: &serde_json::Value) -> Vec<String> {
    doc["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            let pos = match (e["line"].as_u64(), e["column"].as_u64()) {
                (Some(l), Some(c)) => format!(":{l}:{c}"),
                _ => String::new(),
            };
            format!(
                "{}{pos}: {}",
                e["file"].as_str().unwrap_or("?"),
                e["message"].as_str().unwrap_or("?")
            )
        })
        .collect()
}
