//! Each lint's declared fixes ([`Lint::fixes`]) are the fixes its findings come with in the UI
//! cases and on its page, in the manner of clippy's guard tests: a kind of fix produced but not
//! declared is *Wrong*, a kind declared but never produced is *Missing* (add a UI case that
//! shows it, or drop it from the declaration).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use kube_order_lint::config::Overrides;
use kube_order_lint::fix::Applicability;
use kube_order_lint::lints::{self, Lint};
use kube_order_lint::{check, Options, Report};

fn run(paths: Vec<PathBuf>) -> Report {
    check(&Options {
        paths,
        jobs: Some(2),
        // `unused-suppression` is reported only when asked for.
        overrides: Overrides {
            report_unused_suppressions: Some(true),
            ..Overrides::default()
        },
        ..Options::default()
    })
}

/// The Rust blocks of every lint page, each a file of `dir`.
fn page_examples(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for lint in lints::registry() {
        let mut code: Option<String> = None;
        for line in lint.doc.lines() {
            match &mut code {
                None if line.starts_with("```rust") => code = Some(String::new()),
                Some(c) if line.starts_with("```") => {
                    let file = dir.join(format!("{}-{}.rs", lint.name, files.len()));
                    std::fs::write(&file, c).unwrap();
                    files.push(file);
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
    files
}

fn produced(reports: &[Report]) -> BTreeMap<&'static str, BTreeSet<Applicability>> {
    let mut out: BTreeMap<&'static str, BTreeSet<Applicability>> = BTreeMap::new();
    for d in reports.iter().flat_map(|r| &r.diagnostics) {
        let kinds = out.entry(d.lint).or_default();
        kinds.extend(d.fix.as_ref().map(|f| f.applicability));
    }
    out
}

#[test]
fn declared_fixes_are_the_fixes_produced() {
    let dir = tempfile::tempdir().unwrap();
    let examples = page_examples(dir.path());
    assert!(!examples.is_empty(), "no Rust blocks in the lint pages");
    // The directory is walked: single-file cases and mini crates alike.
    let reports = [run(vec![PathBuf::from("tests/ui")]), run(examples)];
    let produced = produced(&reports);
    let mut failures = Vec::new();
    for lint in lints::registry() {
        let declared: BTreeSet<Applicability> = lint.fixes.iter().copied().collect();
        let Some(found) = produced.get(lint.name) else {
            failures.push(format!("Missing: no finding of `{}` at all", lint.name));
            continue;
        };
        compare(lint, &declared, found, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn compare(
    lint: &Lint,
    declared: &BTreeSet<Applicability>,
    found: &BTreeSet<Applicability>,
    failures: &mut Vec<String>,
) {
    for kind in found.difference(declared) {
        failures.push(format!(
            "Wrong: `{}` produces {} fixes but does not declare them (its `LINT`)",
            lint.name,
            kind.as_str()
        ));
    }
    for kind in declared.difference(found) {
        failures.push(format!(
            "Missing: `{}` declares {} fixes but no UI case or page example produces one",
            lint.name,
            kind.as_str()
        ));
    }
}
