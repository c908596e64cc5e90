//! Parsing one source text without ever overflowing the stack.
//!
//! syn is a recursive-descent parser, and the analysis (our visitor, `Drop` of the syntax tree)
//! recurses along the tree too. A file with thousands of nested parentheses, blocks, closures,
//! `&` or generic arguments overflows any fixed stack, and a stack overflow aborts the process:
//! it cannot be caught. So before syn sees a text, a linear scan of its tokens (proc-macro2's
//! lexer and `Drop` are not recursive) computes a bound on how deep syn can recurse, and a text
//! over [`MAX_NESTING`] is reported as an error instead of parsed. The analysis runs on threads
//! with [`WORKER_STACK`] bytes of stack, which holds [`MAX_NESTING`] levels of
//! the costliest construct several times over, even in a debug build (`tests/robustness.rs`
//! runs the binary on each construct just under the limit; the `nesting_bound` fuzz target
//! checks the bound against a stack sized from it).
//!
//! The bound counts, at each token, the tokens before it since the last point where every
//! construct that syn opened at that token level must have been closed, plus the same count at
//! each enclosing group. Those points are: a `;`; a `,` outside `<...>` (a `<` not followed by
//! `=`, until its `>` or a `=>`) and outside closure parameters (after a lone `|`, until a `;`
//! or `=>`); and a `{ ... }` group followed by a word (other than `else` or `as`), a literal or
//! `#`, which ends a statement, an item or a match arm. Every level of syn's recursion consumes
//! at least one token or opens a group, so the count bounds the recursion up to a constant
//! factor. Attributes that directly follow another attribute are not counted: syn collects them
//! in a list, so a block of 500 doc-comment lines is one attribute deep. Real code stays far
//! below the limit: of the 3,500 files of this project's dependency tree, the deepest scores
//! under 400 (checked by `tests/robustness.rs`).
//!
//! Besides, the text is prepared the way rustc reads it: a `#!` shebang line is skipped, and so
//! is a cargo-script frontmatter block (`---` fences), which syn does not know. Skipped lines are
//! blanked, not removed, so positions stay those of the file. The byte order mark is removed
//! before (once, where the text is read: see `check::strip_bom`); a second one does not lex.
//! Doc comments are made plain comments of the same length (nothing is read from their
//! `#[doc]` attributes, and on documented crates they were a tenth of the work).

use std::str::FromStr;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// The deepest nesting (in the units described in the module docs) a file may have.
pub const MAX_NESTING: usize = 2000;

/// A U+FEFF that is not the file's first character, said as rustc says it.
const STRAY_BOM: &str =
    "unknown start of token: \\u{feff} (a byte order mark is allowed once, at the start of the file)";

/// Why a text could not be parsed, with its 1-based position (column in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFailure {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Parse a whole file, given without its byte order mark. Lines and columns of the result's
/// spans are those of `text` (the preparation keeps them).
pub fn parse_file(text: &str) -> Result<syn::File, ParseFailure> {
    let prepared = prepare(text);
    let code: &str = &prepared;
    // proc-macro2 skips a leading byte order mark, but the file's own was removed already: this
    // one is a second, which rustc rejects.
    if code.starts_with('\u{feff}') {
        return Err(failure_at(code, 0, STRAY_BOM.to_string()));
    }
    // Lexing errors are said the way rustc says them (syn only says "cannot parse string into
    // token stream").
    let Ok(tokens) = TokenStream::from_str(code) else {
        if let Some(failure) = lex_failure(code) {
            return Err(failure);
        }
        return Err(syn::parse_str::<syn::File>(code).map_or_else(
            |e| failure_of(code, &e),
            |_| ParseFailure {
                line: 1,
                column: 1,
                message: "cannot be cut into tokens".to_string(),
            },
        ));
    };
    {
        // A clone shares the token vectors (`Rc`): the scan does not lex the text again.
        let nesting = nesting(tokens.clone(), MAX_NESTING);
        if let Some(at) = nesting.exceeded_at {
            return Err(ParseFailure {
                line: at.line.max(1),
                column: at.column + 1,
                message: format!(
                    "code nested too deeply to analyse safely (more than {MAX_NESTING} levels of \
                     nested expressions, blocks or types around this point)"
                ),
            });
        }
    }
    // The very tokens scanned, lexed once (`syn::parse_str` would lex the text again), and not
    // `syn::parse_file`: the shebang is `prepare`'s business only (and syn would remove a second
    // byte order mark).
    syn::parse2::<syn::File>(tokens).map_err(|e| failure_of(code, &e))
}

