//! Recognising the spellings of concurrency combinators.

use super::SiteKind;

/// Crates whose `join!`/`try_join!` poll their operands concurrently.
const JOIN_CRATES: &[&str] = &["tokio", "futures", "futures_util", "futures_lite"];

fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// `join!`, `try_join!`, `tokio::join!`, `futures::try_join!`, …
pub fn join_macro(path: &syn::Path) -> Option<SiteKind> {
    let segs = segments(path);
    let (last, prefix) = segs.split_last()?;
    let fallible = match last.as_str() {
        "join" => false,
        "try_join" => true,
        _ => return None,
    };
    let from_known_crate = match prefix {
        [] => true,
        [first, ..] => JOIN_CRATES.contains(&first.as_str()),
    };
    from_known_crate.then_some(SiteKind::JoinMacro { fallible })
}

/// `futures::future::join`, `join3`…`join5`, `try_join`…`try_join5`, and the same imported bare.
pub fn join_fn(path: &syn::Path) -> Option<SiteKind> {
    let segs = segments(path);
    let (last, prefix) = segs.split_last()?;
    let fallible = match last.as_str() {
        "join" | "join3" | "join4" | "join5" => false,
        "try_join" | "try_join3" | "try_join4" | "try_join5" => true,
        _ => return None,
    };
    // Bare `join(a, b)` must have been imported; qualified spellings must go through `future`.
    let qualified_ok = prefix.is_empty()
        || prefix.iter().any(|s| s == "future")
        || prefix
            .first()
            .is_some_and(|s| JOIN_CRATES.contains(&s.as_str()));
    qualified_ok.then_some(SiteKind::JoinFn { fallible })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(s: &str) -> syn::Path {
        syn::parse_str(s).unwrap()
    }

    #[test]
    fn macro_spellings() {
        for s in ["join", "tokio::join", "futures::join", "::futures::join"] {
            assert_eq!(
                join_macro(&path(s)),
                Some(SiteKind::JoinMacro { fallible: false }),
                "{s}"
            );
        }
        for s in ["try_join", "tokio::try_join", "futures::try_join"] {
            assert_eq!(
                join_macro(&path(s)),
                Some(SiteKind::JoinMacro { fallible: true }),
                "{s}"
            );
        }
        assert_eq!(join_macro(&path("my_crate::join")), None);
        assert_eq!(join_macro(&path("println")), None);
    }

    #[test]
    fn function_spellings() {
        assert!(join_fn(&path("futures::future::join3")).is_some());
        assert!(join_fn(&path("future::try_join")).is_some());
        assert!(join_fn(&path("try_join4")).is_some());
        assert!(join_fn(&path("std::path::Path::join")).is_none());
        assert!(join_fn(&path("thread::spawn")).is_none());
    }
}
