//! CLI tests of what a new user meets in the first hour: lint names written with underscores,
//! the summary's tiers, `--diff`'s count of unsafe fixes, `--output-format`, the GitHub Action
//! run from a sub-directory, `explain`'s examples, Cargo's `[lints]` table.

use std::path::Path;

mod common;

use common::cli::{manifest_dir, run, tool, write};

use serde_json::Value;

const SEED: &str = "tests/ui/concurrent-same-object/seed.rs";

/// A definite finding (`delete` and `get` of "blog" at once) and an `unknown` one (two names of
/// unrelated origin), each with an unsafe fix (`try_join!`).
const TIERS: &str = r#"use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

async fn run(pods: Api<Pod>, dp: DeleteParams, a: String, b: String) -> kube::Result<()> {
    tokio::try_join!(pods.delete("blog", &dp), pods.get("blog"))?;
    tokio::try_join!(pods.delete(&a, &dp), pods.get(&b))?;
    Ok(())
}
"#;

// ---------------------------------------------------------------- 1. lint names

#[test]
fn lint_names_with_underscores_are_accepted_everywhere() {
    let seed = manifest_dir().join(SEED);
    // Flags: the canonical name is printed.
    let r = run(tool().args(["-A", "concurrent_same_object"]).arg(&seed));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = run(tool()
        .args(["--color", "never", "-D", "concurrent_same_object"])
        .arg(&seed));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("error[concurrent-same-object]"),
        "{}",
        r.stdout
    );
    // A misspelt name is still refused, with either separator.
    let r = run(tool().args(["-A", "concurrent_same_objet"]).arg(&seed));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown lint `concurrent_same_objet`"),
        "{}",
        r.stderr
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    // Comments: the finding is suppressed, and an unused one is named canonically.
    let code = std::fs::read_to_string(&seed).unwrap();
    let suppressed = format!("// kube-order-lint: allow(concurrent_same_object) -- test\n{code}");
    let file = write(dir.path(), "suppressed.rs", &suppressed);
    let r = run(tool().arg(&file));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let unused = write(
        dir.path(),
        "unused.rs",
        "fn f() {\n    // kube-order-lint: allow(unawaited_request) -- none here\n    g();\n}\n",
    );
    let r = run(tool()
        .args(["--format", "short", "--report-unused-suppressions"])
        .arg(&unused));
    assert!(
        r.stdout.contains("warning[unused-suppression]")
            && r.stdout.contains("`unawaited-request`"),
        "{}",
        r.stdout
    );

    // Configuration: kube-order-lint.toml's `[lints]`.
    let crate_dir = dir.path().join("configured");
    write(
        &crate_dir,
        "kube-order-lint.toml",
        "[lints]\nconcurrent_same_object = \"deny\"\n",
    );
    let file = write(&crate_dir, "lib.rs", &code);
    let r = run(tool().args(["--format", "json"]).arg(&file));
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["diagnostics"][0]["lint"], "concurrent-same-object");
    assert_eq!(doc["diagnostics"][0]["severity"], "error");

    // Baseline: an entry written by hand with underscores hides its finding.
    let plain = write(dir.path(), "plain/lib.rs", &code);
    let baseline = dir.path().join("plain/baseline.json");
    let r = run(tool().arg("--write-baseline").arg(&baseline).arg(&plain));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&baseline).unwrap();
    assert!(text.contains("\"concurrent-same-object\""), "{text}");
    std::fs::write(
        &baseline,
        text.replace("\"concurrent-same-object\"", "\"concurrent_same_object\""),
    )
    .unwrap();
    let r = run(tool().arg("--baseline").arg(&baseline).arg(&plain));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

// ---------------------------------------------------------------- 2. the summary

#[test]
fn the_summary_counts_every_confidence_tier() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "lib.rs", TIERS);
    let expected =
        "kube-order-lint: 2 findings (1 definite, 0 possible, 1 unknown) in 1 file checked";
    let human = run(tool()
        .args(["--color", "never", "--min-confidence", "unknown"])
        .arg(&file));
    assert_eq!(human.code, 1);
    assert!(human.stdout.contains(expected), "{}", human.stdout);
    let short = run(tool()
        .args(["--format", "short", "--min-confidence", "unknown"])
        .arg(&file));
    assert!(short.stderr.contains(expected), "{}", short.stderr);
    let table = run(tool()
        .args(["--statistics", "--min-confidence", "unknown"])
        .arg(&file));
    assert!(
        table.stdout.contains("(1 definite, 0 possible, 1 unknown)"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains(expected), "{}", table.stdout);
    let json = run(tool()
        .args([
            "--statistics",
            "--format",
            "json",
            "--min-confidence",
            "unknown",
        ])
        .arg(&file));
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    let count = &doc["statistics"]["findings"]["concurrent-same-object"];
    assert_eq!(
        (
            &count["count"],
            &count["definite"],
            &count["possible"],
            &count["unknown"]
        ),
        (
            &Value::from(2),
            &Value::from(1),
            &Value::from(0),
            &Value::from(1)
        ),
        "{count}"
    );
    // Without `unknown` findings the tier is not mentioned.
    let default = run(tool().args(["--color", "never"]).arg(&file));
    assert!(
        default
            .stdout
            .contains("kube-order-lint: 1 finding (1 definite, 0 possible) in 1 file checked"),
        "{}",
        default.stdout
    );
}

