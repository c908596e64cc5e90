//! CLI tests: the real binaries, as users and CI scripts run them.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn tool() -> Command {
    let mut cmd = Command::cargo_bin("kube-order-lint").expect("binary");
    cmd.env_remove("NO_COLOR");
    cmd
}

fn json_of(cmd: &mut Command) -> (Value, i32) {
    let out = cmd.output().expect("run");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (doc, out.status.code().unwrap_or(-1))
}

const SEED: &str = "tests/ui/concurrent-same-object/seed.rs";

#[test]
fn findings_exit_with_1_and_a_summary() {
    tool()
        .args(["--color", "never", SEED])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("warning[concurrent-same-object]"))
        .stdout(predicate::str::contains(
            "kube-order-lint: 2 findings (2 definite, 0 possible) in 1 file checked",
        ));
}

#[test]
fn clean_files_exit_with_0() {
    tool()
        .arg("tests/ui/concurrent-same-object/negatives.rs")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no findings in 1 file checked"));
}

#[test]
fn exit_zero_reports_but_succeeds() {
    tool()
        .args(["--exit-zero", SEED])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("concurrent-same-object"));
}

#[test]
fn cargo_subcommand_form_drops_its_name() {
    let mut cmd = Command::cargo_bin("cargo-kube-order-lint").expect("binary");
    cmd.args(["kube-order-lint", "--format", "json", SEED]);
    let (doc, code) = json_of(&mut cmd);
    assert_eq!(code, 1);
    assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(2));
    // The same binary also works when called directly.
    let mut direct = Command::cargo_bin("cargo-kube-order-lint").expect("binary");
    direct.arg(SEED).assert().code(1);
}

#[test]
fn json_has_every_documented_field() {
    let (doc, code) = json_of(tool().args(["--format", "json", SEED]));
    assert_eq!(code, 1);
    assert_eq!(doc["tool"], "kube-order-lint");
    assert_eq!(doc["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(doc["files_checked"], 1);
    assert_eq!(doc["errors"], Value::Array(vec![]));
    let d = &doc["diagnostics"][0];
    assert_eq!(d["lint"], "concurrent-same-object");
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["confidence"], "definite");
    assert_eq!(d["file"], SEED);
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(15), Some(30))
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(15), Some(84))
    );
    assert!(d["message"]
        .as_str()
        .is_some_and(|m| m.contains("Pod \"blog\"")));
    assert!(d["help"]
        .as_str()
        .is_some_and(|h| h.contains("pods.get(\"blog\").await")));
    assert_eq!(d["fix"]["applicability"], "safe");
    assert!(d["fix"]["edits"][0]["replacement"]
        .as_str()
        .is_some_and(|r| r.contains("let fetched = pods.get(\"blog\").await;")));
    let labels = d["labels"].as_array().expect("labels");
    let secondary: Vec<&Value> = labels.iter().filter(|l| l["primary"] == false).collect();
    assert_eq!(secondary.len(), 2);
    assert_eq!(secondary[0]["message"], "creates Pod \"blog\"");
    assert_eq!(secondary[0]["file"], SEED);
    assert_eq!(
        (
            secondary[0]["line"].as_u64(),
            secondary[0]["column"].as_u64()
        ),
        (Some(15), Some(43))
    );
    assert_eq!(secondary[1]["message"], "reads Pod \"blog\"");
    for l in labels {
        for key in ["line", "column", "end_line", "end_column"] {
            assert!(l[key].as_u64().is_some_and(|n| n >= 1), "label {key}");
        }
    }
}

#[test]
fn min_confidence_definite_drops_possible_findings() {
    let path = "tests/ui/concurrent-same-object/handles.rs";
    let (all, _) = json_of(tool().args(["--format", "json", path]));
    let (definite, _) =
        json_of(tool().args(["--format", "json", "--min-confidence", "definite", path]));
    let count = |d: &Value| d["diagnostics"].as_array().map(Vec::len).unwrap_or(0);
    assert!(count(&definite) < count(&all));
    assert!(definite["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .all(|d| d["confidence"] == "definite"));
}

#[test]
fn unparsable_file_is_an_error_with_position_and_others_are_still_checked() {
    let (doc, code) =
        json_of(tool().args(["--format", "json", "tests/fixtures/files/broken.rs", SEED]));
    assert_eq!(code, 2);
    let e = &doc["errors"][0];
    assert_eq!(e["file"], "tests/fixtures/files/broken.rs");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(13))
    );
    assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(2));
    // Errors also reach stderr when stdout is JSON.
    tool()
        .args(["--format", "json", "tests/fixtures/files/broken.rs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: tests/fixtures/files/broken.rs:2:13:",
        ));
}

