//! Examples in documentation comments. Users copy them into real code, so the fenced Rust blocks
//! of `///` and `//!` comments are checked the way rustdoc compiles them: the comment markers
//! and the common indentation stripped, hidden lines (`# `) kept, the code wrapped in a `main`
//! when it is not a list of items, then parsed, modelled and linted. rustdoc builds an example as
//! a crate of its own that depends on the documented crate, so its model is linked in the scope
//! of the file's unit ([`Linker::with_file`]): `manager.changed()` makes the requests the
//! crate's `LeaseManager::changed` makes. Every position is mapped back into the comment.
//!
//! Findings in examples carry no fix: nothing is rewritten inside a comment. Examples that do not
//! parse (partial code is common in documentation) are skipped silently; they are not errors of
//! the run.
//!
//! Which blocks are Rust follows rustdoc: a fence without a language, with `rust`, or with only
//! rustdoc's own tags (`ignore`, `no_run`, `should_panic`, `edition2021`, …) is Rust; any other
//! word (`text`, `sh`, `toml`) makes it another language unless `rust` is also given. Blocks
//! tagged `compile_fail` are skipped: they show code that must not compile, not code to copy.
//! `/** */` comments and `#[doc = ".."]` attributes are not read.

use crate::diagnostic::Diagnostic;
use crate::lints::{self, LintContext};
use crate::model::build;
use crate::model::link::Linker;
use crate::prefilter::{self, Prefilter};
use crate::source::{SourceFile, Span};

/// One line of an example as compiled, and where its text sits in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    /// Offset in the example's text.
    virt: usize,
    /// Offset in the file.
    orig: usize,
    len: usize,
}

/// A fenced Rust block of a doc comment, as rustdoc would compile it.
#[derive(Debug)]
pub struct Example {
    /// The code, wrapped in `fn main` when needed.
    pub text: String,
    segments: Vec<Segment>,
}

impl Example {
    /// The file offset of an offset in the example's text. Offsets in the wrapper map to the
    /// nearest line of the example; the end of a line maps to the end of its text in the comment.
    fn map(&self, offset: usize) -> usize {
        let i = self.segments.partition_point(|s| s.virt <= offset);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some(s) => s.orig + (offset - s.virt).min(s.len),
            None => self.segments.first().map_or(0, |s| s.orig),
        }
    }

    fn map_span(&self, span: Span) -> Span {
        Span {
            file: span.file,
            start: self.map(span.start),
            end: self.map(span.end).max(self.map(span.start)),
        }
    }
}

/// What checking the examples of a file found.
#[derive(Debug, Default)]
pub struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    /// Rust examples found, and those of them that did not parse (skipped).
    pub examples: usize,
    pub unparsed: usize,
}

/// A cheap test before the file is scanned: does it have a doc comment with a fence at all?
pub fn may_have_examples(text: &str) -> bool {
    // memmem, not `str::contains`: this reads every file of the run, most to the end.
    let has = |needle: &str| memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some();
    (has("///") || has("//!")) && (has("```") || has("~~~"))
}

/// Does some example of this text use what a finding needs (the prefilter's trigger words)?
pub fn may_matter(text: &str, prefilter: &Prefilter) -> bool {
    may_have_examples(text) && examples(text).iter().any(|e| prefilter.must_parse(&e.text))
}

/// The crate a file's examples document: the linker of its unit's scope (with its wrappers),
/// and the name the examples use it by (`kube_lease_manager::..`), when known.
pub struct Documented<'l, 'a> {
    pub linker: &'l Linker<'a>,
    pub crate_name: Option<&'l str>,
}

