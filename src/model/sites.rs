//! Recognising the spellings of concurrency combinators.

use super::SiteKind;

/// Crates whose `join!`/`try_join!` poll their operands concurrently.
const JOIN_CRATES: &[&str] = &["tokio", "futures", "futures_util", "futures_lite"];

/// The identifiers of a path, in order: `futures::future::join` → `[futures, future, join]`.
pub(crate) fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// Whether the last segment of `path` is one of `names`: checked before `segments`, whose
/// strings most paths do not need.
pub(crate) fn last_is(path: &syn::Path, names: &[&str]) -> bool {
    path.segments
        .last()
        .is_some_and(|s| names.iter().any(|n| s.ident == n))
}

/// `join!`, `try_join!`, `tokio::join!`, `futures::try_join!`, …
pub fn join_macro(path: &syn::Path) -> Option<SiteKind> {
    if !last_is(path, &["join", "try_join"]) {
        return None;
    }
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
    if !last_is(
        path,
        &[
            "join",
            "join3",
            "join4",
            "join5",
            "try_join",
            "try_join3",
            "try_join4",
            "try_join5",
        ],
    ) {
        return None;
    }
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

/// `futures::future::{join_all, try_join_all}` and the same imported bare.
pub fn join_all_fn(path: &syn::Path) -> Option<SiteKind> {
    if !last_is(path, &["join_all", "try_join_all"]) {
        return None;
    }
    let segs = segments(path);
    let (last, prefix) = segs.split_last()?;
    let fallible = match last.as_str() {
        "join_all" => false,
        "try_join_all" => true,
        _ => return None,
    };
    futures_path(prefix).then_some(SiteKind::JoinAll { fallible })
}

/// Which `futures::future` select function, and whether it takes a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectFn {
    /// `select(a, b)`, `try_select(a, b)`.
    Pair,
    /// `select_all(futures)`, `select_ok(futures)`.
    Collection,
}

/// `futures::future::{select, try_select, select_all, select_ok}`.
pub fn select_fn(path: &syn::Path) -> Option<SelectFn> {
    if !last_is(path, &["select", "try_select", "select_all", "select_ok"]) {
        return None;
    }
    let segs = segments(path);
    let (last, prefix) = segs.split_last()?;
    let which = match last.as_str() {
        "select" | "try_select" => SelectFn::Pair,
        "select_all" | "select_ok" => SelectFn::Collection,
        _ => return None,
    };
    // `futures::stream::select` merges streams; only the future functions are sites here.
    (futures_path(prefix) && !prefix.iter().any(|s| s == "stream")).then_some(which)
}

/// `select!`, `tokio::select!`, `futures::select!`, `futures::select_biased!`: Some(biased).
pub fn select_macro(path: &syn::Path) -> Option<bool> {
    if !last_is(path, &["select", "select_biased"]) {
        return None;
    }
    let segs = segments(path);
    let (last, prefix) = segs.split_last()?;
    let biased = match last.as_str() {
        "select" => false,
        "select_biased" => true,
        _ => return None,
    };
    let from_known_crate = match prefix {
        [] => true,
        [first, ..] => JOIN_CRATES.contains(&first.as_str()),
    };
    from_known_crate.then_some(biased)
}

/// Bare (imported), or through `future`/`futures`.
fn futures_path(prefix: &[String]) -> bool {
    prefix.is_empty()
        || prefix.iter().any(|s| s == "future")
        || prefix
            .first()
            .is_some_and(|s| JOIN_CRATES.contains(&s.as_str()))
}

/// Stream methods that poll several futures of the stream at once.
pub fn buffered_method(method: &str) -> Option<SiteKind> {
    match method {
        "buffer_unordered" | "try_buffer_unordered" => Some(SiteKind::Buffered { ordered: false }),
        "buffered" | "try_buffered" => Some(SiteKind::Buffered { ordered: true }),
        _ => None,
    }
}