fn failure_of(code: &str, e: &syn::Error) -> ParseFailure {
    let start = e.span().start();
    let mut message = e.to_string();
    if let Some(word) = edition_2015_word(code, start.line, start.column) {
        message.push_str(&format!(
            " (`{word}` is a keyword since Rust 2018: code of edition 2015 is not supported)"
        ));
    }
    ParseFailure {
        line: start.line.max(1),
        column: start.column + 1,
        message,
    }
}

/// Why a text cannot be cut into tokens, as rustc says it: a string or block comment that does
/// not end, an unexpected or mismatched closing delimiter, or an unclosed one.
fn lex_failure(code: &str) -> Option<ParseFailure> {
    let bytes = code.as_bytes();
    let skipped = crate::prefilter::non_code_ranges(bytes);
    if let Some(r) = skipped.last().filter(|r| r.end == bytes.len()) {
        let text = &code[r.clone()];
        let unterminated = if text.starts_with("/*") {
            (!text.ends_with("*/") || text.len() < 4).then_some("unterminated block comment")
        } else if text.starts_with('"') || text.starts_with("b\"") {
            (!text.ends_with('"') || text.len() < 2).then_some("unterminated double quote string")
        } else {
            None
        };
        if let Some(message) = unterminated {
            return Some(failure_at(code, r.start, message.to_string()));
        }
    }
    let mut open: Vec<(usize, u8)> = Vec::new();
    let mut skip = skipped.iter().peekable();
    for (i, &b) in bytes.iter().enumerate() {
        while skip.peek().is_some_and(|r| r.end <= i) {
            skip.next();
        }
        if skip.peek().is_some_and(|r| r.contains(&i)) {
            continue;
        }
        if bytes[i..].starts_with("\u{feff}".as_bytes()) {
            return Some(failure_at(code, i, STRAY_BOM.to_string()));
        }
        match b {
            b'(' | b'[' | b'{' => open.push((i, b)),
            b')' | b']' | b'}' => {
                let expected = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match open.pop() {
                    Some((_, o)) if o == expected => {}
                    Some((at, o)) => {
                        let message = format!(
                            "mismatched closing delimiter: `{}` closes `{}` opened at {}",
                            b as char,
                            o as char,
                            position_text(code, at)
                        );
                        return Some(failure_at(code, i, message));
                    }
                    None => {
                        let message = format!("unexpected closing delimiter: `{}`", b as char);
                        return Some(failure_at(code, i, message));
                    }
                }
            }
            _ => {}
        }
    }
    let (at, o) = open.pop()?;
    Some(failure_at(
        code,
        at,
        format!(
            "unclosed delimiter: `{}` is never closed before the end of the file",
            o as char
        ),
    ))
}

