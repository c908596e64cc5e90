//! `lintcheck/expected.tsv`: the real hazards of the corpus, found by reading its code, so that
//! misses are measured as well as false positives. Columns: crate@version, file, line (of the
//! spawn, site or request the lint would report), lint, and a one-line reason that cites the
//! code. Lines starting with `#` are comments.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::findings::{unescape, Finding, Findings};

/// How far from the expected line a finding of the lint may start and still count: the
/// reviewer writes the line of the request or the site, the lint may point at the other one.
pub const LINE_SLACK: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    pub krate: String,
    pub file: String,
    pub line: usize,
    pub lint: String,
    pub reason: String,
}

impl Hazard {
    /// A finding of this hazard's lint in its file, within `LINE_SLACK` lines of it.
    pub fn is_found_by(&self, f: &Finding) -> bool {
        f.krate == self.krate
            && f.file == self.file
            && f.lint == self.lint
            && f.line.abs_diff(self.line) <= LINE_SLACK
    }

    /// The family the reason starts with, as a tag in brackets (`[f2] ..`, `[seed] ..`: the
    /// families of issue 24, `seed` for the classic join/select/spawn shapes, `cal` for
    /// issue 25's), or `untagged`.
    pub fn family(&self) -> &str {
        self.reason
            .strip_prefix('[')
            .and_then(|rest| rest.split_once(']'))
            .map(|(tag, _)| tag)
            .filter(|tag| !tag.is_empty() && !tag.contains(char::is_whitespace))
            .unwrap_or("untagged")
    }
}

/// Per family: how many of its hazards a finding reports, and how many there are.
pub fn recall_by_family<'a>(marks: &[(&'a Hazard, bool)]) -> BTreeMap<&'a str, (usize, usize)> {
    let mut families: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (h, hit) in marks {
        let counts = families.entry(h.family()).or_default();
        counts.0 += usize::from(*hit);
        counts.1 += 1;
    }
    families
}

#[derive(Default)]
pub struct Expected(pub Vec<Hazard>);

impl Expected {
    pub fn read(path: &Path) -> Result<Expected, String> {
        let Some(text) = crate::verdicts::read_table(path)? else {
            return Ok(Expected::default());
        };
        Expected::parse(&text).map_err(|e| format!("{}:{e}", path.display()))
    }

    /// Parses the file's text; an error names its line (`N: what is wrong`).
    fn parse(text: &str) -> Result<Expected, String> {
        let mut hazards = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            hazards.push(parse_line(line).map_err(|e| format!("{}: {e}", n + 1))?);
        }
        Ok(Expected(hazards))
    }

    /// The hazards of the crates that were run (`--only` runs some of them).
    pub fn of_crates(&self, crates: &[String]) -> Expected {
        Expected(
            self.0
                .iter()
                .filter(|h| crates.contains(&h.krate))
                .cloned()
                .collect(),
        )
    }

    /// Each hazard with whether a finding reports it, in file order.
    pub fn recall<'a>(&'a self, found: &Findings) -> Vec<(&'a Hazard, bool)> {
        self.0
            .iter()
            .map(|h| (h, found.0.iter().any(|f| h.is_found_by(f))))
            .collect()
    }

    /// The lines that name a crate outside the corpus or a file its sources do not have: the
    /// reviewer's line no longer says where the hazard is. `dirs` maps crate@version to the
    /// crate's directory.
    pub fn stale(&self, dirs: &BTreeMap<String, PathBuf>) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|h| match dirs.get(&h.krate) {
                None => Some(format!("{}: not a crate of the corpus", h.krate)),
                Some(dir) if !dir.join(&h.file).is_file() => {
                    Some(format!("{} {}: no such file in the crate", h.krate, h.file))
                }
                Some(_) => None,
            })
            .collect()
    }
}

