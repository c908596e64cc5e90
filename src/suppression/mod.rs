//! Suppression comments: `// kube-order-lint: allow(concurrent-same-object) -- reason`.
//!
//! `#[allow(kube_order_lint::x)]` is a hard error in rustc (unknown tool), so comments are the way.
//! A suppression covers a finding whose primary span starts
//!
//! * on the line of the comment (a trailing comment), or
//! * on the line below a comment that stands on its own line, possibly with more `//` comment
//!   lines between the two, or
//! * anywhere in a function, method, impl, trait or module (a file is a module) when the comment
//!   is in its head: between the opening brace and the first statement or item (for a file,
//!   before its first item).
//!
//! A finding made of places that each make it on their own (the async callers of a blocking
//! helper) loses the places a suppression covers in the same way, and is dropped when none is
//! left: its lint asks [`RunSuppressions`] through [`crate::lints::Suppressions`]. So is a
//! finding that points at one place and is made at another, maybe in another file (a write
//! that every reconcile of a controller makes, made concurrently by the controller's `run`):
//! a suppression covering either drops it.
//!
//! The list may name several lints, or `all`; the reason after `--` is optional. Only `//`
//! comments count (not doc comments, not strings). A malformed suppression or an unknown lint
//! name is an error of the file; with `report_unused_suppressions`, every name that suppressed
//! nothing is reported as an `unused-suppression` warning.

pub mod add;

use crate::diagnostic::Diagnostic;
use crate::lints::unused_suppression::UnusedName;
use crate::model::scopes::Scope;
use crate::outcome::FileError;
use std::collections::HashMap;
use std::sync::Mutex;

use crate::source::{FileId, SourceFile, Span};

/// The marker that starts a suppression comment.
pub const MARKER: &str = "kube-order-lint:";

/// The name of the `unused-suppression` lint ([`crate::lints::unused_suppression`]), declared in
/// the registry with the others. Unlike them it cannot be configured
/// with levels or suppressed, only turned on (`--report-unused-suppressions`).
pub const UNUSED_SUPPRESSION: &str = crate::lints::unused_suppression::LINT.name;

/// The page of `unused-suppression`, for `explain`.
pub const UNUSED_SUPPRESSION_DOC: &str = crate::lints::unused_suppression::LINT.doc;

/// One suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// The whole comment, from `//` to the end of the line.
    pub span: Span,
    /// 1-based line of the comment.
    pub line: usize,
    /// Nothing but whitespace before the comment on its line.
    pub own_line: bool,
    pub names: Vec<SuppressedName>,
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuppressedName {
    /// A lint name or `all`.
    pub name: String,
    pub span: Span,
}

/// The suppression comments of one file and the scopes they can cover.
#[derive(Clone, Debug, Default)]
pub struct FileSuppressions {
    pub comments: Vec<Suppression>,
    pub scopes: Vec<Scope>,
}

impl FileSuppressions {
    pub fn is_empty(&self) -> bool {
        self.comments.is_empty()
    }
}

/// Quick test before any parsing: most files have no suppression.
pub fn may_have_suppressions(text: &str) -> bool {
    text.contains(MARKER)
}

/// The suppression comments of a file, and errors for malformed ones.
pub fn parse(source: &SourceFile) -> (Vec<Suppression>, Vec<FileError>) {
    let mut comments = Vec::new();
    let mut errors = Vec::new();
    if !may_have_suppressions(&source.text) {
        return (comments, errors);
    }
    for comment in line_comments(&source.text) {
        if let Some(s) = suppression_in(source, comment, &mut errors) {
            comments.push(s);
        }
    }
    (comments, errors)
}

/// The line comments of `text` (from `//` to the end of the line), as the lexer finds them: not
/// a `//` inside a block comment or a literal. Doc comments are among them.
fn line_comments(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    crate::prefilter::non_code_ranges(text.as_bytes())
        .into_iter()
        .filter(|r| text.as_bytes()[r.start..].starts_with(b"//"))
}

