//! `--fix`, `--unsafe-fixes` and `--diff` on copies in temporary directories: the real binary,
//! plus the data-safety promises (line endings, byte-order mark, permissions, a file changed
//! while being fixed, a result that does not parse, a write that fails).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn tool() -> Command {
    let mut cmd = Command::cargo_bin("kube-order-lint").expect("binary");
    cmd.env_remove("NO_COLOR");
    cmd.args(["--color", "never"]);
    cmd
}

/// A file with one safe fix (a `join!` of request calls) and one unsafe fix (a `try_join!`).
const CODE: &str = r#"use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

async fn run(pods: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let (created, fetched) = tokio::join!(pods.create(&pp, &pod), pods.get(&pod.name_any()));
    tokio::try_join!(pods.delete("blog", &dp), pods.get("blog"))?;
    Ok(())
}
"#;

/// CODE with the safe fix applied.
const SAFE_FIXED: &str = r#"use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

async fn run(pods: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let created = pods.create(&pp, &pod).await;
    let fetched = pods.get(&pod.name_any()).await;
    tokio::try_join!(pods.delete("blog", &dp), pods.get("blog"))?;
    Ok(())
}
"#;

/// CODE with both fixes applied.
const ALL_FIXED: &str = r#"use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

async fn run(pods: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let created = pods.create(&pp, &pod).await;
    let fetched = pods.get(&pod.name_any()).await;
    pods.delete("blog", &dp).await?;
    pods.get("blog").await?;
    Ok(())
}
"#;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write test file");
    path
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("read test file")
}

fn text(path: &Path) -> String {
    String::from_utf8(read(path)).expect("utf-8")
}

#[test]
fn fix_applies_safe_fixes_and_says_what_remains() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", CODE.as_bytes());
    // A check says what `--fix` would do.
    tool()
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(
            "kube-order-lint: 1 fixable with `--fix`, 1 more with `--fix --unsafe-fixes`\n",
        ));
    assert_eq!(text(&file), CODE);
    tool()
        .arg("--fix")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "kube-order-lint: applied 1 fix in 1 file; 1 finding remains (1 with an unsafe fix: add `--unsafe-fixes` to apply it)",
        ))
        // The remaining finding is still shown with its fix.
        .stdout(predicate::str::contains("unsafe fix: `--fix --unsafe-fixes` applies it"));
    assert_eq!(text(&file), SAFE_FIXED);
}

#[test]
fn unsafe_fixes_apply_the_rest_and_a_second_run_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", CODE.as_bytes());
    tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "kube-order-lint: applied 2 fixes in 1 file; 0 findings remain",
        ));
    assert_eq!(text(&file), ALL_FIXED);
    let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
    tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "kube-order-lint: applied 0 fixes in 0 files; 0 findings remain",
        ));
    assert_eq!(text(&file), ALL_FIXED);
    // Not even rewritten with the same bytes.
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        modified
    );
}

