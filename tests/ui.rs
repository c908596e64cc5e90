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
    let manifests: Vec<PathBuf> = walkdir::WalkDir::new("tests/ui")
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "Cargo.toml")
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .collect();
    // A workspace case's members are part of it, not cases of their own.
    let crates: Vec<PathBuf> = manifests
        .iter()
        .filter(|dir| !manifests.iter().any(|m| m != *dir && dir.starts_with(m)))
        .cloned()
        .collect();
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new("tests/ui")
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter(|p| !crates.iter().any(|c| p.starts_with(c)))
        // The blessed fixed files of a crate case are not cases.
        .filter(|p| {
            !p.ancestors()
                .any(|a| a.extension().is_some_and(|e| e == "fixed"))
        })
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
        kube_order_lint::check::recheck(report, file, text).map(|one| one.diagnostics)
    };
    let named: Vec<_> = report.sources.iter().map(|s| s.path.clone()).collect();
    engine::run(
        report,
        FixOptions {
            unsafe_fixes: true,
            write,
        },
        &kube_order_lint::fix::write::WriteRoots::of(&named),
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

/// Copy a case (a file, or a crate directory) into `dir`; returns the copy's path.
fn copy_case(case: &Path, dir: &Path) -> PathBuf {
    let target = dir.join(case.file_name().expect("case name"));
    if case.is_dir() {
        for entry in walkdir::WalkDir::new(case)
            .into_iter()
            .filter_map(Result::ok)
        {
            let rel = entry.path().strip_prefix(case).expect("inside the case");
            let to = target.join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).expect("create dir");
            } else {
                std::fs::copy(entry.path(), &to).expect("copy file");
            }
        }
    } else {
        std::fs::copy(case, &target).expect("copy fixture");
    }
    target
}

/// The blessed fixed version of a case: `<case>.fixed` for a file; for a crate, the directory
/// `<case>.fixed/` holding the fixed version of each file that changes, at its relative path.
/// Returns (relative path, text) of each.
fn blessed_fixed(case: &Path) -> Option<Vec<(PathBuf, String)>> {
    let path = case.with_extension("fixed");
    if case.is_dir() {
        if !path.is_dir() {
            return None;
        }
        let mut out: Vec<(PathBuf, String)> = walkdir::WalkDir::new(&path)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(&path).expect("inside").to_path_buf();
                (rel, std::fs::read_to_string(e.path()).expect("read fixed"))
            })
            .collect();
        out.sort();
        Some(out)
    } else {
        let text = std::fs::read_to_string(&path).ok()?;
        Some(vec![(PathBuf::new(), text)])
    }
}

fn bless_fixed(case: &Path, fixed: &[(PathBuf, String)]) {
    let path = case.with_extension("fixed");
    if case.is_dir() {
        let _ = std::fs::remove_dir_all(&path);
        for (rel, text) in fixed {
            let to = path.join(rel);
            std::fs::create_dir_all(to.parent().expect("parent")).expect("create dir");
            std::fs::write(&to, text).expect("write blessed fixed file");
        }
    } else {
        std::fs::write(&path, &fixed[0].1).expect("write blessed fixed file");
    }
}

#[test]
fn fixed_fixtures_parse_are_fixed_and_converge() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &fixtures() {
        // Fix a copy, as `--fix --unsafe-fixes` would, and read back what was written.
        let dir = tempfile::tempdir().expect("tempdir");
        let copy = copy_case(case, dir.path());
        let before = check_one(&copy);
        let outcome = fix_all(&before, true);
        for e in &outcome.errors {
            failures.push(format!(
                "{}: Wrong: fixing failed: {}",
                case.display(),
                e.message
            ));
        }
        let blessed = blessed_fixed(case);
        if outcome.files.is_empty() {
            if blessed.is_some() {
                failures.push(format!(
                    "{}: {} is stale: the case has no fix to apply (delete it)",
                    case.display(),
                    case.with_extension("fixed").display()
                ));
            }
            continue;
        }
        let mut fixed: Vec<(PathBuf, String)> = outcome
            .files
            .iter()
            .map(|f| {
                let path = std::fs::canonicalize(&f.path).expect("fixed file");
                let root = std::fs::canonicalize(&copy).expect("copy");
                let rel = path
                    .strip_prefix(&root)
                    .expect("inside the copy")
                    .to_path_buf();
                (rel, String::from_utf8(f.after.clone()).expect("utf-8"))
            })
            .collect();
        fixed.sort();
        for (rel, text) in &fixed {
            let written = if rel.as_os_str().is_empty() {
                copy.clone()
            } else {
                copy.join(rel)
            };
            let on_disk = std::fs::read_to_string(written).expect("read fixed copy");
            if on_disk != *text {
                failures.push(format!(
                    "{}: Wrong: {} was not written",
                    case.display(),
                    rel.display()
                ));
            }
        }
        // Parses, and the fixed findings are gone: only those without an applicable fix remain.
        let after = check_one(&copy);
        if !after.errors.is_empty() {
            failures.push(format!(
                "{}: Wrong: the fixed case does not parse: {:?}",
                case.display(),
                after.errors
            ));
        }
        let unfixed_before = before.diagnostics.len() - fixable(&before);
        if fixable(&after) != 0 || after.diagnostics.len() != unfixed_before {
            failures.push(format!(
                "{}: Wrong: after fixing, {} findings remain ({} still fixable); expected the {unfixed_before} without a fix",
                case.display(),
                after.diagnostics.len(),
                fixable(&after)
            ));
        }
        // Converges: fixing the fixed case changes nothing.
        let again = fix_all(&after, false);
        if again.applied() != 0 {
            failures.push(format!(
                "{}: Wrong: fixing the fixed case applies {} more fixes",
                case.display(),
                again.applied()
            ));
        }
        if bless {
            bless_fixed(case, &fixed);
            continue;
        }
        match blessed {
            Some(expected) if expected == fixed => {}
            Some(expected) => {
                let show = |v: &[(PathBuf, String)]| {
                    v.iter()
                        .map(|(p, t)| format!("== {}\n{t}", p.display()))
                        .collect::<String>()
                };
                let diff = similar::TextDiff::from_lines(&show(&expected), &show(&fixed))
                    .unified_diff()
                    .header("expected", "actual")
                    .to_string();
                failures.push(format!(
                    "{}: Wrong: fixed output differs from {}:\n{diff}",
                    case.display(),
                    case.with_extension("fixed").display()
                ));
            }
            None => failures.push(format!(
                "{}: no blessed {} (review, then run with BLESS=1)",
                case.display(),
                case.with_extension("fixed").display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixed_file_belongs_to_a_case() {
    let cases = fixtures();
    for entry in std::fs::read_dir("tests/ui").expect("tests/ui") {
        let lint_dir = entry.expect("entry").path();
        for entry in std::fs::read_dir(&lint_dir).into_iter().flatten() {
            let p = entry.expect("entry").path();
            if p.extension().is_some_and(|e| e == "fixed") {
                let stem = p.with_extension("");
                assert!(
                    cases.iter().any(|c| c.with_extension("") == stem),
                    "{} belongs to no case",
                    p.display()
                );
            }
        }
    }
}
