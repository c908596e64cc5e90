//! The command line, shared by `kube-order-lint` and `cargo kube-order-lint`.

mod debug;
mod fix;
mod output;
mod run;
mod targets;

use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::lints;

/// Exit codes: part of the interface that CI scripts rely on.
pub mod exit {
    /// No findings.
    pub const CLEAN: i32 = 0;
    /// Findings were reported.
    pub const FINDINGS: i32 = 1;
    /// Usage error, unreadable path, or a file that could not be parsed.
    pub const ERROR: i32 = 2;
}

#[derive(Parser, Debug)]
#[command(
    name = "kube-order-lint",
    version,
    about = "Finds kube-rs requests on the same Kubernetes object that run concurrently or in a surprising order",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub check: CheckArgs,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Crates (directories with Cargo.toml), plain directories, or .rs files to check [default:
    /// the package or workspace of the current directory, found as cargo does]. `-` reads one
    /// file's source from standard input.
    pub paths: Vec<PathBuf>,

    /// The path of the source read from standard input (`-`): shown in messages, and where its
    /// configuration is looked up. The file need not exist.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,

    /// Output format (`--output-format` works too, as in ruff).
    #[arg(long, value_enum, default_value_t = Format::Human, alias = "output-format")]
    pub format: Format,

    /// Write the output to FILE instead of standard output (atomically: a temporary file in
    /// the same directory, renamed; a FILE that is a symbolic link is refused).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// When to use colours in human output (NO_COLOR is honoured with `auto`).
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,

    /// Print only the findings (and errors): no notes, no summary line, no fix counts.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Report findings but exit with 0 (errors still exit with 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Report only findings at least this certain [default: possible, or the configuration's].
    /// `unknown` also shows pairs whose names have unrelated origins (pedantic).
    #[arg(long, value_enum)]
    pub min_confidence: Option<MinConfidence>,

    /// Do not report LINT (`all` for every lint). Repeatable; later flags win.
    #[arg(short = 'A', long, value_name = "LINT")]
    pub allow: Vec<String>,

    /// Report LINT as a warning (`all` for every lint). Repeatable; later flags win.
    #[arg(short = 'W', long, value_name = "LINT")]
    pub warn: Vec<String>,

    /// Report LINT as an error (`all` for every lint). Repeatable; later flags win.
    #[arg(short = 'D', long, value_name = "LINT")]
    pub deny: Vec<String>,

    /// Use this configuration file only (kube-order-lint.toml format, or a Cargo.toml's metadata).
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Ignore configuration files.
    #[arg(long)]
    pub no_config: bool,

    /// Report suppression comments that suppress nothing (as `unused-suppression` warnings).
    #[arg(long)]
    pub report_unused_suppressions: bool,

    /// Insert a suppression comment above every finding reported, then exit (0 unless errors).
    /// Only files inside the paths named are rewritten; others get a note.
    #[arg(long, conflicts_with_all = ["write_baseline", "baseline"])]
    pub add_suppressions: bool,

    /// Report only findings that are not recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Record every finding reported in this baseline file, then exit (0 unless errors).
    /// Written atomically; a FILE that is a symbolic link is refused.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,

    /// Worker threads (default: all cores). Capped at 4 per core, and at the number of files
    /// when it is known beforehand (no modules to follow): more could not run at once.
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,

    /// Also report batches (one request per element of a collection) whose object is computed
    /// from the element, as `possible` findings (the configuration's `batch_checking`).
    #[arg(long)]
    pub batch_checking: bool,

    /// Do not check the Rust examples of `///` and `//!` doc comments (the configuration's
    /// `doc_examples = false`).
    #[arg(long)]
    pub no_doc_examples: bool,

    /// Do not read the helpers of dependencies that make kube requests (the configuration's
    /// `deps_helpers = false`): no `cargo metadata` with dependencies, no cache.
    #[arg(long)]
    pub no_deps_helpers: bool,

    /// Count findings per lint, the kube requests and concurrency sites recognised, and the
    /// calls left unresolved (by name), instead of listing findings (human output), or as a
    /// `statistics` field (json).
    #[arg(long)]
    pub statistics: bool,

    /// Apply the safe fixes to the files, then report what remains. Only files inside the
    /// paths named are rewritten (not a `#[path]` or link to elsewhere); others get a note.
    #[arg(long, conflicts_with_all = ["add_suppressions", "write_baseline"])]
    pub fix: bool,

    /// With `--fix` or `--diff`: the unsafe fixes too (see each lint's `Fix safety`).
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff and change nothing.
    #[arg(long, conflicts_with_all = ["add_suppressions", "write_baseline"])]
    pub diff: bool,

    // Cargo's flags last, under their own headings.
    #[command(flatten, next_help_heading = "Package Selection")]
    pub workspace: clap_cargo::Workspace,

    #[command(flatten)]
    pub manifest: clap_cargo::Manifest,

    #[command(flatten)]
    pub targets: targets::TargetArgs,

    /// Parse every file, also those without trigger words (for testing and benchmarking the
    /// prefilter; the findings are the same).
    #[arg(long, hide = true)]
    pub no_prefilter: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the documentation of a lint.
    Explain {
        /// A name that `list` shows; `concurrent_same_object` works too.
        lint: String,
    },
    /// List the lints.
    List,
    /// Run a Language Server Protocol server on stdin/stdout, for editors.
    ///
    /// Findings are published when a document is opened, changed or saved (the editor's text is
    /// checked, with the configuration of the file's directory), and each fix is offered as a
    /// quick fix (code action) with its applicability.
    Server,
    /// Print what the analysis sees, to understand a finding or a missing one.
    ///
    /// `debug model FILE` lists every kube request, helper call and concurrency site the model
    /// recognises in one .rs file, with its position, and why a call is not taken for a request
    /// ("receiver is not a kube Api", "not a crate function that makes any"). The file is read
    /// on its own: helpers defined in other files of its crate are not linked.
    Debug {
        #[command(subcommand)]
        what: DebugCommand,
    },
}

