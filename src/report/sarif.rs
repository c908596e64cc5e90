//! `--format sarif`: SARIF 2.1.0, as GitHub code scanning ingests it.
//!
//! One run; the driver lists every lint as a rule (id, descriptions, the lint page as help,
//! default level). Each finding is a result with its primary location, the secondary labels as
//! related locations, a partial fingerprint (see [`crate::fingerprint`]) and, when there is one,
//! its fix. Paths are relative URIs against `%SRCROOT%`, the repository root
//! ([`super::repository_root`]: `GITHUB_WORKSPACE`, or the git top level), which code scanning
//! resolves them from whatever directory the tool ran in; files outside it get absolute
//! `file://` URIs. Columns count Unicode code
//! points (`columnKind`), and end columns are exclusive, as SARIF defines them. Files that could
//! not be checked are tool execution notifications.

use std::path::Path;

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde_json::{json, Value};

use super::position;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::discover::canonical;
use crate::lints::registry;
use crate::outcome::Report;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SRCROOT: &str = "%SRCROOT%";

/// Characters escaped in a URI path segment (RFC 3986: everything but unreserved, sub-delims,
/// `:` and `@`; non-ASCII is always escaped).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// A rule of the driver.
struct Rule {
    id: &'static str,
    summary: &'static str,
    description: String,
    help: String,
}

/// Every lint of the registry, `unused-suppression` with the others: its page is the help and
/// the first paragraph of its "What it does" the full description.
fn rules() -> Vec<Rule> {
    registry()
        .map(|l| Rule {
            id: l.name,
            summary: l.summary,
            description: section(l.doc, "## What it does").unwrap_or_else(|| l.summary.to_string()),
            help: crate::lints::without_test_markers(l.doc),
        })
        .collect()
}

/// The text of a `## Heading` section of a lint page, as one paragraph.
fn section(doc: &str, heading: &str) -> Option<String> {
    let start = doc.find(heading)? + heading.len();
    let rest = &doc[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    let first_paragraph = rest[..end].trim().split("\n\n").next()?.to_string();
    Some(
        first_paragraph
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

pub fn render(report: &Report) -> String {
    let root = super::repository_root();
    let rules = rules();
    let driver_rules: Vec<Value> = rules
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "name": pascal_case(r.id),
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": r.description },
                "help": { "text": r.help, "markdown": r.help },
                "defaultConfiguration": { "level": "warning" },
                "properties": { "tags": ["kubernetes", "concurrency"] },
            })
        })
        .collect();
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| result(report, d, &rules, root.as_deref()))
        .collect();
    let mut notifications: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            let mut n = json!({
                "level": "error",
                "message": { "text": e.message },
            });
            let mut location =
                json!({ "artifactLocation": artifact(Path::new(&e.file), root.as_deref()) });
            if let Some(line) = e.line {
                location["region"] =
                    json!({ "startLine": line, "startColumn": e.column.unwrap_or(1) });
            }
            n["locations"] = json!([{ "physicalLocation": location }]);
            n
        })
        .collect();
    // Notes name the files that were not checked (too large, not regular files): a run that
    // skipped a file must say so in every format.
    notifications.extend(
        report
            .notes
            .iter()
            .map(|n| json!({ "level": "note", "message": { "text": n } })),
    );
    let mut driver = json!({
        "name": "kube-order-lint",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": driver_rules,
    });
    if let Some(uri) = information_uri() {
        driver["informationUri"] = json!(uri);
    }
    let mut run = json!({
        "tool": { "driver": driver },
        "columnKind": "unicodeCodePoints",
        "results": results,
        "invocations": [{
            "executionSuccessful": report.errors.is_empty(),
            "toolExecutionNotifications": notifications,
        }],
    });
    if let Some(root) = &root {
        run["originalUriBaseIds"] = json!({
            SRCROOT: {
                "uri": directory_uri(root),
                "description": { "text": "The repository root (GITHUB_WORKSPACE, or the git top level)." },
            }
        });
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    });
    let mut out = serde_json::to_string_pretty(&log).unwrap_or_default();
    out.push('\n');
    out
}

/// Where the tool is documented: the package's homepage or repository, when Cargo.toml has one.
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|u| !u.is_empty())
}

fn result(report: &Report, d: &Diagnostic, rules: &[Rule], root: Option<&Path>) -> Value {
    let rule_index = rules.iter().position(|r| r.id == d.lint);
    let mut text = d.message.clone();
    for n in &d.notes {
        text.push_str(&format!("\nnote: {n}"));
    }
    text.push_str(&format!("\nnote: confidence: {}", d.confidence));
    if let Some(help) = &d.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    let related: Vec<Value> = d
        .secondary
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let mut loc = location(report, l, root)?;
            loc["id"] = json!(i + 1);
            loc["message"] = json!({ "text": l.message });
            Some(loc)
        })
        .collect();
    let mut r = json!({
        "ruleId": d.lint,
        "level": match d.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        },
        "message": { "text": text },
        "locations": location(report, &d.primary, root).into_iter().collect::<Vec<_>>(),
        "partialFingerprints": {
            format!("kubeOrderLint/v{}", crate::fingerprint::VERSION): crate::fingerprint::fingerprint(report, d),
        },
        "properties": { "confidence": d.confidence.as_str() },
    });
    if let Some(i) = rule_index {
        r["ruleIndex"] = json!(i);
    }
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    let fixes = fixes(report, d, root);
    if !fixes.is_empty() {
        r["fixes"] = json!(fixes);
    }
    r
}

