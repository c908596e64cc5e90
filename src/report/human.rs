//! The default, rustc-like output, rendered with codespan-reporting.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel, Severity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::WriteColor, Chars, Config};
use std::io::Write;

use crate::diagnostic::{self, Diagnostic};
use crate::edit::apply::apply_edits;
use crate::edit::{text, Applicability, Edit, Fix};
use crate::outcome::Report;

/// The report, with text from the files (source lines, names, file names) written visibly
/// ([`super::visible`]).
pub fn render(report: &Report, out: &mut dyn WriteColor) -> std::io::Result<()> {
    let mut out = super::visible::Visible::new(out);
    render_findings_to(report, &mut out)?;
    for n in &report.notes {
        writeln!(out, "note: {n}")?;
    }
    writeln!(out, "{}", summary(report))?;
    out.finish().map(drop)
}

/// The findings and the errors, without the notes and the summary line (`--quiet`).
pub fn render_findings(report: &Report, out: &mut dyn WriteColor) -> std::io::Result<()> {
    let mut out = super::visible::Visible::new(out);
    render_findings_to(report, &mut out)?;
    out.finish().map(drop)
}

fn render_findings_to(report: &Report, out: &mut dyn WriteColor) -> std::io::Result<()> {
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
        let cs = to_codespan(report, d, file, &file_of);
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
    Ok(())
}

/// A fix as a `help`: its message and applicability, then the changed lines as a diff, with
/// line numbers (`-` old, `+` new, ` ` unchanged between changes).
fn fix_note(report: &Report, fix: &Fix) -> String {
    let how = match fix.applicability {
        Applicability::Safe => "safe fix: `--fix` applies it",
        Applicability::Unsafe => "unsafe fix: `--fix --unsafe-fixes` applies it",
        Applicability::DisplayOnly => "not applied automatically",
    };
    let header = format!("{} ({how})", fix.message);
    let Some(source) = fix.file().and_then(|f| report.source(f)) else {
        return header;
    };
    let text = source.text.as_str();
    let start = fix.edits.iter().map(|e| e.span.start).min().unwrap_or(0);
    let end = fix.edits.iter().map(|e| e.span.end).max().unwrap_or(0);
    let region_start = text::line_start(text, start);
    let region_end = text[end.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| end + i);
    let Some(old) = text.get(region_start..region_end) else {
        return header;
    };
    let shifted: Vec<Edit> = fix
        .edits
        .iter()
        .map(|e| {
            let mut e = e.clone();
            e.span.start -= region_start;
            e.span.end -= region_start;
            e
        })
        .collect();
    let Ok(new) = apply_edits(old, &shifted.iter().collect::<Vec<_>>()) else {
        return header;
    };
    let first_line = source.line_col(region_start).0;
    let last_line = first_line + old.matches('\n').count().max(new.matches('\n').count());
    let width = last_line.to_string().len();
    let mut out = header;
    let diff = similar::TextDiff::from_lines(old, new.as_str());
    for change in diff.iter_all_changes() {
        let (sign, index) = match change.tag() {
            similar::ChangeTag::Delete => ('-', change.old_index()),
            similar::ChangeTag::Insert => ('+', change.new_index()),
            similar::ChangeTag::Equal => (' ', change.old_index()),
        };
        let number = first_line + index.unwrap_or(0);
        let line = change.value().trim_end_matches(['\n', '\r']);
        out.push_str(&format!("\n{number:>width$} {sign} {line}"));
    }
    out
}

