//! Fixes applied: `--fix` and `--diff` over a run's [`crate::outcome::Report`]. The fixes
//! themselves are data ([`crate::edit`]), re-exported here under their public paths.
//!
//! - [`engine`]: `--fix` and `--diff`: rounds of apply + re-check per file, never writing code
//!   that does not parse.
//! - [`mod@write`]: replacing a file on disk without ever losing it.

pub mod engine;
pub mod write;

pub use crate::edit::{apply, batch, help_text, sequential, text, Applicability, Edit, Fix};
