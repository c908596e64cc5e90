//! `--format json`: exactly one JSON document. Field names are public interface: add, never
//! rename or remove without a version bump.

use serde::Serialize;

use super::statistics::Statistics;
use super::{file_name, position};
use crate::diagnostic::Label;
use crate::edit::Fix;
use crate::outcome::{FileError, Report};

#[derive(Serialize)]
struct Document<'a> {
    tool: &'static str,
    version: &'static str,
    /// Version of this document's shape; bumped only on an incompatible change.
    schema_version: u32,
    files_checked: usize,
    /// Files deliberately not checked (each explained in `notes`).
    files_skipped: usize,
    /// Files and paths that could not be checked (each listed in `errors`).
    files_failed: usize,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    errors: &'a [FileError],
    notes: &'a [String],
    /// Only with `--fix`.
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<&'a Fixed>,
    /// Only with `--statistics`.
    #[serde(skip_serializing_if = "Option::is_none")]
    statistics: Option<Statistics>,
}

/// What `--fix` did: fixes applied, and the files written.
#[derive(Serialize, Debug, Default)]
pub struct Fixed {
    pub applied: usize,
    pub files: Vec<String>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    lint: &'static str,
    severity: &'static str,
    confidence: &'static str,
    message: &'a str,
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    labels: Vec<JsonLabel<'a>>,
    /// Where the finding is made, when that is not where it points (`file`, `line`, ...): the
    /// controller's `run` of a write its reconciles make concurrently, possibly in another
    /// file. Also one of `labels`. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    site: Option<JsonLabel<'a>>,
    notes: &'a [String],
    help: Option<&'a str>,
    fix: Option<JsonFix<'a>>,
    /// Stable across edits elsewhere in the file (see `crate::fingerprint`).
    fingerprint: String,
    /// The section of the lint's page on confirming the hazard at run time with the
    /// kube-order-test crate (`lints/<lint>.md#confirm`); null when it has none.
    confirm: Option<String>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: &'static str,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    replacement: &'a str,
}

fn fix<'a>(report: &Report, f: &'a Fix) -> JsonFix<'a> {
    JsonFix {
        applicability: f.applicability.as_str(),
        message: &f.message,
        edits: f
            .edits
            .iter()
            .map(|e| {
                let (line, column, end_line, end_column) =
                    position(report, e.span).unwrap_or((0, 0, 0, 0));
                JsonEdit {
                    file: file_name(report, e.span),
                    line,
                    column,
                    end_line,
                    end_column,
                    replacement: &e.replacement,
                }
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
    primary: bool,
}

fn label<'a>(report: &Report, l: &'a Label, primary: bool) -> JsonLabel<'a> {
    let (line, column, end_line, end_column) = position(report, l.span).unwrap_or((0, 0, 0, 0));
    JsonLabel {
        file: file_name(report, l.span),
        line,
        column,
        end_line,
        end_column,
        message: &l.message,
        primary,
    }
}

pub fn render(report: &Report) -> String {
    render_fixed(report, None)
}

/// The document with `--statistics`.
pub fn render_with_statistics(report: &Report) -> String {
    document(report, None, Some(Statistics::of(report)))
}

/// The document after `--fix`: the findings that remain, and what was fixed.
pub fn render_fixed(report: &Report, fixed: Option<&Fixed>) -> String {
    document(report, fixed, None)
}

fn document(report: &Report, fixed: Option<&Fixed>, statistics: Option<Statistics>) -> String {
    let diagnostics = report
        .diagnostics
        .iter()
        .map(|d| {
            let (line, column, end_line, end_column) =
                position(report, d.primary.span).unwrap_or((0, 0, 0, 0));
            let mut labels = vec![label(report, &d.primary, true)];
            labels.extend(d.secondary.iter().map(|l| label(report, l, false)));
            JsonDiagnostic {
                lint: d.lint,
                severity: d.severity.as_str(),
                confidence: d.confidence.as_str(),
                message: &d.message,
                file: file_name(report, d.primary.span),
                line,
                column,
                end_line,
                end_column,
                labels,
                site: d.site.and_then(|site| {
                    let l = d.secondary.iter().find(|l| l.span == site)?;
                    Some(label(report, l, false))
                }),
                notes: &d.notes,
                help: d.help.as_deref(),
                fix: d.fix.as_ref().map(|f| fix(report, f)),
                fingerprint: crate::fingerprint::fingerprint(report, d),
                confirm: super::confirm_section(d.lint),
            }
        })
        .collect();
    let doc = Document {
        tool: "kube-order-lint",
        version: env!("CARGO_PKG_VERSION"),
        schema_version: 1,
        files_checked: report.files_checked,
        files_skipped: report.files_skipped,
        files_failed: report.files_failed,
        diagnostics,
        errors: &report.errors,
        notes: &report.notes,
        fixed,
        statistics,
    };
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_else(|e| {
        format!(
            "{{\"tool\": \"kube-order-lint\", \"internal_error\": {:?}}}",
            e.to_string()
        )
    });
    out.push('\n');
    out
}