// ---------------------------------------------------------------- 3. --diff

#[test]
fn diff_with_only_unsafe_fixes_says_how_many_unsafe_fixes_would_add() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "lib.rs", TIERS);
    let r = run(tool().current_dir(dir.path()).args(["--diff", "lib.rs"]));
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains(
            "kube-order-lint: would apply 0 fixes to 0 files (1 more with `--unsafe-fixes`"
        ),
        "{}",
        r.stderr
    );
    // With them, the diff and no hint.
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--diff", "--unsafe-fixes", "lib.rs"]));
    assert!(r.stdout.starts_with("--- a/lib.rs"), "{}", r.stdout);
    assert!(
        r.stderr.contains("would apply 1 fix to 1 file\n"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), TIERS);
}

// ---------------------------------------------------------------- 4. --output-format

#[test]
fn output_format_is_format_and_an_output_named_like_a_format_warns() {
    let seed = manifest_dir().join(SEED);
    let r = run(tool().args(["--output-format", "json"]).arg(&seed));
    let doc: Value = serde_json::from_str(&r.stdout).expect("JSON on stdout");
    assert_eq!(doc["tool"], "kube-order-lint");
    let r = run(tool().args(["--output-format=short"]).arg(&seed));
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);

    let dir = tempfile::tempdir().unwrap();
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--color", "never", "--output", "json"])
        .arg(&seed));
    assert!(
        r.stderr.contains(
            "warning: `--output json` writes the report into a file named `json`; `--format json` (or `--output-format json`) chooses the format"
        ),
        "{}",
        r.stderr
    );
    // The file is still written, as asked.
    let written = std::fs::read_to_string(dir.path().join("json")).unwrap();
    assert!(written.contains("concurrent-same-object"), "{written}");
    // A file name that is no format: no warning.
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--format", "json", "--output", "report.json"])
        .arg(&seed));
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
}

// ---------------------------------------------------------------- 5. the Action

/// Copy `from` (a directory) to `to`.
fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let dest = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// The `file=` of each annotation.
fn annotated_files(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split("file=").nth(1))
        .map(|rest| rest.split([',', ':']).next().unwrap_or("").to_string())
        .collect()
}

#[test]
#[cfg(unix)]
fn the_action_names_files_from_the_repository_root_under_a_working_directory() {
    // A repository with the workspace in `ops/`; the action runs in `ops/controller` (its
    // `working-directory`) and checks the whole workspace.
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    copy_tree(
        &manifest_dir().join("tests/fixtures/crates/operator-workspace"),
        &root.join("ops"),
    );
    let out = tempfile::tempdir().unwrap();
    let sarif = out.path().join("kol.sarif");
    for github_workspace in [Some(&root), None] {
        let output = out.path().join("output");
        let mut cmd = std::process::Command::new(manifest_dir().join("action/run.sh"));
        cmd.current_dir(root.join("ops/controller"))
            .env("KOL_BIN", env!("CARGO_BIN_EXE_kube-order-lint"))
            .env("KOL_ARGS", "--workspace")
            .env("KOL_SARIF", &sarif)
            .env("KOL_ANNOTATIONS", "true")
            .env("GITHUB_OUTPUT", &output)
            .env_remove("GITHUB_WORKSPACE");
        // Without GITHUB_WORKSPACE, the git top level (the `.git` above).
        if let Some(workspace) = github_workspace {
            cmd.env("GITHUB_WORKSPACE", workspace);
        }
        let done = cmd.output().expect("run action/run.sh");
        let stdout = String::from_utf8_lossy(&done.stdout);
        assert_eq!(done.status.code(), Some(0), "{stdout}");
        assert!(std::fs::read_to_string(&output)
            .unwrap()
            .contains("status=1"));

        let files = annotated_files(&stdout);
        assert!(!files.is_empty(), "{stdout}");
        assert!(
            files.iter().any(|f| f == "ops/controller/src/reconcile.rs"),
            "{files:?}"
        );
        assert!(files.iter().any(|f| f.starts_with("ops/api/")), "{files:?}");
        for file in &files {
            assert!(
                root.join(file).is_file(),
                "{file} is not a file of the repository"
            );
        }

        let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
        let run = &log["runs"][0];
        let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap();
        assert_eq!(base, format!("file://{}/", root.display()));
        let results = run["results"].as_array().unwrap();
        assert!(!results.is_empty());
        for r in results {
            let location = &r["locations"][0]["physicalLocation"]["artifactLocation"];
            assert_eq!(location["uriBaseId"], "%SRCROOT%", "{location}");
            let uri = location["uri"].as_str().unwrap();
            assert!(uri.starts_with("ops/"), "{uri}");
            assert!(root.join(uri).is_file(), "{uri}");
        }
    }
}

