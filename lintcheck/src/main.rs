//! lintcheck: kube-order-lint over a pinned corpus of published kube crates, in the manner of
//! clippy's lintcheck, plus a verdict on every finding (see `lintcheck/README.md`).
//!
//! `cargo run --release -p lintcheck` fetches the corpus (`cargo fetch --locked`), builds the
//! release binary, runs it on each crate's sources as a user would (`kube-order-lint .` in the
//! crate's directory), writes `lintcheck/findings.tsv` and prints a summary. With `--check` it
//! writes nothing and fails when the findings differ from the committed log, or when a finding
//! has no verdict (or a verdict no finding), so that a change that alters findings updates the
//! log and judges the new lines in the same commit. `lintcheck/expected.tsv` lists the real
//! hazards a reviewer found in the corpus: the summary says how many the findings report
//! (recall), and `--check` fails when one names a file its crate does not have.

mod corpus;
mod expected;
mod findings;
mod run;
mod summary;
mod verdicts;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

struct Args {
    check: bool,
    /// Only crates whose `name@version` contains one of these comma-separated patterns (for a
    /// quick look; not with `--check`).
    only: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        check: false,
        only: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--check" => args.check = true,
            "--only" => args.only = Some(it.next().ok_or("--only needs a crate name")?),
            "-h" | "--help" => {
                return Err("usage: lintcheck [--check] [--only NAME[@VERSION][,..]]".to_string());
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if args.check && args.only.is_some() {
        return Err("--check runs the whole corpus; drop --only".to_string());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match lintcheck(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("lintcheck: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Whether `--only PATTERNS` keeps the crate `key` (`name@version`): one of the comma-separated
/// patterns is part of it, so `kube-lease` keeps kube-lease-manager and `krator@0.4` one version.
fn is_selected(key: &str, patterns: &str) -> bool {
    patterns
        .split(',')
        .map(str::trim)
        .any(|p| !p.is_empty() && key.contains(p))
}

/// The folder of this package: `lintcheck/`.
fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn lintcheck(args: &Args) -> Result<bool, String> {
    let started = Instant::now();
    let dir = here();
    let mut crates = corpus::fetch_and_list(&dir.join("corpus"))?;
    let expected = expected::Expected::read(&dir.join("expected.tsv"))?;
    let stale_expected = expected.stale(&crates.iter().map(|c| (c.key(), c.dir.clone())).collect());
    if let Some(only) = &args.only {
        crates.retain(|c| is_selected(&c.key(), only));
    }
    let expected = expected.of_crates(&crates.iter().map(corpus::Crate::key).collect::<Vec<_>>());
    let tool = run::build_tool(dir.parent().unwrap_or(Path::new("..")))?;
    let runs = run::run_all(&tool, &crates)?;
    let found = findings::Findings::of(&runs);
    let findings_file = dir.join("findings.tsv");
    let committed = findings::Findings::read(&findings_file)?;
    let verdicts = verdicts::Verdicts::read(&dir.join("verdicts.tsv"))?;
    let outcome = summary::Summary::new(
        &runs,
        &found,
        &committed,
        &verdicts,
        (&expected, stale_expected),
        started.elapsed(),
    );
    print!("{}", outcome.render());
    if args.check {
        return Ok(outcome.passes());
    }
    if args.only.is_none() {
        found.write(&findings_file)?;
        println!("wrote {}", findings_file.display());
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::is_selected;

    #[test]
    fn only_keeps_a_crate_that_one_of_the_patterns_names() {
        assert!(is_selected("kube-lease-manager@0.13.1", "kube-lease"));
        assert!(is_selected("krator@0.4.0", "kubelet,krator@0.4"));
        assert!(!is_selected("krator@0.6.0", "kubelet,krator@0.4"));
        assert!(is_selected("shinka@0.1.0", "caixa, shinka"));
        assert!(!is_selected("kubert@0.25.0", "caixa,,shinka"));
        assert!(!is_selected("kubert@0.25.0", ""));
    }
}
