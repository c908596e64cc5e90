//! Applying edits to a text: pure, no file system.

use super::{Edit, Fix};
use crate::source::Span;

/// The line ending a file is written with. Fix builders write generated line breaks with it, so
/// a CRLF file stays CRLF; text copied from the file keeps its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

impl LineEnding {
    /// The ending of the first line of `text` (LF for a single line), as editors and
    /// formatters decide it. Cheap: it is asked for every fix.
    pub fn of(text: &str) -> LineEnding {
        match text.find('\n') {
            Some(i) if text[..i].ends_with('\r') => LineEnding::CrLf,
            _ => LineEnding::Lf,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// Why edits could not be applied. Both are bugs of the lint that made the fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    #[error("an edit at bytes {start}..{end} lies outside the text or splits a character")]
    OutOfBounds { start: usize, end: usize },
    #[error("edits at bytes {0}..{1} and {2}..{3} overlap")]
    Overlap(usize, usize, usize, usize),
}

/// `text` with every edit applied. Edits may come in any order but must not overlap (two
/// insertions at the same offset overlap: their order would be a guess).
pub fn apply_edits(text: &str, edits: &[&Edit]) -> Result<String, ApplyError> {
    let sorted = validate(text, edits)?;
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in sorted {
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.replacement);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// The edits sorted by position, if they can be applied to `text` together.
fn validate<'e>(text: &str, edits: &[&'e Edit]) -> Result<Vec<&'e Edit>, ApplyError> {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    for e in &sorted {
        let (start, end) = (e.span.start, e.span.end);
        if start > end
            || end > text.len()
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            return Err(ApplyError::OutOfBounds { start, end });
        }
    }
    for pair in sorted.windows(2) {
        if touches(pair[0], pair[1]) {
            let (a, b) = (pair[0].span, pair[1].span);
            return Err(ApplyError::Overlap(a.start, a.end, b.start, b.end));
        }
    }
    Ok(sorted)
}

/// Two edits share bytes, or an insertion sits at an edge of the other edit (before or inside
/// it? a guess either way). Replacements that merely touch (`a.end == b.start`) are independent.
fn touches(a: &Edit, b: &Edit) -> bool {
    let (a, b) = (a.span, b.span);
    if a.file != b.file {
        return false;
    }
    let overlap = a.start < b.end && b.start < a.end;
    let at_edge = |ins: Span, other: Span| {
        ins.start == ins.end && (ins.start == other.start || ins.start == other.end)
    };
    overlap || at_edge(a, b) || at_edge(b, a)
}

/// Do the edits of two fixes conflict?
pub fn conflict(a: &Fix, b: &Fix) -> bool {
    a.edits
        .iter()
        .any(|x| b.edits.iter().any(|y| touches(x, y)))
}

/// A fix whose own edits are consistent: applying it alone cannot fail.
pub fn is_well_formed(fix: &Fix, text: &str) -> bool {
    let edits: Vec<&Edit> = fix.edits.iter().collect();
    !edits.is_empty() && validate(text, &edits).is_ok()
}

/// The fixes to apply together in one round: in the order given, each one whose edits do not
/// conflict with those already taken. The others wait for the next round, after a re-check.
pub fn non_overlapping<'f>(fixes: impl IntoIterator<Item = &'f Fix>) -> Vec<&'f Fix> {
    // The edits taken so far, by (file, start, end); they never touch one another, so their
    // ends grow with their starts and only the last few before an edit's end can touch it.
    let mut edits: std::collections::BTreeSet<(usize, usize, usize)> = Default::default();
    let clashes = |edits: &std::collections::BTreeSet<(usize, usize, usize)>, e: &Edit| {
        let s = e.span;
        edits
            .range(..=(s.file, s.end, usize::MAX))
            .rev()
            .take_while(|(file, _, end)| *file == s.file && *end >= s.start)
            .any(|&(file, start, end)| {
                let taken = Edit::replace(Span { file, start, end }, String::new());
                touches(&taken, e)
            })
    };
    let mut taken: Vec<&Fix> = Vec::new();
    for f in fixes {
        if f.edits.iter().any(|e| clashes(&edits, e)) {
            continue;
        }
        edits.extend(
            f.edits
                .iter()
                .map(|e| (e.span.file, e.span.start, e.span.end)),
        );
        taken.push(f);
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Applicability;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit::replace(
            Span {
                file: 0,
                start,
                end,
            },
            text,
        )
    }

    #[test]
    fn edits_apply_in_any_order_and_keep_everything_else() {
        let text = "let a = 1;\nlet b = 2;\n";
        let e1 = edit(8, 9, "10");
        let e2 = edit(19, 20, "20");
        let out = apply_edits(text, &[&e2, &e1]).unwrap();
        assert_eq!(out, "let a = 10;\nlet b = 20;\n");
    }

    #[test]
    fn overlapping_and_out_of_bounds_edits_are_refused() {
        let text = "abcdef";
        assert!(matches!(
            apply_edits(text, &[&edit(0, 3, "x"), &edit(2, 4, "y")]),
            Err(ApplyError::Overlap(..))
        ));
        // Two insertions at one offset: order unknown.
        assert!(apply_edits(text, &[&edit(2, 2, "x"), &edit(2, 2, "y")]).is_err());
        // An insertion at the start of a replacement: before or inside it?
        assert!(apply_edits(text, &[&edit(2, 2, "x"), &edit(2, 4, "y")]).is_err());
        // Adjacent replacements are fine.
        assert_eq!(
            apply_edits(text, &[&edit(0, 2, "x"), &edit(2, 4, "y")]).unwrap(),
            "xyef"
        );
        assert!(matches!(
            apply_edits(text, &[&edit(4, 9, "x")]),
            Err(ApplyError::OutOfBounds { .. })
        ));
        // Inside a multi-byte character.
        assert!(apply_edits("é", &[&edit(1, 2, "x")]).is_err());
    }

    #[test]
    fn conflicting_fixes_wait_for_the_next_round() {
        let fix = |s, e| Fix::new(Applicability::Safe, "m", vec![edit(s, e, "z")]);
        let fixes = [fix(0, 5), fix(3, 8), fix(8, 9), fix(20, 25)];
        let taken = non_overlapping(&fixes);
        assert_eq!(taken, vec![&fixes[0], &fixes[2], &fixes[3]]);
        // The same answer as comparing every pair, on edits of every kind.
        let spans = [
            (0, 0),
            (0, 3),
            (3, 3),
            (3, 6),
            (2, 4),
            (6, 6),
            (10, 30),
            (12, 14),
            (30, 31),
        ];
        let all: Vec<Fix> = spans
            .iter()
            .flat_map(|&a| spans.iter().map(move |&b| (a, b)))
            .map(|(a, b)| {
                Fix::new(
                    Applicability::Safe,
                    "m",
                    vec![edit(a.0 + 40, a.1 + 40, "x"), edit(b.0, b.1, "y")],
                )
            })
            .collect();
        for n in 1..all.len() {
            let fixes = &all[..n];
            let mut pairwise: Vec<&Fix> = Vec::new();
            for f in fixes {
                if pairwise.iter().all(|t| !conflict(t, f)) {
                    pairwise.push(f);
                }
            }
            assert_eq!(non_overlapping(fixes), pairwise);
        }
    }

    #[test]
    fn line_ending_is_the_first_lines() {
        assert_eq!(LineEnding::of("a\r\nb\nc\n"), LineEnding::CrLf);
        assert_eq!(LineEnding::of("a\nb\r\nc\r\n"), LineEnding::Lf);
        assert_eq!(LineEnding::of("one line"), LineEnding::Lf);
    }
}
