//! Which files are worth parsing. Parsing is nearly all of the cost of a run, and most files of a
//! large workspace never mention kube: a fixed-string search over a file's text is ~70 times
//! cheaper than `syn::parse_file`, so files are searched first and parsed only when they may
//! contribute a fact to a finding.
//!
//! Every finding rests on a kube request or on a blocking call. A request needs an `Api` handle,
//! and a file names one (`Api<Pod>`, `Api::namespaced`), or reaches one through a name declared
//! in a file that does (a field, a function returning a handle, a helper making requests).
//! Concurrency combinators (`join!`, `select!`, `tokio::spawn`, …) are therefore not triggers: a
//! file whose combinators poll no request has nothing to report, and one whose combinators poll
//! helpers that make requests calls those helpers by name (rule 3).
//!
//! **A prefilter must never lose a finding.** A file is parsed when it contains:
//!
//! 1. one of the trigger words (`Api`, `block_on`, … in [`crate::model::known::TRIGGERS`], the
//!    table the model recognises them from), or a user-declared wrapper name;
//! 2. a `mod x;` declaration, when its modules are followed (so the module tree is complete);
//! 3. a name that the files of its link unit parsed so far made relevant
//!    ([`crate::model::link::linked_names`]): a request `self.pods.get(..)` has no trigger word,
//!    but the field `pods: Api<Pod>` is declared in a file that does; a call of a helper that
//!    makes requests or blocks (`join!(update(&ctx), ..)`), or the `const` naming an object, may
//!    be in a file without trigger words. The driver parses the triggered files first, then those
//!    of the other files that have a linked name, until no new name appears;
//! 4. a suppression comment (checked in `check`: malformed and unused suppressions are reported).
//!
//! Request method names (`get`, `create`, `patch`, …) are not triggers: `get` is in most files,
//! and a call is only a request when its receiver is an `Api`, which rule 1 or 3 sees.
//!
//! Adding a fact to the model? If it can appear in a file that matches none of the rules above,
//! recognise it through a constant of [`crate::model::known`] (with why: it becomes a trigger
//! word), or add its cross-file names to `linked_names`.
//! Files named on the command line are always parsed.
//! `tests/prefilter.rs` runs every UI fixture with and without the prefilter and compares.

use std::ops::Range;

use aho_corasick::{AhoCorasick, Input, Match, MatchKind};

/// A trigger word and why it is one. A trigger matches a whole identifier, as the model
/// recognises it (`Api<Pod>`, not `DownwardApi`: generated Kubernetes types are full of those).
/// The reference words of the benchmark ([`REFERENCE_WORDS`]) match as one or more whole
/// *segments* of an identifier instead: segments are separated by `_`, digits and camel-case
/// humps, so `join` matches `try_join_all` and `join3`, `Join` matches `JoinSet`, but `join`
/// does not match `joint` nor `select` `selected`.
pub struct Trigger {
    pub word: &'static str,
    pub why: &'static str,
}

/// The trigger words of the benchmark's reference figure ("parsing only files that contain a
/// few trigger words"): kube's `Api` and every concurrency combinator. Kept fixed so that the
/// yardstick does not move with the tool's own prefilter, which needs fewer words.
pub static REFERENCE_WORDS: &[&str] = &[
    "Api",
    "join",
    "Join",
    "select",
    "spawn",
    "Futures",
    "unordered",
    "buffered",
    "concurrent",
    "scope",
    "block_on",
    "abortable",
    "Abortable",
    "timeout",
];

/// How a name made relevant by another file is used where it matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameUse {
    /// Anywhere, as a whole identifier (wrapper functions: `apply_patch`).
    Anywhere,
    /// As a field: `.name` (`self.pods.get(..)` when a struct declares `pods: Api<Pod>`).
    Field,
    /// As a function or method called: `name(` or `name::<..>(` (`self.pods().get(..)` when a
    /// function `pods` returns `Api<Pod>`).
    Call,
    /// Declared as a function: `fn name` (a helper called from a join).
    DeclaredFunction,
    /// Declared as a `const` or `static` item: `const NAME`, `static NAME`, `static mut NAME`
    /// (a name a request uses).
    DeclaredConst,
    /// Declared as a trait: `trait Name` (a helper implementing a method of it is called by name
    /// only when the crate declares the trait).
    DeclaredTrait,
    /// As a field given a value: in braces, followed by `:` or, shorthand, by `,` or `}`
    /// (`Handler { f: run }`, `Handler { f }`; a struct's declaration too), or assigned
    /// (`handler.f = run`). A field holding a function value is given it so (see
    /// [`crate::model::FileFacts::callbacks`]); a parameter `f: &mut Formatter` is not.
    GivenToField,
}

/// A name that makes a file relevant, and how it must be used for that.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name {
    pub text: String,
    pub used_as: NameUse,
    /// Only in a file that also has this identifier in code: a method that other methods of
    /// its name make ambiguous is resolved only on a receiver of its type (`impl Type`, a
    /// parameter `x: &Type`), or called as `Type::name(..)`, and a file doing so names the type.
    pub with: Option<String>,
    /// `with` must name the type of an `impl` block (`impl Type {`, `impl Trait for Type<T>
    /// where ..`), not only be there: a call `Type::name(..)` runs only a function of such a
    /// block, and a file declaring one names its type so.
    pub with_impl: bool,
}

impl Name {
    pub fn new(text: impl Into<String>, used_as: NameUse) -> Name {
        Name {
            text: text.into(),
            used_as,
            with: None,
            with_impl: false,
        }
    }
}

/// Decides whether a file must be parsed (rules 1 and 3 above; rule 2 is [`may_declare_modules`]).
/// Words are looked for in code only: comments and string literals are skipped.
pub struct Prefilter {
    /// Trigger words, matched as whole identifiers or, with `as_segments`, as identifier
    /// segments.
    triggers: AhoCorasick,
    trigger_words: Vec<&'static str>,
    as_segments: bool,
    /// Names matched as whole identifiers, with how each must be used.
    names: Option<(AhoCorasick, Vec<Vec<NameRule>>)>,
}

/// How a name must be used ([`NameUse`]), and the identifier the file must also have, if any
/// ([`Name::with`]), with whether it must be an `impl` block's type ([`Name::with_impl`]).
type NameRule = (NameUse, Option<(String, bool)>);

