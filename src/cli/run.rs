//! A check run from the command line: flags → options, configuration, baseline, suppressions,
//! output, exit code.

use std::io::Write;

use clap::ArgMatches;

use super::output::{
    errors_in_output_seen, exit_code, plural, render, short_trailer, statistics_table, Stderr,
};
use super::{exit, CheckArgs, Format, MinConfidence};
use crate::check::{self, Options};
use crate::config::{self, ConfigSource, Level, Overrides};
use crate::discover::{self, Selection};
use crate::model::Confidence;
use crate::outcome::Report;
use crate::{baseline, report, suppression};

pub(super) fn run_check(args: &CheckArgs, matches: &ArgMatches) -> i32 {
    let stderr = Stderr::for_format(args.format);
    if let Some(output) = &args.output {
        if let Some(format) = super::output_named_like_a_format(output) {
            stderr.line(&format!(
                "warning: `--output {0}` writes the report into a file named `{0}`; `--format {format}` (or `--output-format {format}`) chooses the format",
                crate::source::display_path(output)
            ));
        }
    }
    let options = match options(args, matches) {
        Ok(o) => o,
        Err(message) => return stderr.usage_error(&message),
    };
    let baseline = match (&args.baseline, &args.write_baseline) {
        (Some(path), None) => match baseline::read(path) {
            Ok(b) => Some((path, b)),
            Err(e) => return stderr.usage_error(&e.to_string()),
        },
        _ => None,
    };

    let mut report = check::check(&options);
    if report.aborted {
        for e in &report.errors {
            stderr.file_error(e);
        }
        return exit::ERROR;
    }
    // Before anything is written (`--fix` writes sources first).
    for (flag, target) in [
        ("--output", &args.output),
        ("--write-baseline", &args.write_baseline),
    ] {
        if let Some(path) = target.as_deref().filter(|p| is_checked_source(&report, p)) {
            return stderr.usage_error(&format!(
                "{flag} {}: this is one of the files checked; it is not overwritten",
                crate::source::display_path(path)
            ));
        }
    }

    if args.add_suppressions {
        let roots = crate::fix::write::WriteRoots::of(&options.paths);
        let added = suppression::add::add_suppressions(&report, &roots);
        for s in &added.skipped {
            stderr.note(s);
        }
        for e in report.errors.iter().chain(&added.errors) {
            stderr.file_error(e);
        }
        stderr.line(&format!(
            "kube-order-lint: added {} suppression comment{} in {} file{}",
            added.comments,
            plural(added.comments),
            added.files,
            plural(added.files)
        ));
        return if report.errors.is_empty() && added.errors.is_empty() {
            exit::CLEAN
        } else {
            exit::ERROR
        };
    }

    if let Some(path) = &args.write_baseline {
        for e in &report.errors {
            stderr.file_error(e);
        }
        return match baseline::write(&report, path) {
            Ok(n) => {
                stderr.line(&format!(
                    "kube-order-lint: wrote {n} finding{} to {}",
                    plural(n),
                    crate::source::display_path(path)
                ));
                if report.errors.is_empty() {
                    exit::CLEAN
                } else {
                    exit::ERROR
                }
            }
            Err(e) => stderr.usage_error(&e.to_string()),
        };
    }

    if let Some((path, b)) = &baseline {
        let fixed = baseline::filter(&mut report, b, path);
        if fixed > 0 {
            report.notes.push(format!(
                "{fixed} finding{} recorded in {} {} no longer reported; --write-baseline rewrites it",
                plural(fixed),
                crate::source::display_path(path),
                if fixed == 1 { "is" } else { "are" }
            ));
        }
    }

    if args.fix || args.diff {
        let baseline = baseline.as_ref().map(|(path, b)| (path.as_path(), b));
        return super::fix::run_fix(args, &options, report, baseline);
    }

    let to_file = args.output.is_some();
    let mut bytes = match (args.statistics, args.format) {
        (true, Format::Human) => statistics_table(&report),
        (true, Format::Json) => report::json::render_with_statistics(&report).into_bytes(),
        (true, _) => return stderr.usage_error("--statistics works with --format human or json"),
        (false, format) => render(&report, format, args.color, to_file, args.quiet),
    };
    if args.format == Format::Human && !args.statistics && !args.quiet {
        if let Some(hint) = report::human::fix_hint(&report) {
            bytes.extend_from_slice(format!("{hint}\n").as_bytes());
        }
    }
    let bytes = super::output::as_written(bytes, args.format);
    let written = match &args.output {
        Some(path) => crate::fix::write::write_output(path, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", crate::source::display_path(path))),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(&bytes).and_then(|_| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write output: {e}"))
                }
                _ => Ok(()),
            }
        }
    };
    if let Err(message) = written {
        return stderr.usage_error(&message);
    }
    if args.format == Format::Short && !args.statistics && !args.quiet {
        stderr.lines(&short_trailer(&report));
    }
    // Errors also go to stderr when the output is meant for a program or a file, so that they
    // are seen in the log.
    if !errors_in_output_seen(args.format, to_file) {
        for e in &report.errors {
            stderr.file_error(e);
        }
    }
    exit_code(
        !report.errors.is_empty(),
        !report.diagnostics.is_empty(),
        args.exit_zero,
    )
}

