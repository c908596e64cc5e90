//! Resolving `mod x;` items to files.
use std::path::PathBuf;

use crate::source::{SourceFile, Span};

/// Files loaded by the `mod x;` items of `source` (including those nested in inline modules).
///
/// `owns_directory` is true for crate roots, `mod.rs` files and files loaded through `#[path]`:
/// their children live next to them (`dir/x.rs`); otherwise (`dir/foo.rs`) children live in
/// `dir/foo/x.rs`. Files that do not exist are returned too, with `exists == false`.
pub fn child_modules(
    _source: &SourceFile,
    _ast: &syn::File,
    _owns_directory: bool,
) -> Vec<ChildModule> {
    Vec::new()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildModule {
    pub path: PathBuf,
    /// The `mod x;` item in the parent file (for error reporting).
    pub decl: Span,
    pub exists: bool,
    /// Passed back as `owns_directory` when this child's own modules are resolved.
    pub owns_directory: bool,
}