/// 1-based line and column (in characters) of a byte offset.
fn position(code: &str, at: usize) -> (usize, usize) {
    let before = &code[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn position_text(code: &str, at: usize) -> String {
    let (line, column) = position(code, at);
    format!("{line}:{column}")
}

fn failure_at(code: &str, at: usize, message: String) -> ParseFailure {
    let (line, column) = position(code, at);
    ParseFailure {
        line,
        column,
        message,
    }
}

/// The word at a position (1-based line, 0-based column in characters), when it is one that
/// edition 2015 allowed as a name and later editions made a keyword: the likely reason why
/// syn, which reads the current edition, rejects the code there.
fn edition_2015_word(code: &str, line: usize, column: usize) -> Option<&'static str> {
    let text = code.lines().nth(line.checked_sub(1)?)?;
    let start = text.char_indices().nth(column).map(|(i, _)| i)?;
    let word: String = text[start..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    ["async", "await", "dyn", "try"]
        .into_iter()
        .find(|k| *k == word)
}

/// `text` with a shebang line and a cargo-script frontmatter blanked:
/// the text that [`parse_file`] scans and parses.
pub fn prepare(text: &str) -> std::borrow::Cow<'_, str> {
    let mut blank_until = 0;
    if let Some(rest) = text.strip_prefix("#!") {
        // `#![attr]` is an inner attribute, not a shebang (rustc and syn skip whitespace and
        // comments before looking for `[`).
        if !skip_trivia(rest).starts_with('[') {
            blank_until = text.find('\n').unwrap_or(text.len());
        }
    }
    if let Some(end) = frontmatter_end(text, blank_until) {
        blank_until = end;
    }
    let docs = doc_comment_markers(text, blank_until);
    if blank_until == 0 && docs.is_empty() {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    out.extend(text[..blank_until].chars().filter(|&c| c == '\n'));
    // The blanked lines keep only their newlines: later bytes move back by the difference.
    let moved_back = blank_until - out.len();
    out.push_str(&text[blank_until..]);
    // Each marker is an ASCII `/`, `*` or `!`, replaced by an ASCII space.
    let mut bytes = out.into_bytes();
    for at in docs {
        bytes[at - moved_back] = b' ';
    }
    String::from_utf8(bytes)
        .expect("ASCII replaced by ASCII")
        .into()
}

/// Where the doc comments after `from` have the byte that makes them doc comments (the third:
/// `///`, `//!`, `/**`, `/*!`). Turned into a space, a doc comment becomes a plain one of the
/// same length: the lexer then makes no `#[doc = ".."]` attribute of it (its text, escaped,
/// and tokens that the nesting scan and syn would read again), and no fact comes from one
/// (doc examples are read from the text).
fn doc_comment_markers(text: &str, from: usize) -> Vec<usize> {
    crate::prefilter::non_code_ranges(text.as_bytes())
        .into_iter()
        .filter(|r| r.start >= from)
        .filter_map(|r| {
            let comment = &text.as_bytes()[r.clone()];
            let doc = match comment {
                [b'/', b'/', b'/', b'/', ..] => false,
                [b'/', b'/', b'/' | b'!', ..] => true,
                [b'/', b'*', b'*', b'*', ..] | [b'/', b'*', b'*', b'/', ..] => false,
                [b'/', b'*', b'*' | b'!', ..] => true,
                _ => false,
            };
            doc.then_some(r.start + 2)
        })
        .collect()
}

/// The end (byte offset, before the final newline) of a frontmatter block starting at `from`:
/// after blank lines, a line of three or more dashes (with an optional info string), up to the
/// next line of exactly as many dashes. None when there is no complete block.
fn frontmatter_end(text: &str, from: usize) -> Option<usize> {
    let mut offset = from;
    // Skip the newline ending the shebang line and any blank lines.
    let rest = &text[offset..];
    let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace());
    offset += rest.len() - trimmed.len();
    // The fence must start a line.
    if offset > 0 && !text[..offset].ends_with('\n') {
        return None;
    }
    let dashes = trimmed.chars().take_while(|&c| c == '-').count();
    if dashes < 3 {
        return None;
    }
    let fence = &trimmed[..dashes];
    let mut line_start = offset + trimmed.find('\n')? + 1;
    while line_start <= text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        if text[line_start..line_end].trim_end() == fence {
            return Some(line_end);
        }
        if line_end == text.len() {
            return None;
        }
        line_start = line_end + 1;
    }
    None
}

