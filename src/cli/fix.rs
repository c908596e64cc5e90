//! `--fix` and `--diff` from the command line: fix the findings reported, then report what
//! remains (or print the diff), with the counts.

use std::io::Write;
use std::path::Path;

use super::output::{errors_in_output_seen, exit_code, plural, render, Stderr};
use super::{CheckArgs, Format};
use crate::baseline::{self, Baseline};
use crate::check::{self, Options};
use crate::edit::Applicability;
use crate::fix::engine::{self, FixOptions, FixOutcome};
use crate::outcome::Report;
use crate::source::SourceFile;

/// Fix what `report` (already filtered by the baseline, when there is one) reports.
pub(super) fn run_fix(
    args: &CheckArgs,
    options: &Options,
    report: Report,
    baseline: Option<(&Path, &Baseline)>,
) -> i32 {
    let stderr = Stderr::for_format(args.format);
    if args.diff && args.format != Format::Human {
        return stderr
            .usage_error("`--diff` prints a unified diff; it cannot be combined with `--format`");
    }
    // A file's new text is reported on as the run reported: also without what the baseline
    // records, so that a recorded finding is not fixed in a later round.
    let rechecker = check::Rechecker::new(&report);
    let recheck = |file: &SourceFile, text: &str| {
        let mut one = rechecker.recheck(file, text)?;
        if let Some((path, b)) = baseline {
            baseline::filter(&mut one, b, path);
        }
        Ok(one.diagnostics)
    };
    let fix_options = FixOptions {
        unsafe_fixes: args.unsafe_fixes,
        write: !args.diff,
    };
    let roots = crate::fix::write::WriteRoots::of(&options.paths);
    let outcome = engine::run(&report, fix_options, &roots, &recheck);
    if args.diff {
        // As ruff says it: how many more `--unsafe-fixes` would apply, found by applying them
        // (in memory) too, since a fix applied can make or remove the findings of another round.
        let more_unsafe = if !args.unsafe_fixes && has_unsafe_fix(&report) {
            let with_unsafe = FixOptions {
                unsafe_fixes: true,
                write: false,
            };
            engine::run(&report, with_unsafe, &roots, &recheck)
                .applied()
                .saturating_sub(outcome.applied())
        } else {
            0
        };
        return print_diff(args, &report, &outcome, more_unsafe);
    }

    // What remains: everything checked again, when anything was written.
    let mut remaining = if outcome.files.is_empty() {
        report
    } else {
        let mut again = check::check(options);
        if let Some((path, b)) = baseline {
            baseline::filter(&mut again, b, path);
        }
        again
    };
    remaining.errors.extend(outcome.errors.iter().cloned());
    remaining.notes.extend(outcome.notes.iter().cloned());
    let summary = summary(&outcome, &remaining, args.unsafe_fixes);

    let to_file = args.output.is_some();
    let mut bytes = match args.format {
        Format::Json => crate::report::json::render_fixed(
            &remaining,
            Some(&crate::report::json::Fixed {
                applied: outcome.applied(),
                files: outcome.files.iter().map(|f| f.display.clone()).collect(),
            }),
        )
        .into_bytes(),
        format => render(&remaining, format, args.color, to_file, args.quiet),
    };
    // The counts end the output people read; programs get them on stderr, and `short` keeps
    // stdout to one line per finding (its errors included).
    let summary_in_output = !to_file && args.format == Format::Human;
    if summary_in_output && !args.quiet {
        bytes.extend_from_slice(format!("{summary}\n").as_bytes());
    }
    if let Err(message) = write_output(args, &bytes) {
        return stderr.usage_error(&message);
    }
    if args.format == Format::Short {
        if !args.quiet {
            stderr.lines(&super::output::short_trailer(&remaining));
            stderr.line(&summary);
        }
    } else if !summary_in_output && !args.quiet {
        stderr.line(&summary);
    }
    if !errors_in_output_seen(args.format, to_file) {
        for e in &remaining.errors {
            stderr.file_error(e);
        }
    }
    exit_code(
        !remaining.errors.is_empty(),
        !remaining.diagnostics.is_empty(),
        args.exit_zero,
    )
}

