//! A finding's fingerprint: a hash of its lint and of the code involved (the primary span and the
//! secondary labels), normalised to tokens so that whitespace, comments and line numbers do not
//! matter. Baselines and SARIF `partialFingerprints` use it; edits elsewhere in a file leave it
//! unchanged.

use sha2::{Digest, Sha256};

use crate::diagnostic::Diagnostic;
use crate::outcome::Report;
use crate::source::Span;

/// Version of the fingerprint recipe, part of SARIF's `partialFingerprints` key.
pub const VERSION: u32 = 1;

/// 32 hexadecimal digits.
pub fn fingerprint(report: &Report, d: &Diagnostic) -> String {
    let mut hasher = Sha256::new();
    hasher.update(d.lint.as_bytes());
    for span in std::iter::once(d.primary.span).chain(d.secondary.iter().map(|l| l.span)) {
        hasher.update([0u8]);
        hasher.update(normalised(report, span).as_bytes());
    }
    let digest = hasher.finalize();
    let out = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    // Parsing snippets registered spans on this thread; they are not needed.
    proc_macro2::extra::invalidate_current_thread_spans();
    out
}

/// The code of a span as tokens separated by single spaces (comments and layout dropped).
fn normalised(report: &Report, span: Span) -> String {
    let Some(source) = report.source(span.file) else {
        return String::new();
    };
    normalise(source.snippet(span))
}

pub fn normalise(code: &str) -> String {
    fn flatten(stream: proc_macro2::TokenStream, out: &mut Vec<String>) {
        use proc_macro2::{Delimiter, TokenTree};
        for tree in stream {
            match tree {
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    out.push(open.to_string());
                    flatten(g.stream(), out);
                    out.push(close.to_string());
                }
                // Punctuation one character at a time, whatever its spacing was.
                TokenTree::Punct(p) => out.push(p.as_char().to_string()),
                other => out.push(other.to_string()),
            }
        }
    }
    match code.parse::<proc_macro2::TokenStream>() {
        Ok(tokens) => {
            let mut out = Vec::new();
            flatten(tokens, &mut out);
            out.retain(|t| !t.is_empty());
            out.join(" ")
        }
        Err(_) => code.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_comments_do_not_matter() {
        let a = normalise("tokio::join!(pods.get(\"a\"),\n    pods.delete(\"a\", &dp))");
        let b = normalise("tokio::join!( pods.get(\"a\"), /* why */ pods.delete(\"a\",&dp) )");
        assert_eq!(a, b);
        assert_ne!(
            a,
            normalise("tokio::join!(pods.get(\"b\"), pods.delete(\"a\", &dp))")
        );
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
