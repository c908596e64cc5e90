//! Helpers of dependencies (`src/deps.rs`): a path dependency that depends on kube, not a member
//! of the checked workspace, whose public functions make requests.

mod common;

use std::path::{Path, PathBuf};

use kube_order_lint::config::Overrides;
use kube_order_lint::{check, Options, Report};

const FIXTURE: &str = "tests/fixtures/crates/deps-helpers";

fn run(dir: &Path, deps_helpers: Option<bool>) -> Report {
    check(&Options {
        paths: vec![dir.to_path_buf()],
        jobs: Some(1),
        overrides: Overrides {
            deps_helpers,
            ..Overrides::default()
        },
        ..Options::default()
    })
}

fn checked_lib() -> (PathBuf, String) {
    let path = Path::new(FIXTURE).join("checked/src/lib.rs");
    let text = std::fs::read_to_string(&path).expect("fixture");
    (path, text)
}

#[test]
fn calls_of_a_dependency_helper_are_its_requests() {
    let report = run(&Path::new(FIXTURE).join("checked"), None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let (_, text) = checked_lib();
    let failures = common::compare_markers(&text, &report);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let create = &report.diagnostics[0];
    assert_eq!(
        create.message,
        "create and get of the same Pod `pod.metadata.name` run concurrently in `tokio::join!`"
    );
    assert!(create
        .secondary
        .iter()
        .any(|l| l.message == "`oplib::create_if_missing` creates Pod `pod.metadata.name`"));
}

#[test]
fn without_dependency_helpers_their_calls_are_nothing() {
    let report = run(&Path::new(FIXTURE).join("checked"), Some(false));
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

/// Copy the fixture, without its lock file.
fn copy_fixture(to: &Path) {
    for entry in walkdir::WalkDir::new(FIXTURE) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(FIXTURE).unwrap();
        let to = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else if entry.file_name() != "Cargo.lock" {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
}

/// Without a lock file, resolving would write one: not tried, and nothing written.
#[test]
fn a_crate_without_a_lock_file_is_checked_without_them() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    let checked = dir.path().join("checked");
    let report = run(&checked, None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    assert!(!checked.join("Cargo.lock").exists());
    assert!(!checked.join("target").exists());
}

/// A lock file cargo cannot use offline (it names a dependency that is not on disk): a note, no
/// error, and the lock file unchanged.
#[test]
fn a_lock_file_that_cannot_be_resolved_offline_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    let checked = dir.path().join("checked");
    let lock = std::fs::read_to_string(Path::new(FIXTURE).join("checked/Cargo.lock")).unwrap();
    // The manifest asks for a registry crate the lock file does not have: `--locked` refuses.
    let manifest = checked.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace(
            "[dependencies]\n",
            "[dependencies]\nnot-on-disk-at-all = \"1\"\n",
        ),
    )
    .unwrap();
    std::fs::write(checked.join("Cargo.lock"), &lock).unwrap();
    let report = run(&checked, None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("helpers of dependencies not read")),
        "{:?}",
        report.notes
    );
    assert_eq!(
        std::fs::read_to_string(checked.join("Cargo.lock")).unwrap(),
        lock
    );
}

/// The command line: found by default, none with `--no-deps-helpers`.
#[test]
fn the_flag_turns_them_off() {
    let dir = Path::new(FIXTURE).join("checked");
    let run = |flags: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("kube-order-lint")
            .unwrap()
            .args(["--format", "short", "--color", "never"])
            .args(flags)
            .arg(&dir)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(&[]).lines().count(), 7, "{}", run(&[]));
    assert_eq!(run(&["--no-deps-helpers"]), "");
}
