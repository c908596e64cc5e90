//! The prefilter never loses a finding: every UI fixture, every example of the lint pages, the
//! demo operator and the fixture crates give the same report with and without it. Also: files
//! that only mention a name declared elsewhere are parsed, modules of files without trigger
//! words are still followed, and files too large to parse are named in a note.

use std::path::{Path, PathBuf};

use kube_order_lint::{check, report, Options, Report};

fn run(paths: &[PathBuf], no_prefilter: bool) -> Report {
    check(&Options {
        paths: paths.to_vec(),
        jobs: Some(2),
        no_prefilter,
        ..Options::default()
    })
}

/// Everything a user sees, as JSON (findings with positions, labels and help; errors; notes;
/// files checked).
fn json(report: &Report) -> String {
    report::json::render(report)
}

fn assert_same_with_and_without_prefilter(paths: &[PathBuf]) -> (Report, Report) {
    let with = run(paths, false);
    let without = run(paths, true);
    let (a, b) = (json(&with), json(&without));
    if a != b {
        let diff = similar::TextDiff::from_lines(&b, &a)
            .unified_diff()
            .header("without prefilter", "with prefilter")
            .to_string();
        panic!("Wrong: the prefilter changed the report of {paths:?}:\n{diff}");
    }
    assert_eq!(without.files_parsed, without.files_checked);
    (with, without)
}

#[test]
fn ui_suite_gives_the_same_report_with_and_without_prefilter() {
    // The directory is walked, so every fixture goes through the prefilter (files named on the
    // command line are always parsed).
    let (with, _) = assert_same_with_and_without_prefilter(&[PathBuf::from("tests/ui")]);
    assert!(
        !with.diagnostics.is_empty(),
        "the UI suite should have findings"
    );
    assert!(with.files_parsed <= with.files_checked);
}

#[test]
fn ui_crate_cases_give_the_same_report_with_and_without_prefilter() {
    if !cargo_available() {
        eprintln!("skipped: `cargo` is not available");
        return;
    }
    let mut cases = 0;
    for lint in std::fs::read_dir("tests/ui").unwrap() {
        for case in std::fs::read_dir(lint.unwrap().path()).unwrap() {
            let case = case.unwrap().path();
            if case.join("Cargo.toml").is_file() {
                cases += 1;
                let (with, _) = assert_same_with_and_without_prefilter(std::slice::from_ref(&case));
                assert!(!with.diagnostics.is_empty(), "{}", case.display());
            }
        }
    }
    assert!(cases > 0, "no crate cases under tests/ui");
}

#[test]
fn lint_page_examples_give_the_same_report_with_and_without_prefilter() {
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for page in std::fs::read_dir("lints").unwrap() {
        let page = page.unwrap().path();
        if page.extension().map_or(true, |e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        let mut code: Option<String> = None;
        for line in text.lines() {
            match &mut code {
                None if line.starts_with("```rust") => code = Some(String::new()),
                Some(c) if line.starts_with("```") => {
                    n += 1;
                    std::fs::write(dir.path().join(format!("block{n}.rs")), c).unwrap();
                    code = None;
                }
                Some(c) => {
                    c.push_str(line);
                    c.push('\n');
                }
                None => {}
            }
        }
    }
    assert!(n > 0, "no rust blocks in lints/*.md");
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.files_checked, n);
}

fn cargo_available() -> bool {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    std::process::Command::new(cargo)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn crates_give_the_same_report_with_and_without_prefilter() {
    if !cargo_available() {
        eprintln!("skipped: `cargo` is not available");
        return;
    }
    for dir in [
        "demo",
        "tests/fixtures/crates/workspace",
        "tests/fixtures/crates/pathmod",
    ] {
        assert_same_with_and_without_prefilter(&[PathBuf::from(dir)]);
    }
}

fn write(root: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn files_using_a_linked_name_are_parsed_and_others_are_not() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("ctx.rs", "pub struct Ctx { pub pods: Api<Pod> }\n"),
            (
                "fields.rs",
                "async fn f(c: &Ctx) { c.pods.delete(\"a\", &dp).await; }\n",
            ),
            (
                "calls.rs",
                "async fn g(c: &Ctx) { make_pods(c).get(\"a\").await; }\n",
            ),
            (
                "helpers.rs",
                "fn make_pods(c: &Client) -> Api<Pod> { todo!() }\n",
            ),
            (
                "unrelated.rs",
                "// pods, make_pods\nfn h(m: &Map) { m.get(\"pods\"); }\n",
            ),
        ],
    );
    let paths = [dir.path().to_path_buf()];
    let (with, without) = assert_same_with_and_without_prefilter(&paths);
    assert_eq!(with.files_checked, 5);
    assert_eq!(without.files_parsed, 5);
    // ctx.rs and helpers.rs (trigger word), fields.rs and calls.rs (linked names); not
    // unrelated.rs, which mentions the names only in a comment and a string.
    assert_eq!(with.files_parsed, 4);
}

