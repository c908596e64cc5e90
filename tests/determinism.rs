//! A finding must not depend on the order in which functions are written: every single-file UI
//! case is checked as written and with its items (and the items of its `impl` blocks) in reverse
//! order, and the findings must be the same (lint, confidence, message).

use std::path::{Path, PathBuf};

use quote::ToTokens;

fn reversed(text: &str) -> Option<String> {
    let mut file = syn::parse_file(text).ok()?;
    // `macro_rules!` are scoped by text (defined before use): they stay first, in order.
    let (mut items, others): (Vec<_>, Vec<_>) = file
        .items
        .drain(..)
        .partition(|i| matches!(i, syn::Item::Macro(_)));
    items.extend(others.into_iter().rev());
    file.items = items;
    for item in &mut file.items {
        if let syn::Item::Impl(i) = item {
            i.items.reverse();
        }
        if let syn::Item::Mod(m) = item {
            if let Some((_, items)) = &mut m.content {
                items.reverse();
            }
        }
    }
    Some(file.to_token_stream().to_string())
}

fn findings(path: &Path, text: &str) -> Vec<(String, String, String)> {
    let report = kube_order_lint::check_text(path, text);
    let mut out: Vec<_> = report
        .diagnostics
        .iter()
        // Printed from tokens, doc comments become `#[doc]` attributes, whose examples are not
        // read: only the findings of the code are compared.
        .filter(|d| {
            !d.notes
                .iter()
                .any(|n| n == kube_order_lint::doc_examples::NOTE)
        })
        .map(|d| {
            (
                d.lint.to_string(),
                d.confidence.as_str().to_string(),
                // The reversed file is printed from tokens: code in messages is spaced apart.
                d.message.split_whitespace().collect::<String>(),
            )
        })
        .collect();
    out.sort();
    out
}

fn ui_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&root)
        .min_depth(2)
        .max_depth(2)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
}

#[test]
fn findings_do_not_depend_on_the_order_items_are_written_in() {
    let mut compared = 0;
    let mut differences = Vec::new();
    for path in ui_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(shuffled) = reversed(&text) else {
            continue;
        };
        let (a, b) = (findings(&path, &text), findings(&path, &shuffled));
        compared += 1;
        if a != b {
            differences.push(format!(
                "{}:\n  as written: {a:?}\n  reversed:   {b:?}",
                path.display()
            ));
        }
    }
    assert!(compared > 20, "only {compared} cases compared");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