#[test]
fn diff_prints_a_unified_diff_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", CODE.as_bytes());
    let out = tool()
        .current_dir(dir.path())
        .args(["--diff", "a.rs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "findings exist: exit 1");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let expected = similar::TextDiff::from_lines(CODE, SAFE_FIXED)
        .unified_diff()
        .header("a/a.rs", "b/a.rs")
        .to_string();
    assert_eq!(stdout, expected);
    assert!(String::from_utf8_lossy(&out.stderr).contains("would apply 1 fix to 1 file"));
    assert_eq!(text(&file), CODE);
    // With the unsafe fixes, the diff shows both.
    let out = tool()
        .current_dir(dir.path())
        .args(["--diff", "--unsafe-fixes", "a.rs"])
        .output()
        .unwrap();
    let expected = similar::TextDiff::from_lines(CODE, ALL_FIXED)
        .unified_diff()
        .header("a/a.rs", "b/a.rs")
        .to_string();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    assert_eq!(text(&file), CODE);
    // A diff is not JSON.
    tool()
        .args(["--diff", "--format", "json"])
        .arg(&file)
        .assert()
        .code(2);
}

#[test]
fn json_carries_the_fix_and_fix_reports_what_was_fixed() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.rs", CODE.as_bytes());
    let out = tool()
        .current_dir(dir.path())
        .args(["--format", "json", "a.rs"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fix = &doc["diagnostics"][0]["fix"];
    assert_eq!(fix["applicability"], "safe");
    assert_eq!(
        fix["message"],
        "await the requests one after another, in the order written"
    );
    let edit = &fix["edits"][0];
    assert_eq!(edit["file"], "a.rs");
    assert_eq!(
        (
            edit["line"].as_u64(),
            edit["column"].as_u64(),
            edit["end_line"].as_u64(),
            edit["end_column"].as_u64()
        ),
        (Some(5), Some(5), Some(5), Some(94))
    );
    assert_eq!(
        edit["replacement"],
        "let created = pods.create(&pp, &pod).await;\n    let fetched = pods.get(&pod.name_any()).await;"
    );
    assert_eq!(doc["diagnostics"][1]["fix"]["applicability"], "unsafe");

    let out = tool()
        .current_dir(dir.path())
        .args(["--format", "json", "--fix", "a.rs"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["fixed"]["applied"], 1);
    assert_eq!(doc["fixed"]["files"], serde_json::json!(["a.rs"]));
    assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("applied 1 fix in 1 file"));
}

#[test]
fn crlf_line_endings_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = CODE.replace('\n', "\r\n");
    let file = write(dir.path(), "a.rs", crlf.as_bytes());
    tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .assert()
        .code(0);
    assert_eq!(text(&file), ALL_FIXED.replace('\n', "\r\n"));
}

/// A `join!` in an `async` block operand of a `join!`, nine levels deep: each level's fix
/// overlaps the next, so they take one round each, and one run applies them all.
#[test]
fn nested_fixes_converge_in_one_run() {
    fn level(n: usize) -> String {
        match n {
            0 => "pods.get(\"x\")".to_string(),
            n => format!(
                "async {{ tokio::join!(pods.delete(\"o{n}\", &dp), pods.get(\"o{n}\"), {}) }}",
                level(n - 1)
            ),
        }
    }
    let code = format!(
        "use kube::api::{{Api, DeleteParams}};\n\
         async fn f(pods: Api<Pod>, dp: DeleteParams) {{\n    {};\n}}\n",
        level(9)
    );
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", code.as_bytes());
    let out = tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(" in 1 file; 0 findings remain"), "{stdout}");
    let fixed = text(&file);
    assert!(!fixed.contains("join!"), "{fixed}");
    // Nothing is left for a second run.
    tool().arg("--fix").arg(&file).assert().code(0);
    assert_eq!(text(&file), fixed);
}

/// Classic Mac OS files break lines with CR alone: the breaks a fix writes are CR too, and the
/// indentation is that of the line, as in LF and CRLF files.
#[test]
fn cr_only_line_endings_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cr = CODE.replace('\n', "\r");
    let file = write(dir.path(), "a.rs", cr.as_bytes());
    tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .assert()
        .code(0);
    assert_eq!(text(&file), ALL_FIXED.replace('\n', "\r"));
}

#[test]
fn a_byte_order_mark_is_kept_and_positions_ignore_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(CODE.as_bytes());
    let file = write(dir.path(), "a.rs", &bytes);
    tool().arg("--fix").arg(&file).assert().code(1);
    let mut expected = b"\xEF\xBB\xBF".to_vec();
    expected.extend_from_slice(SAFE_FIXED.as_bytes());
    assert_eq!(read(&file), expected);
    // The same on the first line, where an offset error would show.
    let first_line =
        "async fn f(s: Api<Secret>, dp: DeleteParams) { tokio::join!(s.delete(\"a\", &dp), s.get(\"a\")); }\n";
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(first_line.as_bytes());
    let file = write(dir.path(), "b.rs", &bytes);
    tool().arg("--fix").arg(&file).assert().code(0);
    let fixed = "\u{feff}async fn f(s: Api<Secret>, dp: DeleteParams) { s.delete(\"a\", &dp).await; s.get(\"a\").await; }\n";
    assert_eq!(text(&file), fixed);
}

#[cfg(unix)]
#[test]
fn permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", CODE.as_bytes());
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o751)).unwrap();
    tool().arg("--fix").arg(&file).assert().code(1);
    assert_eq!(text(&file), SAFE_FIXED);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o7777, 0o751);
    // No temporary file is left next to it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["a.rs"]);
}

/// Files for the write-failure tests: two small ones around one whose fixed version is larger
/// than the file size limit set below (8 KiB).
fn three_files(dir: &Path) -> [(PathBuf, Vec<u8>); 3] {
    let big = format!(
        "{CODE}{}",
        "// padding to make the file large\n".repeat(2000)
    );
    assert!(big.len() > 64 * 1024);
    [
        (
            write(dir, "a.rs", CODE.as_bytes()),
            CODE.as_bytes().to_vec(),
        ),
        (write(dir, "b.rs", big.as_bytes()), big.into_bytes()),
        (
            write(dir, "c.rs", CODE.as_bytes()),
            CODE.as_bytes().to_vec(),
        ),
    ]
}