#[test]
fn helpers_and_consts_declared_without_trigger_words_are_parsed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "site.rs",
                "use kube::Api;\n\
                 async fn reconcile(pods: Api<Pod>) -> anyhow::Result<()> {\n\
                 \x20   tokio::try_join!(touch(&pods), pods.get(NAME))?;\n\
                 \x20   Ok(())\n}\n",
            ),
            // Neither a trigger word nor a linked name in use: only its declarations matter.
            (
                "relay.rs",
                "pub async fn touch(p: &Pods) -> Result<(), E> {\n    mark(p, \"blog\").await\n}\n",
            ),
            (
                "mark.rs",
                "use kube::{api::{Patch, PatchParams}, Api};\n\
                 pub async fn mark(pods: &Api<Pod>, name: &str) -> Result<(), E> {\n\
                 \x20   pods.patch(name, &PatchParams::default(), &Patch::Merge(())).await?;\n\
                 \x20   Ok(())\n}\n",
            ),
            ("names.rs", "pub const NAME: &str = \"blog\";\n"),
            (
                "other.rs",
                "pub const OTHER: &str = \"x\";\nfn unrelated() {}\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.diagnostics.len(), 1);
    let labels: Vec<&str> = with.diagnostics[0]
        .secondary
        .iter()
        .map(|l| l.message.as_str())
        .collect();
    // Through relay.rs to mark.rs; NAME resolved through names.rs.
    assert!(
        labels
            .iter()
            .any(|l| l.contains("`relay::touch` → `mark::mark` patches Pod \"blog\"")),
        "{labels:?}"
    );
    assert!(labels.contains(&"reads Pod \"blog\""), "{labels:?}");
    assert_eq!((with.files_checked, with.files_parsed), (5, 4));
}

#[test]
fn names_given_only_to_blocking_helpers_do_not_draw_in_their_makers() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "settle.rs",
                "pub fn settle(name: &str) {\n    futures::executor::block_on(async {});\n}\n\
                 async fn f() {\n    let key = key_name();\n    settle(&key);\n}\n",
            ),
            // Its tail would name an object if `settle` made requests; it only blocks.
            (
                "key.rs",
                "pub fn key_name() -> String {\n    format!(\"{}-key\", 1)\n}\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.diagnostics.len(), 1);
    assert_eq!((with.files_checked, with.files_parsed), (2, 1));
}

#[test]
fn a_field_given_two_function_values_draws_in_no_other_giver() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "hooks.rs",
                "use kube::Api;\n\
                 pub struct Hooks { pub on_change: fn() }\n\
                 async fn watch(h: &Hooks, pods: Api<Pod>) {\n\
                 \x20   (h.on_change)();\n\
                 \x20   pods.get(\"a\").await;\n}\n\
                 fn one() -> Hooks { Hooks { on_change: first } }\n\
                 fn two() -> Hooks { Hooks { on_change: second } }\n",
            ),
            // A third value cannot make the call less ambiguous than two do.
            (
                "third.rs",
                "fn three() -> Hooks { Hooks { on_change: third } }\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!((with.files_checked, with.files_parsed), (2, 1));
}

