//! Bad inputs, through the real binary: each gives a clear message and the right exit code, and
//! every other file is still checked. Each test puts one bad input next to `finding.rs`, whose
//! finding must still be reported.

use std::path::{Path, PathBuf};

mod common;

use assert_cmd::Command;
use serde_json::Value;

/// A file with exactly one finding.
const FINDING: &str = "use kube::api::{Api, PostParams};\n\
async fn f(pods: Api<Pod>, pp: PostParams, pod: Pod) {\n    \
    tokio::join!(pods.create(&pp, &pod), pods.get(&pod.name_any()));\n}\n";

fn tool() -> Command {
    let mut cmd = Command::cargo_bin("kube-order-lint").expect("binary");
    cmd.env_remove("NO_COLOR");
    cmd
}

struct Run {
    doc: Value,
    code: i32,
    stderr: String,
}

impl Run {
    fn errors(&self) -> Vec<String> {
        common::json_errors(&self.doc)
    }

    fn notes(&self) -> Vec<String> {
        self.doc["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .map(|n| n.as_str().unwrap_or_default().to_string())
            .collect()
    }

    fn finding_files(&self) -> Vec<String> {
        self.doc["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .map(|d| d["file"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

fn run_json(cmd: &mut Command) -> Run {
    let out = cmd.args(["--format", "json"]).output().expect("run");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}); exit {:?}; stderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Run {
        doc,
        code: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A directory holding `finding.rs`.
fn dir_with_finding() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("finding.rs"), FINDING).expect("write");
    dir
}

/// `tool()` in `dir`, so that paths are shown relative to it.
fn tool_in(dir: &Path) -> Command {
    let mut cmd = tool();
    cmd.current_dir(dir);
    cmd
}

#[test]
fn a_file_that_is_not_utf8_is_an_error_with_its_position() {
    let dir = dir_with_finding();
    std::fs::write(dir.path().join("latin1.rs"), b"fn main() {}\n// caf\xe9\n").expect("write");
    let run = run_json(tool_in(dir.path()).arg("."));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.errors(),
        ["latin1.rs: file is not valid UTF-8 (invalid byte at line 2, column 7, byte offset 19)"]
    );
    assert_eq!(run.finding_files(), ["finding.rs"]);
    assert_eq!(run.doc["files_checked"], 1);
    assert_eq!(run.doc["files_failed"], 1);
    // On stderr too, and in the human summary.
    assert!(
        run.stderr
            .contains("error: latin1.rs: file is not valid UTF-8"),
        "{}",
        run.stderr
    );
    tool_in(dir.path())
        .args(["--color", "never", "."])
        .assert()
        .code(2)
        .stdout(predicates::str::contains(
            "possible), 1 error in 1 file checked, 1 failed\n",
        ));
}

#[test]
fn a_byte_order_mark_is_skipped_and_positions_ignore_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let line = "async fn f(pods: kube::api::Api<Pod>, pp: PostParams, pod: Pod) { tokio::join!(pods.create(&pp, &pod), pods.get(&pod.name_any())); }\n";
    std::fs::write(dir.path().join("plain.rs"), line).expect("write");
    std::fs::write(dir.path().join("bom.rs"), format!("\u{feff}{line}")).expect("write");
    let run = run_json(tool_in(dir.path()).arg("."));
    assert_eq!(run.code, 1, "{}", run.doc);
    let d = run.doc["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(run.finding_files(), ["bom.rs", "plain.rs"]);
    for key in ["line", "column", "end_line", "end_column"] {
        assert_eq!(d[0][key], d[1][key], "{key}");
    }
    assert_eq!(d[0]["column"], 67);
}

/// The binary run as an unprivileged user, for the permission tests: as root, permissions do
/// not stop reads, so the tool is run as `nobody` through `setpriv`. None (test skipped, with
/// the reason printed) when that is impossible here.
fn unprivileged(dir: &Path) -> Option<std::process::Command> {
    let bin = assert_cmd::cargo::cargo_bin("kube-order-lint");
    let uid = std::process::Command::new("id").arg("-u").output().ok()?;
    let root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    let mut cmd = if root {
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin);
        cmd
    } else {
        std::process::Command::new(&bin)
    };
    // The temporary directory is private to its owner; open it to the unprivileged user.
    set_mode(dir, 0o755);
    cmd.current_dir(dir);
    let probe = if root {
        std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin)
            .arg("--version")
            .output()
    } else {
        std::process::Command::new(&bin).arg("--version").output()
    };
    match probe {
        Ok(out) if out.status.success() => Some(cmd),
        other => {
            eprintln!(
                "skipped: running as root, and the binary cannot be run as user nobody through \
                 setpriv ({other:?}), so permissions cannot deny a read"
            );
            None
        }
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn run_json_std(cmd: &mut std::process::Command) -> Run {
    let out = cmd.args(["--format", "json", "."]).output().expect("run");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}); exit {:?}; stderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Run {
        doc,
        code: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn an_unreadable_file_is_an_error() {
    let dir = dir_with_finding();
    let secret = dir.path().join("secret.rs");
    std::fs::write(&secret, "fn main() {}\n").expect("write");
    set_mode(&secret, 0o000);
    let Some(mut cmd) = unprivileged(dir.path()) else {
        return;
    };
    let run = run_json_std(&mut cmd);
    assert_eq!(run.code, 2, "{}", run.doc);
    assert_eq!(run.errors(), ["secret.rs: permission denied"]);
    assert_eq!(run.finding_files(), ["finding.rs"]);
}

#[test]
fn a_directory_that_cannot_be_listed_is_an_error() {
    let dir = dir_with_finding();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).expect("mkdir");
    std::fs::write(locked.join("inside.rs"), "fn main() {}\n").expect("write");
    set_mode(&locked, 0o000);
    let Some(mut cmd) = unprivileged(dir.path()) else {
        set_mode(&locked, 0o755);
        return;
    };
    let run = run_json_std(&mut cmd);
    set_mode(&locked, 0o755);
    assert_eq!(run.code, 2, "{}", run.doc);
    assert_eq!(run.errors(), ["locked: cannot read: permission denied"]);
    assert_eq!(run.finding_files(), ["finding.rs"]);
}

