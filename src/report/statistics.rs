//! `--statistics`, in the manner of ruff's: how many findings of each lint, and what the model
//! saw (requests recognised, concurrency sites, calls left unresolved, by name). Shown instead of
//! the findings in human output, and as the `statistics` field of the JSON document.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::model::Confidence;
use crate::outcome::Report;

/// Field names are public interface, like the rest of the JSON document.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Statistics {
    /// Per lint (by name, every lint listed): findings in all, and in each confidence tier.
    pub findings: BTreeMap<&'static str, LintCount>,
    /// Request calls on a receiver known to be a kube `Api`.
    pub requests: usize,
    /// `join!`, `select!`, streams, spawned tasks, timeouts and abortables.
    pub concurrency_sites: usize,
    /// Calls that look like requests but resolve to neither a kube request nor a function of the
    /// crate: request methods on receivers not known to be an `Api`, and awaited (or
    /// concurrently polled) calls of unknown functions.
    pub unresolved_calls: usize,
    /// The same, by name, most frequent first.
    pub unresolved: Vec<NameCount>,
    /// Dependencies that may have helpers but whose sources could not be read (not fetched by
    /// cargo, or not resolved offline): their helpers' calls are not requests.
    pub dependencies_unread: usize,
}

#[derive(Serialize, Debug, Default, PartialEq, Eq)]
pub struct LintCount {
    pub count: usize,
    pub definite: usize,
    pub possible: usize,
    pub unknown: usize,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct NameCount {
    pub name: String,
    pub count: usize,
}

impl Statistics {
    pub fn of(report: &Report) -> Statistics {
        let mut findings: BTreeMap<&'static str, LintCount> = crate::lints::LINTS
            .iter()
            .map(|l| (l.name, LintCount::default()))
            .collect();
        for d in &report.diagnostics {
            let count = findings.entry(d.lint).or_default();
            count.count += 1;
            match d.confidence {
                Confidence::Definite => count.definite += 1,
                Confidence::Possible => count.possible += 1,
                Confidence::Unknown => count.unknown += 1,
            }
        }
        let model = &report.statistics;
        let mut unresolved: Vec<NameCount> = model
            .unresolved
            .iter()
            .map(|(name, &count)| NameCount {
                name: name.clone(),
                count,
            })
            .collect();
        unresolved.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
        Statistics {
            findings,
            requests: model.requests,
            concurrency_sites: model.concurrency_sites,
            unresolved_calls: model.unresolved_calls(),
            unresolved,
            dependencies_unread: model.dependencies_unread,
        }
    }

    /// The table printed by human output: the lints with findings, then the model's counts and
    /// the most frequent unresolved calls.
    pub fn render_human(&self) -> String {
        const SHOWN: usize = 20;
        let mut out = String::new();
        for (lint, count) in self.findings.iter().filter(|(_, c)| c.count > 0) {
            let unknown = if count.unknown > 0 {
                format!(", {} unknown", count.unknown)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{:>6}  {lint:<28} ({} definite, {} possible{unknown})",
                count.count, count.definite, count.possible
            );
        }
        let _ = writeln!(out, "{:>6}  kube requests recognised", self.requests);
        let _ = writeln!(out, "{:>6}  concurrency sites", self.concurrency_sites);
        let _ = writeln!(out, "{:>6}  unresolved calls", self.unresolved_calls);
        for n in self.unresolved.iter().take(SHOWN) {
            let _ = writeln!(out, "{:>14}  {}", n.count, n.name);
        }
        if self.unresolved.len() > SHOWN {
            let _ = writeln!(
                out,
                "{:>14}  (and {} more names)",
                "",
                self.unresolved.len() - SHOWN
            );
        }
        if self.dependencies_unread > 0 {
            let _ = writeln!(
                out,
                "{:>6}  dependencies not read for helpers",
                self.dependencies_unread
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_findings_per_lint_and_sorts_unresolved_names_by_count() {
        let mut report = crate::check::check_text(
            std::path::Path::new("lib.rs"),
            r#"
            async fn f(pods: Api<Pod>, leases: Leases) {
                tokio::join!(pods.delete("a", &dp), pods.get("a"));
                leases.get("x").await;
                mgr.renew().await;
                mgr.renew().await;
            }
            "#,
        );
        report.diagnostics.truncate(1);
        let stats = Statistics::of(&report);
        assert_eq!(stats.findings["concurrent-same-object"].count, 1);
        assert_eq!(stats.findings["concurrent-same-object"].definite, 1);
        assert_eq!(stats.findings["await-order-inverted"].count, 0);
        assert_eq!(stats.requests, 2);
        assert_eq!(stats.concurrency_sites, 1);
        assert_eq!(stats.unresolved_calls, 3);
        assert_eq!(stats.unresolved[0].name, ".renew");
        assert_eq!(stats.unresolved[0].count, 2);
        let table = stats.render_human();
        assert!(table.contains("1  concurrent-same-object"), "{table}");
        assert!(table.contains("2  .renew"), "{table}");
    }
}