fn parse_line(line: &str) -> Result<Hazard, String> {
    let cols: Vec<&str> = line.split('\t').collect();
    let [krate, file, number, lint, reason] = cols[..] else {
        return Err(format!(
            "expected 5 tab-separated columns, found {}",
            cols.len()
        ));
    };
    if reason.trim().is_empty() {
        return Err("an expected hazard needs a reason".to_string());
    }
    Ok(Hazard {
        krate: unescape(krate),
        file: unescape(file),
        line: crate::verdicts::line_number(number)?,
        lint: unescape(lint),
        reason: reason.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(file: &str, line: usize, lint: &str) -> Finding {
        Finding {
            krate: "k@1".into(),
            file: file.into(),
            line,
            lint: lint.into(),
            confidence: "possible".into(),
            message: "m".into(),
        }
    }

    fn hazard() -> Hazard {
        parse_line("k@1\tsrc/a.rs\t10\tcancellable-write\trenew dropped, then release").unwrap()
    }

    #[test]
    fn a_finding_of_the_lint_in_the_file_within_three_lines_finds_the_hazard() {
        let h = hazard();
        assert!(h.is_found_by(&finding("src/a.rs", 10, "cancellable-write")));
        assert!(h.is_found_by(&finding("src/a.rs", 7, "cancellable-write")));
        assert!(h.is_found_by(&finding("src/a.rs", 13, "cancellable-write")));
    }

    #[test]
    fn another_line_file_lint_or_crate_does_not() {
        let h = hazard();
        assert!(!h.is_found_by(&finding("src/a.rs", 6, "cancellable-write")));
        assert!(!h.is_found_by(&finding("src/a.rs", 14, "cancellable-write")));
        assert!(!h.is_found_by(&finding("src/b.rs", 10, "cancellable-write")));
        assert!(!h.is_found_by(&finding("src/a.rs", 10, "concurrent-same-object")));
        let mut other_crate = finding("src/a.rs", 10, "cancellable-write");
        other_crate.krate = "k@2".into();
        assert!(!h.is_found_by(&other_crate));
    }

    #[test]
    fn recall_marks_each_hazard_found_or_missed() {
        let text = "# comment\n\
                    k@1\tsrc/a.rs\t10\tcancellable-write\tfound\n\
                    \n\
                    k@1\tsrc/a.rs\t40\tcancellable-write\tmissed\n";
        let expected = Expected::parse(text).unwrap();
        let found = Findings([finding("src/a.rs", 11, "cancellable-write")].into());
        let marks: Vec<(&str, bool)> = expected
            .recall(&found)
            .into_iter()
            .map(|(h, hit)| (h.reason.as_str(), hit))
            .collect();
        assert_eq!(marks, [("found", true), ("missed", false)]);
    }

    #[test]
    fn the_family_is_the_tag_the_reason_starts_with() {
        let tagged = |reason: &str| {
            parse_line(&format!("k@1\tsrc/a.rs\t1\tlint\t{reason}"))
                .unwrap()
                .family()
                .to_string()
        };
        assert_eq!(tagged("[f2] every reconcile patches cm"), "f2");
        assert_eq!(tagged("[seed] select! drops the renew"), "seed");
        assert_eq!(tagged("no tag here"), "untagged");
        assert_eq!(tagged("[] empty"), "untagged");
        assert_eq!(tagged("[not a tag] words"), "untagged");
        assert_eq!(tagged("a [f2] later in the text"), "untagged");
    }

    #[test]
    fn recall_by_family_counts_found_and_expected_per_tag() {
        let text = "k@1\tsrc/a.rs\t10\tcancellable-write\t[seed] found\n\
                    k@1\tsrc/a.rs\t40\tconcurrent-same-object\t[f2] missed\n\
                    k@1\tsrc/a.rs\t80\tconcurrent-same-object\t[f2] found\n\
                    k@1\tsrc/a.rs\t120\tcancellable-write\tno tag, missed\n";
        let expected = Expected::parse(text).unwrap();
        let found = Findings(
            [
                finding("src/a.rs", 11, "cancellable-write"),
                finding("src/a.rs", 80, "concurrent-same-object"),
            ]
            .into(),
        );
        let marks = expected.recall(&found);
        let families: Vec<(&str, (usize, usize))> = recall_by_family(&marks).into_iter().collect();
        assert_eq!(
            families,
            [("f2", (1, 2)), ("seed", (1, 1)), ("untagged", (0, 1))]
        );
    }

    #[test]
    fn a_line_needs_five_columns_a_line_number_and_a_reason() {
        assert!(parse_line("k@1\tsrc/a.rs\t3\tlint").is_err());
        assert!(parse_line("k@1\tsrc/a.rs\tthree\tlint\treason").is_err());
        assert!(parse_line("k@1\tsrc/a.rs\t3\tlint\t ").is_err());
        let e = Expected::parse("k@1\tsrc/a.rs\t3\tlint\treason\nbad\n").err();
        assert_eq!(
            e.as_deref(),
            Some("2: expected 5 tab-separated columns, found 1")
        );
    }

    #[test]
    fn a_file_or_crate_that_is_not_there_is_stale() {
        let dir = std::env::temp_dir().join(format!("lintcheck-expected-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.rs"), "").unwrap();
        let dirs: BTreeMap<String, PathBuf> = [("k@1".to_string(), dir.clone())].into();
        let text = "k@1\tsrc/a.rs\t1\tlint\there\n\
                    k@1\tsrc/gone.rs\t1\tlint\tfile removed\n\
                    k@2\tsrc/a.rs\t1\tlint\tcrate not pinned\n";
        let stale = Expected::parse(text).unwrap().stale(&dirs);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            stale,
            [
                "k@1 src/gone.rs: no such file in the crate",
                "k@2: not a crate of the corpus"
            ]
        );
    }

    #[test]
    fn only_the_crates_run_count() {
        let text = "k@1\tsrc/a.rs\t1\tlint\tr\nk@2\tsrc/a.rs\t1\tlint\tr\n";
        let expected = Expected::parse(text).unwrap();
        let run = expected.of_crates(&["k@2".to_string()]);
        assert_eq!(run.0.len(), 1);
        assert_eq!(run.0[0].krate, "k@2");
    }
}