/// Lint the examples of a file, each linked in the scope of the crate it documents.
/// `prefilter`: the trigger words, wrappers and names the unit's scope links; an example using
/// none of them is skipped (None: every example is linted).
pub fn check(
    source: &SourceFile,
    documented: &Documented<'_, '_>,
    prefilter: Option<&Prefilter>,
    batch_checking: bool,
) -> Checked {
    let linker = documented.linker;
    let mut checked = Checked::default();
    if !may_have_examples(&source.text) {
        return checked;
    }
    for example in examples(&source.text) {
        checked.examples += 1;
        // Nothing an example without such a word says can be a finding.
        if prefilter.is_some_and(|p| !p.must_parse(&example.text)) {
            continue;
        }
        let (example, file) = example.compiled();
        let Some(file) = file else {
            checked.unparsed += 1;
            continue;
        };
        let virtual_source = SourceFile::new(source.id, source.path.clone(), example.text.clone());
        let mut facts = build::build_with_wrappers(&virtual_source, &file, linker.wrappers());
        // As for a file: without a fact some lint reads, linking would find nothing.
        if !lints::read_by_a_lint(&facts) {
            continue;
        }
        if let Some(name) = documented.crate_name {
            facts.name_the_crate(name);
        }
        let model = linker
            .with_file(source.id, &facts, &source.display)
            .link(source.id);
        let cx = LintContext {
            model: &model,
            source: &virtual_source,
            batch_checking,
            doc_example: true,
            // An example's spans are in its own text, not the file's comments.
            suppressions: &lints::NoSuppressions,
        };
        let found = lints::run_all(&cx);
        checked
            .diagnostics
            .extend(found.into_iter().map(|d| in_comment(d, &example)));
    }
    checked
}

/// A finding of an example, placed in the comment; its fix dropped (comments are not rewritten).
fn in_comment(mut d: Diagnostic, example: &Example) -> Diagnostic {
    d.primary.span = example.map_span(d.primary.span);
    for label in &mut d.secondary {
        label.span = example.map_span(label.span);
    }
    d.fix = None;
    d.notes.push(NOTE.to_string());
    d
}

/// The note every finding of an example carries.
pub const NOTE: &str =
    "in a documentation example: checked as rustdoc compiles it; no fix is applied inside comments";

/// One line of a doc comment: the text after `///` or `//!`.
#[derive(Clone, Copy, Debug)]
struct DocLine<'t> {
    inner: bool,
    /// Offset of `text` in the file.
    at: usize,
    text: &'t str,
}

/// The doc comment lines of a file, grouped into comments: consecutive lines of one style with
/// nothing but white space between them.
fn doc_comments(text: &str) -> Vec<Vec<DocLine<'_>>> {
    let mut groups: Vec<Vec<DocLine<'_>>> = Vec::new();
    let mut last_end = 0;
    for range in prefilter::non_code_ranges(text.as_bytes()) {
        let comment = &text[range.clone()];
        let inner = comment.starts_with("//!");
        let outer = comment.starts_with("///") && !comment.starts_with("////");
        if !inner && !outer {
            continue;
        }
        let body = comment[3..].strip_suffix('\r').unwrap_or(&comment[3..]);
        let line = DocLine {
            inner,
            at: range.start + 3,
            text: body,
        };
        let between = &text[last_end.min(range.start)..range.start];
        let continues = groups.last().is_some_and(|g| {
            g.last().is_some_and(|l| l.inner == inner)
                && between.trim().is_empty()
                && between.matches('\n').count() == 1
        });
        match groups.last_mut() {
            Some(g) if continues => g.push(line),
            _ => groups.push(vec![line]),
        }
        last_end = range.end;
    }
    groups
}

/// The Rust examples of a file's doc comments, unwrapped.
pub fn examples(text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    for comment in doc_comments(text) {
        let lines = unindented(&comment);
        out.extend(fenced_blocks(&lines));
    }
    out
}