#[test]
fn non_utf8_file_is_a_clear_error() {
    tool()
        .args(["--color", "never", "tests/fixtures/files/latin1.rs"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "tests/fixtures/files/latin1.rs: file is not valid UTF-8",
        ));
}

#[test]
fn missing_path_is_a_one_line_error() {
    tool()
        .args(["--color", "never", "no/such/dir"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "error: no/such/dir: no such file or directory",
        ));
}

#[test]
fn usage_errors_exit_with_2() {
    tool().arg("--format=yaml").assert().code(2);
    tool().arg("--no-such-flag").assert().code(2);
    tool().args(["explain", "no-such-lint"]).assert().code(2);
}

#[test]
fn explain_prints_the_lint_page_and_list_lists_lints() {
    tool()
        .args(["explain", "concurrent-same-object"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("# concurrent-same-object\n"))
        .stdout(predicate::str::contains("## Why is this bad?"));
    tool()
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("concurrent-same-object"));
}

fn files_with_findings(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|d| d["file"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn workspace_with_two_members_checks_every_member_through_modules() {
    let (doc, code) = json_of(tool().args(["--format", "json", "tests/fixtures/crates/workspace"]));
    assert_eq!(code, 1, "{doc}");
    // alpha: lib.rs, client.rs, client/retry.rs, util/mod.rs; beta: main.rs, cmd.rs,
    // examples/demo.rs (build.rs is not checked).
    assert_eq!(doc["files_checked"], 7, "{doc}");
    assert_eq!(
        files_with_findings(&doc),
        [
            "tests/fixtures/crates/workspace/alpha/src/client/retry.rs",
            "tests/fixtures/crates/workspace/beta/src/cmd.rs"
        ]
    );
}

#[test]
fn path_modules_are_followed_and_orphans_are_not_checked() {
    let (doc, code) = json_of(tool().args(["--format", "json", "tests/fixtures/crates/pathmod"]));
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        files_with_findings(&doc),
        ["tests/fixtures/crates/pathmod/src/elsewhere/special.rs"]
    );
    // lib.rs, elsewhere/special.rs, elsewhere/helper.rs, outer/inner.rs, outer/deep.rs
    assert_eq!(doc["files_checked"], 5, "{doc}");
}

#[test]
fn crate_directory_reports_findings_in_module_files() {
    let (doc, code) = json_of(tool().args(["--format", "json", "demo"]));
    assert_eq!(code, 1);
    let files: Vec<&str> = doc["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|d| d["file"].as_str())
        .collect();
    assert_eq!(
        files,
        [
            "demo/src/main.rs",
            "demo/src/reconcile.rs",
            "demo/src/reconcile.rs",
            "demo/src/reconcile.rs",
            "demo/src/status.rs"
        ]
    );
}

#[test]
fn findings_point_at_the_confirm_section_of_their_lint() {
    let (doc, _) = json_of(tool().args(["--format", "json", "demo"]));
    for d in doc["diagnostics"].as_array().expect("array") {
        let lint = d["lint"].as_str().expect("lint");
        assert_eq!(d["confirm"], format!("lints/{lint}.md#confirm"), "{d}");
    }
    let out = tool()
        .args(["--color", "never", "demo/src/status.rs"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(
        "= help: confirm it at run time with kube-order-test: \
         `kube-order-lint explain concurrent-same-object`, section Confirm\n"
    ));
    let page = tool()
        .args(["explain", "concurrent-same-object"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&page.stdout).contains("\n## Confirm\n"));
}

#[test]
fn color_always_emits_escape_codes_and_never_does_not() {
    let colored = tool()
        .args(["--color", "always", SEED])
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&colored.stdout).contains('\u{1b}'));
    let plain = tool()
        .args(["--color", "never", SEED])
        .output()
        .expect("run");
    assert!(!String::from_utf8_lossy(&plain.stdout).contains('\u{1b}'));
    // NO_COLOR is honoured with `auto` (and stdout is not a terminal here anyway).
    let no_color = tool().env("NO_COLOR", "1").arg(SEED).output().expect("run");
    assert!(!String::from_utf8_lossy(&no_color.stdout).contains('\u{1b}'));
}

#[test]
fn batch_checking_reports_batches_keyed_by_their_element_as_possible() {
    let file = "tests/ui/concurrent-same-object/realworld.rs";
    let (doc, code) = json_of(tool().args(["--format", "json", file]));
    assert_eq!(
        code, 0,
        "element-keyed batches are silent by default: {doc}"
    );
    let (doc, code) = json_of(tool().args(["--format", "json", "--batch-checking", file]));
    assert_eq!(code, 1);
    let found: Vec<(u64, &str, &str)> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap_or(0),
                d["confidence"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    // Only the restarts of `join_all(restart_futures)`: the read-only fan-outs stay silent.
    assert_eq!(found.len(), 1, "{found:?}");
    let (line, confidence, message) = found[0];
    assert_eq!((line, confidence), (50, "possible"));
    assert!(
        message.contains("restarts of StatefulSet `sts_name`")
            && message.contains("statefulset_names.iter()")
            && message.contains("`join_all`"),
        "{message}"
    );
    // Different elements normally name different objects: no loop that serialises them all,
    // but advice to group them by object.
    let fix = &doc["diagnostics"][0]["fix"];
    assert_eq!(fix["applicability"], "display-only", "{fix}");
    assert_eq!(fix["edits"].as_array().map(Vec::len), Some(0), "{fix}");
    assert!(
        fix["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("group the elements of `statefulset_names.iter()`")),
        "{fix}"
    );
}

#[test]
fn batch_checking_from_the_configuration_applies_to_its_crate() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(tmp.path().join(".git")).expect(".git");
    std::fs::copy(
        "tests/ui/concurrent-same-object/realworld.rs",
        tmp.path().join("realworld.rs"),
    )
    .expect("copy");
    std::fs::write(
        tmp.path().join("kube-order-lint.toml"),
        "batch_checking = true\n",
    )
    .expect("config");
    let (doc, code) = json_of(
        tool()
            .args(["--format", "json", "realworld.rs"])
            .current_dir(tmp.path()),
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        doc["diagnostics"].as_array().map(Vec::len),
        Some(1),
        "{doc}"
    );
    let (doc, code) = json_of(
        tool()
            .args(["--format", "json", "--no-config", "realworld.rs"])
            .current_dir(tmp.path()),
    );
    assert_eq!(code, 0, "{doc}");
}

#[test]
fn debug_model_lists_web_handlers_with_what_the_server_hands_them() {
    let out = tool()
        .args([
            "debug",
            "model",
            "tests/ui/concurrent-same-object/web_handlers.rs",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("handler #2 49:37 `closed` -- axum POST /closed")
            && text.contains("root: Handled(\"Json<PullRequest>\"), fields: [\"number\"]"),
        "{text}"
    );
    assert!(
        text.contains("`bump` -- actix-web * (path not written)"),
        "{text}"
    );
    // A `Router` of another crate registers nothing.
    let out = tool()
        .args([
            "debug",
            "model",
            "tests/ui/concurrent-same-object/web_handlers_lookalikes.rs",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("`not_registered`"), "{text}");
}

#[test]
fn debug_model_shows_each_request_with_its_identity() {
    let out = tool()
        .args(["debug", "model", "tests/ui/concurrent-same-object/seed.rs"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("create Write kind=Pod namespace=Default")
            && text.contains("name=Literal(\"blog\") (at best definite)"),
        "{text}"
    );
    assert!(text.contains("site 15:30 `tokio::join!`"), "{text}");
    // A call that is not a kube request says why.
    let out = tool()
        .args([
            "debug",
            "model",
            "tests/ui/concurrent-same-object/negatives.rs",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("receiver is not a kube Api"), "{text}");
}

#[test]
fn thread_count_and_prefilter_do_not_change_the_output() {
    let run = |extra: &[&str]| {
        let mut cmd = tool();
        cmd.args(["--color", "never", "tests/ui", "demo"])
            .args(extra);
        let out = cmd.output().expect("run");
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        String::from_utf8(out.stdout).expect("utf8")
    };
    let default = run(&[]);
    assert!(default.contains("warning[concurrent-same-object]"));
    for extra in [
        &["-j", "1"][..],
        &["--jobs", "2"],
        &["-j", "3"],
        &["--no-prefilter"],
    ] {
        assert_eq!(run(extra), default, "{extra:?}");
    }
    tool()
        .args(["-j", "many", SEED])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'many'"));
}

/// Requests through a crate's `async fn` handing out `Api<K>` in a `Result` are recognised; the
/// same call on a value of another type is left unresolved.
#[test]
fn statistics_count_requests_through_async_api_wrappers_as_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lib.rs");
    std::fs::write(
        &file,
        r#"
        struct Kubectl { client: Client }
        impl Kubectl {
            async fn namespaced_api<T>(&self, namespace: &str) -> anyhow::Result<Api<T>> {
                Ok(Api::namespaced(self.client.clone(), namespace))
            }
            async fn secrets(&self, ns: &str) -> anyhow::Result<()> {
                let secrets = self.namespaced_api::<Secret>(ns).await?;
                secrets.get("token").await?;
                self.namespaced_api::<Secret>(ns).await?.delete("token", &dp).await?;
                Ok(())
            }
        }
        async fn foreign(remote: &remote::Cluster) -> anyhow::Result<()> {
            remote.namespaced_api::<Secret>("ns").await?.delete("token", &dp).await?;
            Ok(())
        }
        "#,
    )
    .unwrap();
    let (doc, code) = json_of(tool().args(["--statistics", "--format", "json"]).arg(&file));
    assert_eq!(code, 0, "{doc}");
    let stats = &doc["statistics"];
    assert_eq!(stats["requests"], 2, "{stats}");
    let unresolved: Vec<&str> = stats["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u["name"].as_str())
        .collect();
    assert!(unresolved.contains(&".delete"), "{stats}");
    assert!(!unresolved.contains(&".get"), "{stats}");
}

#[test]
fn statistics_counts_findings_requests_sites_and_unresolved_calls() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lib.rs");
    std::fs::write(
        &file,
        r#"
        async fn f(pods: Api<Pod>, store: Store) {
            tokio::join!(pods.delete("a", &dp), pods.get("a"));
            store.patch("l", &pp, &patch).await;
        }
        "#,
    )
    .unwrap();
    tool()
        .args(["--statistics", "--color", "never"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("1  concurrent-same-object"))
        .stdout(predicate::str::contains("2  kube requests recognised"))
        .stdout(predicate::str::contains("1  concurrency sites"))
        .stdout(predicate::str::contains("1  .patch"))
        .stdout(predicate::str::contains("warning[").not());
    let (doc, code) = json_of(tool().args(["--statistics", "--format", "json"]).arg(&file));
    assert_eq!(code, 1);
    let stats = &doc["statistics"];
    assert_eq!(stats["findings"]["concurrent-same-object"]["count"], 1);
    assert_eq!(stats["requests"], 2);
    assert_eq!(stats["unresolved_calls"], 1);
    assert_eq!(stats["unresolved"][0]["name"], ".patch");
    assert_eq!(stats["dependencies_unread"], 0);
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 1);
    // Without the flag the document has no statistics field.
    let (doc, _) = json_of(tool().args(["--format", "json"]).arg(&file));
    assert!(doc.get("statistics").is_none());
    tool()
        .args(["--statistics", "--format", "sarif"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--statistics works with"));
}

#[test]
fn names_of_unrelated_origin_are_shown_only_at_min_confidence_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lib.rs");
    std::fs::write(
        &file,
        "async fn f(pods: Api<Pod>, a: String, b: String, dp: DeleteParams) {\n    \
         tokio::join!(pods.delete(&a, &dp), pods.get(&b));\n}\n",
    )
    .unwrap();
    let (doc, code) = json_of(tool().args(["--format", "json"]).arg(&file));
    assert_eq!((code, doc["diagnostics"].as_array().unwrap().len()), (0, 0));
    let (doc, code) = json_of(
        tool()
            .args(["--format", "json", "--min-confidence", "unknown"])
            .arg(&file),
    );
    assert_eq!(code, 1);
    assert_eq!(doc["diagnostics"][0]["confidence"], "unknown");
    assert_eq!(doc["diagnostics"][0]["severity"], "note");
}

#[test]
fn a_finalizer_events_object_is_the_reconciled_object() {
    // The writes named after the object of `finalizer`'s event were `unknown` ("every
    // reconcile in flight writes ..."): the object is the reconciled one, so none is reported
    // even when asked for. The look-alike, `Apply(target)` of the crate's own enum, still is,
    // and the event's object, typed as the reconciled one, runs `Keeper::sync` (line 45).
    let negatives = "tests/ui/concurrent-same-object/finalizer_reconciles_negatives.rs";
    let (doc, code) =
        json_of(tool().args(["--format", "json", "--min-confidence", "unknown", negatives]));
    assert_eq!(
        (code, doc["diagnostics"].as_array().unwrap().len()),
        (0, 0),
        "{doc}"
    );
    let hazards = "tests/ui/concurrent-same-object/finalizer_reconciles.rs";
    let (doc, _) =
        json_of(tool().args(["--format", "json", "--min-confidence", "unknown", hazards]));
    let found: Vec<(u64, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap(),
                d["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (45, "definite".to_string()),
            (81, "definite".to_string()),
            (98, "unknown".to_string())
        ],
        "{doc}"
    );
}

#[test]
fn a_library_method_after_result_adapters_is_not_the_crates_by_name() {
    // actix's `HttpServer::new(..).bind(..).context(..)?.run()` and its kin were taken for the
    // crate's `Sweeper::run` by its name (`unknown` findings); typed through the adapters, they
    // are silent even when asked for, and the crate's own `Sweeper` through the same adapters
    // is typed (`possible`, where by its name alone `unknown`).
    let path = "tests/ui/concurrent-same-object/library_run_adapters.rs";
    let (doc, _) = json_of(tool().args(["--format", "json", "--min-confidence", "unknown", path]));
    let found: Vec<(u64, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap(),
                d["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let possible = |line| (line, "possible".to_string());
    assert_eq!(found, [possible(65), possible(70), possible(76)], "{doc}");
}

#[test]
fn debug_model_links_a_crate_as_check_does() {
    // The alias is declared in lib.rs and used in election.rs: linked, the requests are seen.
    let out = tool()
        .args(["debug", "model", "tests/ui/concurrent-same-object/aliases"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("== tests/ui/concurrent-same-object/aliases/src/election.rs"),
        "{text}"
    );
    assert!(
        text.contains("delete Write kind=Lease") && text.contains("resolution=Typed"),
        "{text}"
    );
    assert!(
        text.contains("`cache.delete` -- receiver is not a kube Api"),
        "{text}"
    );
}

#[test]
fn a_lexing_error_names_the_unclosed_delimiter_and_where_it_opens() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("main.rs");
    std::fs::write(&file, "fn main(\n").unwrap();
    tool()
        .arg(&file)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "main.rs:1:8: unclosed delimiter: `(` is never closed before the end of the file",
        ));
}

#[test]
fn guarded_cancellable_writes_are_unknown_with_the_precondition_noted() {
    // The look-alikes of `preconditions.rs` are not gone: shown when asked for, as `unknown`.
    let path = "tests/ui/cancellable-write/preconditions.rs";
    let (doc, _) = json_of(tool().args(["--format", "json", "--min-confidence", "unknown", path]));
    let found = doc["diagnostics"].as_array().unwrap();
    assert_eq!(found.len(), 2, "{doc}");
    for d in found {
        assert_eq!(d["lint"], "cancellable-write");
        assert_eq!(d["confidence"], "unknown");
        let notes = d["notes"].to_string();
        assert!(notes.contains("`resourceVersion` precondition"), "{notes}");
    }
}

#[test]
fn cancellable_writes_that_nothing_follows_are_unknown_with_a_note() {
    // The look-alikes of `timeout.rs` and `select.rs`: silent by default, shown when asked for.
    for (path, line) in [
        ("tests/ui/cancellable-write/timeout.rs", 11),
        ("tests/ui/cancellable-write/select.rs", 21),
    ] {
        let (doc, _) = json_of(tool().args(["--format", "json", path]));
        let at_line = |doc: &serde_json::Value| {
            doc["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["line"] == line)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert!(at_line(&doc).is_empty(), "{doc}");
        let (doc, _) =
            json_of(tool().args(["--format", "json", "--min-confidence", "unknown", path]));
        let found = at_line(&doc);
        assert_eq!(found.len(), 1, "{doc}");
        assert_eq!(found[0]["lint"], "cancellable-write");
        assert_eq!(found[0]["confidence"], "unknown");
        let notes = found[0]["notes"].to_string();
        assert!(notes.contains("nothing writes the object again"), "{notes}");
    }
}

/// A suppression at an async caller of a blocking helper removes that caller from the helper's
/// finding (in another file too) and counts as used; one at a sync call of the helper, which
/// makes no finding, suppresses nothing (issue 25, item 2).
#[test]
fn suppressions_at_blocking_helper_callers_are_used() {
    let case = "tests/ui/block-on-in-async/suppressed_callers";
    let (doc, code) =
        json_of(tool().args(["--format", "json", "--report-unused-suppressions", case]));
    assert_eq!(code, 1);
    let found: Vec<(String, String, u64)> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["lint"].as_str().unwrap_or_default().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let lib = format!("{case}/src/lib.rs");
    assert_eq!(
        found,
        [
            ("block-on-in-async".to_string(), lib.clone(), 8),
            ("unused-suppression".to_string(), lib, 25),
        ],
        "{doc}"
    );
    // The remaining caller is the unsuppressed one, in lib.rs; worker.rs's is left out.
    let notes = doc["diagnostics"][0]["notes"].to_string();
    assert!(
        notes.contains("at 1 place") && !notes.contains("worker.rs"),
        "{notes}"
    );
}

/// A write every reconcile of a controller makes, in a helper of another module: each format
/// points at the write and names the controller's `run` (in `controller.rs`) as its site; the
/// suppressions at another run and at another write are used (not reported unused).
#[test]
fn a_reconcile_write_in_another_file_is_reported_at_the_write_with_the_run_as_site() {
    let case = "tests/ui/concurrent-same-object/reconcile_helpers_crate";
    let index = format!("{case}/src/index.rs");
    let controller = format!("{case}/src/controller.rs");
    let (doc, code) =
        json_of(tool().args(["--format", "json", "--report-unused-suppressions", case]));
    assert_eq!(code, 1);
    let found = doc["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(found.len(), 1, "{doc:#}");
    let d = &found[0];
    assert_eq!(d["lint"], "concurrent-same-object");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some(index.as_str()), Some(14))
    );
    let site = &d["site"];
    assert_eq!(
        (
            site["file"].as_str(),
            site["line"].as_u64(),
            site["column"].as_u64()
        ),
        (Some(controller.as_str()), Some(32), Some(5))
    );
    assert_eq!(site["primary"], false);
    let labels = d["labels"].as_array().expect("labels");
    assert!(labels
        .iter()
        .any(|l| l["file"] == controller.as_str() && l["message"] == site["message"]));
    // Findings that point where they are made have no site.
    let (seed, _) = json_of(tool().args(["--format", "json", SEED]));
    assert!(seed["diagnostics"][0].get("site").is_none());

    let github = tool()
        .args(["--format", "github", case])
        .output()
        .expect("run");
    let github = String::from_utf8_lossy(&github.stdout);
    assert!(
        github.contains(&format!("file={index},line=14")),
        "{github}"
    );
    assert!(
        github.contains(&format!("%0A{controller}:32:5: ")),
        "{github}"
    );
    let sarif = tool()
        .args(["--format", "sarif", case])
        .output()
        .expect("run");
    let sarif: Value = serde_json::from_slice(&sarif.stdout).expect("sarif");
    let result = &sarif["runs"][0]["results"][0];
    let uri = |l: &Value| {
        l["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(uri(&result["locations"][0]).ends_with("src/index.rs"));
    assert!(result["relatedLocations"]
        .as_array()
        .expect("related")
        .iter()
        .any(|l| uri(l).ends_with("src/controller.rs")));
    tool()
        .args(["--format", "short", case])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{index}:14:5: ")));
}
