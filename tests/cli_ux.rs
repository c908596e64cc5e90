//! CLI tests of the conventions users expect from linters (ruff, clippy, cargo): quiet output,
//! standard input, cargo's target flags, `explain`, the help, `short`'s stderr.

mod common;

use common::cli::{manifest_dir, run, tool};

use assert_cmd::Command;

const SEED: &str = "tests/ui/concurrent-same-object/seed.rs";

// ---------------------------------------------------------------- --quiet

#[test]
fn quiet_prints_only_the_findings() {
    for flag in ["-q", "--quiet"] {
        let r = run(tool().args([flag, "--color", "never", SEED]));
        assert_eq!(r.code, 1);
        assert!(
            r.stdout.contains("warning[concurrent-same-object]"),
            "{}",
            r.stdout
        );
        assert!(!r.stdout.contains("kube-order-lint:"), "{}", r.stdout);
        assert_eq!(r.stderr, "");
    }
    // Clean: nothing at all, exit 0.
    let r = run(tool().args(["-q", "tests/ui/concurrent-same-object/negatives.rs"]));
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    // short: the finding lines, nothing on stderr.
    let r = run(tool().args(["-q", "--format", "short", SEED]));
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert_eq!(r.stderr, "");
}

#[test]
fn quiet_fix_prints_neither_the_summary_nor_the_counts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.rs");
    std::fs::copy(manifest_dir().join(SEED), &file).unwrap();
    let r = run(tool().args(["-q", "--fix", "--color", "never"]).arg(&file));
    assert!(!r.stdout.contains("kube-order-lint:"), "{}", r.stdout);
    assert_eq!(r.stderr, "");
}

#[test]
fn help_documents_quiet_and_statistics() {
    let r = run(tool().arg("--help"));
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("-q, --quiet"), "{}", r.stdout);
    assert!(r.stdout.contains("--statistics"), "{}", r.stdout);
}

// ---------------------------------------------------------------- short

#[test]
fn short_keeps_notes_and_the_summary_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.rs");
    std::fs::copy(manifest_dir().join(SEED), &file).unwrap();
    let baseline = dir.path().join("baseline.json");
    tool()
        .current_dir(dir.path())
        .args(["--write-baseline", "baseline.json", "a.rs"])
        .assert()
        .code(0);
    // The findings are gone: the baseline is stale.
    std::fs::write(&file, "fn main() {}\n").unwrap();
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--format", "short", "--baseline"])
        .arg(&baseline)
        .arg("a.rs"));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert!(
        r.stderr.contains("note: 2 findings recorded in")
            && r.stderr.contains("are no longer reported"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .ends_with("kube-order-lint: no findings in 1 file checked\n"),
        "{}",
        r.stderr
    );
    // With findings: one line each on stdout, the summary on stderr.
    let r = run(tool().args(["--format", "short", SEED]));
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert_eq!(
        r.stderr,
        "kube-order-lint: 2 findings (2 definite, 0 possible) in 1 file checked\n"
    );
}

// ---------------------------------------------------------------- explain, list, help

#[test]
fn explain_takes_underscores_and_suggests_near_names() {
    // The page without the tests' `//~` markers (tests/first_hour.rs checks they are gone).
    let page = kube_order_lint::lints::without_test_markers(
        &std::fs::read_to_string(manifest_dir().join("lints/concurrent-same-object.md")).unwrap(),
    );
    for name in ["concurrent_same_object", "Concurrent-Same-Object"] {
        let r = run(tool().args(["explain", name]));
        assert_eq!((r.code, r.stdout.as_str()), (0, page.as_str()), "{name}");
    }
    let r = run(tool().args(["explain", "concurent-same-objet"]));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(
            "error: unknown lint `concurent-same-objet`; did you mean `concurrent-same-object`?"
        ),
        "{}",
        r.stderr
    );
    let r = run(tool().args(["explain", "zzz"]));
    assert_eq!(r.code, 2);
    assert!(!r.stderr.contains("did you mean"), "{}", r.stderr);
    assert!(r.stderr.contains("unused-suppression"), "{}", r.stderr);
}

#[test]
fn unused_suppression_is_listed_and_explained() {
    let r = run(tool().arg("list"));
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("unused-suppression ")),
        "{}",
        r.stdout
    );
    let page = kube_order_lint::lints::without_test_markers(
        &std::fs::read_to_string(manifest_dir().join("lints/unused-suppression.md")).unwrap(),
    );
    let r = run(tool().args(["explain", "unused-suppression"]));
    assert_eq!((r.code, r.stdout.as_str()), (0, page.as_str()));
}

#[test]
fn debug_model_is_a_documented_command() {
    let r = run(tool().arg("--help"));
    assert!(
        r.stdout.contains("debug    Print what the analysis sees"),
        "{}",
        r.stdout
    );
    let r = run(tool().args(["debug", "--help"]));
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("model  Every request"), "{}", r.stdout);
    let r = run(tool().args(["debug", "model", SEED]));
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("request `pods.create`"), "{}", r.stdout);
}

#[test]
fn cargo_subcommand_help_shows_the_cargo_usage() {
    let mut cmd = Command::cargo_bin("cargo-kube-order-lint").unwrap();
    let r = run(cmd.args(["kube-order-lint", "--help"]));
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("Usage: cargo kube-order-lint [OPTIONS] [PATHS]...\n"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("cargo-kube-order-lint"), "{}", r.stdout);
    // Usage errors too.
    let mut cmd = Command::cargo_bin("cargo-kube-order-lint").unwrap();
    let r = run(cmd.args(["kube-order-lint", "--no-such-flag"]));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("Usage: cargo kube-order-lint"),
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------- target flags, paths

fn bin_only_crate() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"bin-only\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    dir
}