#[test]
fn symbolic_link_loops_are_errors_or_not_followed_never_a_hang() {
    use std::os::unix::fs::symlink;
    let dir = dir_with_finding();
    symlink("loop.rs", dir.path().join("loop.rs")).expect("symlink");
    symlink(".", dir.path().join("around")).expect("symlink");
    let run = run_json(tool_in(dir.path()).arg("."));
    assert_eq!(run.code, 2, "{}", run.doc);
    assert_eq!(
        run.errors(),
        ["loop.rs: symbolic link cannot be followed: too many levels of symbolic links"]
    );
    assert_eq!(
        run.notes(),
        ["around: symbolic link to a directory, not followed"]
    );
    assert_eq!(run.finding_files(), ["finding.rs"]);
    // Named on the command line.
    let run = run_json(tool_in(dir.path()).args(["loop.rs", "finding.rs"]));
    assert_eq!(run.code, 2);
    assert_eq!(run.errors().len(), 1);
    assert_eq!(run.finding_files(), ["finding.rs"]);
}

#[test]
fn a_dangling_symbolic_link_is_an_error() {
    use std::os::unix::fs::symlink;
    let dir = dir_with_finding();
    symlink("gone/away.rs", dir.path().join("dangling.rs")).expect("symlink");
    let expected = ["dangling.rs: dangling symbolic link: its target gone/away.rs does not exist"];
    let run = run_json(tool_in(dir.path()).arg("."));
    assert_eq!(run.code, 2, "{}", run.doc);
    assert_eq!(run.errors(), expected);
    assert_eq!(run.finding_files(), ["finding.rs"]);
    let run = run_json(tool_in(dir.path()).args(["dangling.rs", "finding.rs"]));
    assert_eq!(run.code, 2);
    assert_eq!(run.errors(), expected);
    assert_eq!(run.finding_files(), ["finding.rs"]);
}