/// rustdoc removes the indentation common to the lines of a comment (blank lines aside).
fn unindented<'t>(comment: &[DocLine<'t>]) -> Vec<DocLine<'t>> {
    let indent = comment
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .map(|l| l.text.len() - l.text.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    comment
        .iter()
        .map(|l| {
            let cut = indent.min(l.text.len() - l.text.trim_start_matches([' ', '\t']).len());
            DocLine {
                at: l.at + cut,
                text: &l.text[cut..],
                ..*l
            }
        })
        .collect()
}

/// An opening code fence: its character, its length, its indentation and its info string.
fn fence(line: &str) -> Option<(char, usize, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = rest.len() - rest.trim_start_matches(c).len();
    (indent <= 3 && len >= 3).then(|| (c, len, indent, &rest[len..]))
}

fn closes(line: &str, c: char, len: usize) -> bool {
    let rest = line.trim_start_matches(' ');
    line.len() - rest.len() <= 3
        && rest.len() - rest.trim_start_matches(c).len() >= len
        && rest.trim_start_matches(c).trim().is_empty()
}

/// The fenced blocks of one comment that rustdoc takes for Rust, ready to parse.
fn fenced_blocks(lines: &[DocLine<'_>]) -> Vec<Example> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((c, len, indent, info)) = fence(lines[i].text) else {
            i += 1;
            continue;
        };
        // A backtick fence's info string has no backtick: "```a```" is inline code.
        if c == '`' && info.contains('`') {
            i += 1;
            continue;
        }
        let body_start = i + 1;
        let mut end = body_start;
        while end < lines.len() && !closes(lines[end].text, c, len) {
            end += 1;
        }
        if is_rust(info) {
            out.push(example(&lines[body_start..end], indent));
        }
        i = end + 1;
    }
    out
}

/// rustdoc's reading of an info string ("rust,no_run", "ignore", "text"): Rust when `rust` or
/// only rustdoc's own tags are given. `compile_fail` blocks are not examples to copy.
fn is_rust(info: &str) -> bool {
    let mut rust = false;
    let mut other = false;
    for token in info.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
        match token {
            "compile_fail" => return false,
            "rust" => rust = true,
            "ignore" | "should_panic" | "no_run" | "test_harness" | "standalone_crate" => {
                rust = true
            }
            t if t.starts_with("ignore-") || t.starts_with("edition") => rust = true,
            // Attribute blocks (`{.class}`) and error codes (`E0277`, with `compile_fail`).
            t if t.starts_with('{') || t.ends_with('}') => {}
            _ => other = true,
        }
    }
    rust || !other
}

