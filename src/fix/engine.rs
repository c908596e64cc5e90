//! `--fix` and `--diff`: per file, rounds of (apply every fix that overlaps no other, re-check
//! the new text) until no fix is left, a round changes nothing, or [`MAX_ROUNDS`] is reached (a
//! note then says to run `--fix` again); then the file is written safely ([`super::write`]) or
//! its diff shown.
//!
//! Never lose data:
//! - a file is fixed only if it still holds what the check read;
//! - every round's text is parsed again (by the re-check); a text that does not parse stops the
//!   fixing of that file, which is then left unchanged;
//! - fixes whose edits overlap are never applied together: the later one is re-derived from the
//!   new text in the next round;
//! - the file's byte-order mark and every byte outside the edits are kept; fixes write line
//!   breaks in the file's own style.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::diagnostic::Diagnostic;
use crate::edit::apply::{apply_edits, is_well_formed, non_overlapping};
use crate::edit::{Edit, Fix};
use crate::outcome::{FileError, Report};
use crate::source::{FileId, SourceFile};

use super::write::WriteRoots;

/// Rounds of apply + re-check per file. Fixes of nested sites need one round per level: real code
/// nests a few levels, so the bound is there only to keep a run short on a pathological file
/// (each round re-checks the file).
pub const MAX_ROUNDS: usize = 64;

const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Clone, Copy, Debug, Default)]
pub struct FixOptions {
    /// Apply unsafe fixes too.
    pub unsafe_fixes: bool,
    /// Write the fixed files (`--fix`); false computes them only (`--diff`).
    pub write: bool,
}

/// A file whose fixes were applied (or, without `write`, would be).
#[derive(Clone, Debug)]
pub struct FixedFile {
    pub path: PathBuf,
    pub display: String,
    pub before: Vec<u8>,
    pub after: Vec<u8>,
    /// Fixes applied, over every round.
    pub applied: usize,
}

#[derive(Debug, Default)]
pub struct FixOutcome {
    pub files: Vec<FixedFile>,
    /// Files with fixes that were left unchanged, and why.
    pub errors: Vec<FileError>,
    pub notes: Vec<String>,
}

impl FixOutcome {
    pub fn applied(&self) -> usize {
        self.files.iter().map(|f| f.applied).sum()
    }
}

/// How a new text of a file is re-checked: its findings, or why it does not parse.
pub type Recheck<'r> = dyn Fn(&SourceFile, &str) -> Result<Vec<Diagnostic>, FileError> + Sync + 'r;

/// Fix every file of `report` that has fixes to apply.
/// Files outside `roots` are left alone, with a note.
pub fn run(
    report: &Report,
    options: FixOptions,
    roots: &WriteRoots,
    recheck: &Recheck<'_>,
) -> FixOutcome {
    crate::parse::on_worker_stack(|| run_here(report, options, roots, recheck))
}

fn run_here(
    report: &Report,
    options: FixOptions,
    roots: &WriteRoots,
    recheck: &Recheck<'_>,
) -> FixOutcome {
    let mut outcome = FixOutcome::default();
    // Each file's diagnostics, grouped once (not a scan of them all for every file).
    let mut by_file: HashMap<FileId, Vec<Diagnostic>> = HashMap::new();
    for d in &report.diagnostics {
        by_file
            .entry(d.primary.span.file)
            .or_default()
            .push(d.clone());
    }
    for source in &report.sources {
        let diagnostics = by_file.remove(&source.id).unwrap_or_default();
        if !diagnostics.iter().any(|d| applies(d, source, options)) {
            continue;
        }
        if let Some(real) = roots.outside(&source.path) {
            let what = "fixes not applied";
            outcome
                .notes
                .push(WriteRoots::note(&source.display, &real, what));
            continue;
        }
        let fixed = match fix_file(source, diagnostics, options, recheck, &mut outcome.notes) {
            Ok(Some(f)) => f,
            Ok(None) => continue,
            Err(message) => {
                outcome.errors.push(error(source, message));
                continue;
            }
        };
        if options.write {
            if let Err(message) =
                super::write::replace_file(&fixed.path, &fixed.before, &fixed.after)
            {
                outcome.errors.push(error(source, message));
                continue;
            }
        }
        outcome.files.push(fixed);
    }
    outcome
}

fn error(source: &SourceFile, message: String) -> FileError {
    FileError {
        file: source.display.clone(),
        line: None,
        column: None,
        message,
    }
}

/// Would this diagnostic's fix be applied in this file?
fn applies(d: &Diagnostic, source: &SourceFile, options: FixOptions) -> bool {
    d.fix
        .as_ref()
        .is_some_and(|f| f.is_applied(options.unsafe_fixes) && f.file() == Some(source.id))
}