/// Run `--fix` under `sh` with a file size limit of 16 blocks of 512 bytes (POSIX `ulimit -f`),
/// a real failure the kernel imposes on writes, root included.
#[cfg(unix)]
fn fix_with_file_size_limit(dir: &Path, ignore_signal: bool) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("kube-order-lint");
    let script = if ignore_signal {
        // With SIGXFSZ ignored, the write fails with EFBIG instead of killing the process.
        r#"trap '' XFSZ; ulimit -f 16 && exec "$0" "$@""#
    } else {
        r#"ulimit -f 16 && exec "$0" "$@""#
    };
    std::process::Command::new("sh")
        .current_dir(dir)
        .args(["-c", script])
        .arg(bin)
        .args(["--color", "never", "--fix", "a.rs", "b.rs", "c.rs"])
        .output()
        .expect("run sh")
}

/// Every file holds either its original bytes or its completely fixed bytes.
fn original_or_fixed(files: &[(PathBuf, Vec<u8>)]) -> Vec<&'static str> {
    files
        .iter()
        .map(|(path, original)| {
            let now = read(path);
            if now == *original {
                "original"
            } else if String::from_utf8_lossy(&now).starts_with(SAFE_FIXED)
                && now.len() == original.len() + SAFE_FIXED.len() - CODE.len()
            {
                "fixed"
            } else {
                "damaged"
            }
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn a_failed_write_leaves_the_file_as_it_was_and_others_are_still_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let files = three_files(dir.path());
    let out = fix_with_file_size_limit(dir.path(), true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("error: b.rs: cannot write the fixed file: file too large"),
        "{stdout}"
    );
    assert_eq!(original_or_fixed(&files), ["fixed", "original", "fixed"]);
    // The temporary file of the failed write was removed.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[cfg(unix)]
#[test]
fn a_process_killed_while_writing_leaves_every_file_original_or_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let files = three_files(dir.path());
    let out = fix_with_file_size_limit(dir.path(), false);
    // Killed by SIGXFSZ while writing b.rs's temporary file.
    assert_eq!(out.status.code(), None, "{out:?}");
    assert_eq!(original_or_fixed(&files), ["fixed", "original", "original"]);
}

// The two promises below cannot be provoked through the binary: no lint makes a fix whose
// result does not parse, and nothing can edit a file between the binary's read and its write
// on cue. They are tested on the library's fixing engine, with real files.

mod engine {
    use super::*;
    use kube_order_lint::fix::engine::{self, FixOptions};
    use kube_order_lint::fix::{Applicability, Edit, Fix};
    use kube_order_lint::{check, Options, Report};

    fn check_file(path: &Path) -> Report {
        check(&Options {
            paths: vec![path.to_path_buf()],
            jobs: Some(1),
            ..Options::default()
        })
    }

    fn fix(report: &Report) -> engine::FixOutcome {
        let recheck = |file: &kube_order_lint::source::SourceFile, text: &str| {
            kube_order_lint::check::recheck(report, file, text).map(|one| one.diagnostics)
        };
        let options = FixOptions {
            unsafe_fixes: true,
            write: true,
        };
        let named: Vec<_> = report.sources.iter().map(|s| s.path.clone()).collect();
        let roots = kube_order_lint::fix::write::WriteRoots::of(&named);
        engine::run(report, options, &roots, &recheck)
    }

    #[test]
    fn a_file_changed_since_it_was_checked_is_skipped_with_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "a.rs", CODE.as_bytes());
        let report = check_file(&file);
        assert_eq!(report.diagnostics.len(), 2);
        let edited = format!("{CODE}// edited meanwhile\n");
        std::fs::write(&file, &edited).unwrap();
        let outcome = fix(&report);
        assert_eq!(outcome.applied(), 0);
        assert_eq!(outcome.errors.len(), 1);
        assert!(
            outcome.errors[0]
                .message
                .contains("changed on disk since it was checked; not fixed"),
            "{:?}",
            outcome.errors
        );
        assert_eq!(text(&file), edited);
    }

    #[test]
    fn a_fix_whose_result_does_not_parse_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "a.rs", CODE.as_bytes());
        let mut report = check_file(&file);
        // A well-formed fix whose result is not Rust: `{` replacing the `(` of `tokio::join!(`.
        let d = &mut report.diagnostics[0];
        let at = CODE.find("tokio::join!(").unwrap() + "tokio::join!".len();
        let span = kube_order_lint::source::Span {
            file: d.primary.span.file,
            start: at,
            end: at + 1,
        };
        d.fix = Some(Fix::new(
            Applicability::Safe,
            "break the code",
            vec![Edit::replace(span, "{")],
        ));
        let outcome = fix(&report);
        assert_eq!(outcome.applied(), 0);
        assert_eq!(outcome.errors.len(), 1, "{:?}", outcome.errors);
        let message = &outcome.errors[0].message;
        assert!(
            message.contains("a fix would leave code that does not parse at 5:")
                && message.contains("the file is left unchanged"),
            "{message}"
        );
        // Untouched: the other, good fix of the same file is not written either.
        assert_eq!(text(&file), CODE);
    }
}

