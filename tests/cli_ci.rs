//! CLI tests for use in CI, cargo and editors: output formats, cargo's flags, configuration,
//! suppression comments and baselines, on the multi-member fixture
//! `tests/fixtures/crates/operator-workspace` (copied to a temporary directory when a test
//! changes files).

use std::path::{Path, PathBuf};

mod common;

use common::cli::{run, tool, Run};

use assert_cmd::Command;
use serde_json::Value;

const WS: &str = "tests/fixtures/crates/operator-workspace";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(WS)
}

/// `short` lines as (file, line, severity[lint]) — the stable parts.
fn short_findings(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| {
            let mut parts = l.splitn(5, ':');
            let file = parts.next().unwrap_or("");
            let line = parts.next().unwrap_or("");
            let _col = parts.next();
            let kind = parts.next().unwrap_or("").trim();
            format!("{file}:{line} {kind}")
        })
        .collect()
}

/// Copy the fixture to a temporary directory (tests that edit files).
fn copy_fixture() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    for entry in walkdir::WalkDir::new(fixture()) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(fixture()).expect("under");
        let dest = tmp.path().join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
    tmp
}

/// The one error line of a run that must stop with exit code 2.
fn one_line_error(r: &Run) -> String {
    assert_eq!(r.code, 2, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "expected one error line, got:\n{}",
        r.stderr
    );
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    lines[0].to_string()
}

// ---------------------------------------------------------------- configuration and levels

