//! What the model saw of a run, for `--statistics`: the kube requests it recognised, the places
//! where futures run concurrently, and the calls it could not resolve. A crate whose requests
//! all go through a type alias or a wrapper the tool cannot see looks clean; its unresolved calls
//! say why.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::{Callee, FileModel, RawKind};

/// Counts over the files of a run (see [`ModelStatistics::of`]); added up with
/// [`ModelStatistics::add`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ModelStatistics {
    /// Request calls on a receiver known to be a kube `Api` (`pods.get(..)`).
    pub requests: usize,
    /// Places where futures are polled concurrently: combinators and streams (`join!`,
    /// `select!`, `buffer_unordered`, …), spawned tasks, `timeout`s and `Abortable`s.
    pub concurrency_sites: usize,
    /// Calls that look like requests but could not be resolved, by name: request methods
    /// (`.get`, `.patch`) on a receiver not known to be an `Api`, and calls whose future is
    /// awaited or polled concurrently but that are neither a kube request nor a function of the
    /// crate (`.renew`, `retry::with_backoff`).
    pub unresolved: BTreeMap<String, usize>,
    /// Dependencies that may have helpers but could not be read (see [`crate::deps`]).
    pub dependencies_unread: usize,
}

impl ModelStatistics {
    /// The statistics of one linked file.
    pub fn of(model: &FileModel) -> ModelStatistics {
        let polled = polled_entries(model);
        let mut stats = ModelStatistics {
            requests: model
                .raw
                .iter()
                .enumerate()
                .filter(|(i, raw)| {
                    matches!(raw.kind, RawKind::Api(_))
                        && model.requests_of(*i).iter().any(|r| r.via.is_empty())
                })
                .count(),
            // As written: a call that leaves a task running is no site of its own.
            concurrency_sites: model.sites.len()
                + model
                    .spawns
                    .iter()
                    .filter(|s| s.kind != crate::model::SpawnKind::Call)
                    .count()
                + model.timeouts.len()
                + model.abortables.len(),
            unresolved: BTreeMap::new(),
            dependencies_unread: 0,
        };
        for &i in &model.unresolved {
            let name = match &model.raw[i].kind {
                RawKind::Api(call) => format!(".{}", call.verb.method),
                RawKind::Helper(call) if polled.contains(&i) => match &call.callee {
                    Callee::Path(segments) => segments.join("::"),
                    Callee::Method { name, .. } => format!(".{name}"),
                    Callee::Field(name) => format!("(.{name})"),
                },
                RawKind::Helper(_) => continue,
            };
            *stats.unresolved.entry(name).or_default() += 1;
        }
        stats
    }

    pub fn add(&mut self, other: &ModelStatistics) {
        self.requests += other.requests;
        self.concurrency_sites += other.concurrency_sites;
        self.dependencies_unread += other.dependencies_unread;
        for (name, n) in &other.unresolved {
            *self.unresolved.entry(name.clone()).or_default() += n;
        }
    }

    /// Unresolved calls in all.
    pub fn unresolved_calls(&self) -> usize {
        self.unresolved.values().sum()
    }
}

/// The entries whose future is awaited, or given to a concurrency site, a spawn or a timeout.
fn polled_entries(model: &FileModel) -> HashSet<usize> {
    let operands = model
        .sites
        .iter()
        .flat_map(|s| &s.operands)
        .chain(
            model
                .spawns
                .iter()
                .filter(|s| s.kind != crate::model::SpawnKind::Call)
                .map(|s| &s.task),
        )
        .chain(model.timeouts.iter().map(|t| &t.future))
        .chain(model.abortables.iter().map(|a| &a.future));
    operands
        .flat_map(|o| o.requests.iter().copied())
        .chain(model.awaits.iter().flat_map(|a| a.requests.iter().copied()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{build, link};
    use crate::source::SourceFile;

    fn stats(code: &str) -> ModelStatistics {
        let source = SourceFile::new(0, "lib.rs".into(), code.to_string());
        let file = syn::parse_file(code).unwrap();
        let facts = build::build(&source, &file);
        ModelStatistics::of(&link::link_single(0, &facts, "lib.rs"))
    }

    #[test]
    fn counts_requests_sites_and_unresolved_calls() {
        let s = stats(
            r#"
            type Leases = kube::Api<Lease>;
            async fn f(pods: Api<Pod>, leases: Leases, store: Store, mgr: Manager) {
                let _ = tokio::join!(pods.get("a"), pods.delete("b", &dp));
                leases.get("l").await;
                store.get("l").await;
                mgr.renew("x").await;
                retry::with_backoff(op).await;
            }
            "#,
        );
        // Through the alias too.
        assert_eq!(s.requests, 3);
        assert_eq!(s.concurrency_sites, 1);
        assert_eq!(s.unresolved.get(".get"), Some(&1), "{s:?}");
        assert_eq!(s.unresolved.get(".renew"), Some(&1), "{s:?}");
        assert_eq!(s.unresolved.get("retry::with_backoff"), Some(&1), "{s:?}");
    }
}