/// Apply the fixes of one file in rounds; None when nothing changed.
fn fix_file(
    source: &SourceFile,
    mut diagnostics: Vec<Diagnostic>,
    options: FixOptions,
    recheck: &Recheck<'_>,
    notes: &mut Vec<String>,
) -> Result<Option<FixedFile>, String> {
    let before = crate::read::read_file(&source.path, crate::read::MAX_SOURCE_BYTES)
        .map_err(|e| format!("cannot read: {e}"))?;
    let (bom, body) = match before.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, before.as_slice()),
    };
    if body != source.text.as_bytes() {
        return Err("changed on disk since it was checked; not fixed".into());
    }
    let mut text = source.text.clone();
    let mut applied = 0;
    let mut rounds = 0;
    loop {
        let mut candidates: Vec<&Fix> = Vec::new();
        for d in &diagnostics {
            let Some(fix) = d.fix.as_ref().filter(|_| applies(d, source, options)) else {
                continue;
            };
            if is_well_formed(fix, &text) {
                candidates.push(fix);
            } else {
                notes.push(format!(
                    "{}: internal error: the fix for `{}` has invalid edits and was skipped (please report it)",
                    source.display, d.lint
                ));
            }
        }
        candidates.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min());
        let picked = non_overlapping(candidates);
        if picked.is_empty() {
            break;
        }
        if rounds == MAX_ROUNDS {
            notes.push(format!(
                "{}: fixes did not converge after {MAX_ROUNDS} rounds; the remaining ones were not applied: run `--fix` again to apply them",
                source.display
            ));
            break;
        }
        let edits: Vec<&Edit> = picked.iter().flat_map(|f| f.edits.iter()).collect();
        let new_text = apply_edits(&text, &edits)
            .map_err(|e| format!("internal error: fixes could not be applied together ({e})"))?;
        if new_text == text {
            // The fixes left the text as it was: another round would find them again.
            break;
        }
        let count = picked.len();
        diagnostics = recheck(source, &new_text).map_err(|e| {
            let at = match (e.line, e.column) {
                (Some(l), Some(c)) => format!(" at {l}:{c}"),
                _ => String::new(),
            };
            format!(
                "a fix would leave code that does not parse{at} ({}); the file is left unchanged (please report it)",
                e.message
            )
        })?;
        applied += count;
        rounds += 1;
        text = new_text;
    }
    if applied == 0 || text == source.text {
        return Ok(None);
    }
    let mut after = Vec::with_capacity(text.len() + BOM.len());
    if bom {
        after.extend_from_slice(BOM);
    }
    after.extend_from_slice(text.as_bytes());
    Ok(Some(FixedFile {
        path: source.path.clone(),
        display: source.display.clone(),
        before,
        after,
        applied,
    }))
}

/// A unified diff of one fixed file, with `a/` and `b/` paths like `git diff`.
pub fn unified_diff(file: &FixedFile) -> String {
    let before = String::from_utf8_lossy(&file.before);
    let after = String::from_utf8_lossy(&file.after);
    similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("a/{}", file.display),
            &format!("b/{}", file.display),
        )
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Label, Severity};
    use crate::fix::Applicability;
    use crate::model::Confidence;
    use crate::source::Span;

    /// A finding whose safe fix replaces `start..end` of `text` with `replacement`.
    fn finding(start: usize, end: usize, replacement: &str) -> Diagnostic {
        let span = Span {
            file: 0,
            start,
            end,
        };
        Diagnostic {
            lint: "concurrent-same-object",
            severity: Severity::Warning,
            confidence: Confidence::Definite,
            message: "m".into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            site: None,
            notes: Vec::new(),
            help: None,
            fix: Some(Fix::new(
                Applicability::Safe,
                "f",
                vec![Edit::replace(span, replacement)],
            )),
        }
    }

    /// Fix one file on disk whose re-check finds what `after_round` says of each new text.
    fn fix(text: &str, after_round: &Recheck<'_>) -> (Option<FixedFile>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, text).unwrap();
        let source = SourceFile::new(0, path, text.to_string());
        let first = after_round(&source, text).unwrap();
        let mut notes = Vec::new();
        let options = FixOptions {
            unsafe_fixes: false,
            write: false,
        };
        let fixed = fix_file(&source, first, options, after_round, &mut notes).unwrap();
        (fixed, notes)
    }

    /// Nesting needs one round per level: deeper than the old bound of 5, one run converges.
    #[test]
    fn nested_fixes_converge_in_one_run() {
        // Each round turns one `(` into `[`, from the outside in; a re-check finds the next.
        let peel: &Recheck<'_> = &|_, t: &str| {
            Ok(t.find('(')
                .map(|i| finding(i, i + 1, "["))
                .into_iter()
                .collect())
        };
        let (fixed, notes) = fix(&"(".repeat(20), peel);
        assert!(notes.is_empty(), "{notes:?}");
        let fixed = fixed.expect("fixed");
        assert_eq!(
            (fixed.after, fixed.applied),
            ("[".repeat(20).into_bytes(), 20)
        );
    }

    /// A fix that never stops producing another is cut at the bound, and the note says that
    /// another run is needed; a fix that changes nothing stops at once.
    #[test]
    fn fixes_that_do_not_converge_say_to_run_again() {
        let grow: &Recheck<'_> = &|_, t: &str| Ok(vec![finding(t.len(), t.len(), "x")]);
        let (fixed, notes) = fix("x", grow);
        assert_eq!(fixed.expect("fixed").applied, MAX_ROUNDS);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].ends_with(&format!("did not converge after {MAX_ROUNDS} rounds; the remaining ones were not applied: run `--fix` again to apply them")), "{notes:?}");
        let same: &Recheck<'_> = &|_, _| Ok(vec![finding(0, 1, "x")]);
        let (fixed, notes) = fix("x", same);
        assert!(fixed.is_none() && notes.is_empty(), "{notes:?}");
    }
}