#[test]
fn nearest_configuration_wins_and_deny_prints_errors() {
    let r = run(tool().args(["--format", "short", WS]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        short_findings(&r.stdout),
        [
            // api/kube-order-lint.toml sets `warn` over the workspace's `deny`, and excludes
            // src/generated/.
            format!("{WS}/api/src/status.rs:6 warning[concurrent-same-object]"),
            // controller: the workspace's `deny`; `min_confidence = "definite"` from its package
            // table hides `maybe`; suppressed findings are not reported.
            format!("{WS}/controller/src/reconcile.rs:26 error[concurrent-same-object]"),
            format!("{WS}/tools/cli/examples/demo.rs:5 error[concurrent-same-object]"),
            format!("{WS}/tools/cli/tests/smoke.rs:5 error[concurrent-same-object]"),
        ]
    );
    let human = run(tool().args(["--color", "never", WS]));
    assert!(human
        .stdout
        .contains("error[concurrent-same-object]: delete and get of the same Pod \"f\""));
    assert!(human
        .stdout
        .contains("warning[concurrent-same-object]: status patch and get"));
}

#[test]
fn flags_win_over_files_in_command_line_order() {
    // --min-confidence beats the package's `definite`.
    let r = run(tool().args(["--format", "short", "--min-confidence", "possible", WS]));
    assert!(
        r.stdout.contains(
            "reconcile.rs:30:13: error[concurrent-same-object]: delete of Pod `target.name`"
        ),
        "{}",
        r.stdout
    );
    // --warn all turns the workspace's deny into warnings.
    let r = run(tool().args(["--format", "short", "--warn", "all", WS]));
    assert_eq!(r.code, 1);
    assert!(!r.stdout.contains("error["), "{}", r.stdout);
    // Later flags win: allow everything, then deny the one lint.
    let r = run(tool().args([
        "--format",
        "short",
        "-A",
        "all",
        "-D",
        "concurrent-same-object",
        WS,
    ]));
    assert_eq!(r.stdout.lines().count(), 4);
    assert!(
        r.stdout.lines().all(|l| l.contains(": error[")),
        "{}",
        r.stdout
    );
    // Allowed: nothing reported, exit 0.
    let r = run(tool().args([
        "--format",
        "short",
        "-D",
        "concurrent-same-object",
        "--allow",
        "concurrent-same-object",
        WS,
    ]));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

#[test]
fn exit_zero_reports_denied_findings_but_succeeds() {
    let r = run(tool().args(["--format", "short", "--exit-zero", WS]));
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("error[concurrent-same-object]"));
}

#[test]
fn no_config_and_explicit_config() {
    // Without configuration: defaults everywhere (warn, possible, nothing excluded).
    let r = run(tool().args(["--format", "short", "--no-config", WS]));
    assert!(!r.stdout.contains("error["), "{}", r.stdout);
    assert!(
        r.stdout.contains("api/src/generated/mod.rs:6:13: warning"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("reconcile.rs:30:13: note"),
        "{}",
        r.stdout
    );
    // --config FILE: that file only.
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("strict.toml");
    std::fs::write(
        &config,
        "min_confidence = \"definite\"\n[lints]\nall = \"deny\"\n",
    )
    .unwrap();
    let r = run(tool()
        .args(["--format", "short", "--config"])
        .arg(&config)
        .arg(WS));
    assert!(
        r.stdout.contains("api/src/generated/mod.rs:6:13: error"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("reconcile.rs:30"), "{}", r.stdout);
    assert!(
        r.stdout.lines().all(|l| l.contains(": error[")),
        "{}",
        r.stdout
    );
    // A missing --config file is a one-line error.
    let e = one_line_error(&run(tool().args(["--config", "no/such.toml", WS])));
    assert!(
        e.contains("no/such.toml: cannot read configuration: no such file or directory"),
        "{e}"
    );
}

#[test]
fn configuration_errors_name_file_key_and_line() {
    let tmp = copy_fixture();
    let api = tmp.path().join("api/kube-order-lint.toml");
    std::fs::write(
        &api,
        "exclude = [\"src/generated/**\"]\n\nlintz = { all = \"allow\" }\n",
    )
    .unwrap();
    let e = one_line_error(&run(tool().current_dir(tmp.path())));
    assert!(
        e.starts_with("error: api/kube-order-lint.toml:3: key `lintz`: unknown key"),
        "{e}"
    );
    std::fs::write(&api, "[lints]\nconcurrent-same-object = \"loud\"\n").unwrap();
    let e = one_line_error(&run(tool().current_dir(tmp.path())));
    assert!(
        e.starts_with("error: api/kube-order-lint.toml:2: key `lints.concurrent-same-object`: unknown variant `loud`"),
        "{e}"
    );
    std::fs::write(&api, "[lints]\nconcurent-same-object = \"deny\"\n").unwrap();
    let e = one_line_error(&run(tool().current_dir(tmp.path())));
    assert!(e.contains("api/kube-order-lint.toml:2: key `lints.concurent-same-object`: unknown lint `concurent-same-object`"), "{e}");
    std::fs::write(&api, "min_confidence = \"probable\"\n").unwrap();
    let e = one_line_error(&run(tool()
        .args(["--format", "json"])
        .current_dir(tmp.path())));
    assert!(
        e.contains(":1: key `min_confidence`: unknown variant `probable`"),
        "{e}"
    );
    std::fs::remove_file(&api).unwrap();
    // Cargo.toml metadata: the key path is the whole table path.
    let manifest = tmp.path().join("controller/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("min_confidence", "min_confidance")).unwrap();
    let e = one_line_error(&run(tool().current_dir(tmp.path())));
    assert!(
        e.starts_with("error: controller/Cargo.toml:9: key `package.metadata.kube-order-lint.min_confidance`: unknown key"),
        "{e}"
    );
    std::fs::write(&manifest, text).unwrap();
    // Two configuration files in one directory.
    std::fs::write(tmp.path().join("kube-order-lint.toml"), "").unwrap();
    std::fs::write(tmp.path().join(".kube-order-lint.toml"), "").unwrap();
    let e = one_line_error(&run(tool().current_dir(tmp.path())));
    assert!(
        e.contains("two configuration files in one directory"),
        "{e}"
    );
}

#[test]
fn batch_checking_and_wrappers_are_accepted_keys() {
    let tmp = copy_fixture();
    std::fs::write(
        tmp.path().join("kube-order-lint.toml"),
        "batch_checking = true\n\n[[wrappers]]\nfunction = \"Client::apply_patch\"\naccess = \"write\"\nname_arg = 0\n",
    )
    .unwrap();
    let r = run(tool().args(["--format", "short"]).current_dir(tmp.path()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    std::fs::write(
        tmp.path().join("kube-order-lint.toml"),
        "[[wrappers]]\nfunction = \"Client::apply_patch\"\naccess = \"write\"\nname_arg = \"zero\"\n",
    )
    .unwrap();
    let e = one_line_error(&run(tool().current_dir(tmp.path())));
    assert!(
        e.starts_with("error: kube-order-lint.toml:4: key `wrappers[0].name_arg`: invalid type"),
        "{e}"
    );
}

#[test]
fn unknown_lints_in_flags_are_one_line_errors() {
    for flag in ["--allow", "--warn", "--deny", "-D"] {
        let e = one_line_error(&run(tool().args([flag, "concurrent-same-objects", WS])));
        assert!(
            e.starts_with(
                "error: unknown lint `concurrent-same-objects` (known: concurrent-same-object"
            ),
            "{e}"
        );
    }
}

// ---------------------------------------------------------------- cargo subcommand flags

#[test]
fn from_a_subdirectory_the_package_is_found_as_cargo_does() {
    let dir = fixture().join("controller/src");
    let r = run(tool().args(["--format", "short"]).current_dir(&dir));
    assert_eq!(r.code, 1, "{}", r.stderr);
    // Only the controller package, with its configuration; paths relative to where we are.
    assert_eq!(
        short_findings(&r.stdout),
        ["reconcile.rs:26 error[concurrent-same-object]"]
    );
    // The cargo subcommand form, from a directory that is no package: the workspace root's.
    let mut cargo_form = Command::cargo_bin("cargo-kube-order-lint").unwrap();
    let r = run(cargo_form
        .args(["kube-order-lint", "--format", "short"])
        .current_dir(fixture().join("tools")));
    assert_eq!(r.stdout.lines().count(), 4, "{}", r.stdout);
    assert!(
        r.stdout.starts_with("../api/src/status.rs:6:13:"),
        "{}",
        r.stdout
    );
}

#[test]
fn manifest_path_to_a_member() {
    let r = run(tool().args([
        "--format",
        "short",
        "--manifest-path",
        &format!("{WS}/tools/cli/Cargo.toml"),
    ]));
    assert_eq!(
        short_findings(&r.stdout),
        [
            format!("{WS}/tools/cli/examples/demo.rs:5 error[concurrent-same-object]"),
            format!("{WS}/tools/cli/tests/smoke.rs:5 error[concurrent-same-object]"),
        ]
    );
    let e = one_line_error(&run(tool().args(["--manifest-path", &format!("{WS}/api")])));
    assert!(
        e.contains("the manifest-path must be a path to a Cargo.toml file"),
        "{e}"
    );
    let e = one_line_error(&run(tool().args(["--manifest-path", "nowhere/Cargo.toml"])));
    assert!(
        e.contains("manifest path `nowhere/Cargo.toml` does not exist"),
        "{e}"
    );
    let e = one_line_error(&run(tool().args([
        "--manifest-path",
        &format!("{WS}/Cargo.toml"),
        WS,
    ])));
    assert!(
        e.contains("--manifest-path cannot be combined with paths"),
        "{e}"
    );
}

#[test]
fn package_selection() {
    let files = |args: &[&str]| {
        let r = run(tool()
            .args(["--format", "short", "--exit-zero"])
            .args(args)
            .current_dir(fixture().join("api")));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut files: Vec<String> = r
            .stdout
            .lines()
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect();
        files.dedup();
        files
    };
    // From a member directory, -p chooses among all members.
    assert_eq!(
        files(&["-p", "controller"]),
        ["../controller/src/reconcile.rs"]
    );
    assert_eq!(
        files(&["-p", "controller", "--package", "kol-cli"]),
        [
            "../controller/src/reconcile.rs",
            "../tools/cli/examples/demo.rs",
            "../tools/cli/tests/smoke.rs"
        ]
    );
    // A target flag that selects nothing stops the run, as cargo does.
    let e = one_line_error(&run(tool()
        .args(["-p", "kol-cli@0.2", "--lib"])
        .current_dir(fixture().join("api"))));
    assert_eq!(
        e,
        "error: Cargo.toml: no library targets found in package `kol-cli`"
    );
    assert_eq!(files(&["-p", "c*"]), ["../controller/src/reconcile.rs"]);
    assert_eq!(
        files(&["--workspace", "--exclude", "kol-cli"]),
        ["../controller/src/reconcile.rs", "src/status.rs"]
    );
    let e = one_line_error(&run(tool().args(["-p", "nope"]).current_dir(fixture())));
    assert_eq!(
        e,
        "error: Cargo.toml: package `nope` matches no workspace member (members: api, controller, kol-cli)"
    );
    let e = one_line_error(&run(tool()
        .args(["--exclude", "api"])
        .current_dir(fixture())));
    assert!(
        e.ends_with("--exclude can only be used together with --workspace"),
        "{e}"
    );
    let e = one_line_error(&run(tool().args([
        "-p",
        "api",
        "tests/fixtures/files/broken.rs",
    ])));
    assert!(
        e.contains("apply to Cargo packages, and this is not one"),
        "{e}"
    );
}

#[test]
fn target_selection() {
    let files = |args: &[&str]| {
        let r = run(tool()
            .args(["--format", "short", "--exit-zero", "-p", "kol-cli"])
            .args(args)
            .current_dir(fixture()));
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
            .lines()
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    let all = ["tools/cli/examples/demo.rs", "tools/cli/tests/smoke.rs"];
    assert_eq!(files(&[]), all);
    assert_eq!(files(&["--all-targets"]), all);
    assert_eq!(files(&["--examples"]), ["tools/cli/examples/demo.rs"]);
    assert_eq!(
        files(&["--example", "demo"]),
        ["tools/cli/examples/demo.rs"]
    );
    assert_eq!(files(&["--tests"]), ["tools/cli/tests/smoke.rs"]);
    assert_eq!(
        files(&["--test", "smoke", "--bins"]),
        ["tools/cli/tests/smoke.rs"]
    );
    assert_eq!(
        files(&["--bins", "--lib", "--benches"]),
        Vec::<String>::new()
    );
    let json = run(tool()
        .args(["--format", "json", "-p", "kol-cli", "--bin", "kol-cli"])
        .current_dir(fixture()));
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["files_checked"], 1, "{doc}");
    let e = one_line_error(&run(tool().args(["--bin", "nope"]).current_dir(fixture())));
    assert_eq!(
        e,
        "error: Cargo.toml: no bin target named `nope` in the selected packages"
    );
}

// ---------------------------------------------------------------- output formats

#[test]
fn short_format_is_one_line_per_finding() {
    let r = run(tool().args([
        "--format",
        "short",
        "tests/ui/concurrent-same-object/seed.rs",
    ]));
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert_eq!(
        lines[0],
        "tests/ui/concurrent-same-object/seed.rs:15:30: warning[concurrent-same-object]: create and get of the same Pod \"blog\" run concurrently in `tokio::join!`"
    );
    let broken = run(tool().args(["--format", "short", "tests/fixtures/files/broken.rs"]));
    assert_eq!(broken.code, 2);
    assert!(
        broken
            .stdout
            .starts_with("tests/fixtures/files/broken.rs:2:13: error: "),
        "{}",
        broken.stdout
    );
}

#[test]
fn json_has_a_schema_version_and_fingerprints() {
    let r = run(tool().args(["--format", "json", WS]));
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["version"], env!("CARGO_PKG_VERSION"));
    let d = &doc["diagnostics"][1];
    assert_eq!(d["severity"], "error");
    assert!(d["fingerprint"].as_str().is_some_and(|f| f.len() == 32));
}

#[test]
fn output_file_takes_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report.sarif");
    let r = run(tool().args(["--format", "sarif", "-o"]).arg(&out).arg(WS));
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    // Human output written to a file has no colours, and errors still reach the log.
    let out = tmp.path().join("report.txt");
    let r = run(tool()
        .args(["--color", "auto", "--output"])
        .arg(&out)
        .args(["tests/fixtures/files/broken.rs"]));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: tests/fixtures/files/broken.rs:2:13:"),
        "{}",
        r.stderr
    );
    assert!(!std::fs::read_to_string(&out).unwrap().contains('\u{1b}'));
    let e = one_line_error(&run(tool().args(["--output", "no/such/dir/out.txt", WS])));
    assert!(e.contains("cannot write no/such/dir/out.txt"), "{e}");
}

#[test]
fn sarif_has_what_github_code_scanning_reads() {
    let r = run(tool().args(["--format", "sarif", "--report-unused-suppressions", WS]));
    assert_eq!(r.code, 1);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(doc["$schema"]
        .as_str()
        .is_some_and(|s| s.contains("sarif-2.1.0")));
    assert_eq!(doc["version"], "2.1.0");
    let run0 = &doc["runs"][0];
    let driver = &run0["tool"]["driver"];
    assert_eq!(driver["name"], "kube-order-lint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    for lint in kube_order_lint::lints::registry() {
        let rule = rules
            .iter()
            .find(|r| r["id"] == lint.name)
            .expect("rule for every lint");
        assert_eq!(rule["shortDescription"]["text"], lint.summary);
        assert!(rule["fullDescription"]["text"]
            .as_str()
            .is_some_and(|t| !t.is_empty()));
        // The page as `explain` prints it: without the tests' `//~` markers.
        assert_eq!(
            rule["help"]["markdown"],
            kube_order_lint::lints::without_test_markers(lint.doc)
        );
        assert!(!rule["help"]["markdown"].as_str().unwrap().contains("//~"));
        assert_eq!(rule["defaultConfiguration"]["level"], "warning");
    }
    let root = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        root.starts_with("file:///") && root.ends_with('/'),
        "{root}"
    );
    let results = run0["results"].as_array().unwrap();
    let levels: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    assert_eq!(
        levels,
        [
            ("concurrent-same-object", "warning"),
            ("unused-suppression", "warning"),
            ("concurrent-same-object", "error"),
            ("concurrent-same-object", "error"),
            ("concurrent-same-object", "error"),
        ]
    );
    let r0 = &results[0];
    let loc = &r0["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        format!("{WS}/api/src/status.rs")
    );
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        (
            &loc["region"]["startLine"],
            &loc["region"]["startColumn"],
            &loc["region"]["endLine"],
            &loc["region"]["endColumn"]
        ),
        (
            &Value::from(6),
            &Value::from(13),
            &Value::from(9),
            &Value::from(6)
        )
    );
    let related = r0["relatedLocations"].as_array().unwrap();
    assert_eq!(related.len(), 2);
    assert_eq!(
        related[0]["message"]["text"],
        "patches the status of Pod \"web\""
    );
    assert_eq!(related[0]["physicalLocation"]["region"]["startLine"], 7);
    assert!(r0["partialFingerprints"]["kubeOrderLint/v1"]
        .as_str()
        .is_some_and(|f| f.len() == 32));
    assert_eq!(r0["ruleIndex"], 0);
    // The finding's fix, as a SARIF fix with its replacements.
    let fix = &r0["fixes"][0];
    assert!(fix["description"]["text"].as_str().is_some());
    assert_eq!(
        fix["artifactChanges"][0]["artifactLocation"]["uri"],
        format!("{WS}/api/src/status.rs")
    );
    assert!(fix["artifactChanges"][0]["replacements"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));
    // Unparsable files are tool execution notifications.
    let r = run(tool().args(["--format", "sarif", "tests/fixtures/files/broken.rs"]));
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let inv = &doc["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(inv["toolExecutionNotifications"][0]["level"], "error");
    assert_eq!(
        inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]["region"]
            ["startLine"],
        2
    );
}

#[test]
fn rustc_json_lines_are_compiler_diagnostics() {
    let r = run(tool().args(["--format", "rustc-json", "--min-confidence", "possible", WS]));
    assert_eq!(r.code, 1);
    let diagnostics: Vec<cargo_metadata::diagnostic::Diagnostic> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(diagnostics.len(), 5);
    let d = &diagnostics[0];
    assert_eq!(
        d.code.as_ref().map(|c| c.code.as_str()),
        Some("concurrent-same-object")
    );
    assert_eq!(
        d.level,
        cargo_metadata::diagnostic::DiagnosticLevel::Warning
    );
    let primary = d.spans.iter().find(|s| s.is_primary).unwrap();
    assert_eq!(primary.file_name, format!("{WS}/api/src/status.rs"));
    assert_eq!(
        (primary.line_start, primary.column_start, primary.line_end),
        (6, 13, 9)
    );
    assert_eq!(primary.text.len(), 4);
    assert_eq!(primary.text[0].highlight_start, 13);
    let secondary: Vec<_> = d.spans.iter().filter(|s| !s.is_primary).collect();
    assert_eq!(
        secondary[0].label.as_deref(),
        Some("patches the status of Pod \"web\"")
    );
    assert!(d
        .children
        .iter()
        .any(|c| c.level == cargo_metadata::diagnostic::DiagnosticLevel::Help));
    assert!(d
        .rendered
        .as_deref()
        .is_some_and(|r| r.starts_with("warning[concurrent-same-object]")));
    assert_eq!(
        diagnostics[1].level,
        cargo_metadata::diagnostic::DiagnosticLevel::Error
    );
}

#[test]
fn github_annotations_escape_hostile_paths_and_messages() {
    let tmp = tempfile::tempdir().unwrap();
    let name = "we%ird,na:me\nü.rs";
    std::fs::write(
        tmp.path().join(name),
        "use k8s_openapi::api::core::v1::Pod;\nuse kube::Api;\n\nasync fn f(pods: &Api<Pod>) {\n    let _ = tokio::join!(pods.delete(\"50%,a:b\", &Default::default()), pods.get(\"50%,a:b\"));\n    let _ = tokio::join!(\n        pods.delete(\"x\", &Default::default()),\n        pods.get(\"x\"),\n    );\n}\n",
    )
    .unwrap();
    let r = run(tool()
        .args(["--format", "github", "--", name])
        .current_dir(tmp.path()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "a raw newline broke a command:\n{}",
        r.stdout
    );
    let file = "file=we%25ird%2Cna%3Ame%0Aü.rs";
    assert!(
        lines[0].starts_with(&format!("::warning {file},line=5,endLine=5,col=13,endColumn=90,title=kube-order-lint(concurrent-same-object)::delete and get of the same Pod \"50%25,a:b\" run concurrently")),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains("%0Anote: confidence: definite%0Ahelp: "),
        "{}",
        lines[0]
    );
    // A span over several lines: no columns.
    assert!(
        lines[1].starts_with(&format!("::warning {file},line=6,endLine=9,title=")),
        "{}",
        lines[1]
    );
    // Denied findings and errors are ::error.
    let r = run(tool().args([
        "--format",
        "github",
        "-D",
        "all",
        "tests/ui/concurrent-same-object/seed.rs",
        "tests/fixtures/files/broken.rs",
    ]));
    assert!(r.stdout.lines().any(|l| l.starts_with(
        "::error file=tests/ui/concurrent-same-object/seed.rs,line=15,endLine=15,col=30,"
    )));
    assert!(r.stdout.lines().any(|l| l.starts_with(
        "::error file=tests/fixtures/files/broken.rs,line=2,col=13,title=kube-order-lint::"
    )));
}

// ---------------------------------------------------------------- suppression

#[test]
fn suppressions_cover_line_block_function_and_module() {
    // reconcile.rs: `a` (same line), `b` (above, through a comment line), `c` and `d` (function
    // head) are suppressed, `f` is not; legacy.rs is covered by its first line.
    let r = run(tool().args([
        "--format",
        "short",
        "--no-config",
        &format!("{WS}/controller"),
    ]));
    assert_eq!(
        short_findings(&r.stdout),
        [
            format!("{WS}/controller/src/reconcile.rs:26 warning[concurrent-same-object]"),
            format!("{WS}/controller/src/reconcile.rs:30 note[concurrent-same-object]"),
        ]
    );
}

#[test]
fn unused_suppressions_are_reported_on_request() {
    let r = run(tool().args([
        "--format",
        "short",
        "--report-unused-suppressions",
        &format!("{WS}/controller"),
    ]));
    assert!(
        r.stdout.contains("controller/src/reconcile.rs:21:31: warning[unused-suppression]: suppression of `concurrent-same-object` suppresses nothing"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stdout.matches("unused-suppression").count(),
        1,
        "{}",
        r.stdout
    );
    // Also from configuration.
    let tmp = copy_fixture();
    std::fs::write(
        tmp.path().join("controller/kube-order-lint.toml"),
        "report_unused_suppressions = true\n",
    )
    .unwrap();
    let r = run(tool()
        .args(["--format", "short", "controller"])
        .current_dir(tmp.path()));
    assert!(
        r.stdout.contains("warning[unused-suppression]"),
        "{}",
        r.stdout
    );
}

#[test]
fn unknown_lints_and_malformed_suppressions_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a.rs");
    std::fs::write(
        &file,
        "fn f() {\n    // kube-order-lint: allow(concurrent-same-objet) -- typo\n}\n",
    )
    .unwrap();
    let r = run(tool()
        .args(["--format", "short", "a.rs"])
        .current_dir(tmp.path()));
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stdout,
        "a.rs:2:31: error: unknown lint `concurrent-same-objet` (known: concurrent-same-object, await-order-inverted, unawaited-request, spawned-request-race, cancellable-write, block-on-in-async, all) in suppression comment\n"
    );
    std::fs::write(&file, "// kube-order-lint: allow concurrent-same-object\n").unwrap();
    let r = run(tool()
        .args(["--format", "json", "a.rs"])
        .current_dir(tmp.path()));
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(
            "error: a.rs:1:1: malformed suppression comment (expected `(` after `allow`)"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn add_suppressions_silences_every_finding() {
    let tmp = copy_fixture();
    let r = run(tool()
        .args(["--add-suppressions", "--min-confidence", "possible"])
        .current_dir(tmp.path()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim(),
        "kube-order-lint: added 5 suppression comments in 4 files"
    );
    let reconcile =
        std::fs::read_to_string(tmp.path().join("controller/src/reconcile.rs")).unwrap();
    assert!(
        reconcile.contains("pub async fn reported(pods: &Api<Pod>) {\n    // kube-order-lint: allow(concurrent-same-object)\n    let _ = tokio::join!(pods.delete(\"f\""),
        "{reconcile}"
    );
    let r = run(tool()
        .args([
            "--min-confidence",
            "possible",
            "--report-unused-suppressions",
            "--format",
            "short",
        ])
        .current_dir(tmp.path()));
    // Only the stale suppression that was already there.
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("reconcile.rs:21:31: warning[unused-suppression]"),
        "{}",
        r.stdout
    );
}

// ---------------------------------------------------------------- baseline

#[test]
fn baseline_hides_recorded_findings_across_edits() {
    let tmp = copy_fixture();
    let r = run(tool()
        .args(["--write-baseline", "kol-baseline.json"])
        .current_dir(tmp.path()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim(),
        "kube-order-lint: wrote 4 findings to kol-baseline.json"
    );
    let baseline: Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.path().join("kol-baseline.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(baseline["kind"], "kube-order-lint-baseline");
    assert_eq!(baseline["findings"][0]["file"], "api/src/status.rs");
    assert_eq!(baseline["findings"][0]["lint"], "concurrent-same-object");

    let check = |cwd: &Path, baseline: &str| {
        run(tool()
            .args(["--format", "short", "--baseline", baseline])
            .current_dir(cwd))
    };
    let r = check(tmp.path(), "kol-baseline.json");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);

    // Edits elsewhere in the file (lines added above) do not resurrect the finding.
    let reconcile = tmp.path().join("controller/src/reconcile.rs");
    let text = std::fs::read_to_string(&reconcile).unwrap();
    let shifted = format!(
        "// a header\n// added later\n\n{}",
        text.replace("pods.get(\"f\")", "pods.get( \"f\" )")
    );
    std::fs::write(&reconcile, &shifted).unwrap();
    let r = check(tmp.path(), "kol-baseline.json");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    // From another directory, the baseline's paths still match.
    let r = check(&tmp.path().join("controller"), "../kol-baseline.json");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));

    // A new finding, and a copy of a recorded one, are reported.
    let extra = "\npub async fn again(pods: &Api<Pod>) {\n    let _ = tokio::join!(pods.delete(\"f\", &Default::default()), pods.get(\"f\"));\n}\n\npub async fn new(pods: &Api<Pod>) {\n    let _ = tokio::join!(pods.delete(\"g\", &Default::default()), pods.get(\"g\"));\n}\n";
    std::fs::write(&reconcile, format!("{shifted}{extra}")).unwrap();
    let r = check(tmp.path(), "kol-baseline.json");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert!(r.stdout.contains("Pod \"g\""), "{}", r.stdout);

    // Fixed findings are mentioned.
    std::fs::remove_file(tmp.path().join("tools/cli/tests/smoke.rs")).unwrap();
    let r = run(tool()
        .args(["--color", "never", "--baseline", "kol-baseline.json"])
        .current_dir(tmp.path()));
    assert!(
        r.stdout
            .contains("note: 1 finding recorded in kol-baseline.json is no longer reported"),
        "{}",
        r.stdout
    );
}

#[test]
fn malformed_baselines_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("b.json");
    std::fs::write(
        &path,
        "{\"kind\": \"kube-order-lint-baseline\", \"format\": 1, \"findings\": [{\"file\": 3}]}",
    )
    .unwrap();
    let e = one_line_error(&run(tool().arg("--baseline").arg(&path).arg(WS)));
    assert!(e.contains("b.json: malformed baseline: invalid type: integer `3`, expected a string at line 1 column"), "{e}");
    std::fs::write(&path, "not json").unwrap();
    let e = one_line_error(&run(tool().arg("--baseline").arg(&path).arg(WS)));
    assert!(
        e.contains("malformed baseline: expected ident at line 1 column 2"),
        "{e}"
    );
    std::fs::write(
        &path,
        "{\"kind\": \"other\", \"format\": 1, \"findings\": []}",
    )
    .unwrap();
    let e = one_line_error(&run(tool().arg("--baseline").arg(&path).arg(WS)));
    assert!(e.contains("malformed baseline: `kind` is \"other\""), "{e}");
    let e = one_line_error(&run(tool().args([
        "--baseline",
        "no-such-baseline.json",
        WS,
    ])));
    assert!(
        e.contains("no-such-baseline.json: cannot read baseline: no such file or directory"),
        "{e}"
    );
}

// ---------------------------------------------------------------- README examples

/// Commands of the README's ```sh tested / ```yaml tested blocks, block by block.
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in readme.lines() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            // Fences of other blocks open and close nothing here: their lines are skipped.
            match current.take() {
                Some(block) => blocks.push(block),
                None if info.split_whitespace().nth(1) == Some("tested") => {
                    current = Some(Vec::new())
                }
                None => {}
            }
            continue;
        }
        let Some(block) = current.as_mut() else {
            continue;
        };
        let mut command = trimmed;
        for prefix in ["- ", "run: ", "entry: "] {
            command = command.strip_prefix(prefix).unwrap_or(command);
        }
        let command = command.split(" # ").next().unwrap_or(command).trim();
        if command.starts_with("cargo kube-order-lint") || command.starts_with("kube-order-lint ") {
            block.push(command.to_string());
        }
    }
    blocks
}

