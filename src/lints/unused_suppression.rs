//! `unused-suppression`: a suppression comment names a lint that reports nothing where the
//! comment applies. Its findings come from the suppression comments, not from the model: the
//! policy ([`crate::policy`]) knows which names suppressed something once the lints of the code
//! have run, and `crate::suppression::unused` words the finding and its fix (removing the name,
//! or the comment). Reported only when asked for (`--report-unused-suppressions`); it cannot
//! be given a level or be suppressed.

use super::{Check, Level, Lint};
use crate::edit::Applicability;

pub const LINT: Lint = Lint {
    name: "unused-suppression",
    default_level: Level::Warn,
    fixes: &[Applicability::Safe],
    summary: "a suppression comment names a lint that reports nothing where the comment applies",
    doc: include_str!("../../lints/unused-suppression.md"),
    reads: &[],
    check: Check::SuppressionComments,
};
