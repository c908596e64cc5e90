//! The default, rustc-like output, rendered with codespan-reporting.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel, Severity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::WriteColor, Chars, Config};

use crate::check::Report;
use crate::diagnostic::{self, Diagnostic};

pub fn render(report: &Report, out: &mut dyn WriteColor) -> std::io::Result<()> {
    let mut files = SimpleFiles::new();
    let mut ids = Vec::new();
    for s in &report.sources {
        ids.push((s.id, files.add(s.display.as_str(), s.text.as_str())));
    }
    let file_of = |id| ids.iter().find(|(f, _)| *f == id).map(|(_, i)| *i);
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    for d in &report.diagnostics {
        let Some(file) = file_of(d.primary.span.file) else {
            continue;
        };
        let cs = to_codespan(d, file, &file_of);
        term::emit(out, &config, &files, &cs).map_err(std::io::Error::other)?;
    }
    for e in &report.errors {
        let position = match (e.line, e.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            _ => String::new(),
        };
        out.set_color(&error_color())?;
        write!(out, "error")?;
        out.reset()?;
        writeln!(out, ": {}{position}: {}", e.file, e.message)?;
    }
    for n in &report.notes {
        writeln!(out, "note: {n}")?;
    }
    writeln!(out, "{}", summary(report))
}

/// One finding as this format prints it, without colours (rustc's `rendered` field).
pub fn render_one(report: &Report, d: &Diagnostic) -> String {
    let mut files = SimpleFiles::new();
    let mut ids = Vec::new();
    for s in &report.sources {
        ids.push((s.id, files.add(s.display.as_str(), s.text.as_str())));
    }
    let file_of = |id| ids.iter().find(|(f, _)| *f == id).map(|(_, i)| *i);
    let Some(file) = file_of(d.primary.span.file) else {
        return String::new();
    };
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut out = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
    let cs = to_codespan(d, file, &file_of);
    if term::emit(&mut out, &config, &files, &cs).is_err() {
        return String::new();
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

fn error_color() -> codespan_reporting::term::termcolor::ColorSpec {
    let mut c = codespan_reporting::term::termcolor::ColorSpec::new();
    c.set_fg(Some(codespan_reporting::term::termcolor::Color::Red))
        .set_bold(true);
    c
}

fn to_codespan(
    d: &Diagnostic,
    file: usize,
    file_of: &dyn Fn(usize) -> Option<usize>,
) -> CsDiagnostic<usize> {
    let severity = match d.severity {
        diagnostic::Severity::Note => Severity::Note,
        diagnostic::Severity::Warning => Severity::Warning,
        diagnostic::Severity::Error => Severity::Error,
    };
    let mut labels =
        vec![CsLabel::primary(file, d.primary.span.range()).with_message(&d.primary.message)];
    for l in &d.secondary {
        if let Some(f) = file_of(l.span.file) {
            labels.push(CsLabel::secondary(f, l.span.range()).with_message(&l.message));
        }
    }
    let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
    notes.push(format!("note: confidence: {}", d.confidence));
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    CsDiagnostic::new(severity)
        .with_code(d.lint)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// The last line: what was found in how many files.
pub fn summary(report: &Report) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let definite = report
        .diagnostics
        .iter()
        .filter(|d| d.confidence == crate::model::Confidence::Definite)
        .count();
    let findings = if report.diagnostics.is_empty() {
        "no findings".to_string()
    } else {
        format!(
            "{} ({definite} definite, {} possible)",
            plural(report.diagnostics.len(), "finding"),
            report.diagnostics.len() - definite
        )
    };
    let errors = if report.errors.is_empty() {
        String::new()
    } else {
        format!(", {}", plural(report.errors.len(), "error"))
    };
    format!(
        "kube-order-lint: {findings}{errors} in {} checked",
        plural(report.files_checked, "file")
    )
}
