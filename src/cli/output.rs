//! How the commands write: the rendered report in each format, messages on standard error, the
//! exit code. Shared by `check` (`cli/run.rs`) and `--fix` (`cli/fix.rs`).

use codespan_reporting::term::termcolor::{Buffer, ColorChoice};

use super::{color_choice, exit, Format};
use crate::outcome::{FileError, Report};
use crate::report;
use crate::report::visible::{for_people, visible};

/// The documented exit codes: errors win over findings; `--exit-zero` only silences findings.
pub(super) fn exit_code(errors: bool, findings: bool, exit_zero: bool) -> i32 {
    if errors {
        exit::ERROR
    } else if findings && !exit_zero {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

/// Whether the output, as written, shows the errors to whoever reads the log: human and short
/// output, and GitHub annotations (which the runner reads on stdout), unless sent to a file.
pub(super) fn errors_in_output_seen(format: Format, to_file: bool) -> bool {
    !to_file && matches!(format, Format::Human | Format::Short | Format::Github)
}

/// Messages for people, on standard error, with control characters from file names and files
/// written visibly ([`report::visible`]). In `--format github` the runner parses standard
/// error for workflow commands as well, and file names and file contents are chosen by whoever
/// wrote the pull request: there, errors are escaped `::error` commands and every other line
/// has its line breaks escaped, so that no text can start a command of its own.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stderr {
    github: bool,
}

impl Stderr {
    pub(super) fn for_format(format: Format) -> Self {
        Stderr {
            github: format == Format::Github,
        }
    }

    /// A one-line error that stops the run (exit code 2).
    pub(super) fn usage_error(self, message: &str) -> i32 {
        if self.github {
            eprint!("{}", report::github::error_command(message));
        } else {
            eprintln!(
                "{}",
                for_people(&format!("error: {message}").replace('\n', "\\n"))
            );
        }
        exit::ERROR
    }

    /// A file or path that could not be checked.
    pub(super) fn file_error(self, e: &FileError) {
        if self.github {
            let e = FileError {
                file: visible(&e.file).into_owned(),
                message: visible(&e.message).into_owned(),
                ..e.clone()
            };
            eprint!("{}", report::github::file_error(&e));
        } else {
            let line = format!("error: {}", error_line(e)).replace('\n', "\\n");
            eprintln!("{}", for_people(&line));
        }
    }

    pub(super) fn note(self, message: &str) {
        self.line(&format!("note: {message}"));
    }

    /// Any other line (counts, what was written).
    pub(super) fn line(self, text: &str) {
        if self.github {
            eprintln!("{}", report::github::plain_line(text));
        } else {
            // One line: a line break from a file name is shown, not made.
            eprintln!("{}", for_people(&text.replace('\n', "\\n")));
        }
    }

    /// Several lines (the trailer of `short`), each as [`Stderr::line`] writes one.
    pub(super) fn lines(self, text: &str) {
        for line in text.lines() {
            self.line(line);
        }
    }
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub(super) fn error_line(e: &FileError) -> String {
    let position = match (e.line, e.column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    };
    format!("{}{position}: {}", e.file, e.message)
}

/// `--statistics` in human output: the table, the errors, the notes and the summary line.
pub(super) fn statistics_table(report: &Report) -> Vec<u8> {
    let mut out = report::statistics::Statistics::of(report).render_human();
    for e in &report.errors {
        out.push_str(&format!("error: {}\n", visible(&error_line(e))));
    }
    for n in &report.notes {
        out.push_str(&format!("note: {}\n", visible(n)));
    }
    out.push_str(&report::human::summary(report));
    out.push('\n');
    out.into_bytes()
}

/// What `short` prints on stderr after the findings (stdout keeps one line per finding): the
/// notes (a stale baseline, ...) and the summary line.
pub(super) fn short_trailer(report: &Report) -> String {
    let mut out = String::new();
    for n in &report.notes {
        out.push_str(&format!("note: {}\n", visible(n).replace('\n', " ")));
    }
    out.push_str(&report::human::summary(report));
    out.push('\n');
    out
}

/// The rendered output as written (to stdout or `-o`): text for people, whatever a checked
/// crate put in it, starts no workflow command ([`crate::report::visible`]); `github` output is
/// escaped by its format, the JSON formats by JSON.
pub(super) fn as_written(bytes: Vec<u8>, format: Format) -> Vec<u8> {
    if !matches!(format, Format::Human | Format::Short) {
        return bytes;
    }
    match String::from_utf8(bytes) {
        Ok(text) => crate::report::visible::no_workflow_commands(&text)
            .into_owned()
            .into_bytes(),
        Err(e) => e.into_bytes(),
    }
}

/// `quiet`: the findings and errors only (human output; the other formats have no summary).
pub(super) fn render(
    report: &Report,
    format: Format,
    color: super::ColorWhen,
    to_file: bool,
    quiet: bool,
) -> Vec<u8> {
    match format {
        Format::Human => {
            let colored = match color_choice(color) {
                ColorChoice::Always | ColorChoice::AlwaysAnsi => true,
                ColorChoice::Auto => !to_file,
                ColorChoice::Never => false,
            };
            let mut buffer = if colored {
                Buffer::ansi()
            } else {
                Buffer::no_color()
            };
            // Writing to memory cannot fail.
            let _ = if quiet {
                report::human::render_findings(report, &mut buffer)
            } else {
                report::human::render(report, &mut buffer)
            };
            buffer.into_inner()
        }
        Format::Short => report::short::render(report).into_bytes(),
        Format::Json => report::json::render(report).into_bytes(),
        Format::Sarif => report::sarif::render(report).into_bytes(),
        Format::Github => report::github::render(report).into_bytes(),
        Format::RustcJson => report::rustc_json::render(report).into_bytes(),
    }
}