impl Prefilter {
    /// `words`: the trigger words, matched as whole identifiers (the model's,
    /// [`crate::model::known::TRIGGERS`]).
    pub fn new(words: &[&'static str], names: &[Name]) -> Self {
        Self::build(words, false, names)
    }

    /// A prefilter with other trigger words, matched as identifier segments (the benchmark's
    /// reference, [`REFERENCE_WORDS`]).
    pub fn with_words(words: &[&'static str], names: &[Name]) -> Self {
        Self::build(words, true, names)
    }

    fn build(words: &[&'static str], as_segments: bool, names: &[Name]) -> Self {
        let trigger_words = words.to_vec();
        // One pattern per text: a search reports one pattern per position.
        let mut uses: std::collections::BTreeMap<&str, Vec<NameRule>> = Default::default();
        for n in names.iter().filter(|n| !n.text.is_empty()) {
            uses.entry(n.text.as_str())
                .or_default()
                .push((n.used_as, n.with.clone().map(|w| (w, n.with_impl))));
        }
        Prefilter {
            triggers: automaton(&trigger_words),
            trigger_words,
            as_segments,
            names: (!uses.is_empty()).then(|| {
                let texts: Vec<&str> = uses.keys().copied().collect();
                // By use, each without a companion first (see `search`).
                let rules = uses.into_values().map(|mut rules| {
                    rules.sort();
                    rules.dedup();
                    rules
                });
                (automaton(&texts), rules.collect())
            }),
        }
    }

    /// May this text contribute a fact to the model (a trigger word or a name, in code)?
    pub fn must_parse(&self, text: &str) -> bool {
        self.search(text, true)
    }

    /// Does this text use one of the names, in code? (For files already searched for triggers.)
    pub fn mentions_names(&self, text: &str) -> bool {
        self.search(text, false)
    }

    fn search(&self, text: &str, triggers: bool) -> bool {
        let bytes = text.as_bytes();
        let mut code = CodeMap::new(bytes);
        let mut in_code = |at: usize| code.in_code(at);
        if triggers {
            for m in every_start(&self.triggers, text) {
                let word = self.trigger_words[m.pattern().as_usize()].as_bytes();
                let whole = if self.as_segments {
                    segment_boundary(bytes, m.start(), m.end(), word)
                } else {
                    word_boundary(bytes, m.start(), m.end())
                };
                if whole && in_code(m.start()) {
                    return true;
                }
            }
        }
        let Some((names, uses)) = &self.names else {
            return false;
        };
        for m in every_start(names, text) {
            if !word_boundary(bytes, m.start(), m.end()) {
                continue;
            }
            // Rules come by use: each use is tested once. A name like `new` can have hundreds
            // of companions (a type each), and each companion is looked for once a search.
            let mut tested: Option<(NameUse, bool)> = None;
            for (how, with) in &uses[m.pattern().as_usize()] {
                let used = match tested {
                    Some((use_, used)) if use_ == *how => used,
                    _ => {
                        // Cheapest test first: finding comments and literals reads the whole file.
                        let used = match used_as(bytes, m.start(), m.end(), *how) {
                            Use::No => false,
                            Use::Yes => code.in_code(m.start()),
                            Use::InBraces => {
                                code.in_code(m.start())
                                    && code.innermost_bracket(m.start()) == Some(b'{')
                            }
                        };
                        tested = Some((*how, used));
                        used
                    }
                };
                if used && with.as_ref().map_or(true, |c| code.has_companion(text, c)) {
                    return true;
                }
            }
        }
        false
    }
}

/// What a search learns of a text's code when a match needs it: where its comments and
/// literals are, then which bracket is open at each point. Most files need neither.
struct CodeMap<'t> {
    bytes: &'t [u8],
    non_code: Option<Vec<Range<usize>>>,
    /// The innermost open bracket from each position on (0 outside all), by position.
    nesting: Option<Vec<(usize, u8)>>,
    /// The companions ([`Name::with`]) looked for, and whether they are there.
    companions: std::collections::HashMap<(String, bool), bool>,
    /// The identifiers of the code: a name like `new` can have hundreds of companions, most
    /// not in the file, and looking for each in the text took an eighth of the one-unit run.
    identifiers: Option<std::collections::HashSet<&'t [u8]>>,
}

impl<'t> CodeMap<'t> {
    fn new(bytes: &'t [u8]) -> Self {
        CodeMap {
            bytes,
            non_code: None,
            nesting: None,
            companions: Default::default(),
            identifiers: None,
        }
    }

    /// Has the text this companion, as [`Name::with_impl`] asks?
    fn has_companion(&mut self, text: &str, companion: &(String, bool)) -> bool {
        if let Some(&found) = self.companions.get(companion) {
            return found;
        }
        let (word, as_impl) = companion;
        let found = if word.bytes().all(is_ident_byte) && !self.has_code_identifier(word) {
            false
        } else {
            let mut in_code = |at: usize| self.in_code(at);
            match as_impl {
                false => has_identifier(text, word, &mut in_code),
                true => has_impl_type(text, word, &mut in_code),
            }
        };
        self.companions.insert(companion.clone(), found);
        found
    }

    /// Is `word` (identifier bytes only) an identifier of the code?
    fn has_code_identifier(&mut self, word: &str) -> bool {
        if self.identifiers.is_none() {
            let found = code_identifiers(self.bytes, self.non_code());
            self.identifiers = Some(found);
        }
        self.identifiers
            .as_ref()
            .is_some_and(|ids| ids.contains(word.as_bytes()))
    }

    fn non_code(&mut self) -> &[Range<usize>] {
        let bytes = self.bytes;
        self.non_code.get_or_insert_with(|| non_code_ranges(bytes))
    }

    fn in_code(&mut self, at: usize) -> bool {
        let ranges = self.non_code();
        let i = ranges.partition_point(|r| r.end <= at);
        ranges.get(i).map_or(true, |r| at < r.start)
    }

    /// The innermost bracket (`(`, `[` or `{`) open at `at`, in code.
    fn innermost_bracket(&mut self, at: usize) -> Option<u8> {
        if self.nesting.is_none() {
            let nesting = bracket_nesting(self.bytes, self.non_code());
            self.nesting = Some(nesting);
        }
        let nesting = self.nesting.as_deref().unwrap_or_default();
        let i = nesting.partition_point(|&(from, _)| from <= at);
        i.checked_sub(1).map(|i| nesting[i].1).filter(|&b| b != 0)
    }
}

/// The identifiers of the code (runs of identifier bytes outside comments and literals; a
/// literal's prefix, `br"..."`, starts its range).
fn code_identifiers<'t>(
    text: &'t [u8],
    non_code: &[Range<usize>],
) -> std::collections::HashSet<&'t [u8]> {
    let mut out = std::collections::HashSet::new();
    let mut skip = non_code.iter().peekable();
    let mut i = 0;
    while i < text.len() {
        if let Some(r) = skip.next_if(|r| r.start <= i) {
            i = i.max(r.end);
            continue;
        }
        if is_ident_byte(text[i]) {
            let start = i;
            while i < text.len() && is_ident_byte(text[i]) {
                i += 1;
            }
            out.insert(&text[start..i]);
        } else {
            i += 1;
        }
    }
    out
}

