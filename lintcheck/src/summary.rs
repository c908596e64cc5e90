//! The summary printed after a run: findings per lint and confidence, what the model saw per
//! crate, the precision of judged findings, the recall of the expected hazards, the diff against
//! the committed log, stale or missing verdicts and expected lines, and the wall time and peak
//! memory.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

use crate::expected::{recall_by_family, Expected, Hazard};
use crate::findings::{Finding, Findings, Key};
use crate::run::Run;
use crate::verdicts::Verdicts;

pub struct Summary<'a> {
    runs: &'a [Run],
    found: &'a Findings,
    added: Vec<&'a Finding>,
    removed: Vec<&'a Finding>,
    unjudged: Vec<&'a Finding>,
    /// Verdicts that no finding has.
    stale: Vec<&'a Key>,
    verdicts: &'a Verdicts,
    /// Each expected hazard of the crates run, and whether a finding reports it.
    recall: Vec<(&'a Hazard, bool)>,
    /// Expected lines naming a crate or file that is not there.
    stale_expected: Vec<String>,
    elapsed: Duration,
}

impl<'a> Summary<'a> {
    pub fn new(
        runs: &'a [Run],
        found: &'a Findings,
        committed: &'a Findings,
        verdicts: &'a Verdicts,
        expected: (&'a Expected, Vec<String>),
        elapsed: Duration,
    ) -> Summary<'a> {
        let keys: std::collections::HashSet<Key> = found.0.iter().map(Finding::key).collect();
        Summary {
            runs,
            found,
            added: found.0.difference(&committed.0).collect(),
            removed: committed.0.difference(&found.0).collect(),
            unjudged: found
                .0
                .iter()
                .filter(|f| !verdicts.0.contains_key(&f.key()))
                .collect(),
            stale: verdicts.0.keys().filter(|k| !keys.contains(k)).collect(),
            verdicts,
            recall: expected.0.recall(found),
            stale_expected: expected.1,
            elapsed,
        }
    }

    /// The log is the committed one, every finding, and only those, has a verdict, and every
    /// expected hazard names a file of its crate. Missed hazards do not fail: they are known
    /// bugs, measured.
    pub fn passes(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.unjudged.is_empty()
            && self.stale.is_empty()
            && self.stale_expected.is_empty()
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        self.per_crate(&mut out);
        self.per_lint(&mut out);
        self.precision(&mut out);
        self.recall(&mut out);
        self.diff(&mut out);
        self.time_and_memory(&mut out);
        out
    }

