//! `lintcheck/findings.tsv`: one line per finding, sorted, with the columns
//! crate@version, file, line, lint, confidence, message.

use std::collections::BTreeSet;
use std::path::Path;

use crate::run::Run;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub krate: String,
    pub file: String,
    pub line: usize,
    pub lint: String,
    pub confidence: String,
    pub message: String,
}

/// What a verdict is about: a finding without its confidence (a verdict holds whichever
/// confidence the tool gives it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub krate: String,
    pub file: String,
    pub line: usize,
    pub lint: String,
    pub message: String,
}

impl Finding {
    pub fn key(&self) -> Key {
        Key {
            krate: self.krate.clone(),
            file: self.file.clone(),
            line: self.line,
            lint: self.lint.clone(),
            message: self.message.clone(),
        }
    }

    pub fn to_line(&self) -> String {
        [
            escape(&self.krate),
            escape(&self.file),
            self.line.to_string(),
            escape(&self.lint),
            escape(&self.confidence),
            escape(&self.message),
        ]
        .join("\t")
    }

    fn from_line(line: &str) -> Option<Finding> {
        let cols: Vec<&str> = line.split('\t').collect();
        let [krate, file, number, lint, confidence, message] = cols[..] else {
            return None;
        };
        Some(Finding {
            krate: unescape(krate),
            file: unescape(file),
            line: number.parse().ok()?,
            lint: unescape(lint),
            confidence: unescape(confidence),
            message: unescape(message),
        })
    }
}

#[derive(Default, PartialEq, Eq)]
pub struct Findings(pub BTreeSet<Finding>);

impl Findings {
    pub fn of(runs: &[Run]) -> Findings {
        Findings(
            runs.iter()
                .flat_map(|r| {
                    r.diagnostics.iter().map(|d| Finding {
                        krate: r.krate.clone(),
                        file: d.file.clone(),
                        line: d.line,
                        lint: d.lint.clone(),
                        confidence: d.confidence.clone(),
                        message: d.message.clone(),
                    })
                })
                .collect(),
        )
    }

    /// The committed log; empty when there is none yet.
    pub fn read(path: &Path) -> Result<Findings, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Findings::default()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
            .map(|(n, l)| {
                Finding::from_line(l)
                    .ok_or_else(|| format!("{}:{}: not a finding line", path.display(), n + 1))
            })
            .collect::<Result<_, _>>()
            .map(Findings)
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text: String = self.0.iter().map(|f| f.to_line() + "\n").collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// Tabs, newlines and backslashes written as `\t`, `\n`, `\\`, so that a line is a finding.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
}

pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_the_finding_it_was_written_from() {
        let f = Finding {
            krate: "kube-runtime@0.1.0".into(),
            file: "src/a\tb.rs".into(),
            line: 7,
            lint: "concurrent-same-object".into(),
            confidence: "definite".into(),
            message: "two\nlines \\ here".into(),
        };
        assert_eq!(Finding::from_line(&f.to_line()), Some(f));
    }
}