#[test]
fn readme_example_commands_run() {
    let blocks = readme_commands();
    let all: Vec<&String> = blocks.iter().flatten().collect();
    assert!(all.len() >= 9, "too few tested README commands: {all:?}");
    for block in &blocks {
        let tmp = copy_fixture();
        for command in block {
            let words: Vec<&str> = command.split_whitespace().collect();
            let mut cmd = if words[0] == "cargo" {
                let mut c = Command::cargo_bin("cargo-kube-order-lint").unwrap();
                c.arg(words[1]);
                c.args(&words[2..]);
                c
            } else {
                let mut c = tool();
                c.args(&words[1..]);
                c
            };
            let r = run(cmd.current_dir(tmp.path()));
            assert!(
                r.code == 0 || r.code == 1,
                "README command `{command}` exited with {}:\n{}{}",
                r.code,
                r.stdout,
                r.stderr
            );
            assert!(!r.stderr.contains("error"), "`{command}`: {}", r.stderr);
            if let Some(i) = words.iter().position(|w| *w == "--output") {
                let written = std::fs::read_to_string(tmp.path().join(words[i + 1])).unwrap();
                let _: Value =
                    serde_json::from_str(&written).unwrap_or_else(|e| panic!("`{command}`: {e}"));
            }
            if command.contains("--format github") {
                assert!(
                    r.stdout.lines().all(|l| l.starts_with("::")),
                    "{}",
                    r.stdout
                );
                assert_eq!(r.code, 1, "the fixture has findings");
            }
            if command.contains("--format rustc-json") {
                for line in r.stdout.lines() {
                    let _: cargo_metadata::diagnostic::Diagnostic =
                        serde_json::from_str(line).unwrap();
                }
            }
        }
    }
}