#[test]
fn a_field_given_no_value_draws_in_files_giving_it_a_helper_by_path() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "hooks.rs",
                "use kube::Api;\n\
                 pub struct Hooks { pub on_change: fn(&Api<Pod>) -> F }\n\
                 async fn watch(h: &Hooks, pods: Api<Pod>) {\n\
                 \x20   tokio::join!((h.on_change)(&pods), pods.get(\"a\"));\n}\n\
                 pub async fn touch(pods: &Api<Pod>) {\n\
                 \x20   pods.delete(\"a\", &Default::default()).await;\n}\n",
            ),
            // The only value the field is given, by path: `touch` makes requests.
            (
                "given.rs",
                "fn hooks() -> Hooks { Hooks { on_change: touch } }\n",
            ),
            // The helper's name alone, without the field's.
            (
                "other.rs",
                "fn other() -> u8 {\n    let touch = 1;\n    touch\n}\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!((with.files_checked, with.files_parsed), (3, 2));
}

#[test]
fn modules_of_files_without_trigger_words_are_followed() {
    if !cargo_available() {
        eprintln!("skipped: `cargo` is not available");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"layers\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
            ),
            ("src/lib.rs", "pub mod outer;\n"),
            ("src/outer.rs", "mod inner;\npub fn nothing() {}\n"),
            (
                "src/outer/inner.rs",
                "use kube::{Api, api::PostParams};\nuse k8s_openapi::api::core::v1::Pod;\n\
                 async fn f(pods: Api<Pod>, pod: Pod) -> anyhow::Result<()> {\n\
                 \x20   let (_, _) = tokio::try_join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any()))?;\n\
                 \x20   Ok(())\n}\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.files_checked, 3, "{:?}", with.errors);
    assert_eq!(with.diagnostics.len(), 1);
}

#[test]
fn files_too_large_to_parse_are_named_in_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let big_table = format!(
        "pub static T: [u32; 3000] = [{}];\n",
        vec!["7"; 3000].join(", ")
    );
    let big_relevant = format!(
        "{big_table}async fn f(p: &Api<Pod>) {{ tokio::join!(p.get(\"a\"), p.get(\"b\")); }}\n"
    );
    write(
        dir.path(),
        &[
            ("table.rs", &big_table),
            ("relevant.rs", &big_relevant),
            (
                "small.rs",
                "async fn g(p: &Api<Pod>) { tokio::join!(p.get(\"a\"), p.get(\"b\")); }\n",
            ),
        ],
    );
    let report = check(&Options {
        paths: vec![dir.path().to_path_buf()],
        max_file_size: 4096,
        ..Options::default()
    });
    // The table has nothing for the model: checked by the prefilter alone, no note.
    assert_eq!(report.files_checked, 2);
    assert_eq!(report.files_parsed, 1);
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    let note = &report.notes[0];
    assert!(
        note.contains("relevant.rs was not checked: it has ") && note.contains("over the 4 KiB"),
        "{note}"
    );
    // Without the prefilter, the table is too large as well.
    let report = check(&Options {
        paths: vec![dir.path().to_path_buf()],
        max_file_size: 4096,
        no_prefilter: true,
        ..Options::default()
    });
    assert_eq!(report.files_checked, 1);
    assert_eq!(report.notes.len(), 2, "{:?}", report.notes);
}

#[test]
fn suppression_comments_are_checked_in_files_without_trigger_words() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "a.rs",
                "// kube-order-lint: allow(no-such-lint)\nfn f() {}\n",
            ),
            ("b.rs", "fn g() {}\n"),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.errors.len(), 1, "{:?}", with.errors);
    assert!(with.errors[0].message.contains("no-such-lint"));
    assert_eq!((with.files_checked, with.files_parsed), (2, 1));
}

#[test]
fn names_given_to_another_type_s_function_of_a_requesting_name_do_not_draw_in_their_makers() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "marker.rs",
                "use kube::{api::{Patch, PatchParams}, Api};\n\
                 pub struct Marker;\n\
                 impl Marker {\n\
                 \x20   pub async fn new(pods: &Api<Pod>, name: &str) {\n\
                 \x20       let _ = pods.patch(name, &PatchParams::default(), &Patch::Merge(())).await;\n\
                 \x20   }\n}\n\
                 async fn f(pods: Api<Pod>) {\n\
                 \x20   let (a, b) = tokio::join!(Marker::new(&pods, &obj_name()), pods.get(\"blog-obj\"));\n\
                 \x20   let config = Config::new(key_name());\n}\n",
            ),
            // The name `Marker::new` is given: its maker matters.
            (
                "obj.rs",
                "pub fn obj_name() -> String {\n    format!(\"{}-obj\", \"blog\")\n}\n",
            ),
            // `Config::new` cannot run `Marker::new`: what it is given names no object.
            (
                "key.rs",
                "pub fn key_name() -> String {\n    format!(\"{}-key\", 1)\n}\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.diagnostics.len(), 1);
    assert_eq!((with.files_checked, with.files_parsed), (3, 2));
}