#[test]
fn suppressed_and_allowed_findings_are_not_fixed_and_unused_suppressions_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let code = r#"use kube::api::{Api, DeleteParams};

async fn run(pods: Api<Pod>, dp: DeleteParams) {
    // kube-order-lint: allow(concurrent-same-object) -- kept concurrent on purpose
    tokio::join!(pods.delete("a", &dp), pods.get("a"));
    tokio::join!(pods.delete("b", &dp), pods.get("b")); // kube-order-lint: allow(concurrent-same-object)
    // kube-order-lint: allow(concurrent-same-object) -- nothing here any more
    let x = 1;
    let y = 2; // kube-order-lint: allow(all, concurrent-same-object)
}
"#;
    let file = write(dir.path(), "a.rs", code.as_bytes());
    // Suppressed findings are not fixed, even with the unsafe fixes.
    tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("applied 0 fixes in 0 files"));
    assert_eq!(text(&file), code);
    // Neither are the findings of an allowed lint.
    let plain = write(dir.path(), "b.rs", CODE.as_bytes());
    tool()
        .args(["--fix", "--unsafe-fixes", "-A", "concurrent-same-object"])
        .arg(&plain)
        .assert()
        .code(0);
    assert_eq!(text(&plain), CODE);
    // Unused suppressions, once reported, are removed: the whole comment (and its line, when
    // it has one of its own), or the one unused name. Both names of the last comment are
    // unused: one round removes one, the next the comment.
    tool()
        .args(["--fix", "--report-unused-suppressions"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "applied 3 fixes in 1 file; 0 findings remain",
        ));
    let expected = r#"use kube::api::{Api, DeleteParams};

async fn run(pods: Api<Pod>, dp: DeleteParams) {
    // kube-order-lint: allow(concurrent-same-object) -- kept concurrent on purpose
    tokio::join!(pods.delete("a", &dp), pods.get("a"));
    tokio::join!(pods.delete("b", &dp), pods.get("b")); // kube-order-lint: allow(concurrent-same-object)
    let x = 1;
    let y = 2;
}
"#;
    assert_eq!(text(&file), expected);
}

/// The text between the line `$ <command>` and the next `$ ` line or the end of its ```text
/// block in the README.
fn readme_output(command: &str) -> String {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let start = readme
        .find(&format!("\n$ {command}\n"))
        .unwrap_or_else(|| panic!("README shows no `$ {command}`"))
        + command.len()
        + 4;
    let rest = &readme[start..];
    let end = [rest.find("\n$ "), rest.find("\n```")]
        .into_iter()
        .flatten()
        .min()
        .expect("end of the block");
    format!("{}\n", &rest[..end])
}

#[test]
fn readme_shows_the_real_output_of_the_status_example() {
    let out = tool().arg("demo/src/status.rs").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        readme_output("kube-order-lint demo/src/status.rs")
    );
}