#[test]
fn wrappers_declared_in_configuration_make_requests() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/files/wrappers.rs"),
        tmp.path().join("wrappers.rs"),
    )
    .unwrap();
    std::fs::create_dir(tmp.path().join(".git")).unwrap();
    let without = run(tool()
        .args(["--format", "short", "wrappers.rs"])
        .current_dir(tmp.path()));
    assert_eq!((without.code, without.stdout.as_str()), (0, ""));
    std::fs::write(
        tmp.path().join("kube-order-lint.toml"),
        r#"
[[wrappers]]
function = "Client::apply_patch"
access = "write"
name_arg = 0
namespace_arg = 1
kind_param = 0

[[wrappers]]
function = "Client::get_opt"
access = "read"
name_arg = 0
namespace_arg = 1
kind_param = 0

[[wrappers]]
function = "kube_wrapper::delete_lease"
access = "write"
name_arg = 0
kind = "Lease"

[[wrappers]]
function = "kube_wrapper::get_lease"
access = "read"
name_arg = 0
kind = "Lease"
"#,
    )
    .unwrap();
    let with = run(tool()
        .args(["--format", "short", "wrappers.rs"])
        .current_dir(tmp.path()));
    assert_eq!(with.code, 1, "{}", with.stderr);
    assert_eq!(
        short_findings(&with.stdout),
        [
            "wrappers.rs:6 warning[concurrent-same-object]",
            "wrappers.rs:16 note[concurrent-same-object]"
        ]
    );
}