/// The finding's fix as one SARIF `fix`: its message as `description`, and `artifactChanges`, one
/// per file, each with the `replacements` of a `deletedRegion` (the edit's range; empty for an
/// insertion) by `insertedContent`. The applicability (`safe`, `unsafe`, `display-only`) is a
/// property. None for a fix without edits.
fn fixes(report: &Report, d: &Diagnostic, root: Option<&Path>) -> Vec<Value> {
    let Some(fix) = d.fix.as_ref().filter(|f| !f.edits.is_empty()) else {
        return Vec::new();
    };
    let mut files: Vec<crate::source::FileId> = fix.edits.iter().map(|e| e.span.file).collect();
    files.sort_unstable();
    files.dedup();
    let changes: Vec<Value> = files
        .iter()
        .filter_map(|&file| {
            let source = report.source(file)?;
            let replacements: Vec<Value> = fix
                .edits
                .iter()
                .filter(|e| e.span.file == file)
                .filter_map(|e| {
                    let (line, column, end_line, end_column) = position(report, e.span)?;
                    Some(json!({
                        "deletedRegion": {
                            "startLine": line,
                            "startColumn": column,
                            "endLine": end_line,
                            "endColumn": end_column,
                        },
                        "insertedContent": { "text": e.replacement },
                    }))
                })
                .collect();
            Some(json!({
                "artifactLocation": artifact(&source.path, root),
                "replacements": replacements,
            }))
        })
        .collect();
    if changes.is_empty() {
        return Vec::new();
    }
    vec![json!({
        "description": { "text": fix.message },
        "artifactChanges": changes,
        "properties": { "applicability": fix.applicability.as_str() },
    })]
}

fn location(report: &Report, label: &Label, root: Option<&Path>) -> Option<Value> {
    let source = report.source(label.span.file)?;
    let (line, column, end_line, end_column) = position(report, label.span)?;
    Some(json!({
        "physicalLocation": {
            "artifactLocation": artifact(&source.path, root),
            "region": {
                "startLine": line,
                "startColumn": column,
                "endLine": end_line,
                "endColumn": end_column,
            },
        },
    }))
}

/// A relative URI under `%SRCROOT%`, or an absolute `file://` URI for files outside it.
fn artifact(path: &Path, root: Option<&Path>) -> Value {
    let absolute = canonical(path);
    if let Some(rest) = root.and_then(|r| absolute.strip_prefix(r).ok()) {
        return json!({ "uri": relative_uri(rest), "uriBaseId": SRCROOT });
    }
    json!({ "uri": format!("file:///{}", encode_segments(&absolute).trim_start_matches('/')) })
}

fn directory_uri(dir: &Path) -> String {
    let encoded = encode_segments(dir);
    let encoded = encoded.trim_start_matches('/');
    if encoded.is_empty() {
        "file:///".to_string()
    } else {
        format!("file:///{encoded}/")
    }
}

/// A relative reference (RFC 3986, section 4.2): as [`encode_segments`], and `:` is escaped too,
/// since in a first segment it would make a scheme (`http:evil.rs` is a URL).
fn relative_uri(path: &Path) -> String {
    encode_with(path, RELATIVE_SEGMENT)
}

/// Characters escaped in a segment of a relative reference.
const RELATIVE_SEGMENT: &AsciiSet = &SEGMENT.add(b':');

fn encode_segments(path: &Path) -> String {
    encode_with(path, SEGMENT)
}

fn encode_with(path: &Path, set: &'static AsciiSet) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => {
                Some(utf8_percent_encode(&s.to_string_lossy(), set).to_string())
            }
            std::path::Component::RootDir => Some(String::new()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_escape_what_rfc_3986_requires() {
        assert_eq!(
            encode_segments(Path::new("a b/50%/ü#1.rs")),
            "a%20b/50%25/%C3%BC%231.rs"
        );
        assert_eq!(directory_uri(Path::new("/work/x y")), "file:///work/x%20y/");
        assert_eq!(relative_uri(Path::new("http:evil.rs")), "http%3Aevil.rs");
        assert_eq!(relative_uri(Path::new("a:b/c:d.rs")), "a%3Ab/c%3Ad.rs");
    }

    #[test]
    fn rule_descriptions_come_from_the_lint_pages() {
        let rules = rules();
        assert_eq!(rules.len(), registry().count());
        for r in &rules {
            assert!(
                !r.description.is_empty() && !r.description.contains('\n'),
                "{}",
                r.id
            );
            assert!(r.help.starts_with(&format!("# {}", r.id)));
        }
        assert_eq!(
            pascal_case("concurrent-same-object"),
            "ConcurrentSameObject"
        );
    }
}