/// The code of a block as rustdoc compiles it: hidden lines (`# code`) kept without their
/// marker, `##` unescaped to `#` (not wrapped yet: see [`Example::compiled`]).
fn example(body: &[DocLine<'_>], fence_indent: usize) -> Example {
    let mut code = String::new();
    let mut segments = Vec::new();
    for line in body {
        let cut = fence_indent.min(line.text.len() - line.text.trim_start_matches(' ').len());
        let (at, text) = compiled_line(line.at + cut, &line.text[cut..]);
        segments.push(Segment {
            virt: code.len(),
            orig: at,
            len: text.len(),
        });
        code.push_str(text);
        code.push('\n');
    }
    Example {
        text: code,
        segments,
    }
}

impl Example {
    /// Wrapped in `fn main`, as rustdoc does, unless it is a list of items already (parsing it
    /// tells). The `main` is async when the example awaits outside async code of its own: such
    /// an example (`ignore`d, as rustdoc could not compile it) is meant for an async function.
    /// With the syntax tree of the text returned, None when it does not parse: the tree that
    /// decided is the one returned, so that the text is not parsed again.
    fn compiled(mut self) -> (Example, Option<syn::File>) {
        let items = crate::parse::parse_file(&self.text).ok();
        if items.is_some() || self.text.contains("fn main") {
            return (self, items);
        }
        // Without the word `await` nothing awaits; with it, most examples await in `main`'s
        // body, so the async `main` is parsed first.
        let mut file = None;
        if self.text.contains("await") {
            file = crate::parse::parse_file(&self.wrapping(ASYNC_MAIN))
                .ok()
                .filter(awaits_in_main);
        }
        let head = if file.is_some() { ASYNC_MAIN } else { MAIN };
        self.text = self.wrapping(head);
        for s in &mut self.segments {
            s.virt += head.len();
        }
        if file.is_none() {
            file = crate::parse::parse_file(&self.text).ok();
        }
        (self, file)
    }

    fn wrapping(&self, head: &str) -> String {
        format!("{head}{}}}\n", self.text)
    }

    #[cfg(test)]
    fn wrapped(self) -> Example {
        self.compiled().0
    }
}

const MAIN: &str = "fn main() {\n";
const ASYNC_MAIN: &str = "async fn main() {\n";

/// The text rustdoc compiles for one line of a block, and its offset in the file.
fn compiled_line(at: usize, text: &str) -> (usize, &str) {
    let indent = text.len() - text.trim_start().len();
    let trimmed = &text[indent..];
    if trimmed == "#" {
        return (at + indent + 1, "");
    }
    if let Some(rest) = trimmed.strip_prefix("# ") {
        return (at + indent + 2, rest);
    }
    if trimmed.starts_with("##") {
        return (at + indent + 1, &trimmed[1..]);
    }
    (at, text)
}

/// Does the example wrapped in an async `main` have an `.await` outside every async function,
/// block and closure, `main` taken for sync? The answer for the example wrapped in a sync
/// `main`: the two parse alike but for that `async`.
fn awaits_in_main(file: &syn::File) -> bool {
    struct Awaits {
        in_async: bool,
        found: bool,
        /// The next signature is `main`'s, the first thing of the file.
        at_main: bool,
    }
    impl Awaits {
        fn within(&mut self, in_async: bool, visit: impl FnOnce(&mut Self)) {
            let outer = std::mem::replace(&mut self.in_async, in_async);
            visit(self);
            self.in_async = outer;
        }
    }
    impl<'a> syn::visit::Visit<'a> for Awaits {
        fn visit_expr_await(&mut self, e: &'a syn::ExprAwait) {
            self.found |= !self.in_async;
            syn::visit::visit_expr_await(self, e);
        }
        fn visit_expr_async(&mut self, e: &'a syn::ExprAsync) {
            self.within(true, |v| syn::visit::visit_expr_async(v, e));
        }
        fn visit_expr_closure(&mut self, e: &'a syn::ExprClosure) {
            let is_async = e.asyncness.is_some();
            self.within(is_async, |v| syn::visit::visit_expr_closure(v, e));
        }
        fn visit_signature(&mut self, sig: &'a syn::Signature) {
            let at_main = std::mem::take(&mut self.at_main);
            self.in_async = sig.asyncness.is_some() && !at_main;
            syn::visit::visit_signature(self, sig);
        }
        fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
            self.within(false, |v| syn::visit::visit_item_fn(v, f));
        }
        fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
            self.within(false, |v| syn::visit::visit_impl_item_fn(v, f));
        }
        fn visit_trait_item_fn(&mut self, f: &'a syn::TraitItemFn) {
            self.within(false, |v| syn::visit::visit_trait_item_fn(v, f));
        }
    }
    let mut v = Awaits {
        in_async: false,
        found: false,
        at_main: true,
    };
    syn::visit::Visit::visit_file(&mut v, file);
    v.found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(file: &str) -> Vec<String> {
        examples(file)
            .into_iter()
            .map(|e| e.wrapped().text)
            .collect()
    }

    #[test]
    fn rust_blocks_of_doc_comments_are_examples_and_others_are_not() {
        let file = "/// ```\n/// a();\n/// ```\n///\n/// ```text\n/// b();\n/// ```\n\
                    //! ```rust,no_run\n//! c();\n//! ```\n// ```\n// d();\n// ```\n\
                    //// ```\n//// e();\n//// ```\n/// ```compile_fail\n/// f();\n/// ```\n\
                    /// ```rust bad\n/// g();\n/// ```\nconst S: &str = \"/// ```\n/// h();\n/// ```\";\n";
        assert_eq!(
            texts(file),
            vec![
                "fn main() {\na();\n}\n",
                "fn main() {\nc();\n}\n",
                "fn main() {\ng();\n}\n"
            ]
        );
    }

    #[test]
    fn hidden_lines_are_compiled_and_items_are_not_wrapped() {
        let file = "    /// ```\n    /// # use x::y;\n    /// # async fn f() {\n    /// g().await;\n    /// ##[attr]\n    /// fn h() {}\n    /// #\n    /// # }\n    /// ```\nfn x() {}\n";
        assert_eq!(
            texts(file),
            vec!["use x::y;\nasync fn f() {\ng().await;\n#[attr]\nfn h() {}\n\n}\n"]
        );
        let file = "/// ```\n/// let a = b().await;\n/// ```\n";
        assert_eq!(
            texts(file),
            vec!["async fn main() {\nlet a = b().await;\n}\n"]
        );
        // Awaited in an async block only: `main` stays sync.
        let file = "/// ```\n/// block_on(async { b().await });\n/// ```\n";
        assert_eq!(
            texts(file),
            vec!["fn main() {\nblock_on(async { b().await });\n}\n"]
        );
    }

    #[test]
    fn offsets_map_back_into_the_comment() {
        let file = "fn x() {}\n  ///  Text.\n  ///  ```\n  ///  # let p = 1;\n  ///  call(p);\n  ///  ```\n";
        let e = examples(file).remove(0).wrapped();
        let call = e.text.find("call").unwrap();
        assert_eq!(e.map(call), file.find("call").unwrap());
        let p = e.text.find("p = 1").unwrap();
        assert_eq!(e.map(p), file.find("p = 1").unwrap());
        // The end of a line is the end of its text; the wrapper is the first line.
        assert_eq!(
            e.map(call + "call(p);".len()),
            file.find("call(p);").unwrap() + 8
        );
        assert_eq!(e.map(0), file.find("let p").unwrap());
    }

    #[test]
    fn the_tree_of_a_compiled_example_is_the_tree_of_its_text() {
        let cases = [
            ("use a::b;\nfn f() {}\n", ""),
            ("a();\n", "fn main() {\n"),
            ("let a = b().await;\n", "async fn main() {\n"),
            ("block_on(async { b().await });\n", "fn main() {\n"),
            // The wrapper closes early: an `.await` in a sync function of the example's own
            // still makes `main` async, and one in an async function does not.
            (
                "a();\n}\nfn k() { x.await }\nfn l() {\n",
                "async fn main() {\n",
            ),
            (
                "a();\n}\nasync fn k() { x.await }\nfn l() {\n",
                "fn main() {\n",
            ),
            ("let a = (;\n", "fn main() {\n"),
            ("let a = b().await; (\n", "fn main() {\n"),
        ];
        for (code, head) in cases {
            let file = format!(
                "/// ```\n{}/// ```\n",
                code.lines()
                    .map(|l| format!("/// {l}\n"))
                    .collect::<String>()
            );
            let (example, tree) = examples(&file).remove(0).compiled();
            assert!(example.text.starts_with(head), "{code:?}: {}", example.text);
            let parsed = crate::parse::parse_file(&example.text).ok();
            assert_eq!(tree, parsed, "{code:?}");
        }
    }

    #[test]
    fn a_fence_closes_only_with_as_many_of_its_characters() {
        let file = "/// ````\n/// ```\n/// a();\n/// ````\n/// ~~~\n/// b();\n/// ~~~\n";
        assert_eq!(
            texts(file),
            vec!["fn main() {\n```\na();\n}\n", "fn main() {\nb();\n}\n"]
        );
    }
}