/// How many findings `--fix` would fix, when any has a fix.
pub fn fix_hint(report: &Report) -> Option<String> {
    let count = |a: Applicability| {
        report
            .diagnostics
            .iter()
            .filter(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| f.applicability == a && f.file().is_some())
            })
            .count()
    };
    let (safe, unsafe_) = (count(Applicability::Safe), count(Applicability::Unsafe));
    match (safe, unsafe_) {
        (0, 0) => None,
        (s, 0) => Some(format!("kube-order-lint: {s} fixable with `--fix`")),
        (0, u) => Some(format!(
            "kube-order-lint: {u} fixable with `--fix --unsafe-fixes`"
        )),
        (s, u) => Some(format!(
            "kube-order-lint: {s} fixable with `--fix`, {u} more with `--fix --unsafe-fixes`"
        )),
    }
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
    let mut out =
        super::visible::Visible::new(codespan_reporting::term::termcolor::NoColor::new(Vec::new()));
    let cs = to_codespan(report, d, file, &file_of);
    if term::emit(&mut out, &config, &files, &cs).is_err() {
        return String::new();
    }
    match out.finish() {
        Ok(out) => String::from_utf8_lossy(&out.into_inner()).into_owned(),
        Err(_) => String::new(),
    }
}

fn error_color() -> codespan_reporting::term::termcolor::ColorSpec {
    let mut c = codespan_reporting::term::termcolor::ColorSpec::new();
    c.set_fg(Some(codespan_reporting::term::termcolor::Color::Red))
        .set_bold(true);
    c
}

fn to_codespan(
    report: &Report,
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
    match (&d.fix, &d.help) {
        (Some(fix), _) if !fix.edits.is_empty() => {
            notes.push(format!("help: {}", fix_note(report, fix)))
        }
        (_, Some(help)) => notes.push(format!("help: {help}")),
        _ => {}
    }
    notes.extend(super::confirm_help(d.lint).map(|help| format!("help: {help}")));
    CsDiagnostic::new(severity)
        .with_code(d.lint)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// The last line: what was found in how many files.
pub fn summary(report: &Report) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let findings = if report.diagnostics.is_empty() {
        "no findings".to_string()
    } else {
        format!(
            "{} ({})",
            plural(report.diagnostics.len(), "finding"),
            tiers(report)
        )
    };
    let errors = if report.errors.is_empty() {
        String::new()
    } else {
        format!(", {}", plural(report.errors.len(), "error"))
    };
    // Files that were not checked are counted too, so that none goes unnoticed: skipped ones
    // (excluded, or explained by a note) and failed ones (each listed as an error above).
    let mut not_checked = String::new();
    if report.files_skipped > 0 {
        not_checked.push_str(&format!(", {} skipped", report.files_skipped));
    }
    if report.files_failed > 0 {
        not_checked.push_str(&format!(", {} failed", report.files_failed));
    }
    format!(
        "kube-order-lint: {findings}{errors} in {} checked{not_checked}",
        plural(report.files_checked, "file")
    )
}

/// "3 definite, 1 possible", and the `unknown` ones when there are any (`--min-confidence
/// unknown` shows them): every finding in one tier.
pub fn tiers(report: &Report) -> String {
    use crate::model::Confidence;
    let count = |tier: Confidence| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.confidence == tier)
            .count()
    };
    let mut text = format!(
        "{} definite, {} possible",
        count(Confidence::Definite),
        count(Confidence::Possible)
    );
    let unknown = count(Confidence::Unknown);
    if unknown > 0 {
        text.push_str(&format!(", {unknown} unknown"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::FileError;

    #[test]
    fn summary_counts_checked_skipped_and_failed_files() {
        let mut report = Report {
            files_checked: 3,
            ..Report::default()
        };
        assert_eq!(
            summary(&report),
            "kube-order-lint: no findings in 3 files checked"
        );
        report.files_skipped = 1;
        report.files_failed = 2;
        report.errors = vec![
            FileError {
                file: "a.rs".into(),
                line: Some(1),
                column: Some(2),
                message: "expected item".into(),
            };
            2
        ];
        assert_eq!(
            summary(&report),
            "kube-order-lint: no findings, 2 errors in 3 files checked, 1 skipped, 2 failed"
        );
        // An error about a file that was checked (a malformed suppression comment).
        report.files_failed = 0;
        report.files_skipped = 0;
        report.errors.truncate(1);
        assert_eq!(
            summary(&report),
            "kube-order-lint: no findings, 1 error in 3 files checked"
        );
    }
}
