//! UI tests: every `tests/ui/<lint>/<case>.rs` is checked by the library; its human output must
//! equal the blessed `<case>.stdout` next to it, and its findings must sit exactly on the lines
//! marked `//~ <lint>`. Run with `BLESS=1` to (re)write the `.stdout` files after reviewing.

mod common;

use std::path::{Path, PathBuf};

use codespan_reporting::term::termcolor::NoColor;
use kube_order_lint::{check, report, Options};

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