/// The innermost open bracket of the code from each bracket on: one pass, brackets in comments
/// and literals skipped; a closing bracket without an opening one is ignored.
fn bracket_nesting(text: &[u8], non_code: &[Range<usize>]) -> Vec<(usize, u8)> {
    let mut open: Vec<u8> = Vec::new();
    let mut out = vec![(0, 0)];
    let mut skip = non_code.iter().peekable();
    let mut i = 0;
    while i < text.len() {
        if let Some(r) = skip.next_if(|r| r.start <= i) {
            i = i.max(r.end);
            continue;
        }
        match text[i] {
            b @ (b'(' | b'[' | b'{') => {
                open.push(b);
                out.push((i + 1, b));
            }
            b')' | b']' | b'}' => {
                open.pop();
                out.push((i + 1, open.last().copied().unwrap_or(0)));
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Does `text` have the identifier `word` in code?
fn has_identifier(text: &str, word: &str, in_code: &mut impl FnMut(usize) -> bool) -> bool {
    text.match_indices(word)
        .any(|(at, _)| word_boundary(text.as_bytes(), at, at + word.len()) && in_code(at))
}

/// Does `text` have the identifier `word`, in code, where an `impl` block's type is: followed,
/// after its generic arguments, by `{` or `where`? (A comment there, or arguments too long to
/// read, answer yes.)
fn has_impl_type(text: &str, word: &str, in_code: &mut impl FnMut(usize) -> bool) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(word).any(|(at, _)| {
        let end = at + word.len();
        word_boundary(bytes, at, end) && before_block(bytes, end) && in_code(at)
    })
}

/// How far generic arguments are read before [`before_block`] answers yes.
const MAX_GENERIC_ARGUMENTS: usize = 4096;

/// Is the type ending at `end` followed, after its generic arguments, by `{` or `where`?
fn before_block(text: &[u8], end: usize) -> bool {
    let mut i = end;
    skip_whitespace(text, &mut i);
    if text.get(i) == Some(&b'<') {
        let mut depth = 0usize;
        loop {
            match text.get(i) {
                None => return false,
                Some(_) if i - end > MAX_GENERIC_ARGUMENTS => return true,
                Some(b'<') => depth += 1,
                // `->` and `=>` close nothing.
                Some(b'>') if !matches!(text.get(i - 1), Some(b'-' | b'=')) => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        skip_whitespace(text, &mut i);
    }
    match text.get(i) {
        Some(b'{' | b'/') => true,
        _ => {
            text[i..].starts_with(b"where") && !text.get(i + 5).copied().is_some_and(is_ident_byte)
        }
    }
}

/// The bytes of `text` that make up its tokens: what the syntax tree grows with. Comments and
/// the whitespace between tokens are left out (a file of mostly comments parses into a small
/// tree, and padding must not make a file too large to check); literals count whole.
pub fn code_size(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut size = 0;
    let mut at = 0;
    for r in non_code_ranges(bytes) {
        size += non_blank_bytes(text.get(at..r.start).unwrap_or_default());
        if bytes[r.start] != b'/' {
            size += r.len();
        }
        at = r.end;
    }
    size + non_blank_bytes(text.get(at..).unwrap_or_default())
}

/// The bytes of `code` (outside comments and literals) that are not whitespace to the parser:
/// Unicode whitespace and the two direction marks, a superset of what rustc allows.
fn non_blank_bytes(code: &str) -> usize {
    code.chars()
        .filter(|&c| !(c.is_whitespace() || c == '\u{200e}' || c == '\u{200f}'))
        .map(char::len_utf8)
        .sum()
}

/// Whether an identifier is used as asked, as far as its neighbours tell ([`used_as`]).
#[derive(Debug, PartialEq)]
enum Use {
    No,
    Yes,
    /// If the innermost bracket open there is a brace.
    InBraces,
}

/// Is the identifier at `start..end` used as `how`? Comments between the name and its `.` or
/// `(` answer yes: wrongly accepting a file only costs a parse.
fn used_as(text: &[u8], start: usize, end: usize, how: NameUse) -> Use {
    let yes = match how {
        NameUse::Anywhere => true,
        NameUse::Field => {
            let before = text[..start]
                .iter()
                .rev()
                .find(|b| !b.is_ascii_whitespace());
            matches!(before, Some(b'.' | b'/'))
        }
        NameUse::Call => {
            let next = |from: usize| {
                text[from..]
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .map(|i| from + i)
            };
            match next(end).map(|i| (i, text[i])) {
                Some((_, b'(' | b'/')) => true,
                // A turbofish: `name::<K>(..)`.
                Some((i, b':')) if text.get(i + 1) == Some(&b':') => {
                    matches!(next(i + 2).map(|j| text[j]), Some(b'<' | b'/'))
                }
                _ => false,
            }
        }
        NameUse::DeclaredFunction => after_keyword(text, start, &["fn"]),
        NameUse::DeclaredTrait => after_keyword(text, start, &["trait"]),
        NameUse::DeclaredConst => {
            after_keyword(text, start, &["const", "static"])
                // `static mut NAME`, not `*mut NAME` (a pointer type).
                || (after_keyword(text, start, &["mut"])
                    && text[..start]
                        .iter()
                        .rposition(|b| !b.is_ascii_whitespace())
                        .and_then(|i| i.checked_sub(2))
                        .is_some_and(|i| after_keyword(text, i, &["static"])))
        }
        NameUse::GivenToField => return given_to_field(text, start, end),
    };
    if yes {
        Use::Yes
    } else {
        Use::No
    }
}

/// [`NameUse::GivenToField`]: `.name = ..` (not `==`, `=>`), or `name:` (not `::`), `name,`,
/// `name}` in braces; a comment after the name answers yes.
fn given_to_field(text: &[u8], start: usize, end: usize) -> Use {
    let before = text[..start]
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace());
    let mut i = end;
    skip_whitespace(text, &mut i);
    let (next, then) = (text.get(i), text.get(i + 1));
    match (before, next) {
        (_, Some(b'/')) => Use::Yes,
        (Some(b'.'), Some(b'=')) if !matches!(then, Some(b'=' | b'>')) => Use::Yes,
        (Some(b'.'), _) => Use::No,
        (_, Some(b':')) if then != Some(&b':') => Use::InBraces,
        (_, Some(b',' | b'}')) => Use::InBraces,
        _ => Use::No,
    }
}

/// Is the identifier at `start` preceded (across whitespace) by one of `keywords`, or by the
/// end of a comment?
fn after_keyword(text: &[u8], start: usize, keywords: &[&str]) -> bool {
    let before = &text[..start];
    let end = before
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    if end == start {
        return false; // no whitespace: `xfn name` is not `fn name`
    }
    let before = &before[..end];
    if before.last() == Some(&b'/') {
        return true;
    }
    keywords.iter().any(|k| {
        before.ends_with(k.as_bytes())
            && (before.len() == k.len() || !is_ident_byte(before[before.len() - k.len() - 1]))
    })
}

/// The byte ranges of comments and of string, byte-string and character literals, in order,
/// following the Rust lexer: nested block comments, escapes, raw strings (`r#"…"#`, `br"…"`,
/// `cr"…"`), and `'a'` (a character) told from `'a` (a lifetime) by the quote after one character.
///
/// It jumps from one `/`, `"` or `'` to the next (every file is scanned, most bytes are none of
/// them) and reads a literal's prefix (`b`, `br`, `r#`, …) backwards from its quote.
pub(crate) fn non_code_ranges(text: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr::memchr3(b'/', b'"', b'\'', &text[i..]) {
        let at = i + p;
        i = match text[at] {
            b'/' => match text.get(at + 1) {
                Some(b'/') => {
                    let end = memchr_from(text, b'\n', at).unwrap_or(text.len());
                    out.push(at..end);
                    end
                }
                Some(b'*') => {
                    let end = end_of_block_comment(text, at);
                    out.push(at..end);
                    end
                }
                _ => at + 1,
            },
            b'"' => {
                let literal = string_at(text, at);
                let end = literal.end;
                out.push(literal);
                end
            }
            _ => {
                let (end, is_char) = char_or_lifetime(text, at);
                let prefix = word_before(text, at);
                if prefix == b"b" {
                    out.push(at - 1..end);
                } else if is_char {
                    out.push(at..end);
                }
                end
            }
        };
    }
    out
}

/// The end of the (nested) block comment that starts at `start`.
fn end_of_block_comment(text: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while let Some(p) = memchr::memchr2(b'/', b'*', &text[i..]) {
        i += p;
        if text[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if text[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    text.len()
}

/// The string literal whose (first) quote is at `quote`, with its prefix: `"…"`, `b"…"`,
/// `c"…"`, or a raw string `r"…"`, `br#"…"#`, `cr##"…"##`.
fn string_at(text: &[u8], quote: usize) -> Range<usize> {
    let hashes_start = text[..quote]
        .iter()
        .rposition(|&b| b != b'#')
        .map_or(0, |k| k + 1);
    let prefix = word_before(text, hashes_start);
    if matches!(prefix, b"r" | b"br" | b"cr") {
        let hashes = quote - hashes_start;
        return hashes_start - prefix.len()..end_of_raw_string(text, quote + 1, hashes);
    }
    let start = if hashes_start == quote && matches!(prefix, b"b" | b"c") {
        quote - 1
    } else {
        quote
    };
    start..end_of_string(text, quote + 1)
}

/// The identifier (or number) that ends at `end`, as the lexer reads words: non-ASCII bytes
/// are word bytes.
fn word_before(text: &[u8], end: usize) -> &[u8] {
    let start = text[..end]
        .iter()
        .rposition(|&b| !(is_ident_byte(b) || b >= 0x80))
        .map_or(0, |k| k + 1);
    &text[start..end]
}

fn memchr_from(text: &[u8], byte: u8, from: usize) -> Option<usize> {
    memchr::memchr(byte, &text[from..]).map(|p| from + p)
}

/// The end (after the closing quote) of a string whose body starts at `i`.
fn end_of_string(text: &[u8], mut i: usize) -> usize {
    while let Some(p) = text
        .get(i..)
        .and_then(|rest| memchr::memchr2(b'\\', b'"', rest))
    {
        i += p;
        if text[i] == b'"' {
            return i + 1;
        }
        i += 2;
    }
    text.len()
}

/// The end of a raw string whose body starts at `i`, closed by `"` and `hashes` `#`s.
fn end_of_raw_string(text: &[u8], mut i: usize, hashes: usize) -> usize {
    while let Some(q) = memchr_from(text, b'"', i) {
        let close = q + 1 + hashes;
        if close <= text.len() && text[q + 1..close].iter().all(|&b| b == b'#') {
            return close;
        }
        i = q + 1;
    }
    text.len()
}

/// At a `'`: (end, true) for a character literal, (position after the `'`, false) for a
/// lifetime or label.
fn char_or_lifetime(text: &[u8], quote: usize) -> (usize, bool) {
    let i = quote + 1;
    match text.get(i) {
        Some(b'\\') => {
            // An escape: `'\''`, `'\n'`, `'\u{1F600}'`.
            let mut j = i + 2;
            while j < text.len() && text[j] != b'\'' && text[j] != b'\n' {
                j += 1;
            }
            (
                if text.get(j) == Some(&b'\'') {
                    j + 1
                } else {
                    i
                },
                true,
            )
        }
        Some(&b) => {
            let len = utf8_len(b);
            if text.get(i + len) == Some(&b'\'') {
                (i + len + 1, true)
            } else {
                (i, false)
            }
        }
        None => (i, false),
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The whole identifiers of a text, comments and literals included, as 32-bit hashes, sorted,
/// each also with the uses its neighbours allow ([`Context`]). A file the prefilter held back
/// keeps them, and a later pass with more linked names asks them whether the file may use one
/// of the names added since it was searched; only then is the file read and searched again.
/// Re-reading and searching every held-back file on each pass was a third of a one-unit run.
/// A superset of what [`Prefilter::mentions_names`] finds: each context is a necessary
/// condition of its [`NameUse`] ([`used_as`]), and a hash collision only costs a search.
#[derive(Debug, Default)]
pub struct Identifiers(Box<[u32]>);

/// What an identifier's neighbours allow, a necessary condition of each [`NameUse`].
#[derive(Clone, Copy)]
enum Context {
    /// Any use ([`NameUse::Anywhere`]).
    Present,
    /// After `.` or a comment's `/` ([`NameUse::Field`]).
    AfterDot,
    /// Before `(`, `::` or a comment ([`NameUse::Call`]).
    BeforeCall,
    /// Before `=`, `:`, `,`, `}` or a comment ([`NameUse::GivenToField`]).
    BeforeValue,
    /// After whitespace, itself after `fn`, `trait`, `const`, `static`, `mut` or a comment's
    /// `/` (the declarations: [`after_keyword`]).
    Declared,
}

impl Context {
    fn of(how: NameUse) -> Context {
        match how {
            NameUse::Anywhere => Context::Present,
            NameUse::Field => Context::AfterDot,
            NameUse::Call => Context::BeforeCall,
            NameUse::GivenToField => Context::BeforeValue,
            NameUse::DeclaredFunction | NameUse::DeclaredTrait | NameUse::DeclaredConst => {
                Context::Declared
            }
        }
    }

    /// The contexts of the identifier at `start..end`.
    fn around(text: &[u8], start: usize, end: usize) -> impl Iterator<Item = Context> {
        let before = text[..start].iter().rposition(|b| !b.is_ascii_whitespace());
        let after = text[end..].iter().find(|b| !b.is_ascii_whitespace());
        let declared = before.is_some_and(|b| {
            let word_start = text[..=b]
                .iter()
                .rposition(|&c| !is_ident_byte(c))
                .map_or(0, |i| i + 1);
            b + 1 < start
                && (text[b] == b'/'
                    || matches!(
                        &text[word_start..=b],
                        b"fn" | b"trait" | b"const" | b"static" | b"mut"
                    ))
        });
        [
            Some(Context::Present),
            before
                .is_some_and(|b| matches!(text[b], b'.' | b'/'))
                .then_some(Context::AfterDot),
            matches!(after, Some(b'(' | b':' | b'/')).then_some(Context::BeforeCall),
            matches!(after, Some(b'=' | b':' | b',' | b'}' | b'/')).then_some(Context::BeforeValue),
            declared.then_some(Context::Declared),
        ]
        .into_iter()
        .flatten()
    }
}

impl Identifiers {
    pub fn of(text: &str) -> Identifiers {
        let bytes = text.as_bytes();
        let mut keys = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if !is_ident_byte(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            // No name starts with a digit: numbers need no key.
            if !bytes[start].is_ascii_digit() {
                let word = &bytes[start..i];
                keys.extend(Context::around(bytes, start, i).map(|c| identifier_key(word, c)));
            }
        }
        keys.sort_unstable();
        keys.dedup();
        Identifiers(keys.into_boxed_slice())
    }

    /// May the text use one of these names as its use requires, as a whole identifier?
    pub fn may_mention(&self, names: &NameKeys) -> bool {
        let has = |key: &u32| self.0.binary_search(key).is_ok();
        names.any_text
            || names
                .keys
                .iter()
                .any(|(key, with)| has(key) && with.as_ref().map_or(true, has))
    }
}

/// The names a pass looks for, as [`Identifiers`] keys.
#[derive(Debug, Default)]
pub struct NameKeys {
    /// Each name's key, with its companion's ([`Name::with`]), which the text must also have.
    keys: Vec<(u32, Option<u32>)>,
    /// A name that is not one ASCII identifier (never made by the model, but a declared
    /// wrapper could be): every text may mention it.
    any_text: bool,
}

impl NameKeys {
    pub fn new<'n>(names: impl IntoIterator<Item = &'n Name>) -> NameKeys {
        let mut keys = NameKeys::default();
        for name in names {
            let text = name.text.as_bytes();
            if text.is_empty() {
                continue;
            }
            let one_identifier = |t: &[u8]| t.iter().all(|&b| is_ident_byte(b));
            // A companion that is not one identifier is looked for in the text: no key.
            let with = (name.with.as_deref().map(str::as_bytes))
                .filter(|w| one_identifier(w))
                .map(|w| identifier_key(w, Context::Present));
            if one_identifier(text) {
                let key = identifier_key(text, Context::of(name.used_as));
                keys.keys.push((key, with));
            } else {
                keys.any_text = true;
            }
        }
        keys.keys.sort_unstable();
        keys.keys.dedup();
        keys
    }
}

fn identifier_key(identifier: &[u8], context: Context) -> u32 {
    use std::hash::BuildHasher;
    // A fixed seed: keys made in one pass are compared with keys made in another.
    let hash = foldhash::fast::FixedState::with_seed(0).hash_one((identifier, context as u8));
    (hash >> 32) as u32
}

fn automaton<S: AsRef<[u8]>>(patterns: &[S]) -> AhoCorasick {
    // The patterns are fixed words: building cannot fail short of exhausting memory.
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(patterns)
        .expect("fixed-word automaton")
}

/// The longest match at every position where a pattern starts. A plain search goes on after
/// the end of a match and would miss `join` in `ajoin join` if the first hit were rejected, so
/// the search restarts one byte after each match. (Leftmost-longest searches keep the fast
/// vectorised prefilters that overlapping searches lose.)
fn every_start<'t>(ac: &'t AhoCorasick, text: &'t str) -> impl Iterator<Item = Match> + 't {
    let mut from = 0;
    std::iter::from_fn(move || {
        let m = ac.find(Input::new(text).span(from..text.len()))?;
        from = m.start() + 1;
        Some(m)
    })
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `word` at `start..end` is a run of whole identifier segments. Non-ASCII neighbours count as
/// boundaries: wrongly accepting a file only costs a parse.
fn segment_boundary(text: &[u8], start: usize, end: usize, word: &[u8]) -> bool {
    let first_upper = word.first().is_some_and(u8::is_ascii_uppercase);
    let before_ok = match start.checked_sub(1).map(|i| text[i]) {
        None => true,
        Some(b) if !is_ident_byte(b) || b == b'_' || b.is_ascii_digit() => true,
        // A camel hump: `RestApi`, `TryJoinAll`.
        Some(b) => first_upper && b.is_ascii_lowercase(),
    };
    let after_ok = match text.get(end) {
        None => true,
        Some(&b) => !is_ident_byte(b) || b == b'_' || b.is_ascii_digit() || b.is_ascii_uppercase(),
    };
    before_ok && after_ok
}

/// `start..end` is a whole identifier.
fn word_boundary(text: &[u8], start: usize, end: usize) -> bool {
    let before_ok = start == 0 || !is_ident_byte(text[start - 1]);
    let after_ok = match text.get(end) {
        None => true,
        Some(&b) => !is_ident_byte(b),
    };
    before_ok && after_ok
}

/// Could this text declare an out-of-line module (`mod x;`, also inside inline modules and
/// item macros)? A necessary condition, checked on the raw text: the keyword `mod`, then an
/// identifier, then `;`, with only whitespace between; a comment anywhere there (`mod /* */ x;`)
/// also answers yes.
pub fn may_declare_modules(text: &str) -> bool {
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("mod") {
        if at > 0 && is_ident_byte(bytes[at - 1]) {
            continue;
        }
        let mut i = at + 3;
        let ws_before_name = skip_whitespace(bytes, &mut i);
        match bytes.get(i) {
            Some(b'/') => return true,
            Some(_) if ws_before_name == 0 => continue, // `modx`, `mod_name`, `mod::`
            Some(_) => {}
            None => continue,
        }
        if bytes[i..].starts_with(b"r#") {
            i += 2;
        }
        let name_start = i;
        while i < bytes.len() && (is_ident_byte(bytes[i]) || bytes[i] >= 0x80) {
            i += 1;
        }
        if i == name_start {
            continue;
        }
        skip_whitespace(bytes, &mut i);
        if matches!(bytes.get(i), Some(b';' | b'/')) {
            return true;
        }
    }
    false
}

fn skip_whitespace(bytes: &[u8], i: &mut usize) -> usize {
    let start = *i;
    while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
        *i += 1;
    }
    *i - start
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::known::{trigger_words, TRIGGERS};

    /// The prefilter as the driver builds it, with `names`.
    fn tool(names: &[Name]) -> Prefilter {
        Prefilter::new(&trigger_words(), names)
    }

    /// `f` parses every text of `parsed` and none of `skipped`.
    fn assert_parses(f: &Prefilter, parsed: &[&str], skipped: &[&str]) {
        for text in parsed {
            assert!(f.must_parse(text), "Missing: {text}");
        }
        for text in skipped {
            assert!(!f.must_parse(text), "Noisy: {text}");
        }
    }

    /// Segment matching, tested on the reference words (a superset of the tool's).
    fn parses(text: &str) -> bool {
        Prefilter::with_words(REFERENCE_WORDS, &[]).must_parse(text)
    }

    fn tool_parses(text: &str) -> bool {
        tool(&[]).must_parse(text)
    }

    #[test]
    fn every_trigger_says_why() {
        for t in TRIGGERS {
            assert!(!t.word.is_empty() && t.why.len() > 10, "{}", t.word);
        }
    }

    #[test]
    fn no_trigger_is_a_prefix_of_another() {
        // The search reports one (the longest) trigger per start position; with a prefix, a
        // rejected long match could hide an accepted short one.
        let tool: Vec<&str> = TRIGGERS.iter().map(|t| t.word).collect();
        for words in [&tool[..], REFERENCE_WORDS] {
            for a in words {
                for b in words {
                    assert!(a == b || !b.starts_with(a), "{a} {b}");
                }
            }
        }
        for a in TRIGGERS {
            for b in TRIGGERS {
                assert!(
                    a.word == b.word || !b.word.starts_with(a.word),
                    "{} {}",
                    a.word,
                    b.word
                );
            }
        }
    }

    #[test]
    fn rejected_hits_do_not_hide_later_ones() {
        assert!(parses("let joint = 1; join!(a, b)"));
        assert!(parses("rejoin(); x.join()"));
        let f = tool(&[Name::new("api", NameUse::Field)]);
        assert!(f.must_parse("api; apix; self.api"));
        let both = tool(&[
            Name::new("pods", NameUse::Field),
            Name::new("pods", NameUse::Call),
        ]);
        assert!(both.must_parse("x.pods"));
        assert!(both.must_parse("pods()"));
        assert!(!both.must_parse("let pods = 1;"));
    }

    #[test]
    fn what_the_model_recognises_passes() {
        for text in [
            "fn f(pods: &Api<Pod>) {}",
            "let p = kube::Api::<Pod>::namespaced(c, \"ns\");",
            "struct Ctx { api: Api<Pod> }",
            "use kube::api::{Api, ApiResource};",
            "type PodApi = Api<Pod>;",
            "fn pods(&self) -> RestApi<Pod> {}",
            "tokio::join!(a, b)",
            "futures::try_join!(a, b)",
            "futures::future::join3(a, b, c)",
            "let r = try_join5(a, b, c, d, e);",
            "join_all(v).await",
            "try_join_all(v).await",
            "let mut set = JoinSet::new();",
            "tokio::select! { _ = a => {} }",
            "select_biased!(a, b)",
            "tokio::spawn(async move {})",
            "tokio::task::spawn_blocking(f)",
            "let mut f = FuturesUnordered::new();",
            "FuturesOrdered::new()",
            "s.buffer_unordered(4)",
            "s.buffered(4)",
            "s.for_each_concurrent(None, f)",
            "rt.block_on(fut)",
            "timeout(d, fut)",
            "std::thread::scope(|s| {})",
            "let (f, h) = abortable(pods.delete(n, &dp));",
            "let r = TryJoinAll::new(v);",
        ] {
            assert!(parses(text), "Missing: {text}");
        }
    }

    #[test]
    fn the_tool_parses_files_with_handles_or_blocking_calls_only() {
        for text in [
            "fn f(pods: &Api<Pod>) {}",
            "let p = kube::Api::<Pod>::namespaced(c, \"ns\");",
            "fn pods(&self) -> Arc<Api<Pod>> {}",
            "rt.block_on(fut)",
            "futures::executor::block_on(f)",
            // Events and raw requests need no `Api`.
            "ctx.recorder.publish(&ev, &obj_ref).await",
            "fn f(r: &Recorder) {}",
            "fn f(client: Client) { client.request(req) }",
        ] {
            assert!(tool_parses(text), "Missing: {text}");
        }
        for text in [
            // The model knows `Api` by that name only.
            "pub downward_api: Option<VolumesDownwardApi>,",
            "fn pods(&self) -> RestApi<Pod> {}",
            "let x = my_block_on(f);",
            "tokio::join!(a, b)",
            "tokio::spawn(async move {})",
            "tokio::select! { _ = a => {} }",
            "let apis = 1;",
            "self.event_recorder.publish(ev)",
        ] {
            assert!(!tool_parses(text), "Noisy: {text}");
        }
    }

    #[test]
    fn words_inside_other_identifiers_do_not_pass() {
        for text in [
            "let joint = 1;",
            "const SN_selected_attribute_types: &str = \"\";",
            "let apis = 1; // apis",
            "fn rejoin() {}",
            "let p = path.to_str();",
        ] {
            assert!(!parses(text), "Noisy: {text}");
        }
    }

    #[test]
    fn linked_names_match_whole_identifiers() {
        let name = |text: &str, used_as| Name::new(text, used_as);
        let f = tool(&[
            name("pods", NameUse::Field),
            name("make_api", NameUse::Call),
            name("apply_patch", NameUse::Anywhere),
        ]);
        assert_parses(
            &f,
            &[
                "self.pods.get(\"a\")",
                "ctx . pods",
                "let p = make_api(c);",
                "let p = util::make_api::<Pod>(c);",
                "self.make_api ().get(\"a\")",
                "use x::apply_patch;",
            ],
            &[
                "self.my_pods.get(\"a\")",
                "self.podsx.get(\"a\")",
                "let pods = 1;",
                "use crate::make_api;",
                "// self.pods.get(\"a\")",
                "let s = \"io.k8s.pods\";",
                "/* make_api() */",
                "struct S { make_api: Option<F> }",
                "make_api::other()",
            ],
        );
        assert!(!tool(&[]).must_parse("self.pods.get(\"a\")"));

        let declared = tool(&[
            name("mark", NameUse::DeclaredFunction),
            name("NAME", NameUse::DeclaredConst),
            name("Reconcile", NameUse::DeclaredTrait),
        ]);
        for text in [
            "pub async fn mark(pods: &X) {}",
            "fn\n    mark<K>() {}",
            "pub const NAME: &str = \"blog\";",
            "static mut NAME: &str = \"blog\";",
            "impl A { const NAME: &'static str = \"a\"; }",
            "pub trait Reconcile: Send {}",
        ] {
            assert!(declared.must_parse(text), "Missing: {text}");
        }
        for text in [
            "mark(x).await",
            "let NAME = 1;",
            "// fn mark",
            "fn marked() {}",
            "fnmark",
            "myfn mark",
            "fn f(p: *mut NAME) {}",
            "let r: &mut NAME = x;",
            "trait mark {}",
        ] {
            assert!(!declared.must_parse(text), "Noisy: {text}");
        }
    }

    #[test]
    fn a_name_with_a_companion_needs_both_in_code() {
        let f = tool(&[Name {
            with: Some("Bridge".to_string()),
            ..Name::new("read", NameUse::Call)
        }]);
        assert_parses(
            &f,
            &[
                "impl Bridge { fn f(&mut self) { self.read(b) } }",
                "fn f(x: &Bridge) { x.read(b) }",
                "Bridge::read(x, b)",
            ],
            &[
                "fn f(x: &File) { x.read(b) }",
                "fn f(x: &MyBridge) { x.read(b) }",
                "x.read(b); // Bridge",
                "x.read(b); let s = \"Bridge\";",
                "let read = 1; let b: Bridge;",
            ],
        );
    }

    #[test]
    fn a_field_given_a_value_is_in_braces_or_assigned() {
        let f = tool(&[Name::new("f", NameUse::GivenToField)]);
        assert_parses(
            &f,
            &[
                "let h = Handler { f: run };",
                "let h = Handler { id, f };",
                "Handler { f, ..Default::default() }",
                "Handler {\n    #[cfg(unix)]\n    f: Arc::new(|o| go(o)),\n}",
                "call(Handler { f: |x| x })",
                "struct Handler { f: Box<dyn Fn()> }",
                "h.f = run;",
                "self . f=Arc::new(go);",
                "h.f /* set */ = run;",
            ],
            &[
                "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, \"x\") }",
                "let c = |f: u8| f + 1;",
                "(self.f)(x).await",
                "if h.f == g {}",
                "match x { f => 1 }",
                "let f = f::g();",
                "g(f, x)",
                "let s = \"Handler { f: run }\"; // h.f = run",
                "let v = [f, g];",
            ],
        );
    }

    #[test]
    fn a_companion_as_an_impl_type_is_followed_by_a_block() {
        let f = tool(&[Name {
            with: Some("Lease".to_string()),
            with_impl: true,
            ..Name::new("name", NameUse::DeclaredFunction)
        }]);
        assert_parses(
            &f,
            &[
                "impl Lease { fn name(&self) -> String { x } }",
                "impl<T> Lease<T>\nwhere\n    T: Clone,\n{ fn name() {} }",
                "impl Named for crate::Lease<Box<dyn Fn() -> u8>> { fn name() {} }",
                "impl Lease /* the lease */ { fn name() {} }",
            ],
            &[
                "impl<'de> Deserialize<'de> for Lease2 { fn name() {} }",
                "fn name(l: &Lease) -> String { l.0 }",
                "impl Named for Holder<Lease> { fn name() {} }",
                "impl Lease { fn other() {} } fn name2() {}",
                "// impl Lease {\nfn name() {}",
            ],
        );
    }

    /// The scanner as first written, byte by byte: what [`non_code_ranges`] must agree with.
    /// The byte ranges of comments and of string, byte-string and character literals, in order,
    /// following the Rust lexer: nested block comments, escapes, raw strings (`r#"…"#`, `br"…"`,
    /// `cr"…"`), and `'a'` (a character) told from `'a` (a lifetime) by the quote after one character.
    fn reference_ranges(text: &[u8]) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut i = 0;
        let n = text.len();
        while i < n {
            let start = i;
            match text[i] {
                b'/' if text.get(i + 1) == Some(&b'/') => {
                    i = memchr_from(text, b'\n', i).unwrap_or(n);
                    out.push(start..i);
                }
                b'/' if text.get(i + 1) == Some(&b'*') => {
                    let mut depth = 0usize;
                    while i < n {
                        if text[i..].starts_with(b"/*") {
                            depth += 1;
                            i += 2;
                        } else if text[i..].starts_with(b"*/") {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        } else {
                            i += 1;
                        }
                    }
                    out.push(start..i.min(n));
                }
                b'"' => {
                    i = end_of_string(text, i + 1);
                    out.push(start..i);
                }
                b'\'' => {
                    let (end, is_char) = char_or_lifetime(text, i);
                    if is_char {
                        out.push(start..end);
                    }
                    i = end;
                }
                b if is_ident_byte(b) || b >= 0x80 => {
                    // An identifier (or number); a literal prefix (`r`, `b`, `br`, `c`, `cr`) may
                    // start a string.
                    while i < n && (is_ident_byte(text[i]) || text[i] >= 0x80) {
                        i += 1;
                    }
                    let ident = &text[start..i];
                    let raw = matches!(ident, b"r" | b"br" | b"cr");
                    if raw {
                        let mut j = i;
                        while text.get(j) == Some(&b'#') {
                            j += 1;
                        }
                        if text.get(j) == Some(&b'"') {
                            let hashes = j - i;
                            i = end_of_raw_string(text, j + 1, hashes);
                            out.push(start..i);
                        }
                    } else if matches!(ident, b"b" | b"c") && text.get(i) == Some(&b'"') {
                        i = end_of_string(text, i + 1);
                        out.push(start..i);
                    } else if ident == b"b" && text.get(i) == Some(&b'\'') {
                        let (end, _) = char_or_lifetime(text, i);
                        i = end;
                        out.push(start..i);
                    }
                }
                _ => i += 1,
            }
        }
        out
    }

    #[test]
    fn the_scanner_agrees_with_the_byte_by_byte_one() {
        use proptest::prelude::*;
        // Short texts of the bytes that matter, so that every literal form and its broken
        // variants come up.
        let alphabet = prop::sample::select(
            [
                "/", "*", "\"", "'", "#", "\\", "\n", " ", "r", "b", "c", "br", "a", "1", "_", "é",
                "x",
            ]
            .to_vec(),
        );
        proptest!(ProptestConfig::with_cases(4000), |(parts in prop::collection::vec(alphabet, 0..40))| {
            let text = parts.concat();
            prop_assert_eq!(non_code_ranges(text.as_bytes()), reference_ranges(text.as_bytes()), "{:?}", text);
        });
    }

    #[test]
    fn comments_and_literals_are_not_code() {
        fn ranges(text: &str) -> Vec<&str> {
            non_code_ranges(text.as_bytes())
                .into_iter()
                .map(|r| &text[r])
                .collect()
        }
        assert_eq!(ranges("a // x\nb"), ["// x"]);
        assert_eq!(ranges("a /* x /* y */ z */ b"), ["/* x /* y */ z */"]);
        assert_eq!(
            ranges(r#"f("a\"b", 'c', '\'', '"')"#),
            [r#""a\"b""#, "'c'", r"'\''", "'\"'"]
        );
        assert_eq!(ranges(r###"r#"a "b" c"# x"###), [r###"r#"a "b" c"#"###]);
        assert_eq!(
            ranges(r#"b"x" br"y" c"z" b'q'"#),
            [r#"b"x""#, r#"br"y""#, r#"c"z""#, "b'q'"]
        );
        // Lifetimes and labels are code; a raw identifier is not a raw string.
        assert_eq!(
            ranges("fn f<'a>(x: &'a str) { 'outer: loop {} }"),
            Vec::<&str>::new()
        );
        assert_eq!(ranges("let r#type = 1; r#try!(x)"), Vec::<&str>::new());
        assert_eq!(ranges("'é' x"), ["'é'"]);
        // Trigger words count in code only.
        assert!(!tool_parses("// rt.block_on(f)\nlet s = \"block_on\";"));
        assert!(tool_parses("let s = \"\"; rt.block_on(f)"));
        assert!(tool_parses("let c = '\"'; rt.block_on(f)"));
        assert!(tool_parses("fn f<'a>() { rt.block_on(f) }"));
    }

    #[test]
    fn code_size_leaves_comments_and_whitespace_out() {
        assert_eq!(code_size("fn f() {}"), 7);
        assert_eq!(code_size("// abc\nfn f() {} /* x */"), 7);
        assert_eq!(code_size("fn\t\r\n f \u{200e}\u{2028}() {}\n"), 7);
        // Literals count whole, their spaces too.
        let literal = "let s = \"// not a comment\";";
        assert_eq!(code_size(literal), literal.len() - 3);
        assert_eq!(code_size(&format!("fn f() {{}}{}", " ".repeat(10_000))), 7);
    }

    #[test]
    fn module_declarations_are_found_conservatively() {
        for text in [
            "mod a;",
            "pub mod a;",
            "pub(crate) mod  a ;",
            "#[path = \"x.rs\"]\nmod a;",
            "mod r#type;",
            "mod a { mod b; }",
            "cfg_if! { if #[cfg(unix)] { mod unix; } }",
            "mod /* odd */ a;",
            "mod a // odd\n;",
        ] {
            assert!(may_declare_modules(text), "Missing: {text}");
        }
        for text in [
            "#[cfg(test)]\nmod tests {\n    use super::*;\n}",
            "let modx = 1; model;",
            "use crate::mod_name;",
            "",
            "mod",
        ] {
            assert!(!may_declare_modules(text), "Noisy: {text}");
        }
    }

    #[test]
    fn identifiers_answer_for_every_name_the_search_finds() {
        let uses = [
            NameUse::Anywhere,
            NameUse::Field,
            NameUse::Call,
            NameUse::DeclaredFunction,
            NameUse::DeclaredConst,
            NameUse::GivenToField,
        ];
        let texts = [
            "fn f(&self) { self.pods.get(x) }",
            "pub async fn mark(p: &X) {}",
            "const LEASE: &str = \"l\";",
            "Handler { run, f: go }",
            "// mark\nfn é_mark() { r#mark(); mark_2 }",
            "x.mark::<T>()",
        ];
        for text in texts {
            let ids = Identifiers::of(text);
            for word in ["pods", "mark", "LEASE", "run", "go", "f", "mark_2"] {
                for how in uses {
                    let name = Name::new(word, how);
                    let keys = NameKeys::new([&name]);
                    if tool(std::slice::from_ref(&name)).mentions_names(text) {
                        assert!(ids.may_mention(&keys), "{word} ({how:?}) in {text}");
                    }
                }
            }
        }
        let ids = Identifiers::of("fn marked() { mark2(); /* 42 */ }");
        for absent in ["mark", "42", "marke"] {
            let keys = NameKeys::new([&Name::new(absent, NameUse::Anywhere)]);
            assert!(!ids.may_mention(&keys), "{absent}");
        }
        // The neighbours rule out uses: no `.build`, no `fn api`, no `list(`.
        let ids = Identifiers::of("let api = build(list); fn f() {}");
        for (word, how) in [
            ("build", NameUse::Field),
            ("build", NameUse::DeclaredFunction),
            ("api", NameUse::DeclaredFunction),
            ("list", NameUse::Call),
        ] {
            let keys = NameKeys::new([&Name::new(word, how)]);
            assert!(!ids.may_mention(&keys), "{word} ({how:?})");
        }
        let ids = Identifiers::of("fn marked() {}");
        assert!(ids.may_mention(&NameKeys::new([&Name::new("a::b", NameUse::Call)])));
        assert!(!ids.may_mention(&NameKeys::new([])));
    }
}