#[test]
fn files_typing_the_receiver_of_a_call_that_blocks_are_parsed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "rt.rs",
                "pub struct Rt;\n\
                 impl Rt {\n    pub fn settle(&self) {\n        futures::executor::block_on(async {});\n    }\n}\n\
                 pub struct Quiet;\n\
                 impl Quiet {\n    pub fn settle(&self) {}\n}\n",
            ),
            // No trigger word; `r.settle()` runs `Rt::settle` only because `make` gives an `Rt`.
            // (The `use` names `Rt`, which a call of `settle` needs to be parsed at all: a file
            // typing a receiver only through a call is not found by its text.)
            (
                "caller.rs",
                "use crate::rt::Rt;\nasync fn reconcile() {\n    let r = make();\n    r.settle();\n}\n",
            ),
            ("make.rs", "pub fn make() -> Rt {\n    Rt\n}\n"),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.diagnostics.len(), 1);
    assert_eq!(with.diagnostics[0].lint, "block-on-in-async");
    assert_eq!((with.files_checked, with.files_parsed), (3, 3));
}

#[test]
fn callers_of_functions_that_block_are_parsed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            // No trigger word: found through the name of the sync function it calls.
            ("caller.rs", "async fn reconcile() {\n    settle();\n}\n"),
            (
                "sync.rs",
                "pub fn settle() {\n    futures::executor::block_on(async {});\n}\n",
            ),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    assert_eq!(with.diagnostics.len(), 1);
    assert_eq!(with.diagnostics[0].lint, "block-on-in-async");
    assert_eq!((with.files_checked, with.files_parsed), (2, 2));
}

#[test]
fn examples_of_files_without_trigger_words_are_linted_without_parsing_the_files() {
    let example = "/// ```\n/// # async fn doc(pods: kube::Api<Pod>) {\n\
                   /// tokio::join!(pods.delete(\"a\", &dp), pods.get(\"a\"));\n/// # }\n/// ```\n";
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            // Its code has no trigger word: only the example is linted.
            ("doc_only.rs", &format!("{example}pub fn f() {{}}\n")),
            // Its code is parsed in a later pass, for a name declared in helpers.rs.
            (
                "named.rs",
                &format!("{example}async fn g(c: &Ctx) {{ tokio::join!(touch(c), touch(c)); }}\n"),
            ),
            (
                "helpers.rs",
                "pub async fn touch(c: &Ctx) { c.api.delete(\"x\", &dp).await; }\n\
                 struct Ctx { api: Api<Pod> }\n",
            ),
            ("plain.rs", "/// ```\n/// f();\n/// ```\npub fn h() {}\n"),
        ],
    );
    let (with, _) = assert_same_with_and_without_prefilter(&[dir.path().to_path_buf()]);
    let mut found: Vec<_> = with
        .diagnostics
        .iter()
        .map(|d| {
            (
                with.sources
                    .iter()
                    .find(|s| s.id == d.primary.span.file)
                    .unwrap(),
                d,
            )
        })
        .map(|(s, d)| {
            (
                s.display.rsplit('/').next().unwrap().to_string(),
                d.lint.to_string(),
            )
        })
        .collect();
    found.sort();
    let lint = "concurrent-same-object".to_string();
    assert_eq!(
        found,
        vec![
            ("doc_only.rs".to_string(), lint.clone()),
            ("named.rs".to_string(), lint.clone()),
            ("named.rs".to_string(), lint),
        ]
    );
    // helpers.rs (a trigger word) and named.rs (a linked name): not doc_only.rs nor plain.rs.
    assert_eq!((with.files_checked, with.files_parsed), (4, 2));
}
