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

/// The fixture with the checked package's lock file, so that cargo resolves the dependency
/// without fetching.
fn copy_fixture_with_lock(to: &Path) {
    copy_fixture(to);
    std::fs::copy(
        Path::new(FIXTURE).join("checked/Cargo.lock"),
        to.join("checked/Cargo.lock"),
    )
    .unwrap();
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
    // The dependencies that may have helpers are named once, and counted.
    let named: Vec<_> = report
        .notes
        .iter()
        .filter(|n| n.contains("oplib 0.3.1"))
        .collect();
    assert_eq!(named.len(), 1, "{:?}", report.notes);
    assert_eq!(report.statistics.dependencies_unread, 1);
    assert_eq!(
        std::fs::read_to_string(checked.join("Cargo.lock")).unwrap(),
        lock
    );
}

/// A dependency cargo resolves but whose sources are not on disk (here a library file that is
/// not there): named once in a note, counted in `--statistics`, and the rest checked.
#[test]
fn a_dependency_whose_sources_are_missing_is_named_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture_with_lock(dir.path());
    let manifest = dir.path().join("oplib/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{text}\n[lib]\npath = \"src/gone.rs\"\n"),
    )
    .unwrap();
    let checked = dir.path().join("checked");
    let report = run(&checked, None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert_eq!(
        report.notes,
        vec![
            "helpers of dependencies not read, their sources not on disk: oplib 0.3.1".to_string()
        ]
    );
    assert_eq!(report.statistics.dependencies_unread, 1);
    let out = assert_cmd::Command::cargo_bin("kube-order-lint")
        .unwrap()
        .args(["--statistics", "--color", "never"])
        .arg(&checked)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("     1  dependencies not read for helpers"),
        "{stdout}"
    );
    let out = assert_cmd::Command::cargo_bin("kube-order-lint")
        .unwrap()
        .args(["--statistics", "--format", "json"])
        .arg(&checked)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["statistics"]["dependencies_unread"], 1);
}

/// A dependency's module file that is a link out of the package is not read.
#[cfg(unix)]
#[test]
fn a_dependency_file_linked_out_of_the_package_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture_with_lock(dir.path());
    let pods = dir.path().join("oplib/src/pods.rs");
    let outside = dir.path().join("outside.rs");
    std::fs::rename(&pods, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &pods).unwrap();
    let report = run(&dir.path().join("checked"), None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("pods.rs") && n.contains("out of the package")),
        "{:?}",
        report.notes
    );
    // `oplib::pods::delete_pod` is not known; the crate's other helpers still are.
    assert!(report
        .diagnostics
        .iter()
        .all(|d| !d.message.contains("delete and get")));
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("create and get")));
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
    assert_eq!(run(&[]).lines().count(), 9, "{}", run(&[]));
    assert_eq!(run(&["--no-deps-helpers"]), "");
}

/// `debug model` lists the helpers found in dependencies, with what each request is.
#[test]
fn debug_model_lists_the_helpers_of_dependencies() {
    let out = assert_cmd::Command::cargo_bin("kube-order-lint")
        .unwrap()
        .args(["debug", "model"])
        .arg(Path::new(FIXTURE).join("checked"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let helpers = stdout
        .split_once("== helpers of dependencies\n")
        .map(|(_, h)| h)
        .unwrap_or_default();
    for line in [
        "oplib::OpClient::copy_settings (oplib 0.3.1): replace write, method of OpClient, kind ConfigMap, name argument 1",
        "oplib::OpClient::copy_settings (oplib 0.3.1): get read, method of OpClient, kind ConfigMap, name argument 0",
        "oplib::bump_settings (oplib 0.3.1): patch write, kind ConfigMap, name \"operator-settings\", Api argument 0",
        "oplib::patch_object_status (oplib 0.3.1): patch_status write, kind of argument 1, object argument 1",
    ] {
        assert!(helpers.lines().any(|l| l == line), "{line}\n{stdout}");
    }
}

/// When cargo cannot resolve the lock file offline, a registry package of the lock file that
/// depends on kube is read where cargo unpacked it (`$CARGO_HOME/registry/src/<index>/`); one
/// that is not there is named in the note and counted.
#[test]
fn registry_packages_are_read_where_cargo_unpacked_them() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    let registry = "registry+https://github.com/rust-lang/crates.io-index";
    let unpacked = dir
        .path()
        .join("cargo-home/registry/src/index.example-0123/oplib-0.3.1");
    std::fs::create_dir_all(unpacked.parent().unwrap()).unwrap();
    std::fs::rename(dir.path().join("oplib"), &unpacked).unwrap();
    let checked = dir.path().join("checked");
    let manifest = checked.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace(
            "oplib = { path = \"../oplib\" }",
            "oplib = \"0.3.1\"\nopextra = \"1.0.0\"",
        ),
    )
    .unwrap();
    let lock = std::fs::read_to_string(Path::new(FIXTURE).join("checked/Cargo.lock")).unwrap();
    let lock = lock
        .replace(
            "name = \"oplib\"\nversion = \"0.3.1\"\n",
            &format!("name = \"oplib\"\nversion = \"0.3.1\"\nsource = \"{registry}\"\n"),
        )
        .replace(" \"oplib\",\n]", " \"opextra\",\n \"oplib\",\n]")
        + &format!("\n[[package]]\nname = \"opextra\"\nversion = \"1.0.0\"\nsource = \"{registry}\"\ndependencies = [\n \"kube\",\n]\n");
    std::fs::write(checked.join("Cargo.lock"), &lock).unwrap();
    let out = assert_cmd::Command::cargo_bin("kube-order-lint")
        .unwrap()
        .env("CARGO_HOME", dir.path().join("cargo-home"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .args(["--statistics", "--format", "json", "--exit-zero"])
        .arg(&checked)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["statistics"]["findings"]["concurrent-same-object"]["count"], 9,
        "{doc}"
    );
    assert_eq!(doc["statistics"]["dependencies_unread"], 1, "{doc}");
    let notes: Vec<&str> = doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes.len() == 1 && notes[0].contains("and opextra 1.0.0 not unpacked in cargo's registry"),
        "{notes:?}"
    );
    assert_eq!(
        std::fs::read_to_string(checked.join("Cargo.lock")).unwrap(),
        lock
    );
}
