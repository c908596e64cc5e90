//! Helpers for building replacement code from pieces of the source: indentation, names that
//! collide with nothing, literals that must not be touched.

use std::collections::HashSet;
use std::str::FromStr;

use proc_macro2::{TokenStream, TokenTree};

/// Byte offset where the line holding `offset` starts.
pub fn line_start(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1)
}

/// The leading whitespace of the line holding `offset`.
pub fn indent_at(text: &str, offset: usize) -> &str {
    let start = line_start(text, offset);
    let line = &text[start..];
    let end = line
        .find(|c: char| c != ' ' && c != '\t')
        .unwrap_or(line.len());
    &line[..end]
}

/// Only whitespace precedes `offset` on its line.
pub fn starts_line(text: &str, offset: usize) -> bool {
    text[line_start(text, offset)..offset.min(text.len())]
        .chars()
        .all(|c| c == ' ' || c == '\t')
}

/// One level of indentation in the style of `indent`: a tab when it uses tabs, else 4 spaces.
pub fn indent_unit(indent: &str) -> &'static str {
    if indent.contains('\t') {
        "\t"
    } else {
        "    "
    }
}

/// Move a piece of code to another indentation: every line after the first that starts with
/// `from` starts with `to` instead. Code holding a literal that spans lines is returned as it is
/// (re-indenting would change the literal's value), and so is code that does not lex.
pub fn reindent(code: &str, from: &str, to: &str) -> String {
    if from == to || !code.contains('\n') || has_multiline_literal(code) {
        return code.to_string();
    }
    let mut out = String::with_capacity(code.len());
    for (i, line) in code.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if let Some(rest) = line.strip_prefix(from) {
                out.push_str(to);
                out.push_str(rest);
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

/// A literal (string, byte string, raw string) with a line break inside, or code that does not
/// lex (treated the same: do not touch).
pub fn has_multiline_literal(code: &str) -> bool {
    fn walk(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Literal(l) => l.to_string().contains('\n'),
            TokenTree::Group(g) => walk(g.stream()),
            _ => false,
        })
    }
    match TokenStream::from_str(code) {
        Ok(tokens) => walk(tokens),
        Err(_) => true,
    }
}

/// Every identifier in a piece of code; None when it does not lex.
pub fn identifiers(code: &str) -> Option<HashSet<String>> {
    fn walk(tokens: TokenStream, out: &mut HashSet<String>) {
        for t in tokens {
            match t {
                TokenTree::Ident(i) => {
                    out.insert(i.to_string());
                }
                TokenTree::Group(g) => walk(g.stream(), out),
                _ => {}
            }
        }
    }
    let tokens = TokenStream::from_str(code).ok()?;
    let mut out = HashSet::new();
    walk(tokens, &mut out);
    Some(out)
}

/// Does a piece of code hold any of these tokens, at any depth? None when it does not lex.
pub fn has_token(code: &str, wanted: &[&str]) -> Option<bool> {
    fn walk(tokens: TokenStream, wanted: &[&str]) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(i) => wanted.contains(&i.to_string().as_str()),
            TokenTree::Punct(p) => wanted.contains(&p.as_char().to_string().as_str()),
            TokenTree::Group(g) => walk(g.stream(), wanted),
            TokenTree::Literal(_) => false,
        })
    }
    TokenStream::from_str(code).ok().map(|t| walk(t, wanted))
}

/// `count` names `{base}0`, `{base}1`, … none of which is in `taken` (a trailing `_` is added
/// until they are free).
pub fn fresh_names(base: &str, count: usize, taken: &HashSet<String>) -> Vec<String> {
    let mut base = base.to_string();
    loop {
        let names: Vec<String> = (0..count).map(|i| format!("{base}{i}")).collect();
        if names.iter().all(|n| !taken.contains(n)) {
            return names;
        }
        base.push('_');
    }
}

/// Text outside code that may hold a comment: a `//` or `/*` anywhere in it.
pub fn has_comment(glue: &str) -> bool {
    glue.contains("//") || glue.contains("/*")
}

/// Whether the text of `region` outside the `kept` ranges (pieces of code, in the order
/// written) holds a comment: replacing `region` by code made of the kept pieces drops it.
pub fn comment_outside(
    text: &str,
    region: std::ops::Range<usize>,
    kept: impl Iterator<Item = std::ops::Range<usize>>,
) -> bool {
    let mut at = region.start;
    let mut glue = String::new();
    for k in kept {
        if k.start >= at && k.end <= region.end {
            glue.push_str(text.get(at..k.start).unwrap_or(""));
            at = k.end;
        }
    }
    glue.push_str(text.get(at..region.end).unwrap_or(""));
    has_comment(&glue)
}

/// The comments in text between pieces of code (which holds no literals): line comments up to
/// their line break (excluded), block comments with nesting.
pub fn comments(glue: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = glue.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'/') => {
                let end = glue[i..].find('\n').map_or(glue.len(), |n| i + n);
                let end = if glue[..end].ends_with('\r') {
                    end - 1
                } else {
                    end
                };
                out.push(i..end);
                i = end;
            }
            (b'/', b'*') => {
                let start = i;
                let mut depth = 0;
                while i + 1 < bytes.len() {
                    match (bytes[i], bytes[i + 1]) {
                        (b'/', b'*') => {
                            depth += 1;
                            i += 2;
                        }
                        (b'*', b'/') => {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => i += 1,
                    }
                }
                out.push(start..i.min(glue.len()));
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_of_a_line() {
        let text = "fn f() {\n\t  let a = 1;\n}\n";
        let at = text.find("let").unwrap();
        assert_eq!(indent_at(text, at), "\t  ");
        assert!(starts_line(text, at));
        assert!(!starts_line(text, at + 4));
        assert_eq!(indent_unit("\t"), "\t");
    }

    #[test]
    fn reindent_moves_continuation_lines_but_never_literals() {
        let code = "async {\n        a.await\n    }";
        assert_eq!(reindent(code, "    ", "  "), "async {\n      a.await\n  }");
        let literal = "async {\n        f(\"two\n    lines\").await\n    }";
        assert_eq!(reindent(literal, "    ", ""), literal);
    }

    #[test]
    fn fresh_names_avoid_identifiers_of_the_code() {
        let taken = identifiers("s.get(r0).await").unwrap();
        assert_eq!(fresh_names("r", 2, &taken), ["r_0", "r_1"]);
        assert_eq!(
            fresh_names("r", 2, &HashSet::new()),
            ["r0".to_string(), "r1".to_string()]
        );
    }

    #[test]
    fn comments_between_code() {
        let glue = "( // one\r\n  /* two /* nested */ */ , ";
        let found: Vec<&str> = comments(glue).into_iter().map(|r| &glue[r]).collect();
        assert_eq!(found, ["// one", "/* two /* nested */ */"]);
    }

    #[test]
    fn tokens_are_found_at_any_depth_but_not_in_literals() {
        assert_eq!(has_token("f(g(x)?)", &["?"]), Some(true));
        assert_eq!(has_token("f(\"?\")", &["?"]), Some(false));
        assert_eq!(has_token("{ return 1 }", &["return"]), Some(true));
    }
}