#[test]
fn readme_shows_the_real_output_of_diff_and_fix() {
    // `--diff` on the demo: stdout then stderr, as a terminal shows them.
    let out = tool().args(["--diff", "demo"]).output().unwrap();
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(shown, readme_output("kube-order-lint --diff demo"));
    // `--fix` on a copy of the demo, three times; the first run's findings are elided there.
    // kube-order-test goes beside it, where the demo's manifest finds its dev-dependency.
    let dir = tempfile::tempdir().unwrap();
    let entries = ["demo", "kube-order-test"].into_iter().flat_map(|dir| {
        let walk = walkdir::WalkDir::new(dir).into_iter();
        walk.filter_entry(|e| e.file_name() != "target")
    });
    for entry in entries.filter_map(Result::ok) {
        let to = dir.path().join(entry.path());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    let run = |args: &[&str]| {
        let out = tool()
            .current_dir(dir.path())
            .args(args)
            .arg("demo")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run(&["--fix"]);
    let last_two: Vec<&str> = first.lines().rev().take(2).collect();
    let expected = readme_output("kube-order-lint --fix demo");
    assert!(expected.starts_with("[… the 4 remaining findings …]\n"));
    assert_eq!(
        format!("{}\n{}\n", last_two[1], last_two[0]),
        expected.trim_start_matches("[… the 4 remaining findings …]\n")
    );
    let unsafe_run = readme_output("kube-order-lint --fix --unsafe-fixes demo");
    assert_eq!(run(&["--fix", "--unsafe-fixes"]), unsafe_run);
    assert_eq!(
        run(&["--fix", "--unsafe-fixes"]),
        "kube-order-lint: no findings in 4 files checked\nkube-order-lint: applied 0 fixes in 0 files; 0 findings remain\n"
    );
}

#[test]
fn rustc_json_and_sarif_carry_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.rs", CODE.as_bytes());
    let out = tool()
        .current_dir(dir.path())
        .args(["--format", "rustc-json", "a.rs"])
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let help = |d: &serde_json::Value| {
        d["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["level"] == "help")
            .cloned()
            .unwrap()
    };
    let safe = help(&lines[0]);
    assert_eq!(
        safe["message"],
        "await the requests one after another, in the order written"
    );
    let span = &safe["spans"][0];
    assert_eq!(span["suggestion_applicability"], "MachineApplicable");
    assert_eq!(
        (span["line_start"].as_u64(), span["column_start"].as_u64()),
        (Some(5), Some(5))
    );
    assert_eq!(
        span["suggested_replacement"],
        "let created = pods.create(&pp, &pod).await;\n    let fetched = pods.get(&pod.name_any()).await;"
    );
    assert_eq!(
        help(&lines[1])["spans"][0]["suggestion_applicability"],
        "MaybeIncorrect"
    );

    let out = tool()
        .current_dir(dir.path())
        .args(["--format", "sarif", "a.rs"])
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fix = &sarif["runs"][0]["results"][0]["fixes"][0];
    assert_eq!(
        fix["description"]["text"],
        "await the requests one after another, in the order written"
    );
    assert_eq!(fix["properties"]["applicability"], "safe");
    let change = &fix["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "a.rs");
    let replacement = &change["replacements"][0];
    assert_eq!(replacement["deletedRegion"]["startLine"], 5);
    assert_eq!(replacement["deletedRegion"]["endColumn"], 94);
    assert_eq!(
        replacement["insertedContent"]["text"],
        "let created = pods.create(&pp, &pod).await;\n    let fetched = pods.get(&pod.name_any()).await;"
    );
}

#[test]
fn findings_recorded_in_the_baseline_are_not_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", CODE.as_bytes());
    let baseline = dir.path().join("baseline.json");
    tool()
        .arg("--write-baseline")
        .arg(&baseline)
        .arg(&file)
        .assert()
        .code(0);
    tool()
        .args(["--fix", "--unsafe-fixes", "--baseline"])
        .arg(&baseline)
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "applied 0 fixes in 0 files; 0 findings remain",
        ));
    assert_eq!(text(&file), CODE);
}

/// CODE's function documented with an example that has the same hazards as its code.
fn documented(code: &str) -> String {
    let example: String = CODE
        .lines()
        .map(|l| format!("/// {l}\n").replace("/// \n", "///\n"))
        .collect();
    format!(
        "//! The example:\n//!\n//! ```no_run\n{}//! ```\n\n{code}",
        example.replace("///", "//!")
    )
}

#[test]
fn fix_leaves_doc_comment_examples_unchanged_and_still_reports_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "a.rs", documented(CODE).as_bytes());
    // The example's two findings and the code's two; only the code's can be fixed.
    tool()
        .args(["--format", "short"])
        .arg(&file)
        .assert()
        .code(1)
        // In the comment: the line and column of the join after `//! `.
        .stdout(predicate::str::contains(
            ":8:34: warning[concurrent-same-object]",
        ))
        .stdout(predicate::str::contains(
            ":9:9: warning[concurrent-same-object]",
        ))
        .stderr(predicate::str::contains(
            "kube-order-lint: 4 findings (4 definite, 0 possible) in 1 file checked",
        ));
    tool()
        .args(["--fix", "--unsafe-fixes"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "kube-order-lint: applied 2 fixes in 1 file; 2 findings remain",
        ));
    assert_eq!(text(&file), documented(ALL_FIXED));
    // Without doc examples, nothing remains.
    tool()
        .args(["--no-doc-examples"])
        .arg(&file)
        .assert()
        .code(0);
}