/// The suppression that the line comment at `range` is, if it is one; a malformed one or an
/// unknown lint name is an error.
fn suppression_in(
    source: &SourceFile,
    range: std::ops::Range<usize>,
    errors: &mut Vec<FileError>,
) -> Option<Suppression> {
    let text = &source.text;
    let start = range.start;
    let comment = text[range].trim_end_matches('\r');
    // `///` and `//!` are doc comments; a comment must start with the marker to be a
    // suppression.
    let body = &comment[2..];
    let trimmed = body.trim_start();
    if !trimmed.starts_with(MARKER) {
        return None;
    }
    let after_marker = start + 2 + (body.len() - trimmed.len()) + MARKER.len();
    let error_at = |at: usize, message: String| {
        let (l, c) = source.line_col(at);
        FileError {
            file: source.display.clone(),
            line: Some(l),
            column: Some(c),
            message,
        }
    };
    let (names, reason) = match parse_body(&text[after_marker..start + comment.len()]) {
        Ok(parsed) => parsed,
        Err(why) => {
            errors.push(error_at(start, format!(
                "malformed suppression comment ({why}): write `// {MARKER} allow(<lint>, ...) -- <reason>`"
            )));
            return None;
        }
    };
    let mut parsed = Vec::new();
    for (name, offset) in names {
        let span = Span {
            file: source.id,
            start: after_marker + offset,
            end: after_marker + offset + name.len(),
        };
        if let Some(name) = crate::config::canonical_lint_name(&name) {
            parsed.push(SuppressedName {
                name: name.to_string(),
                span,
            });
        } else {
            let message = crate::config::unknown_lint_message(&name);
            errors.push(error_at(
                span.start,
                format!("{message} in suppression comment"),
            ));
        }
    }
    if parsed.is_empty() {
        return None;
    }
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    Some(Suppression {
        span: Span {
            file: source.id,
            start,
            end: start + comment.len(),
        },
        line: source.line_col(start).0,
        own_line: text[line_start..start].trim().is_empty(),
        names: parsed,
        reason,
    })
}

/// ` allow(a, b) -- reason` → names with their offsets in the body, and the reason.
#[allow(clippy::type_complexity)]
fn parse_body(body: &str) -> Result<(Vec<(String, usize)>, Option<String>), &'static str> {
    let rest = body.trim_start();
    let mut offset = body.len() - rest.len();
    let Some(rest) = rest.strip_prefix("allow") else {
        return Err("expected `allow(`");
    };
    offset += "allow".len();
    let trimmed = rest.trim_start();
    offset += rest.len() - trimmed.len();
    let Some(rest) = trimmed.strip_prefix('(') else {
        return Err("expected `(` after `allow`");
    };
    offset += 1;
    let Some(close) = rest.find(')') else {
        return Err("missing `)`");
    };
    let mut names = Vec::new();
    let mut at = 0;
    for part in rest[..close].split(',') {
        let name = part.trim();
        let lead = part.len() - part.trim_start().len();
        if name.is_empty() {
            return Err("empty lint name");
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err("a lint name has characters other than letters, digits, `-` and `_`");
        }
        names.push((name.to_string(), offset + at + lead));
        at += part.len() + 1;
    }
    let tail = rest[close + 1..].trim();
    let reason = if tail.is_empty() {
        None
    } else if let Some(reason) = tail.strip_prefix("--") {
        Some(reason.trim().to_string()).filter(|r| !r.is_empty())
    } else {
        return Err("expected `-- <reason>` after the lint list");
    };
    Ok((names, reason))
}

/// Where a suppression applies: does `s` cover a finding starting at `offset` on `line`?
fn covers(
    source: &SourceFile,
    scopes: &[Scope],
    s: &Suppression,
    offset: usize,
    line: usize,
) -> bool {
    if s.line == line {
        return true;
    }
    if s.own_line && s.line < line && (s.line + 1..line).all(|l| is_comment_line(source, l)) {
        return true;
    }
    scopes.iter().any(|scope| {
        scope.head.start <= s.span.start
            && s.span.start < scope.head.end
            && scope.item.start <= offset
            && offset < scope.item.end.max(scope.item.start + 1)
    })
}

