//! `lintcheck/verdicts.tsv`: a reviewer's verdict on each finding. Columns: crate@version,
//! file, line, lint, message (the finding's key), `true` or `false`, and a one-line reason that
//! cites the code. Lines starting with `#` are comments.

use std::collections::BTreeMap;
use std::path::Path;

use crate::findings::{unescape, Key};

/// A table file of the lintcheck's, None when there is none (yet).
pub fn read_table(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

pub struct Verdict {
    pub holds: bool,
    pub reason: String,
}

#[derive(Default)]
pub struct Verdicts(pub BTreeMap<Key, Verdict>);

impl Verdicts {
    pub fn read(path: &Path) -> Result<Verdicts, String> {
        let Some(text) = read_table(path)? else {
            return Ok(Verdicts::default());
        };
        let mut out = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || format!("{}:{}", path.display(), n + 1);
            let (key, verdict) = parse_line(line).map_err(|e| format!("{}: {e}", at()))?;
            if out.insert(key, verdict).is_some() {
                return Err(format!("{}: a second verdict for the same finding", at()));
            }
        }
        Ok(Verdicts(out))
    }
}

/// The line column of a table row (verdicts and expected hazards alike).
pub fn line_number(number: &str) -> Result<usize, String> {
    number
        .parse()
        .map_err(|_| format!("`{number}` is not a line number"))
}

fn parse_line(line: &str) -> Result<(Key, Verdict), String> {
    let cols: Vec<&str> = line.split('\t').collect();
    let [krate, file, number, lint, message, holds, reason] = cols[..] else {
        return Err(format!(
            "expected 7 tab-separated columns, found {}",
            cols.len()
        ));
    };
    let holds = match holds {
        "true" => true,
        "false" => false,
        other => return Err(format!("the verdict is `true` or `false`, not `{other}`")),
    };
    if reason.trim().is_empty() {
        return Err("a verdict needs a reason".to_string());
    }
    let key = Key {
        krate: unescape(krate),
        file: unescape(file),
        line: line_number(number)?,
        lint: unescape(lint),
        message: unescape(message),
    };
    Ok((
        key,
        Verdict {
            holds,
            reason: reason.to_string(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_needs_true_or_false_and_a_reason() {
        let ok = "k@1\tsrc/a.rs\t3\tlint\tmsg\ttrue\tsame Pod `name` in both arms";
        assert!(parse_line(ok).unwrap().1.holds);
        assert!(parse_line("k@1\tsrc/a.rs\t3\tlint\tmsg\tmaybe\treason").is_err());
        assert!(parse_line("k@1\tsrc/a.rs\t3\tlint\tmsg\tfalse\t ").is_err());
        assert!(parse_line("k@1\tsrc/a.rs\t3\tlint\tmsg\tfalse").is_err());
    }
}