/// Stream methods that run their closure for several elements at once.
pub fn is_for_each_concurrent(method: &str) -> bool {
    matches!(method, "for_each_concurrent" | "try_for_each_concurrent")
}

/// Collections of futures (and `JoinSet`) that this pass follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    FuturesUnordered,
    FuturesOrdered,
    JoinSet,
    /// `std::thread::scope`: the threads spawned on its `Scope`.
    ThreadScope,
}

impl SetKind {
    pub fn from_type_name(name: &str) -> Option<SetKind> {
        match name {
            "FuturesUnordered" => Some(SetKind::FuturesUnordered),
            "FuturesOrdered" => Some(SetKind::FuturesOrdered),
            "JoinSet" => Some(SetKind::JoinSet),
            _ => None,
        }
    }

    pub fn site_kind(self) -> SiteKind {
        match self {
            SetKind::FuturesUnordered => SiteKind::FuturesUnordered,
            SetKind::FuturesOrdered => SiteKind::FuturesOrdered,
            SetKind::JoinSet => SiteKind::JoinSet,
            SetKind::ThreadScope => SiteKind::ThreadScope,
        }
    }
}

/// `FuturesUnordered::new()`, `FuturesOrdered::from_iter(..)`, `JoinSet::new()`: the kind, and
/// whether the constructor takes the initial futures.
pub fn set_constructor(path: &syn::Path) -> Option<(SetKind, bool)> {
    if !last_is(path, &["new", "default", "from_iter"]) {
        return None;
    }
    let segs = segments(path);
    let [.., ty, ctor] = segs.as_slice() else {
        return None;
    };
    let kind = SetKind::from_type_name(ty)?;
    match ctor.as_str() {
        "new" | "default" => Some((kind, false)),
        "from_iter" => Some((kind, true)),
        _ => None,
    }
}

/// What `.collect::<T>()` builds, from the last segment of `T`.
pub enum Collected {
    JoinAll { fallible: bool },
    Set(SetKind),
}

pub fn collected(type_name: &str) -> Option<Collected> {
    match type_name {
        "JoinAll" => Some(Collected::JoinAll { fallible: false }),
        "TryJoinAll" => Some(Collected::JoinAll { fallible: true }),
        other => SetKind::from_type_name(other).map(Collected::Set),
    }
}

/// `tokio::spawn`, `tokio::task::spawn(_local)`, `async_std::task::spawn`, `std::thread::spawn`,
/// bare `spawn`: the kind of task.
pub fn spawn_fn(path: &syn::Path) -> Option<super::SpawnKind> {
    if !last_is(
        path,
        &["spawn", "spawn_local", "spawn_blocking", "spawn_on"],
    ) {
        return None;
    }
    let segs = segments(path);
    let (last, prefix) = segs.split_last()?;
    if !matches!(
        last.as_str(),
        "spawn" | "spawn_local" | "spawn_blocking" | "spawn_on"
    ) {
        return None;
    }
    if prefix.iter().any(|s| s == "thread") {
        return Some(super::SpawnKind::Thread);
    }
    let known = prefix.is_empty()
        || prefix.iter().any(|s| {
            matches!(
                s.as_str(),
                "tokio" | "task" | "async_std" | "smol" | "runtime" | "rt" | "actix_rt"
            )
        });
    known.then_some(super::SpawnKind::Task)
}

/// `std::thread::scope`, `crossbeam::scope`, `rayon::scope`.
pub fn thread_scope_fn(path: &syn::Path) -> bool {
    if !last_is(path, &["scope"]) {
        return false;
    }
    let segs = segments(path);
    let Some((last, prefix)) = segs.split_last() else {
        return false;
    };
    last == "scope"
        && prefix.iter().any(|s| {
            matches!(
                s.as_str(),
                "thread" | "crossbeam" | "crossbeam_utils" | "rayon"
            )
        })
}

