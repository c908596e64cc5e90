//! The command line, shared by `kube-order-lint` and `cargo kube-order-lint`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};

use crate::check::{self, Options};
use crate::lints;
use crate::model::Confidence;
use crate::report;

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
    /// Crates (directories with Cargo.toml), plain directories, or .rs files to check.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// When to use colours in human output (NO_COLOR is honoured with `auto`).
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,

    /// Report findings but exit with 0 (errors still exit with 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Report only findings at least this certain.
    #[arg(long, value_enum, default_value_t = MinConfidence::Possible)]
    pub min_confidence: MinConfidence,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the documentation of a lint.
    Explain { lint: String },
    /// List the lints.
    List,
    /// Print what the model sees in a file (for debugging findings).
    #[command(hide = true)]
    Debug {
        #[command(subcommand)]
        what: DebugCommand,
    },
}

#[derive(Subcommand, Debug)]
pub enum DebugCommand {
    /// Every request and concurrency site of one file.
    Model { file: PathBuf },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinConfidence {
    Possible,
    Definite,
}

/// Run with process arguments; returns the exit code. `cargo kube-order-lint` passes
/// `kube-order-lint` as the first argument, which is dropped.
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let mut args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "kube-order-lint") {
        args.remove(1);
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::ERROR
            } else {
                exit::CLEAN
            };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Some(Command::List) => {
            for lint in lints::LINTS {
                println!("{:<28} {}", lint.name, lint.summary);
            }
            exit::CLEAN
        }
        Some(Command::Explain { lint }) => match lints::find(&lint) {
            Some(l) => {
                print!("{}", l.doc);
                exit::CLEAN
            }
            None => {
                eprintln!(
                    "error: unknown lint `{lint}` (known: {})",
                    lints::LINTS
                        .iter()
                        .map(|l| l.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                exit::ERROR
            }
        },
        Some(Command::Debug {
            what: DebugCommand::Model { file },
        }) => crate::model::debug::print_model(&file),
        None => run_check(&cli.check),
    }
}

fn run_check(args: &CheckArgs) -> i32 {
    let options = Options {
        paths: args.paths.clone(),
        jobs: args.jobs,
        min_confidence: match args.min_confidence {
            MinConfidence::Possible => Confidence::Possible,
            MinConfidence::Definite => Confidence::Definite,
        },
        ..Options::default()
    };
    let report = check::check(&options);
    let written = match args.format {
        Format::Json => {
            let mut out = std::io::stdout().lock();
            out.write_all(report::json::render(&report).as_bytes())
        }
        Format::Human => {
            let mut out = StandardStream::stdout(color_choice(args.color));
            report::human::render(&report, &mut out)
        }
    };
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write output: {e}");
            return exit::ERROR;
        }
    }
    if args.format != Format::Human {
        // Errors also go to stderr so they are seen when stdout is parsed.
        for e in &report.errors {
            let pos = match (e.line, e.column) {
                (Some(l), Some(c)) => format!(":{l}:{c}"),
                _ => String::new(),
            };
            eprintln!("error: {}{pos}: {}", e.file, e.message);
        }
    }
    if !report.errors.is_empty() {
        exit::ERROR
    } else if !report.diagnostics.is_empty() && !args.exit_zero {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

fn color_choice(when: ColorWhen) -> ColorChoice {
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