// ---------------------------------------------------------------- 7. explain

#[test]
fn explain_prints_examples_without_test_markers() {
    let list = run(tool().arg("list"));
    for line in list.stdout.lines() {
        let name = line.split_whitespace().next().unwrap();
        let page = run(tool().args(["explain", name]));
        assert_eq!(page.code, 0);
        assert!(!page.stdout.contains("//~"), "{name}:\n{}", page.stdout);
        // The file still has them: the lint page tests read them there.
        let file =
            std::fs::read_to_string(manifest_dir().join(format!("lints/{name}.md"))).unwrap();
        assert!(file.contains("//~"), "{name}");
    }
    let page = run(tool().args(["explain", "unawaited_request"]));
    assert!(
        page.stdout.starts_with("# unawaited-request"),
        "{}",
        page.stdout
    );
}

// ---------------------------------------------------------------- 9. Cargo's [lints]

#[test]
fn cargo_lints_table_is_not_read_and_says_where_levels_go() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"op\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lints.kube-order-lint]\nconcurrent-same-object = \"allow\"\n",
    );
    let code = std::fs::read_to_string(manifest_dir().join(SEED)).unwrap();
    write(dir.path(), "src/lib.rs", &code);
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--color", "never", "--no-deps-helpers"]));
    // Not read: the findings are still reported.
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("note: Cargo.toml:6: `[lints.kube-order-lint]` is not read"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("`[package.metadata.kube-order-lint.lints]`"),
        "{}",
        r.stdout
    );
    // The table it points to is read.
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"op\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.kube-order-lint.lints]\nconcurrent-same-object = \"allow\"\n",
    );
    let r = run(tool()
        .current_dir(dir.path())
        .args(["--color", "never", "--no-deps-helpers"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("is not read"), "{}", r.stdout);
}

// ---------------------------------------------------------------- 10. the Action's cache

#[test]
#[cfg(unix)]
fn the_action_caches_the_installed_tool_by_version_and_sources() {
    // The key: the version, and a digest of the sources that changes with them.
    let source = tempfile::tempdir().unwrap();
    for file in ["Cargo.toml", "Cargo.lock"] {
        std::fs::copy(manifest_dir().join(file), source.path().join(file)).unwrap();
    }
    copy_tree(&manifest_dir().join("src"), &source.path().join("src"));
    let key = |dir: &Path| {
        let out = std::process::Command::new(manifest_dir().join("action/cache-key.sh"))
            .env("KOL_SOURCE", dir)
            .env_remove("GITHUB_OUTPUT")
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let before = key(source.path());
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        before.starts_with(&format!("key=kube-order-lint-{version}-")),
        "{before}"
    );
    std::fs::write(source.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    assert_ne!(key(source.path()), before);

    // The install step uses a restored binary of the version without building (no cargo on
    // PATH here), and builds when the binary is of another version.
    let root = tempfile::tempdir().unwrap();
    let bin = root.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for name in ["kube-order-lint", "cargo-kube-order-lint"] {
        let built = Path::new(env!("CARGO_BIN_EXE_kube-order-lint")).with_file_name(name);
        std::fs::copy(&built, bin.join(name)).unwrap();
    }
    let github_path = root.path().join("github-path");
    let install = |path: &str| {
        std::process::Command::new(manifest_dir().join("action/install.sh"))
            .env("KOL_SOURCE", manifest_dir())
            .env("KOL_ROOT", root.path())
            .env("GITHUB_PATH", &github_path)
            .env("PATH", path)
            .output()
            .unwrap()
    };
    let no_cargo = "/usr/bin:/bin";
    let out = install(no_cargo);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "kube-order-lint {version}: restored from the cache, not built"
        )),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(&github_path).unwrap().trim(),
        bin.display().to_string()
    );
    // Another version: a build is attempted (and fails without cargo).
    std::fs::write(
        bin.join("kube-order-lint"),
        "#!/bin/sh\necho 'kube-order-lint 0.0.0'\n",
    )
    .unwrap();
    assert!(!install(no_cargo).status.success());
}
