//! Every lint has a page in `lints/`, and every ```rust block of every page is run through the
//! tool: a `bad` block must be reported on exactly its `//~` lines (else *Missing* / *Noisy*), a
//! `good` block must not be reported at all. A lint whose examples' findings carry a fix documents
//! it under `## Fix safety`.

mod common;

use std::path::Path;

use kube_order_lint::lints::LINTS;
use kube_order_lint::suppression::{UNUSED_SUPPRESSION, UNUSED_SUPPRESSION_DOC};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// (info string, code) of every fenced code block.
fn code_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                current = Some((info.to_string(), String::new()));
            }
            Event::Text(t) => {
                if let Some((_, code)) = &mut current {
                    code.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

const SECTIONS: &[&str] = &[
    "## What it does",
    "## Why is this bad?",
    "## Example",
    "## Use instead",
    "## Known limitations",
];

/// Required on the page of every lint whose findings carry a fix: what is safe, unsafe or
/// display-only, and why.
const FIX_SAFETY: &str = "## Fix safety";

#[test]
fn every_lint_page_example_is_reported_as_marked() {
    let mut failures = Vec::new();
    for lint in LINTS {
        let path = Path::new("lints").join(format!("{}.md", lint.name));
        let page = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("lint `{}` has no page {}", lint.name, path.display()));
        assert_eq!(
            page,
            lint.doc,
            "{} is not the page `explain` prints",
            path.display()
        );
        assert!(
            page.starts_with(&format!("# {}\n", lint.name)),
            "{}: title",
            path.display()
        );
        for s in SECTIONS {
            assert!(
                page.contains(s),
                "{}: missing section `{s}`",
                path.display()
            );
        }
        let blocks = code_blocks(&page);
        let mut bad = 0;
        let mut has_fix = false;
        for (i, (info, code)) in blocks.iter().enumerate() {
            let words: Vec<&str> = info.split_whitespace().collect();
            if words.first() != Some(&"rust") {
                continue;
            }
            let kind = words.get(1).copied().unwrap_or("");
            assert!(
                kind == "bad" || kind == "good",
                "{}: block {} is ```{info}``` — mark rust blocks `bad` or `good`",
                path.display(),
                i + 1
            );
            let name = format!("{}#block{}", path.display(), i + 1);
            let report = kube_order_lint::check_text(Path::new(&name), code);
            assert!(
                report.errors.is_empty(),
                "{name}: does not parse: {:?}",
                report.errors
            );
            if kind == "bad" {
                bad += 1;
                assert!(
                    !common::markers(code).is_empty(),
                    "{name}: a bad example must mark its findings with //~"
                );
            } else {
                assert!(
                    common::markers(code).is_empty(),
                    "{name}: a good example has //~ markers"
                );
            }
            for f in common::compare_markers(code, &report) {
                failures.push(format!("{name}: {f}"));
            }
            has_fix |= report.diagnostics.iter().any(|d| d.fix.is_some());
        }
        assert!(bad > 0, "{}: no ```rust bad``` example", path.display());
        assert!(
            !has_fix || page.contains(FIX_SAFETY),
            "{}: the lint makes fixes but its page has no `{FIX_SAFETY}` section",
            path.display()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `unused-suppression` is reported only when asked for, so its page's examples are checked with
/// `report_unused_suppressions` on.
#[test]
fn the_unused_suppression_page_is_explained_and_its_examples_are_reported_as_marked() {
    let path = Path::new("lints").join(format!("{UNUSED_SUPPRESSION}.md"));
    let page = std::fs::read_to_string(&path).expect("lints/unused-suppression.md");
    assert_eq!(
        page, UNUSED_SUPPRESSION_DOC,
        "not the page `explain` prints"
    );
    assert!(page.starts_with(&format!("# {UNUSED_SUPPRESSION}\n")));
    for s in SECTIONS.iter().chain([&FIX_SAFETY]) {
        assert!(
            page.contains(s),
            "{}: missing section `{s}`",
            path.display()
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut kinds = Vec::new();
    for (i, (info, code)) in code_blocks(&page).iter().enumerate() {
        let words: Vec<&str> = info.split_whitespace().collect();
        if words.first() != Some(&"rust") {
            continue;
        }
        kinds.push(words[1].to_string());
        let file = dir.path().join(format!("block{}.rs", i + 1));
        std::fs::write(&file, code).unwrap();
        let report = kube_order_lint::check(&kube_order_lint::Options {
            paths: vec![file.clone()],
            overrides: kube_order_lint::config::Overrides {
                report_unused_suppressions: Some(true),
                ..Default::default()
            },
            ..Default::default()
        });
        assert!(
            report.errors.is_empty(),
            "block {}: {:?}",
            i + 1,
            report.errors
        );
        let failures = common::compare_markers(code, &report);
        assert!(failures.is_empty(), "block {}: {failures:?}", i + 1);
        if words[1] == "bad" {
            assert!(report.diagnostics.iter().all(|d| d.fix.is_some()));
        }
    }
    assert_eq!(kinds, ["bad", "good"]);
}

#[test]
fn every_page_belongs_to_a_lint() {
    for entry in std::fs::read_dir("lints").expect("lints/") {
        let path = entry.expect("entry").path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        assert!(
            LINTS.iter().any(|l| l.name == stem) || stem == UNUSED_SUPPRESSION,
            "{} documents no registered lint",
            path.display()
        );
    }
}

#[test]
fn readme_lists_every_lint() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    for lint in LINTS {
        assert!(
            readme.contains(&format!("`{}`", lint.name)),
            "README.md does not mention `{}`",
            lint.name
        );
    }
}

#[test]
fn messages_follow_the_style() {
    // Lowercase first word, no trailing period (clippy's rule), checked on every UI finding.
    for entry in walkdir::WalkDir::new("tests/ui")
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = entry.path();
        if p.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let report = kube_order_lint::check(&kube_order_lint::Options {
            paths: vec![p.to_path_buf()],
            ..Default::default()
        });
        for d in &report.diagnostics {
            let first = d.message.chars().next().unwrap_or('a');
            assert!(
                !first.is_uppercase(),
                "{}: message starts uppercase: {}",
                p.display(),
                d.message
            );
            assert!(
                !d.message.ends_with('.'),
                "{}: message ends with a period: {}",
                p.display(),
                d.message
            );
        }
    }
}