/// `--diff`: the unified diff of every file a fix would change; the exit code of a check.
fn print_diff(args: &CheckArgs, report: &Report, outcome: &FixOutcome, more_unsafe: usize) -> i32 {
    let diff: String = outcome.files.iter().map(engine::unified_diff).collect();
    let stderr = Stderr::for_format(args.format);
    if let Err(message) = write_output(args, diff.as_bytes()) {
        return stderr.usage_error(&message);
    }
    if !args.quiet {
        let mut counts = format!(
            "kube-order-lint: would apply {} to {} file{}",
            fixes(outcome.applied()),
            outcome.files.len(),
            plural(outcome.files.len())
        );
        if more_unsafe > 0 {
            counts.push_str(&format!(
                " ({more_unsafe} more with `--unsafe-fixes`: `--diff --unsafe-fixes` shows {})",
                if more_unsafe == 1 { "it" } else { "them" }
            ));
        }
        stderr.line(&counts);
        for n in report.notes.iter().chain(&outcome.notes) {
            stderr.note(n);
        }
    }
    for e in report.errors.iter().chain(&outcome.errors) {
        stderr.file_error(e);
    }
    exit_code(
        !report.errors.is_empty() || !outcome.errors.is_empty(),
        !report.diagnostics.is_empty(),
        args.exit_zero,
    )
}

fn write_output(args: &CheckArgs, bytes: &[u8]) -> Result<(), String> {
    let bytes = &super::output::as_written(bytes.to_vec(), args.format)[..];
    match &args.output {
        Some(path) => crate::fix::write::write_output(path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", crate::source::display_path(path))),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(bytes).and_then(|_| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write output: {e}"))
                }
                _ => Ok(()),
            }
        }
    }
}

/// A finding of `report` has an unsafe fix that `--fix --unsafe-fixes` could apply.
fn has_unsafe_fix(report: &Report) -> bool {
    report.diagnostics.iter().any(|d| {
        d.fix
            .as_ref()
            .is_some_and(|f| f.applicability == Applicability::Unsafe && f.file().is_some())
    })
}

/// "1 fix", "3 fixes".
fn fixes(n: usize) -> String {
    format!("{n} {}", if n == 1 { "fix" } else { "fixes" })
}

/// "kube-order-lint: applied 3 fixes in 2 files; 1 finding remains (1 with an unsafe fix: …)".
fn summary(outcome: &FixOutcome, remaining: &Report, unsafe_fixes: bool) -> String {
    let left = remaining.diagnostics.len();
    let mut text = format!(
        "kube-order-lint: applied {} in {} file{}; {left} finding{} {}",
        fixes(outcome.applied()),
        outcome.files.len(),
        plural(outcome.files.len()),
        plural(left),
        if left == 1 { "remains" } else { "remain" }
    );
    let hidden = remaining
        .diagnostics
        .iter()
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Unsafe && f.file().is_some())
        })
        .count();
    if hidden > 0 && !unsafe_fixes {
        text.push_str(&format!(
            " ({hidden} with an unsafe fix: add `--unsafe-fixes` to apply {})",
            if hidden == 1 { "it" } else { "them" }
        ));
    }
    if let Some(why) = advice_only(remaining) {
        text.push('\n');
        text.push_str(&why);
    }
    text
}

/// The note's prefix under which lints say why a fix is display-only.
const NOT_APPLIED: &str = "the fix is not applied automatically: ";

/// When no finding that remains has a fix `--fix` could apply (with `--unsafe-fixes` or not):
/// say so, and why, for the first few.
fn advice_only(remaining: &Report) -> Option<String> {
    let left = &remaining.diagnostics;
    let applicable = |d: &&crate::diagnostic::Diagnostic| {
        d.fix
            .as_ref()
            .is_some_and(|f| f.applicability != Applicability::DisplayOnly && f.file().is_some())
    };
    if left.is_empty() || left.iter().any(|d| applicable(&d)) {
        return None;
    }
    const SHOWN: usize = 5;
    let mut text = format!(
        "kube-order-lint: {} be fixed automatically: {} advice to follow by hand (display-only), as no mechanical rewrite is right there:",
        if left.len() == 1 {
            "the finding that remains cannot".to_string()
        } else {
            format!("none of the {} findings that remain can", left.len())
        },
        if left.len() == 1 {
            "its fix is"
        } else {
            "their fixes are"
        }
    );
    for d in left.iter().take(SHOWN) {
        let at = remaining
            .source(d.primary.span.file)
            .map(|s| {
                let (line, column) = s.line_col(d.primary.span.start);
                format!("{}:{line}:{column}", s.display)
            })
            .unwrap_or_default();
        let why = d
            .notes
            .iter()
            .find_map(|n| n.strip_prefix(NOT_APPLIED))
            .map(str::to_string)
            .unwrap_or_else(|| match &d.fix {
                Some(f) if f.file().is_none() && !f.edits.is_empty() => {
                    "its edits span several files".to_string()
                }
                Some(f) => format!("advice: {}", f.message),
                None => "the lint suggests no rewrite".to_string(),
            });
        text.push_str(&format!(
            "\n  {at}: {}[{}]: {why}",
            d.severity.as_str(),
            d.lint
        ));
    }
    if left.len() > SHOWN {
        text.push_str(&format!("\n  ... and {} more", left.len() - SHOWN));
    }
    Some(text)
}
