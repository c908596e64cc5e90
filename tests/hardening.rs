//! Hostile inputs, through the real binary (issue 16): a linter runs in CI on pull requests from
//! strangers, so file names, file contents and file types are chosen by an attacker. Each test
//! names the defect it guards against.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;

/// A file with exactly one finding (a definite `concurrent-same-object`, with a safe fix).
const FINDING: &str = "use kube::api::{Api, PostParams};\n\
async fn f(pods: Api<Pod>, pp: PostParams, pod: Pod) {\n    \
    tokio::join!(pods.create(&pp, &pod), pods.get(\"blog\"));\n}\n";

/// Generous: a run over a few small files takes well under a second.
const TIMEOUT: Duration = Duration::from_secs(60);

fn tool_in(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("kube-order-lint").expect("binary");
    cmd.env_remove("NO_COLOR")
        .current_dir(dir)
        .timeout(TIMEOUT)
        .args(["--color", "never"]);
    cmd
}

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("run");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}); exit {:?}; stderr:\n{}",
            run.code, run.stderr
        )
    })
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[cfg(unix)]
#[test]
fn a_backslash_in_a_file_name_stays_a_backslash() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a\\b.rs", FINDING);
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let doc = json(&r);
    assert_eq!(doc["diagnostics"][0]["file"], "a\\b.rs", "{doc}");
    assert_eq!(doc["diagnostics"][0]["fix"]["edits"][0]["file"], "a\\b.rs");
    let r = run(tool_in(dir.path()).args(["--format", "github", "."]));
    assert!(r.stdout.contains(" file=a\\b.rs,line=3,"), "{}", r.stdout);
}

#[test]
fn the_current_directory_is_named_as_a_dot_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Cargo.toml", "this is [[ not toml");
    write(dir.path(), "finding.rs", FINDING);
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    let notes = json(&r)["notes"].to_string();
    assert!(notes.contains("cargo metadata failed for . ("), "{notes}");
}