#[test]
fn a_path_that_does_not_exist_is_an_error_and_other_paths_are_checked() {
    let dir = dir_with_finding();
    let run = run_json(tool_in(dir.path()).args(["no/such/dir", "finding.rs"]));
    assert_eq!(run.code, 2);
    assert_eq!(run.errors(), ["no/such/dir: no such file or directory"]);
    assert_eq!(run.finding_files(), ["finding.rs"]);
    assert_eq!(run.doc["files_failed"], 1);
}

#[test]
fn an_empty_directory_checks_nothing_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("empty")).expect("mkdir");
    let run = run_json(tool_in(dir.path()).arg("empty"));
    assert_eq!(run.code, 0);
    assert_eq!(run.notes(), ["no .rs files under empty"]);
    assert_eq!(run.doc["files_checked"], 0);
    tool_in(dir.path())
        .args(["--color", "never", "empty"])
        .assert()
        .code(0)
        .stdout(
            "note: no .rs files under empty\nkube-order-lint: no findings in 0 files checked\n",
        );
}

#[test]
fn a_huge_file_is_checked_whole() {
    let dir = dir_with_finding();
    // 20 MB: a few thousand small functions, a long comment, and a finding at the very end.
    let mut text = String::with_capacity(21_000_000);
    for i in 0..3000 {
        text.push_str(&format!(
            "fn filler_{i}(x: u32) -> u32 {{ let y = x.wrapping_mul({i}); y ^ (y >> 3) }}\n"
        ));
    }
    let padding = format!("// {}\n", "x".repeat(96));
    while text.len() < 20_000_000 {
        text.push_str(&padding);
    }
    text.push_str(&FINDING.replace("async fn f(", "async fn g("));
    let lines = text.lines().count();
    std::fs::write(dir.path().join("huge.rs"), &text).expect("write");
    let run = run_json(tool_in(dir.path()).arg("."));
    assert_eq!(run.code, 1, "{}", run.doc);
    assert_eq!(run.doc["files_checked"], 2);
    assert_eq!(run.finding_files(), ["finding.rs", "huge.rs"]);
    assert_eq!(run.doc["diagnostics"][1]["line"], lines - 1);
}

/// A crate directory whose `Cargo.toml` cargo rejects: a note says so, and every `.rs` file
/// under it is checked instead.
fn assert_checked_without_cargo(run: &Run, why: &str) {
    assert_eq!(run.code, 1, "{}", run.doc);
    let notes = run.notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("cargo metadata failed for ")
            && notes[0].contains(why)
            && notes[0].ends_with("; checking every .rs file under it instead"),
        "{notes:?}"
    );
    assert_eq!(run.finding_files().len(), 1, "{}", run.doc);
    assert!(run.finding_files()[0].ends_with("src/lib.rs"));
}

fn crate_dir(manifest: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("app/src")).expect("mkdir");
    std::fs::write(dir.path().join("app/Cargo.toml"), manifest).expect("write");
    std::fs::write(dir.path().join("app/src/lib.rs"), FINDING).expect("write");
    dir
}

#[test]
fn an_invalid_cargo_toml_is_a_note_and_the_files_are_walked() {
    let dir = crate_dir("[package\nname = \"app\"\n");
    let run = run_json(tool_in(dir.path()).arg("app"));
    assert_checked_without_cargo(&run, "(error: unclosed table, expected `]`)");
}