/// A line holding nothing but a `//` comment.
fn is_comment_line(source: &SourceFile, line: usize) -> bool {
    source
        .text
        .lines()
        .nth(line - 1)
        .is_some_and(|l| l.trim_start().starts_with("//"))
}

/// Which names of which comments suppressed something: `used[comment][name]`.
pub type Used = Vec<Vec<bool>>;

/// The (comment, name) indices of the suppressions that cover a finding of `lint` starting at
/// `offset` of the file.
fn covering<'s>(
    source: &'s SourceFile,
    suppressions: &'s FileSuppressions,
    lint: &'s str,
    offset: usize,
) -> impl Iterator<Item = (usize, usize)> + 's {
    let line = source.line_col(offset).0;
    suppressions
        .comments
        .iter()
        .enumerate()
        .filter(move |(_, c)| covers(source, &suppressions.scopes, c, offset, line))
        .flat_map(move |(i, c)| {
            c.names
                .iter()
                .enumerate()
                .filter(move |(_, n)| n.name == lint || n.name == crate::config::ALL)
                .map(move |(j, _)| (i, j))
        })
}

/// Drop the findings that a suppression covers; say which suppressions were used, counting
/// those that `elsewhere` says covered a part of a finding other than its primary span (see
/// [`RunSuppressions`]).
pub fn apply(
    source: &SourceFile,
    suppressions: &FileSuppressions,
    diagnostics: Vec<Diagnostic>,
    elsewhere: &[(usize, usize)],
) -> (Vec<Diagnostic>, Used) {
    let mut used: Used = suppressions
        .comments
        .iter()
        .map(|c| vec![false; c.names.len()])
        .collect();
    for &(i, j) in elsewhere {
        if let Some(flag) = used.get_mut(i).and_then(|names| names.get_mut(j)) {
            *flag = true;
        }
    }
    if suppressions.is_empty() {
        return (diagnostics, used);
    }
    let mut kept = Vec::new();
    for d in diagnostics {
        // A finding made here that points into another file (see `Diagnostic::site`): its
        // lint asked the suppressions of both places.
        if d.primary.span.file != source.id {
            kept.push(d);
            continue;
        }
        let mut suppressed = false;
        for (i, j) in covering(source, suppressions, d.lint, d.primary.span.start) {
            used[i][j] = true;
            suppressed = true;
        }
        if !suppressed {
            kept.push(d);
        }
    }
    (kept, used)
}

/// The suppression comments of a run's files, asked by lints about the parts of a finding other
/// than its primary span (the async callers of a blocking helper, which may be in other files
/// of its unit): a comment that covers one counts as used in its file's policy
/// ([`RunSuppressions::used_in`]).
#[derive(Default)]
pub struct RunSuppressions<'a> {
    files: HashMap<FileId, (&'a SourceFile, &'a FileSuppressions)>,
    /// (file, comment, name) of the suppressions a lint was told cover a part.
    used: Mutex<Vec<(FileId, usize, usize)>>,
}

impl<'a> RunSuppressions<'a> {
    /// Over the files given (those with suppression comments matter).
    pub fn new(files: impl IntoIterator<Item = (&'a SourceFile, &'a FileSuppressions)>) -> Self {
        RunSuppressions {
            files: files
                .into_iter()
                .filter(|(_, s)| !s.is_empty())
                .map(|(source, s)| (source.id, (source, s)))
                .collect(),
            used: Mutex::new(Vec::new()),
        }
    }

    /// The (comment, name) indices of the suppressions of `file` that covered parts of
    /// findings: once every file of the run is linted, as its policy is applied.
    pub fn used_in(&self, file: FileId) -> Vec<(usize, usize)> {
        let used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        used.iter()
            .filter(|(f, _, _)| *f == file)
            .map(|&(_, i, j)| (i, j))
            .collect()
    }
}