#[test]
fn target_flags_that_select_nothing_exit_with_2_and_say_why() {
    let dir = bin_only_crate();
    let r = run(tool().arg("--lib").current_dir(dir.path()));
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr,
        "error: Cargo.toml: no library targets found in package `bin-only`\n"
    );
    let r = run(tool()
        .args(["--tests", "--examples"])
        .current_dir(dir.path()));
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: Cargo.toml: no targets matched --examples --tests in package `bin-only`\n"
    );
    // A flag that selects something is a normal run.
    let r = run(tool().arg("--bins").current_dir(dir.path()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("in 1 file checked"), "{}", r.stdout);
}

#[test]
fn the_current_directory_is_shown_as_a_dot() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let r = run(tool().current_dir(dir.path()));
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("note: no .rs files under .\n"),
        "{}",
        r.stdout
    );
}

// ---------------------------------------------------------------- --fix with advice only

#[test]
fn fix_says_when_no_finding_can_be_fixed_automatically_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.rs");
    let code = "async fn blocks(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let check = async { api.get_opt(\"blog\").await };
    let remove = async { api.delete(\"blog\", &dp).await };
    remove.await?;
    let _ = tokio::join!(check, api.get_opt(\"other\"));
    Ok(())
}
";
    std::fs::write(&file, code).unwrap();
    let r = run(tool().current_dir(dir.path()).args([
        "--fix",
        "--unsafe-fixes",
        "--color",
        "never",
        "a.rs",
    ]));
    assert_eq!(r.code, 1);
    let tail: Vec<&str> = r.stdout.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            "  a.rs:4:5: warning[await-order-inverted]: `check` is polled by a join, which would need to be rewritten too",
            "kube-order-lint: the finding that remains cannot be fixed automatically: its fix is advice to follow by hand (display-only), as no mechanical rewrite is right there:",
            "kube-order-lint: applied 0 fixes in 0 files; 1 finding remains",
        ],
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), code);
    // A finding with a fix that --fix applies: no such line.
    let seed = dir.path().join("seed.rs");
    std::fs::copy(manifest_dir().join(SEED), &seed).unwrap();
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--fix", "--color", "never", "seed.rs"]));
    assert!(!r.stdout.contains("fixed automatically"), "{}", r.stdout);
}

// ---------------------------------------------------------------- standard input

#[test]
fn dash_reads_the_source_from_standard_input() {
    let code = std::fs::read_to_string(manifest_dir().join(SEED)).unwrap();
    let r = run(tool()
        .args(["--format", "short", "-"])
        .write_stdin(code.clone()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert!(
        r.stdout
            .starts_with("-:15:30: warning[concurrent-same-object]"),
        "{}",
        r.stdout
    );
    // Clean input, parse errors with their position.
    let r = run(tool().arg("-").write_stdin("fn main() {}\n"));
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("no findings in 1 file checked"),
        "{}",
        r.stdout
    );
    let r = run(tool()
        .args(["--format", "short", "-"])
        .write_stdin("fn main(\n"));
    assert_eq!(r.code, 2);
    assert!(r.stdout.starts_with("-:1:"), "{}", r.stdout);
}

#[test]
fn stdin_filename_names_the_source_and_finds_its_configuration() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("op/src")).unwrap();
    std::fs::create_dir(dir.path().join("op/.git")).unwrap();
    std::fs::write(
        dir.path().join("op/kube-order-lint.toml"),
        "[lints]\nconcurrent-same-object = \"deny\"\n",
    )
    .unwrap();
    let code = std::fs::read_to_string(manifest_dir().join(SEED)).unwrap();
    // The file does not exist: the text comes from standard input, the settings from op/.
    for args in [
        &[
            "--format",
            "short",
            "--stdin-filename",
            "op/src/new.rs",
            "-",
        ][..],
        &["--format", "short", "--stdin-filename", "op/src/new.rs"],
    ] {
        let r = run(tool()
            .current_dir(dir.path())
            .args(args)
            .write_stdin(code.clone()));
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(
            r.stdout
                .starts_with("op/src/new.rs:15:30: error[concurrent-same-object]"),
            "{args:?}: {}",
            r.stdout
        );
    }
    // Elsewhere, the default levels.
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--format", "short", "--stdin-filename", "other.rs", "-"])
        .write_stdin(code));
    assert!(
        r.stdout
            .starts_with("other.rs:15:30: warning[concurrent-same-object]"),
        "{}",
        r.stdout
    );
}

#[test]
fn standard_input_cannot_be_fixed_or_mixed_with_paths() {
    for (args, message) in [
        (&["--fix", "-"][..], "error: --fix cannot be used with standard input (`-`)\n"),
        (
            &["-", SEED],
            "error: `-` (standard input) cannot be combined with other paths\n",
        ),
        (
            &["--stdin-filename", "a.rs", SEED],
            "error: --stdin-filename names the source read from `-` (standard input); it cannot be combined with other paths\n",
        ),
    ] {
        let r = run(tool().args(args).write_stdin("fn main() {}\n"));
        assert_eq!((r.code, r.stderr.as_str()), (2, message), "{args:?}");
    }
}
