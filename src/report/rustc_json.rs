//! `--format rustc-json`: one rustc-shaped JSON diagnostic per line (`rustc
//! --error-format=json`), the shape rust-analyzer reads from `rust-analyzer.check.overrideCommand`
//! and that other tools reading compiler messages understand. The lint name is the `code`;
//! notes and help are children; secondary labels are non-primary spans; `rendered` is the human
//! output of the finding. Paths are relative to the current directory, as rust-analyzer expects
//! when it runs the command from the workspace root.

use serde::Serialize;

use super::human;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::edit::Applicability;
use crate::outcome::Report;
use crate::source::SourceFile;

#[derive(Serialize)]
struct RustcDiagnostic {
    #[serde(rename = "$message_type")]
    message_type: &'static str,
    message: String,
    code: Option<Code>,
    level: &'static str,
    spans: Vec<RustcSpan>,
    children: Vec<RustcDiagnostic>,
    rendered: Option<String>,
}

#[derive(Serialize)]
struct Code {
    code: String,
    explanation: Option<String>,
}

#[derive(Serialize)]
struct RustcSpan {
    file_name: String,
    byte_start: usize,
    byte_end: usize,
    line_start: usize,
    line_end: usize,
    column_start: usize,
    column_end: usize,
    is_primary: bool,
    text: Vec<SpanLine>,
    label: Option<String>,
    suggested_replacement: Option<String>,
    suggestion_applicability: Option<&'static str>,
    expansion: Option<()>,
}

#[derive(Serialize)]
struct SpanLine {
    text: String,
    highlight_start: usize,
    highlight_end: usize,
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let Some(source) = report.source(d.primary.span.file) else {
            continue;
        };
        push_line(&mut out, &diagnostic(report, source, d));
    }
    for e in &report.errors {
        let line = e.line.unwrap_or(1);
        let column = e.column.unwrap_or(1);
        let rendered = format!("error: {}\n  --> {}:{line}:{column}\n", e.message, e.file);
        push_line(
            &mut out,
            &RustcDiagnostic {
                message_type: "diagnostic",
                message: e.message.clone(),
                code: None,
                level: "error",
                spans: vec![RustcSpan {
                    file_name: e.file.clone(),
                    byte_start: 0,
                    byte_end: 0,
                    line_start: line,
                    line_end: line,
                    column_start: column,
                    column_end: column,
                    is_primary: true,
                    text: Vec::new(),
                    label: None,
                    suggested_replacement: None,
                    suggestion_applicability: None,
                    expansion: None,
                }],
                children: Vec::new(),
                rendered: Some(rendered),
            },
        );
    }
    out
}

fn push_line(out: &mut String, d: &RustcDiagnostic) {
    if let Ok(line) = serde_json::to_string(d) {
        out.push_str(&line);
        out.push('\n');
    }
}

fn diagnostic(report: &Report, source: &SourceFile, d: &Diagnostic) -> RustcDiagnostic {
    let mut spans = vec![span(source, &d.primary, true)];
    for l in &d.secondary {
        if let Some(s) = report.source(l.span.file) {
            spans.push(span(s, l, false));
        }
    }
    let child = |level: &'static str, message: String| RustcDiagnostic {
        message_type: "diagnostic",
        message,
        code: None,
        level,
        spans: Vec::new(),
        children: Vec::new(),
        rendered: None,
    };
    let mut children: Vec<RustcDiagnostic> =
        d.notes.iter().map(|n| child("note", n.clone())).collect();
    children.push(child("note", format!("confidence: {}", d.confidence)));
    // A fix is the help, as rustc's suggestions are; its code is in its spans.
    match suggestion(report, d) {
        Some(s) => children.push(s),
        None => children.extend(d.help.iter().map(|h| child("help", h.clone()))),
    }
    RustcDiagnostic {
        message_type: "diagnostic",
        message: d.message.clone(),
        code: Some(Code {
            code: d.lint.to_string(),
            explanation: None,
        }),
        level: match d.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        },
        spans,
        children,
        rendered: Some(human::render_one(report, d)),
    }
}

/// The fix as rustc writes a suggestion: a `help` child whose spans are the edits, each with its
/// `suggested_replacement` and a `suggestion_applicability`: `MachineApplicable` for a safe fix
/// (rust-analyzer offers it as a quick fix), `MaybeIncorrect` for an unsafe one, `Unspecified`
/// for a display-only one. None when the fix has no edits.
fn suggestion(report: &Report, d: &Diagnostic) -> Option<RustcDiagnostic> {
    let fix = d.fix.as_ref().filter(|f| !f.edits.is_empty())?;
    let applicability = match fix.applicability {
        Applicability::Safe => "MachineApplicable",
        Applicability::Unsafe => "MaybeIncorrect",
        Applicability::DisplayOnly => "Unspecified",
    };
    let spans = fix
        .edits
        .iter()
        .filter_map(|e| {
            let source = report.source(e.span.file)?;
            let label = Label {
                span: e.span,
                message: String::new(),
            };
            let mut s = span(source, &label, true);
            s.suggested_replacement = Some(e.replacement.clone());
            s.suggestion_applicability = Some(applicability);
            Some(s)
        })
        .collect();
    Some(RustcDiagnostic {
        message_type: "diagnostic",
        message: fix.message.clone(),
        code: None,
        level: "help",
        spans,
        children: Vec::new(),
        rendered: None,
    })
}

fn span(source: &SourceFile, label: &Label, primary: bool) -> RustcSpan {
    let (line_start, column_start) = source.line_col(label.span.start);
    let (line_end, column_end) = source.line_col(label.span.end);
    let text = (line_start..=line_end)
        .filter_map(|line| {
            let content = source.text.lines().nth(line - 1)?;
            let width = content.chars().count() + 1;
            Some(SpanLine {
                text: content.to_string(),
                highlight_start: if line == line_start { column_start } else { 1 },
                highlight_end: if line == line_end { column_end } else { width },
            })
        })
        .collect();
    RustcSpan {
        file_name: source.display.clone(),
        byte_start: label.span.start,
        byte_end: label.span.end,
        line_start,
        line_end,
        column_start,
        column_end,
        is_primary: primary,
        text,
        label: Some(label.message.clone()).filter(|m| !m.is_empty()),
        suggested_replacement: None,
        suggestion_applicability: None,
        expansion: None,
    }
}