impl crate::lints::Suppressions for RunSuppressions<'_> {
    fn covers(&self, lint: &'static str, place: Span) -> bool {
        let Some(&(source, suppressions)) = self.files.get(&place.file) else {
            return false;
        };
        let found: Vec<(usize, usize)> =
            covering(source, suppressions, lint, place.start).collect();
        if found.is_empty() {
            return false;
        }
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        used.extend(found.into_iter().map(|(i, j)| (place.file, i, j)));
        true
    }
}

/// The names that suppressed nothing, with their comments: the facts of the
/// `unused-suppression` lint, which words them ([`crate::lints::unused_suppression`]).
pub fn unused(suppressions: &FileSuppressions, used: &Used) -> Vec<UnusedName> {
    let mut out = Vec::new();
    for (comment, flags) in suppressions.comments.iter().zip(used) {
        for (index, (name, &was_used)) in comment.names.iter().zip(flags).enumerate() {
            if was_used {
                continue;
            }
            out.push(UnusedName {
                name: name.name.clone(),
                is_all: name.name == crate::config::ALL,
                span: name.span,
                comment: comment.span,
                own_line: comment.own_line,
                names: comment.names.iter().map(|n| n.span).collect(),
                index,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (Vec<Suppression>, Vec<String>) {
        let source = SourceFile::new(0, "a.rs".into(), text.to_string());
        let (s, e) = parse(&source);
        (
            s,
            e.into_iter()
                .map(|e| format!("{}:{}: {}", e.line.unwrap(), e.column.unwrap(), e.message))
                .collect(),
        )
    }

    #[test]
    fn comments_are_parsed_with_names_and_reasons() {
        let text = "fn f() {\n    // kube-order-lint: allow(concurrent-same-object) -- the name differs at run time\n    let a = 1; // kube-order-lint: allow(concurrent-same-object, all)\n}\n";
        let (s, e) = parsed(text);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].line, s[0].own_line), (2, true));
        assert_eq!(s[0].reason.as_deref(), Some("the name differs at run time"));
        assert_eq!(&text[s[0].names[0].span.range()], "concurrent-same-object");
        assert_eq!((s[1].line, s[1].own_line), (3, false));
        let names: Vec<&str> = s[1].names.iter().map(|n| &text[n.span.range()]).collect();
        assert_eq!(names, ["concurrent-same-object", "all"]);
    }

    #[test]
    fn strings_doc_comments_and_other_comments_do_not_count() {
        let text = "/// kube-order-lint: allow(nonsense)\nfn f() {\n    let s = \"// kube-order-lint: allow(nonsense)\";\n    // see kube-order-lint: allow(nonsense)\n}\n";
        let (s, e) = parsed(text);
        assert!(s.is_empty() && e.is_empty(), "{s:?} {e:?}");
    }

    /// The README promises line comments only: a `//` inside a block comment (nested, or on a
    /// line of its own) is text of that comment, as for the lexer.
    #[test]
    fn a_line_comment_inside_a_block_comment_does_not_count() {
        let text = "/* a\n// kube-order-lint: allow(all)\n*/\nfn f() {\n    /* /* x */ // kube-order-lint: allow(nonsense) */\n    let s = r#\"\n// kube-order-lint: allow(all)\n\"#;\n}\n";
        let (s, e) = parsed(text);
        assert!(s.is_empty() && e.is_empty(), "{s:?} {e:?}");
        // After the block comment ends, a line comment counts again.
        let (s, e) = parsed("/* x */ // kube-order-lint: allow(all)\n");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!((s.len(), s[0].own_line, s[0].span.start), (1, false, 8));
    }

    #[test]
    fn unknown_lints_and_malformed_comments_are_errors() {
        let (s, e) = parsed("// kube-order-lint: allow(concurrent-same-objet)\n// kube-order-lint: alow(x)\n// kube-order-lint: allow(all) reason\n");
        assert!(s.is_empty());
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(
            e[0].starts_with("1:27: unknown lint `concurrent-same-objet`"),
            "{e:?}"
        );
        assert!(
            e[1].starts_with("2:1: malformed suppression comment (expected `allow(`)"),
            "{e:?}"
        );
        assert!(
            e[2].starts_with("3:1: malformed suppression comment (expected `-- <reason>`"),
            "{e:?}"
        );
    }
}
