//! UI tests: every `tests/ui/<lint>/<case>.rs` is checked by the library; its human output must
//! equal the blessed `<case>.stdout` next to it, and its findings must sit exactly on the lines
//! marked `//~ <lint>`. A case with fixes also has `<case>.fixed`: the case with every fix
//! applied (unsafe ones too), which must parse, must no longer have the fixed findings, and
//! must not change when fixed again. Run with `BLESS=1` to (re)write the `.stdout` and `.fixed`
//! files after reviewing.

mod common;

use std::path::{Path, PathBuf};

use codespan_reporting::term::termcolor::NoColor;
use kube_order_lint::fix::engine::{self, FixOptions, FixOutcome};
use kube_order_lint::{check, report, Options, Report};

/// UI cases: single `.rs` files, and mini crates (directories with a `Cargo.toml`, for
/// behaviour across files and modules) whose files are not cases of their own.
fn fixtures() -> Vec<PathBuf> {
    let crates: Vec<PathBuf> = walkdir::WalkDir::new("tests/ui")
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "Cargo.toml")
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .collect();
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new("tests/ui")
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter(|p| !crates.iter().any(|c| p.starts_with(c)))
        .chain(crates.iter().cloned())
        .collect();
    out.sort();
    out
}

/// The `.rs` files of a case, with their text.
fn case_files(case: &Path) -> Vec<(PathBuf, String)> {
    let files: Vec<PathBuf> = if case.is_dir() {
        walkdir::WalkDir::new(case)
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect()
    } else {
        vec![case.to_path_buf()]
    };
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read fixture");
            (p, text)
        })
        .collect()
}

/// The human output for one fixture, as the CLI prints it with `--color never`.
pub fn human_output(path: &Path) -> (String, kube_order_lint::Report) {
    let report = check(&Options {
        paths: vec![path.to_path_buf()],
        jobs: Some(1),
        ..Options::default()
    });
    let mut out = NoColor::new(Vec::new());
    report::human::render(&report, &mut out).expect("render");
    (String::from_utf8(out.into_inner()).expect("utf8"), report)
}

#[test]
fn ui_fixtures_match_blessed_output_and_markers() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let all = fixtures();
    assert!(!all.is_empty(), "no UI fixtures found under tests/ui");
    for path in &all {
        let (actual, report) = human_output(path);
        for (file, text) in case_files(path) {
            let shown = file.to_string_lossy().replace('\\', "/");
            for f in common::compare_markers_in(&shown, &text, &report) {
                failures.push(format!("{shown}: {f}"));
            }
        }
        let expected_path = path.with_extension("stdout");
        if bless {
            std::fs::write(&expected_path, &actual).expect("write blessed output");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => {
                let diff = similar::TextDiff::from_lines(&expected, &actual)
                    .unified_diff()
                    .header("expected", "actual")
                    .to_string();
                failures.push(format!(
                    "{}: Wrong: output differs from {}:\n{diff}",
                    path.display(),
                    expected_path.display()
                ));
            }
            Err(_) => failures.push(format!(
                "{}: no blessed output {} (review, then run with BLESS=1)",
                path.display(),
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_lint_has_ui_tests() {
    for lint in kube_order_lint::lints::LINTS {
        let dir = Path::new("tests/ui").join(lint.name);
        let has_case = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .any(|e| e.path().extension().is_some_and(|x| x == "rs"))
            })
            .unwrap_or(false);
        assert!(
            has_case,
            "lint `{}` has no UI tests in {}",
            lint.name,
            dir.display()
        );
    }
}

fn check_one(path: &Path) -> Report {
    check(&Options {
        paths: vec![path.to_path_buf()],
        jobs: Some(1),
        ..Options::default()
    })
}

/// `--fix --unsafe-fixes` on one file, through the library.
fn fix_all(report: &Report, write: bool) -> FixOutcome {
    let recheck = |file: &kube_order_lint::source::SourceFile, text: &str| {
        kube_order_lint::check::recheck(report, file, text)
    };
    engine::run(
        report,
        FixOptions {
            unsafe_fixes: true,
            write,
        },
        &recheck,
    )
}

/// Findings `--fix --unsafe-fixes` applies a fix to.
fn fixable(report: &Report) -> usize {
    report
        .diagnostics
        .iter()
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.is_applied(true) && f.file().is_some())
        })
        .count()
}

#[test]
fn fixed_fixtures_parse_are_fixed_and_converge() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for path in &fixtures() {
        let expected_path = path.with_extension("fixed");
        // Fix a copy, as `--fix --unsafe-fixes` would, and read back what was written.
        let dir = tempfile::tempdir().expect("tempdir");
        let copy = dir.path().join(path.file_name().expect("file name"));
        std::fs::copy(path, &copy).expect("copy fixture");
        let before = check_one(&copy);
        let outcome = fix_all(&before, true);
        for e in &outcome.errors {
            failures.push(format!(
                "{}: Wrong: fixing failed: {}",
                path.display(),
                e.message
            ));
        }
        if outcome.files.is_empty() {
            if expected_path.exists() {
                failures.push(format!(
                    "{}: {} is stale: the case has no fix to apply (delete it)",
                    path.display(),
                    expected_path.display()
                ));
            }
            continue;
        }
        let fixed = std::fs::read_to_string(&copy).expect("read fixed copy");
        // Parses, and the fixed findings are gone: only those without an applicable fix remain.
        let after = check_one(&copy);
        if !after.errors.is_empty() {
            failures.push(format!(
                "{}: Wrong: the fixed file does not parse: {:?}",
                path.display(),
                after.errors
            ));
        }
        let unfixed_before = before.diagnostics.len() - fixable(&before);
        if fixable(&after) != 0 || after.diagnostics.len() != unfixed_before {
            failures.push(format!(
                "{}: Wrong: after fixing, {} findings remain ({} still fixable); expected the {unfixed_before} without a fix",
                path.display(),
                after.diagnostics.len(),
                fixable(&after)
            ));
        }
        // Converges: fixing the fixed file changes nothing.
        let again = fix_all(&after, false);
        if again.applied() != 0 {
            failures.push(format!(
                "{}: Wrong: fixing the fixed file applies {} more fixes",
                path.display(),
                again.applied()
            ));
        }
        if bless {
            std::fs::write(&expected_path, &fixed).expect("write blessed fixed file");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == fixed => {}
            Ok(expected) => {
                let diff = similar::TextDiff::from_lines(&expected, &fixed)
                    .unified_diff()
                    .header("expected", "actual")
                    .to_string();
                failures.push(format!(
                    "{}: Wrong: fixed file differs from {}:\n{diff}",
                    path.display(),
                    expected_path.display()
                ));
            }
            Err(_) => failures.push(format!(
                "{}: no blessed {} (review, then run with BLESS=1)",
                path.display(),
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixed_file_belongs_to_a_case() {
    for entry in walkdir::WalkDir::new("tests/ui")
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "fixed") {
            assert!(
                p.with_extension("rs").exists(),
                "{} has no case {}",
                p.display(),
                p.with_extension("rs").display()
            );
        }
    }
}