    fn per_crate(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{:<44} {:>6} {:>8} {:>6} {:>10} {:>8} {:>6}",
            "crate", "files", "requests", "sites", "unresolved", "findings", "errors"
        );
        let mut total = [0usize; 6];
        for r in self.runs {
            let row = [
                r.files_checked,
                r.statistics.requests,
                r.statistics.concurrency_sites,
                r.statistics.unresolved_calls,
                r.diagnostics.len(),
                r.errors.len(),
            ];
            let _ = writeln!(
                out,
                "{:<44} {:>6} {:>8} {:>6} {:>10} {:>8} {:>6}",
                r.krate, row[0], row[1], row[2], row[3], row[4], row[5]
            );
            for (t, v) in total.iter_mut().zip(row) {
                *t += v;
            }
        }
        let _ = writeln!(
            out,
            "{:<44} {:>6} {:>8} {:>6} {:>10} {:>8} {:>6}\n",
            format!("total ({} crates)", self.runs.len()),
            total[0],
            total[1],
            total[2],
            total[3],
            total[4],
            total[5]
        );
        self.unresolved_names(out);
        for r in self.runs.iter().filter(|r| !r.errors.is_empty()) {
            for e in &r.errors {
                let _ = writeln!(out, "error in {}: {e}", r.krate);
            }
        }
    }

    fn unresolved_names(&self, out: &mut String) {
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        for r in self.runs {
            for n in &r.statistics.unresolved {
                *names.entry(&n.name).or_default() += n.count;
            }
        }
        let mut names: Vec<(&str, usize)> = names.into_iter().collect();
        names.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let shown: Vec<String> = names
            .iter()
            .take(15)
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        let _ = writeln!(out, "most unresolved calls: {}\n", shown.join(", "));
    }

    fn per_lint(&self, out: &mut String) {
        let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for f in &self.found.0 {
            *counts.entry((&f.lint, &f.confidence)).or_default() += 1;
        }
        let _ = writeln!(out, "findings: {}", self.found.0.len());
        for ((lint, confidence), n) in counts {
            let _ = writeln!(out, "  {n:>4}  {lint} ({confidence})");
        }
    }

    fn precision(&self, out: &mut String) {
        let _ = writeln!(out, "precision of judged findings:");
        // Every tier, also one without findings (`unknown` is not reported by default), with
        // the goal of calibration: `definite` proved, `possible` true at least nine times in ten.
        for confidence in ["definite", "possible", "unknown", "all"] {
            let (mut holds, mut wrong) = (0, 0);
            for f in self
                .found
                .0
                .iter()
                .filter(|f| confidence == "all" || f.confidence == confidence)
            {
                match self.verdicts.0.get(&f.key()) {
                    Some(v) if v.holds => holds += 1,
                    Some(_) => wrong += 1,
                    None => {}
                }
            }
            let judged = holds + wrong;
            let share = if judged == 0 {
                "n/a".to_string()
            } else {
                format!("{:.1}%", 100.0 * holds as f64 / judged as f64)
            };
            let goal = match confidence {
                "definite" => "  goal 100%",
                "possible" => "  goal >= 90%",
                _ => "",
            };
            let _ = writeln!(
                out,
                "  {confidence:<9} {share:>6}  ({holds} true, {wrong} false of {judged} judged){goal}"
            );
        }
        let _ = writeln!(out, "unjudged findings: {}", self.unjudged.len());
        for f in &self.unjudged {
            let _ = writeln!(out, "  {}", f.to_line());
        }
        let _ = writeln!(out, "verdicts without a finding: {}", self.stale.len());
        for k in &self.stale {
            let _ = writeln!(out, "  {} {}:{} {}", k.krate, k.file, k.line, k.lint);
        }
    }

    fn recall(&self, out: &mut String) {
        let found = self.recall.iter().filter(|(_, hit)| *hit).count();
        let _ = writeln!(
            out,
            "recall: {found} of {} expected hazards found",
            self.recall.len()
        );
        if !self.recall.is_empty() {
            let families: Vec<String> = recall_by_family(&self.recall)
                .into_iter()
                .map(|(family, (hit, all))| format!("[{family}] {hit} of {all}"))
                .collect();
            let _ = writeln!(out, "recall by family: {}", families.join(", "));
        }
        for (h, _) in self.recall.iter().filter(|(_, hit)| !hit) {
            let _ = writeln!(
                out,
                "  missed {} {}:{} {}: {}",
                h.krate, h.file, h.line, h.lint, h.reason
            );
        }
        let _ = writeln!(out, "stale expected hazards: {}", self.stale_expected.len());
        for s in &self.stale_expected {
            let _ = writeln!(out, "  {s}");
        }
    }

    fn diff(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "against the committed findings.tsv: {} added, {} removed",
            self.added.len(),
            self.removed.len()
        );
        for f in &self.added {
            let _ = writeln!(out, "+ {}", f.to_line());
        }
        for f in &self.removed {
            let judged = match self.verdicts.0.get(&f.key()) {
                Some(v) => format!(" [was judged {}: {}]", v.holds, v.reason),
                None => String::new(),
            };
            let _ = writeln!(out, "- {}{judged}", f.to_line());
        }
    }

    fn time_and_memory(&self, out: &mut String) {
        let linting: Duration = self.runs.iter().map(|r| r.wall).sum();
        let peak = self.runs.iter().map(|r| r.max_rss_kib).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "wall time: {:.1} s in all, {:.1} s running the tool; peak memory of one run: {:.0} MiB",
            self.elapsed.as_secs_f64(),
            linting.as_secs_f64(),
            peak as f64 / 1024.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdicts::Verdict;

    fn finding(line: usize, confidence: &str) -> Finding {
        Finding {
            krate: "k@0.1.0".into(),
            file: "src/lib.rs".into(),
            line,
            lint: "concurrent-same-object".into(),
            confidence: confidence.into(),
            message: "m".into(),
        }
    }

    /// Issue 25, item 5: each confidence tier's judged findings, true and false, with its goal.
    #[test]
    fn precision_is_printed_for_every_tier_with_its_goal() {
        let found = Findings(
            [
                finding(1, "definite"),
                finding(2, "possible"),
                finding(3, "possible"),
                finding(4, "unknown"),
            ]
            .into_iter()
            .collect(),
        );
        let mut verdicts = Verdicts::default();
        for (line, holds) in [(1, true), (2, true), (3, false)] {
            let reason = String::new();
            verdicts
                .0
                .insert(finding(line, "").key(), Verdict { holds, reason });
        }
        let expected = Expected::default();
        let summary = Summary::new(
            &[],
            &found,
            &found,
            &verdicts,
            (&expected, Vec::new()),
            Duration::ZERO,
        );
        let mut out = String::new();
        summary.precision(&mut out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "precision of judged findings:");
        assert_eq!(
            lines[1],
            "  definite  100.0%  (1 true, 0 false of 1 judged)  goal 100%"
        );
        assert_eq!(
            lines[2],
            "  possible   50.0%  (1 true, 1 false of 2 judged)  goal >= 90%"
        );
        assert_eq!(
            lines[3],
            "  unknown      n/a  (0 true, 0 false of 0 judged)"
        );
        assert_eq!(
            lines[4],
            "  all        66.7%  (2 true, 1 false of 3 judged)"
        );
        assert_eq!(lines[5], "unjudged findings: 1");
    }
}
