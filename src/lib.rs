//! kube-order-lint: finds kube-rs requests on the same Kubernetes object that run concurrently or
//! in a surprising order.
//!
//! The analysis is a library; the `kube-order-lint` and `cargo-kube-order-lint` binaries are thin
//! layers over [`cli::run`]. Tests and integrations call [`check::check`] or
//! [`check::check_text`] directly.

pub mod baseline;
pub mod check;
pub mod cli;
pub mod config;
pub mod deps;
pub mod diagnostic;
pub mod discover;
pub mod doc_examples;
pub mod edit;
pub mod fingerprint;
pub mod fix;
pub mod lints;
pub mod model;
pub mod outcome;
pub mod parse;
mod parse_budget;
pub mod policy;
pub mod prefilter;
pub mod read;
pub mod report;
pub mod server;
pub mod source;
pub mod suppression;

pub use check::{check, check_text, Options};
pub use outcome::Report;