/// Whitespace and non-doc comments at the start of `s` skipped, as syn does to tell a shebang
/// from an inner attribute.
fn skip_trivia(mut s: &str) -> &str {
    loop {
        let trimmed = s.trim_start();
        if let Some(rest) = trimmed.strip_prefix("//") {
            if rest.starts_with('!') || (rest.starts_with('/') && !rest.starts_with("//")) {
                return trimmed;
            }
            s = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if let Some(rest) = trimmed.strip_prefix("/**/") {
            s = rest;
        } else if let Some(rest) = trimmed.strip_prefix("/*") {
            if rest.starts_with('!') || (rest.starts_with('*') && !rest.starts_with("**")) {
                return trimmed;
            }
            let mut depth = 1;
            let bytes = rest.as_bytes();
            let mut i = 0;
            while depth > 0 {
                match (bytes.get(i), bytes.get(i + 1)) {
                    (Some(b'/'), Some(b'*')) => {
                        depth += 1;
                        i += 2;
                    }
                    (Some(b'*'), Some(b'/')) => {
                        depth -= 1;
                        i += 2;
                    }
                    (Some(_), _) => i += 1,
                    (None, _) => return trimmed,
                }
            }
            s = &rest[i..];
        } else {
            return trimmed;
        }
    }
}

/// The result of the nesting scan.
#[derive(Debug, Default)]
pub struct Nesting {
    /// The highest count seen (at most `limit + 1`: the scan stops there).
    pub deepest: usize,
    /// Where the count first went over the limit.
    pub exceeded_at: Option<proc_macro2::LineColumn>,
}

/// The count of one token level (one group's contents).
struct Level {
    tokens: std::iter::Peekable<proc_macro2::token_stream::IntoIter>,
    /// The count at the group that holds this level.
    base: usize,
    /// Tokens since the last reset point.
    run: usize,
    /// `<` not yet matched by a `>`: generic arguments may be open, so `,` does not reset.
    angles: usize,
    /// A lone `|` was seen: closure parameters may be open, so `,` does not reset (until `;`,
    /// `=>` or a statement boundary).
    bar: bool,
    /// The previous token was a `{ ... }` group.
    after_brace: bool,
    /// The previous token was a `|` that pairs with this one (`||`).
    paired_bar: bool,
    /// The previous token was a joint `-` or `=`: a `>` now ends `->` or `=>`.
    arrow: Option<char>,
    /// Where the tokens stand in an attribute (`#`, `!`, `[...]`).
    attribute: Attribute,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Attribute {
    /// Not in an attribute.
    Outside,
    /// After the `#` (and the `!` of an inner attribute); `counted` is false when this attribute
    /// directly follows another one.
    Open { counted: bool },
    /// The previous token closed an attribute.
    Closed,
}

impl Level {
    fn new(stream: TokenStream, base: usize) -> Self {
        Level {
            tokens: stream.into_iter().peekable(),
            base,
            run: 0,
            angles: 0,
            bar: false,
            after_brace: false,
            paired_bar: false,
            arrow: None,
            attribute: Attribute::Outside,
        }
    }

    fn reset(&mut self) {
        self.run = 0;
        self.angles = 0;
        self.bar = false;
    }
}

/// Scan `tokens` and bound syn's recursion on them (see the module docs). Stops at the first
/// token whose count exceeds `limit`.
pub fn nesting(tokens: TokenStream, limit: usize) -> Nesting {
    let mut result = Nesting::default();
    let mut stack = vec![Level::new(tokens, 0)];
    while let Some(level) = stack.last_mut() {
        let Some(token) = level.tokens.next() else {
            stack.pop();
            continue;
        };
        if std::mem::take(&mut level.after_brace) {
            let ends_statement = match &token {
                TokenTree::Ident(i) => i != "else" && i != "as",
                TokenTree::Literal(_) => true,
                TokenTree::Punct(p) => p.as_char() == '#',
                TokenTree::Group(_) => false,
            };
            if ends_statement {
                level.reset();
            }
        }
        let paired_bar = std::mem::take(&mut level.paired_bar);
        let arrow = std::mem::take(&mut level.arrow);
        let attribute = std::mem::replace(&mut level.attribute, Attribute::Outside);
        let mut counted = true;
        match (&token, attribute) {
            (TokenTree::Punct(p), previous) if p.as_char() == '#' => {
                let counted = previous != Attribute::Closed;
                level.attribute = Attribute::Open { counted };
            }
            (TokenTree::Punct(p), Attribute::Open { counted }) if p.as_char() == '!' => {
                level.attribute = Attribute::Open { counted };
            }
            (TokenTree::Group(g), Attribute::Open { .. })
                if g.delimiter() == Delimiter::Bracket =>
            {
                level.attribute = Attribute::Closed;
            }
            _ => {}
        }
        if let Attribute::Open { counted: false } = level.attribute {
            counted = false;
        }
        if let (Attribute::Closed, Attribute::Open { counted: false }) =
            (level.attribute, attribute)
        {
            counted = false;
        }
        let mut child = None;
        match &token {
            TokenTree::Punct(p) => {
                let joint = p.spacing() == Spacing::Joint;
                let next = match level.tokens.peek() {
                    Some(TokenTree::Punct(n)) if joint => Some(n.as_char()),
                    _ => None,
                };
                match p.as_char() {
                    ';' => {
                        level.reset();
                        counted = false;
                    }
                    ',' if level.angles == 0 && !level.bar => {
                        level.run = 0;
                        counted = false;
                    }
                    // `<=` compares; a `<` alone may open generic arguments.
                    '<' if next == Some('=') => {}
                    '<' => level.angles += 1,
                    // `=>` ends a match arm's pattern and guard: its `|` were or-patterns and
                    // its `<` comparisons. (Not `->`: closure parameters may hold `fn() -> T`.)
                    '>' if arrow == Some('=') => {
                        level.bar = false;
                        level.angles = 0;
                    }
                    '>' if arrow == Some('-') => {}
                    '>' => level.angles = level.angles.saturating_sub(1),
                    c @ ('-' | '=') if joint => level.arrow = Some(c),
                    '|' if paired_bar => {}
                    '|' if next == Some('|') => level.paired_bar = true,
                    '|' if next == Some('=') => {}
                    '|' => level.bar = true,
                    _ => {}
                }
            }
            TokenTree::Group(g) => {
                level.after_brace = g.delimiter() == Delimiter::Brace;
                child = Some(g.stream());
            }
            TokenTree::Ident(_) | TokenTree::Literal(_) => {}
        }
        if counted {
            level.run += 1;
        }
        let depth = level.base + level.run;
        result.deepest = result.deepest.max(depth);
        if depth > limit {
            result.exceeded_at = Some(token.span().start());
            return result;
        }
        if let Some(stream) = child {
            stack.push(Level::new(stream, depth));
        }
    }
    result
}

/// Stack of the threads that parse and analyse files: syn and the analysis recurse along the
/// syntax tree, and [`MAX_NESTING`] is chosen so that the deepest file it lets
/// through fits in this stack several times over. Only the pages a thread touches are committed.
pub const WORKER_STACK: usize = 256 * 1024 * 1024;

/// Run `f` on a new thread with a [`WORKER_STACK`]-sized stack, for analyses started outside
/// `crate::check`'s workers (syn and the analysis recurse along the syntax tree). A panic in `f` is
/// passed on to the caller. Should no thread be available, `f` runs on the caller's thread.
pub fn on_worker_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let f = std::sync::Mutex::new(Some(f));
    let take = || f.lock().unwrap_or_else(|e| e.into_inner()).take();
    let spawned = std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("kube-order-lint analysis".to_string())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, || take().map(|f| f()))?;
        Ok::<_, std::io::Error>(handle.join())
    });
    match spawned {
        Ok(Ok(Some(value))) => value,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // The thread did not start, or did not take `f`.
        Ok(Ok(None)) | Err(_) => match take() {
            Some(f) => f(),
            None => unreachable!("the analysis thread took the closure and returned"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(code: &str) -> (usize, usize, String) {
        let f = parse_file(code).expect_err("must not parse");
        (f.line, f.column, f.message)
    }

    #[test]
    fn lexing_errors_are_said_as_rustc_says_them() {
        let (line, column, message) = failure("fn main(\n");
        assert_eq!((line, column), (1, 8));
        assert!(message.starts_with("unclosed delimiter: `(`"), "{message}");
        let (line, column, message) = failure("fn f() {\n    let x = [1, 2);\n}\n");
        assert_eq!((line, column), (2, 18));
        assert!(
            message.starts_with("mismatched closing delimiter: `)` closes `[` opened at 2:13"),
            "{message}"
        );
        let (_, _, message) = failure("fn f() {}\n}\n");
        assert_eq!(message, "unexpected closing delimiter: `}`");
        let (line, _, message) = failure("fn f() { let s = \"never ends; }\n");
        assert_eq!(
            (line, message.as_str()),
            (1, "unterminated double quote string")
        );
        let (_, _, message) = failure("fn f() {} /* open\n");
        assert_eq!(message, "unterminated block comment");
        // Delimiters in strings and comments do not count.
        assert!(parse_file("fn f() { let s = \"(\"; } // )\n").is_ok());
    }

    fn deepest(code: &str) -> usize {
        let n = nesting(TokenStream::from_str(code).unwrap(), usize::MAX).deepest;
        proc_macro2::extra::invalidate_current_thread_spans();
        n
    }

    #[test]
    fn siblings_do_not_add_up() {
        let one = deepest("fn f() { g(1, 2); }");
        let many = deepest(&format!("fn f() {{ g({}); }}", vec!["1"; 1000].join(", ")));
        assert_eq!(one, many);
        let items = deepest(&"fn f() { a(); }\nstruct S { a: u8 }\n".repeat(1000));
        assert_eq!(items, deepest("fn f() { a(); }\nstruct S { a: u8 }\n"));
        let arms = deepest(&format!(
            "fn f() {{ match x {{ {} _ => {{}} }} }}",
            "1 => {} A | B => {}\n".repeat(500)
        ));
        assert!(arms < 20, "{arms}");
        let guarded = deepest(&format!(
            "fn f() {{ match x {{ {} _ => 0 }} }}",
            "x @ _ if 1 <= x && x < 9 => x.f(1),\n".repeat(500)
        ));
        assert!(guarded < 40, "{guarded}");
    }

    #[test]
    fn consecutive_attributes_count_once() {
        let one = deepest("//! a\nfn f() {}\n");
        let many = deepest(&format!("{}fn f() {{}}\n", "//! doc\n".repeat(2000)));
        assert_eq!(one, many);
        let outer = deepest(&format!(
            "{}fn f() {{}}\n",
            "/// doc\n#[inline]\n".repeat(2000)
        ));
        assert_eq!(deepest("/// doc\nfn f() {}\n"), outer);
        // Attributes on nested expressions still count.
        let nested = deepest(&format!("fn f() {{ {}x; }}", "!#[a] ".repeat(100)));
        assert!(nested >= 200, "{nested}");
    }

    #[test]
    fn nesting_adds_up() {
        let parens = |n: usize| deepest(&format!("{}1{}", "(".repeat(n), ")".repeat(n)));
        assert!(parens(100) >= 100);
        let refs = |n: usize| deepest(&format!("type T = {}u8;", "&".repeat(n)));
        assert!(refs(100) >= 100);
    }

    #[test]
    fn commas_inside_generics_and_closure_parameters_do_not_reset() {
        let generics = deepest(&format!(
            "type T = {}u8{};",
            "V<u8, ".repeat(100),
            ">".repeat(100)
        ));
        assert!(generics >= 100, "{generics}");
        let closures = deepest(&format!("fn f() {{ {}1 }}", "|a, b| ".repeat(100)));
        assert!(closures >= 100, "{closures}");
        // A closure after a bit-or, after `||`, or unspaced after `||`.
        let tricky = deepest(&format!("fn f() {{ x | {}1 }}", "|a, b| ".repeat(100)));
        assert!(tricky >= 100, "{tricky}");
        let typed = deepest(&format!(
            "fn f() {{ {}1 }}",
            "|f: fn() -> u8, c| ".repeat(100)
        ));
        assert!(typed >= 100, "{typed}");
        let unspaced = deepest(&format!("fn f() {{ {}1 }}", "|||a, b|".repeat(100)));
        assert!(unspaced >= 100, "{unspaced}");
    }

    #[test]
    fn too_deep_is_an_error_with_a_position() {
        let text = format!(
            "fn main() {{\n    let x = {}1{};\n}}\n",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        let e = parse_file(&text).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.column > MAX_NESTING - 20, "{e:?}");
        assert!(e.message.contains("nested too deeply"), "{}", e.message);
        proc_macro2::extra::invalidate_current_thread_spans();
    }

    #[test]
    fn keywords_used_as_names_in_edition_2015_code_are_explained() {
        let e = parse_file("fn f() {\n    let async = 1;\n}\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        assert!(
            e.message.ends_with(
                " (`async` is a keyword since Rust 2018: code of edition 2015 is not supported)"
            ),
            "{}",
            e.message
        );
        let e = parse_file("fn f() { let x = ; }").unwrap_err();
        assert!(!e.message.contains("edition"), "{}", e.message);
        proc_macro2::extra::invalidate_current_thread_spans();
    }

    #[test]
    fn shebang_and_frontmatter_are_blanked_keeping_positions() {
        let script = "#!/usr/bin/env -S cargo +nightly -Zscript\n---\n[dependencies]\nkube = \"1\"\n---\n\nfn main() { let x = ; }\n";
        let e = parse_file(script).unwrap_err();
        assert_eq!((e.line, e.column), (7, 21), "{e:?}");
        assert!(parse_file("---cargo\n[package]\nedition = \"2024\"\n---\nfn main() {}\n").is_ok());
        // An unclosed fence is left to syn, which reports it.
        assert!(parse_file("---\nfn main() {}\n").is_err());
        // `#![attr]` is not a shebang.
        assert!(parse_file("#![allow(unused)]\nfn main() {}\n").is_ok());
        assert!(parse_file("#! /* c */ [allow(unused)]\nfn main() {}\n").is_ok());
        assert!(parse_file("#!/bin/x \"\nfn main() {}\n").is_ok());
        proc_macro2::extra::invalidate_current_thread_spans();
    }

    #[test]
    fn doc_comments_become_plain_comments_of_the_same_length() {
        let text = "#!/bin/sh x\n//! crate\n/// item\n//// plain\n/** block */ /**/ /*** plain */\n/*! inner */ fn f() {}\n";
        let prepared = prepare(text);
        assert_eq!(
            prepared,
            "\n//  crate\n//  item\n//// plain\n/*  block */ /**/ /*** plain */\n/*  inner */ fn f() {}\n"
        );
        // Doc comments where no attribute may go parse; positions after them are kept.
        let file =
            parse_file("fn f() {\n    x();\n    /// trailing\n}\n/// item\nfn g() { let y = ; }\n");
        let e = file.unwrap_err();
        assert_eq!((e.line, e.column), (6, 18), "{e:?}");
        assert!(parse_file("fn f() {\n    x();\n    /// trailing\n}\n").is_ok());
        proc_macro2::extra::invalidate_current_thread_spans();
    }

    /// The caller removes the file's byte order mark; one left in the text is a second one,
    /// which rustc does not lex, at the start or anywhere else.
    #[test]
    fn a_byte_order_mark_in_the_text_is_an_error() {
        for (text, at) in [
            ("\u{feff}fn main() {}\n", (1, 1)),
            ("fn main() {\n \u{feff}}\n", (2, 2)),
        ] {
            let e = parse_file(text).unwrap_err();
            assert_eq!((e.line, e.column), at, "{e:?}");
            assert!(
                e.message.starts_with("unknown start of token: \\u{feff}"),
                "{e:?}"
            );
        }
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