#[derive(Subcommand, Debug)]
pub enum DebugCommand {
    /// Every request, helper call and concurrency site, as the model sees them: each file of a
    /// crate, a directory or the files given, linked the way `check` links them.
    Model {
        /// A crate, a directory or a .rs file.
        file: PathBuf,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// rustc-like, with source excerpts (the default).
    Human,
    /// One line per finding: `path:line:col: severity[lint]: message`.
    Short,
    /// One JSON document (schema_version 1).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// One rustc JSON diagnostic per line (rust-analyzer's check.overrideCommand).
    RustcJson,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinConfidence {
    /// Also findings with no evidence either way (two names of unrelated origin).
    Unknown,
    /// Findings with positive evidence that the requests can meet on one object (the default).
    Possible,
    /// Only findings proved to be on the same object.
    Definite,
}

/// Run with process arguments; returns the exit code. `cargo kube-order-lint` passes
/// `kube-order-lint` as the first argument, which is dropped.
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let mut args: Vec<std::ffi::OsString> = args.into_iter().collect();
    let mut command = Cli::command();
    if args.get(1).is_some_and(|a| a == "kube-order-lint") {
        args.remove(1);
        // As cargo's own subcommands show it: `Usage: cargo kube-order-lint [OPTIONS] ...`.
        command = command.bin_name("cargo kube-order-lint");
    }
    let parsed = command
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::ERROR
            } else {
                exit::CLEAN
            };
            if code == exit::ERROR && asks_for_github_format(&args) {
                // The message may quote an argument, such as a hostile file name.
                let message = e.render().to_string();
                eprint!(
                    "{}",
                    crate::report::github::error_command(message.trim_end())
                );
            } else {
                let _ = e.print();
            }
            return code;
        }
    };
    match cli.command {
        Some(Command::List) => {
            for (name, summary, _) in documented() {
                println!("{name:<28} {summary}");
            }
            exit::CLEAN
        }
        Some(Command::Explain { lint }) => explain(&lint),
        Some(Command::Server) => match crate::server::run() {
            Ok(crate::server::Stopped::AfterShutdown) => exit::CLEAN,
            // LSP's exit code when the client did not ask for `shutdown` first.
            Ok(crate::server::Stopped::WithoutShutdown) => 1,
            Err(e) => {
                eprintln!("error: kube-order-lint server: {e}");
                exit::ERROR
            }
        },
        Some(Command::Debug {
            what: DebugCommand::Model { file },
        }) => debug::model(&file),
        None => run::run_check(&cli.check, &matches),
    }
}

/// `--format github` among arguments that could not be parsed: its escaping rules then apply to
/// the usage error too.
fn asks_for_github_format(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .zip(args.iter().skip(1).map(Some).chain([None]))
        .any(|(a, next)| {
            ["--format", "--output-format"].iter().any(|flag| {
                *a == *format!("{flag}=github")
                    || (a == flag && next.is_some_and(|n| n == "github"))
            })
        })
}

/// `--output json` writes the report into a file named `json`: what a ruff user types for
/// `--output-format json`. The format name it is, if the file's name is one.
fn output_named_like_a_format(output: &std::path::Path) -> Option<String> {
    let name = output.file_name()?.to_str()?;
    Format::value_variants()
        .iter()
        .filter_map(|f| f.to_possible_value())
        .find(|v| v.matches(name, true))
        .map(|v| v.get_name().to_string())
}

/// What `list` lists and `explain` explains: (name, summary, page) of every lint in the
/// registry, the lints of the code, then `unused-suppression`.
fn documented() -> Vec<(&'static str, &'static str, &'static str)> {
    lints::registry()
        .map(|l| (l.name, l.summary, l.doc))
        .collect()
}

/// `explain NAME`: `concurrent_same_object` (as in `#[allow]`) and any case work; an unknown
/// name gets the nearest names.
fn explain(name: &str) -> i32 {
    let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
    let wanted = wanted.strip_prefix("kube-order-lint::").unwrap_or(&wanted);
    let all = documented();
    if let Some((_, _, doc)) = all.iter().find(|(n, _, _)| *n == wanted) {
        print!("{}", lints::without_test_markers(doc));
        return exit::CLEAN;
    }
    let mut near: Vec<(usize, &str)> = all
        .iter()
        .map(|(n, _, _)| (edit_distance(wanted, n), *n))
        .filter(|(d, n)| *d <= 3.max(n.len() / 3) || (wanted.len() >= 3 && n.contains(wanted)))
        .collect();
    near.sort();
    let suggestion = match near.first() {
        Some((_, n)) => format!("; did you mean `{n}`?"),
        None => String::new(),
    };
    eprintln!(
        "error: unknown lint `{name}`{suggestion} (known: {})",
        all.iter()
            .map(|(n, _, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    );
    exit::ERROR
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

fn color_choice(when: ColorWhen) -> codespan_reporting::term::termcolor::ColorChoice {
    use codespan_reporting::term::termcolor::ColorChoice;
    use std::io::IsTerminal;
    match when {
        ColorWhen::Always => ColorChoice::Always,
        ColorWhen::Never => ColorChoice::Never,
        ColorWhen::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            if no_color || !std::io::stdout().is_terminal() {
                ColorChoice::Never
            } else {
                ColorChoice::Auto
            }
        }
    }
}
