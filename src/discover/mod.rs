//! Which files belong to the crate(s) the user pointed at.
//!
//! INTERFACE (implemented by the discovery work): `discover(paths)` turns command-line paths into
//! seeds. The driver in `lib.rs` parses each seed and, when `follow_modules` is set, asks
//! `modules::child_modules` for the files its `mod x;` items load, so every file is parsed once.

pub mod modules;

use std::path::PathBuf;

/// A file to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    pub path: PathBuf,
    /// Follow `mod x;` items of this file (crate roots found through cargo metadata).
    pub follow_modules: bool,
    /// See `modules::child_modules` (true for crate roots).
    pub owns_directory: bool,
}

/// The result of turning paths into seeds.
#[derive(Debug, Default)]
pub struct Discovery {
    pub seeds: Vec<Seed>,
    /// Things the user should know but that are not errors (e.g. "cargo metadata failed, walking
    /// the directory instead").
    pub notes: Vec<String>,
    /// Paths that could not be used at all.
    pub errors: Vec<DiscoveryError>,
}

#[derive(Debug, Clone)]
pub struct DiscoveryError {
    pub path: PathBuf,
    pub message: String,
}

pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut d = Discovery::default();
    for p in paths {
        d.seeds.push(Seed {
            path: p.clone(),
            follow_modules: false,
            owns_directory: true,
        });
    }
    d
}