/// `tokio::time::timeout`, `timeout_at`, `async_std::future::timeout`, bare `timeout`.
pub fn timeout_fn(path: &syn::Path) -> bool {
    if !last_is(path, &["timeout", "timeout_at"]) {
        return false;
    }
    let segs = segments(path);
    let Some((last, prefix)) = segs.split_last() else {
        return false;
    };
    matches!(last.as_str(), "timeout" | "timeout_at")
        && (prefix.is_empty()
            || prefix
                .iter()
                .any(|s| matches!(s.as_str(), "time" | "tokio" | "future" | "async_std")))
}

/// `futures::future::abortable(fut)`, `Abortable::new(fut, registration)`.
pub fn abortable_fn(path: &syn::Path) -> bool {
    if !last_is(path, &["new", "abortable"]) {
        return false;
    }
    let segs = segments(path);
    match segs.as_slice() {
        [.., ty, f] if ty == "Abortable" => f == "new",
        [.., f] => f == "abortable" && futures_path(&segs[..segs.len() - 1]),
        [] => false,
    }
}

/// The type a constructor call builds by convention (`Config::new(..)`, `T::default()`,
/// `Buf::with_capacity(n)`), from the call's path segments: the type it is called on.
pub fn constructed_type(segments: &[String]) -> Option<&str> {
    match segments {
        [.., ty, ctor]
            if ty.starts_with(char::is_uppercase)
                && (matches!(
                    ctor.as_str(),
                    "new" | "default" | "from" | "try_from" | "with_capacity"
                ) || ctor.starts_with("new_")) =>
        {
            Some(ty)
        }
        _ => None,
    }
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

    #[test]
    fn collection_and_select_spellings() {
        for s in ["join_all", "futures::future::join_all", "future::join_all"] {
            assert_eq!(
                join_all_fn(&path(s)),
                Some(SiteKind::JoinAll { fallible: false }),
                "{s}"
            );
        }
        assert_eq!(
            join_all_fn(&path("futures::future::try_join_all")),
            Some(SiteKind::JoinAll { fallible: true })
        );
        assert_eq!(join_all_fn(&path("my::join_all")), None);
        assert_eq!(
            select_fn(&path("futures::future::select")),
            Some(SelectFn::Pair)
        );
        assert_eq!(select_fn(&path("select_ok")), Some(SelectFn::Collection));
        assert_eq!(select_fn(&path("futures::stream::select")), None);
        assert_eq!(select_macro(&path("tokio::select")), Some(false));
        assert_eq!(select_macro(&path("futures::select_biased")), Some(true));
        assert_eq!(select_macro(&path("diesel::select")), None);
    }

    #[test]
    fn spawn_and_scope_spellings() {
        use crate::model::SpawnKind;
        assert_eq!(spawn_fn(&path("tokio::spawn")), Some(SpawnKind::Task));
        assert_eq!(
            spawn_fn(&path("tokio::task::spawn_local")),
            Some(SpawnKind::Task)
        );
        assert_eq!(
            spawn_fn(&path("std::thread::spawn")),
            Some(SpawnKind::Thread)
        );
        assert_eq!(spawn_fn(&path("spawn")), Some(SpawnKind::Task));
        assert_eq!(spawn_fn(&path("Command::spawn")), None);
        assert!(thread_scope_fn(&path("std::thread::scope")));
        assert!(!thread_scope_fn(&path("tracing::scope")));
        assert!(timeout_fn(&path("tokio::time::timeout")));
        assert!(!timeout_fn(&path("client::timeout")));
        assert!(matches!(
            set_constructor(&path("futures::stream::FuturesUnordered::new")),
            Some((SetKind::FuturesUnordered, false))
        ));
        assert!(matches!(
            set_constructor(&path("FuturesOrdered::from_iter")),
            Some((SetKind::FuturesOrdered, true))
        ));
    }
}
