//! `--format github`: GitHub Actions workflow commands, one annotation per finding:
//! `::warning file=…,line=…,endLine=…,col=…,endColumn=…,title=…::message`.
//!
//! Escaping follows the runner (actions/toolkit `command.ts`): in the message `%`, CR and LF
//! become `%25`, `%0D`, `%0A`; in property values `:` and `,` also become `%3A`, `%2C`. Columns
//! are given only for spans on one line (the runner ignores them otherwise, and `endColumn` is
//! inclusive). Denied findings and errors are `::error`, notes (`possible` findings at `warn`)
//! `::notice`. Files are named relative to the repository root, which the runner resolves them
//! from ([`super::repository_root`]), whatever directory the tool runs in.

use super::position;
use crate::diagnostic::Severity;
use crate::outcome::{FileError, Report};

pub fn render(report: &Report) -> String {
    let root = super::repository_root();
    let mut out = String::new();
    for d in &report.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let file = report
            .source(d.primary.span.file)
            .map(|s| {
                root.as_deref()
                    .and_then(|r| super::under_root(&s.path, r))
                    .unwrap_or_else(|| s.display.clone())
            })
            .unwrap_or_default();
        let mut properties = vec![("file", file)];
        if let Some((line, column, end_line, end_column)) = position(report, d.primary.span) {
            properties.push(("line", line.to_string()));
            properties.push(("endLine", end_line.to_string()));
            if line == end_line {
                properties.push(("col", column.to_string()));
                properties.push((
                    "endColumn",
                    end_column.saturating_sub(1).max(column).to_string(),
                ));
            }
        }
        properties.push(("title", format!("kube-order-lint({})", d.lint)));
        let mut message = d.message.clone();
        for l in &d.secondary {
            if let Some((line, column, _, _)) = position(report, l.span) {
                // A label in another file than the annotation's says which.
                let file = match l.span.file == d.primary.span.file {
                    true => String::new(),
                    false => format!("{}:", super::file_name(report, l.span)),
                };
                message.push_str(&format!("\n{file}{line}:{column}: {}", l.message));
            }
        }
        for n in &d.notes {
            message.push_str(&format!("\nnote: {n}"));
        }
        message.push_str(&format!("\nnote: confidence: {}", d.confidence));
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        out.push_str(&command_line(command, &properties, &message));
    }
    for e in &report.errors {
        let file = root
            .as_deref()
            .and_then(|r| super::under_root(std::path::Path::new(&e.file), r));
        match file {
            Some(file) => out.push_str(&file_error(&FileError { file, ..e.clone() })),
            None => out.push_str(&file_error(e)),
        }
    }
    for n in &report.notes {
        out.push_str(&command_line(
            "notice",
            &[("title", "kube-order-lint".to_string())],
            n,
        ));
    }
    out
}

/// A file that could not be checked, as an `::error` annotation at its position.
pub fn file_error(e: &FileError) -> String {
    let mut properties = vec![("file", e.file.clone())];
    if let Some(line) = e.line {
        properties.push(("line", line.to_string()));
    }
    if let Some(column) = e.column {
        properties.push(("col", column.to_string()));
    }
    properties.push(("title", "kube-order-lint".to_string()));
    command_line("error", &properties, &e.message)
}

/// An error about no file in particular (a usage or configuration error), as an `::error`
/// annotation.
pub fn error_command(message: &str) -> String {
    command_line(
        "error",
        &[("title", "kube-order-lint".to_string())],
        message,
    )
}

/// A line that is not a command (a count, a note) made safe to print where the runner reads
/// commands: one line, which cannot start with `::` (the runner trims leading white space).
pub fn plain_line(text: &str) -> String {
    let line = escape_data(&super::visible::visible(text));
    if line.trim_start().starts_with("::") || line.trim_start().starts_with("##[") {
        format!("kube-order-lint: {line}")
    } else {
        line
    }
}

fn command_line(command: &str, properties: &[(&str, String)], message: &str) -> String {
    let props: Vec<String> = properties
        .iter()
        .map(|(k, v)| format!("{k}={}", escape_property(v)))
        .collect();
    format!(
        "::{command} {}::{}\n",
        props.join(","),
        escape_data(message)
    )
}

/// A message (the part after `::`).
pub fn escape_data(text: &str) -> String {
    // Terminal escapes shown visibly first: the log shows them to people.
    super::visible::visible(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value (`file=`, `title=`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(
            escape_data("50% done\r\nnext: a,b"),
            "50%25 done%0D%0Anext: a,b"
        );
        assert_eq!(
            escape_property("dir,x/a:b%c\nd.rs"),
            "dir%2Cx/a%3Ab%25c%0Ad.rs"
        );
        assert_eq!(escape_property("ünïcödé.rs"), "ünïcödé.rs");
    }

    #[test]
    fn plain_lines_cannot_start_a_command() {
        assert_eq!(plain_line("note: a\n::error::x"), "note: a%0A::error::x");
        assert_eq!(plain_line("  ::error::x"), "kube-order-lint:   ::error::x");
        assert_eq!(plain_line(" ##[error]x"), "kube-order-lint:  ##[error]x");
        assert_eq!(escape_data("\u{1b}[2J"), "\\u{1b}[2J");
    }
}
