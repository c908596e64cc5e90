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
    cmd.env_remove("NO_COLOR").current_dir(dir).timeout(TIMEOUT);
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

/// A name that would make a fake annotation if printed as is where the runner reads commands.
#[cfg(unix)]
const INJECTION: &str = "a\n::error file=x::injected";

/// No line of `text` is a workflow command but those the tool writes, with escaped values.
#[cfg(unix)]
fn assert_no_injected_command(text: &str, what: &str) {
    for line in text.lines() {
        assert!(
            !line.trim_start().starts_with("::error file=x::"),
            "{what}: an injected command:\n{text}"
        );
    }
}

#[cfg(unix)]
#[test]
fn github_format_escapes_every_line_on_stdout_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "finding.rs", FINDING);
    // A file that does not parse, so that its name is printed as an error.
    write(
        dir.path(),
        &format!("{INJECTION}.rs"),
        "fn g(pods: Api<Pod> {\n",
    );
    let runs = [
        vec!["--format", "github", "."],
        vec!["--format", "github", "-o", "out.txt", "."],
        vec!["--format", "github", "--fix", "-o", "out.txt", "."],
        vec!["--format", "github", "--write-baseline", "b.json", "."],
        vec!["--format", "github", "--baseline", INJECTION, "."],
        vec!["--format", "github", "--min-confidence", INJECTION, "."],
        vec!["--format=github", "--config", INJECTION, "."],
    ];
    for args in runs {
        let r = run(tool_in(dir.path()).args(&args));
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert_no_injected_command(&r.stdout, &format!("{args:?}: stdout"));
        assert_no_injected_command(&r.stderr, &format!("{args:?}: stderr"));
        // Errors on stderr are annotations themselves, never bare lines.
        for line in r.stderr.lines() {
            assert!(!line.starts_with("error"), "{args:?}: {}", r.stderr);
        }
        // An error shown on stdout is not repeated on stderr.
        if !args.contains(&"-o") && args.len() == 3 {
            assert!(
                r.stdout
                    .contains("::error file=a%0A%3A%3Aerror file=x%3A%3Ainjected.rs,line=1"),
                "{}",
                r.stdout
            );
            assert!(r.stderr.is_empty(), "{args:?}: {}", r.stderr);
        } else {
            assert!(r.stderr.contains("::error "), "{args:?}: {}", r.stderr);
        }
    }
}

#[test]
fn terminal_escapes_and_bidi_controls_from_the_file_are_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    // An escape that clears the screen and a right-to-left override, in a name and a comment.
    let hostile = FINDING
        .replace("\"blog\"", "\"blog\u{1b}[2J\u{202e}\"")
        .replace("\n}", " // \u{2066}\u{1b}]0;title\u{7}\n}");
    write(dir.path(), "a.rs", &hostile);
    for color in ["never", "always"] {
        let r = run(tool_in(dir.path()).args(["--color", color, "a.rs"]));
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        for raw in ["\u{1b}[2J", "\u{1b}]0;", "\u{202e}", "\u{2066}", "\u{7}"] {
            assert!(!r.stdout.contains(raw), "{color}: {raw:?} in\n{}", r.stdout);
        }
        assert!(
            r.stdout.contains("\"blog\\u{1b}[2J\\u{202e}\""),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout.contains("\\u{2066}\\u{1b}]0;title\\u{7}"),
            "{}",
            r.stdout
        );
    }
    let r = run(tool_in(dir.path()).args(["--format", "short", "a.rs"]));
    assert!(
        !r.stdout.contains('\u{1b}') && r.stdout.contains("\\u{1b}"),
        "{}",
        r.stdout
    );
}