#[test]
fn a_missing_workspace_member_is_a_note_and_the_files_are_walked() {
    let dir = crate_dir("[workspace]\nmembers = [\"member\", \"missing\"]\n");
    let member = dir.path().join("app/member");
    std::fs::create_dir_all(member.join("src")).expect("mkdir");
    std::fs::write(
        member.join("Cargo.toml"),
        "[package]\nname = \"member\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .expect("write");
    std::fs::remove_file(dir.path().join("app/src/lib.rs")).expect("rm");
    std::fs::write(member.join("src/lib.rs"), FINDING).expect("write");
    let run = run_json(tool_in(dir.path()).arg("app"));
    assert_checked_without_cargo(&run, "missing");
}

#[test]
fn without_cargo_the_files_are_walked_with_a_note() {
    let dir = crate_dir("[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
    // cargo_metadata runs `$CARGO`, or `cargo` from PATH: neither exists here.
    let run = run_json(
        tool_in(dir.path())
            .env("CARGO", "/nonexistent/cargo")
            .arg("app"),
    );
    assert_checked_without_cargo(&run, "could not run `cargo`: not found");
    let run = run_json(
        tool_in(dir.path())
            .env_remove("CARGO")
            .env("PATH", dir.path())
            .arg("app"),
    );
    assert_checked_without_cargo(&run, "could not run `cargo`: not found");
}

#[test]
fn a_missing_module_file_is_an_error_in_its_parent() {
    let dir = crate_dir("[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
    let lib: PathBuf = dir.path().join("app/src/lib.rs");
    std::fs::write(&lib, format!("mod gone;\n{FINDING}")).expect("write");
    let run = run_json(tool_in(dir.path()).arg("app"));
    assert_eq!(run.code, 2, "{}", run.doc);
    assert_eq!(
        run.errors(),
        ["app/src/lib.rs:1:1: file not found for module: app/src/gone.rs does not exist"]
    );
    assert_eq!(run.finding_files(), ["app/src/lib.rs"]);
}

/// A configuration file that cannot be used stops the run before any file is checked (the
/// configuration decides what is reported, so checking without it could report what the user
/// excluded): one line naming the file and the line, and exit code 2.
#[test]
fn a_malformed_configuration_file_stops_the_run_with_its_position() {
    let dir = dir_with_finding();
    std::fs::write(
        dir.path().join("kube-order-lint.toml"),
        "min_confidence = \"possible\"\n[lints\n",
    )
    .expect("write");
    let out = tool_in(dir.path())
        .args(["--color", "never", "."])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "error: kube-order-lint.toml:2: unclosed table, expected `]`\n"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("concurrent-same-object"));
}

/// Files skipped on purpose are counted, in the summary and in JSON: a module file behind
/// `#[cfg]` that does not exist (with a note), and a file excluded by the configuration.
#[test]
fn skipped_files_are_counted() {
    let dir = crate_dir("[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
    let src = dir.path().join("app/src");
    std::fs::write(
        src.join("lib.rs"),
        format!("#[cfg(windows)]\nmod windows;\nmod generated;\n{FINDING}"),
    )
    .expect("write");
    std::fs::write(src.join("generated.rs"), "fn g() {}\n").expect("write");
    std::fs::write(
        dir.path().join("app/kube-order-lint.toml"),
        "exclude = [\"src/generated.rs\"]\n",
    )
    .expect("write");
    let run = run_json(tool_in(dir.path()).arg("app"));
    assert_eq!(run.code, 1, "{}", run.doc);
    assert_eq!(run.doc["files_checked"], 1, "{}", run.doc);
    assert_eq!(run.doc["files_skipped"], 2, "{}", run.doc);
    assert_eq!(run.doc["files_failed"], 0, "{}", run.doc);
    assert_eq!(
        run.notes(),
        ["app/src/lib.rs: module file app/src/windows.rs not found; skipped, as its `mod` item is behind #[cfg]"]
    );
    tool_in(dir.path())
        .args(["--color", "never", "app"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "possible) in 1 file checked, 2 skipped\n",
        ));
}