/// Is `target` one of the files the run read as source (the same file, by whatever name: a
/// link, a hard link, `./a.rs`)?
fn is_checked_source(report: &Report, target: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(target) = std::fs::metadata(target) else {
            // Nothing there yet: not a source.
            return false;
        };
        report
            .paths
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .any(|source| source.dev() == target.dev() && source.ino() == target.ino())
    }
    #[cfg(not(unix))]
    {
        let Ok(target) = target.canonicalize() else {
            return false;
        };
        report
            .paths
            .iter()
            .any(|p| p.canonicalize().is_ok_and(|p| p == target))
    }
}

/// `-` (or `--stdin-filename` without paths): the source read from standard input, with the
/// path it stands for (`-` without `--stdin-filename`).
fn stdin_source(args: &CheckArgs) -> Result<Option<(std::path::PathBuf, String)>, String> {
    let dash = args.paths.iter().any(|p| p.as_os_str() == "-");
    let implied = args.paths.is_empty() && args.stdin_filename.is_some();
    if !(dash || implied) {
        return Ok(None);
    }
    if args.paths.len() > 1 {
        return Err("`-` (standard input) cannot be combined with other paths".to_string());
    }
    for (on, flag) in [
        (args.fix, "--fix"),
        (args.diff, "--diff"),
        (args.add_suppressions, "--add-suppressions"),
        (args.manifest.manifest_path.is_some(), "--manifest-path"),
    ] {
        if on {
            return Err(format!("{flag} cannot be used with standard input (`-`)"));
        }
    }
    // The limit of a source file: a stream of any length is not read whole.
    let limit = crate::read::MAX_SOURCE_BYTES;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::io::stdin().lock(), limit + 1),
        &mut bytes,
    )
    .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "standard input is larger than {} MiB; not read",
            limit / (1024 * 1024)
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "standard input is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let path = args
        .stdin_filename
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("-"));
    Ok(Some((path, text)))
}

/// Flags → options. Errors are one line.
fn options(args: &CheckArgs, matches: &ArgMatches) -> Result<Options, String> {
    if args.stdin_filename.is_some()
        && !args.paths.is_empty()
        && !args.paths.iter().any(|p| p.as_os_str() == "-")
    {
        return Err("--stdin-filename names the source read from `-` (standard input); it cannot be combined with other paths".to_string());
    }
    let stdin = stdin_source(args)?;
    let paths = match &args.manifest.manifest_path {
        Some(manifest) => {
            if !args.paths.is_empty() {
                return Err("--manifest-path cannot be combined with paths".to_string());
            }
            if manifest.file_name().map_or(true, |n| n != "Cargo.toml") {
                return Err(format!(
                    "the manifest-path must be a path to a Cargo.toml file: {}",
                    manifest.display()
                ));
            }
            match crate::read::not_regular(manifest) {
                None => {}
                Some(why) if why == "does not exist" => {
                    return Err(format!(
                        "manifest path `{}` does not exist",
                        manifest.display()
                    ))
                }
                Some(why) => return Err(format!("manifest path `{}`: {why}", manifest.display())),
            }
            vec![manifest.clone()]
        }
        None if stdin.is_some() => Vec::new(),
        None if args.paths.is_empty() => vec![discover::default_path()],
        None => args.paths.clone(),
    };
    let selection = Selection {
        packages: args.workspace.package.clone(),
        workspace: args.workspace.workspace || args.workspace.all,
        exclude: args.workspace.exclude.clone(),
        targets: args.targets.filter(),
    };
    let config = if args.no_config {
        ConfigSource::None
    } else if let Some(file) = &args.config {
        ConfigSource::File(file.clone())
    } else {
        ConfigSource::Discover
    };
    let overrides = Overrides {
        levels: levels(matches)?,
        min_confidence: args.min_confidence.map(|c| match c {
            MinConfidence::Unknown => Confidence::Unknown,
            MinConfidence::Possible => Confidence::Possible,
            MinConfidence::Definite => Confidence::Definite,
        }),
        report_unused_suppressions: args.report_unused_suppressions.then_some(true),
        batch_checking: args.batch_checking.then_some(true),
        doc_examples: args.no_doc_examples.then_some(false),
        deps_helpers: args.no_deps_helpers.then_some(false),
    };
    Ok(Options {
        paths,
        jobs: args.jobs,
        no_prefilter: args.no_prefilter,
        selection,
        config,
        overrides,
        texts: stdin.into_iter().collect(),
        ..Options::default()
    })
}

/// `--allow/--warn/--deny` in the order given on the command line: later flags win.
fn levels(matches: &ArgMatches) -> Result<config::Levels, String> {
    let mut given: Vec<(usize, &str, String, Level)> = Vec::new();
    for (id, level) in [
        ("allow", Level::Allow),
        ("warn", Level::Warn),
        ("deny", Level::Deny),
    ] {
        let (Some(values), Some(indices)) =
            (matches.get_many::<String>(id), matches.indices_of(id))
        else {
            continue;
        };
        for (value, index) in values.zip(indices) {
            given.push((index, id, value.clone(), level));
        }
    }
    given.sort_by_key(|(index, ..)| *index);
    let mut levels = config::Levels::default();
    for (_, flag, lint, level) in given {
        let Some(name) = config::canonical_lint_name(&lint) else {
            return Err(format!(
                "{} in `--{flag} {lint}`",
                config::unknown_lint_message(&lint)
            ));
        };
        levels.set(name, level);
    }
    Ok(levels)
}
