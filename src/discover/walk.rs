//! Every `.rs` file under a directory that is not a cargo package.
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use walkdir::{DirEntry, WalkDir};

use super::{Discovery, DiscoveryError};

/// The `.rs` files under `root`, sorted by path. Symbolic links to directories are not followed
/// (links to files are taken), each with a note, so a link loop cannot trap the walk. `target`
/// directories and hidden entries (names starting with `.`, which also skips editor lock files
/// such as `.#foo.rs`) are skipped, except `root` itself. Entries that cannot be read, and `.rs`
/// links that cannot be followed (dangling, or a loop), become errors; the walk goes on, as it
/// does past a package whose manifest is not a regular file (an error). FIFOs,
/// devices and sockets named `*.rs` (or links to them) are not read: each is counted in
/// `skipped`, with a note.
///
/// Each file comes with its link unit (see [`super::Seed::link_unit`]): the outermost directory
/// with a `Cargo.toml` on the way from `root` to the file, `root` included, else `root`.
pub(super) fn rust_files(root: &Path, d: &mut Discovery) -> Vec<(PathBuf, PathBuf)> {
    let Discovery {
        errors,
        notes,
        skipped: left_out,
        ..
    } = d;
    let mut files = Vec::new();
    // The outermost crate directory above the current entry, with its depth: the walk is
    // depth-first, so it stays valid until the walk leaves that directory.
    let mut crate_dir: Option<(usize, PathBuf)> = None;
    let mut walker = WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !skipped(e));
    while let Some(entry) = walker.next() {
        match entry {
            Ok(entry) => {
                if let Some(error) = unreadable_manifest(&entry) {
                    errors.push(error);
                    walker.skip_current_dir();
                    continue;
                }
                if crate_dir
                    .as_ref()
                    .is_some_and(|(depth, _)| *depth >= entry.depth())
                {
                    crate_dir = None;
                }
                if crate_dir.is_none()
                    && entry.file_type().is_dir()
                    && entry.path().join("Cargo.toml").is_file()
                {
                    crate_dir = Some((entry.depth(), entry.path().to_path_buf()));
                }
                if entry.path_is_symlink() && entry.depth() > 0 {
                    match std::fs::metadata(entry.path()) {
                        Ok(target) if target.is_dir() => notes.push(format!(
                            "{}: symbolic link to a directory, not followed",
                            crate::source::display_path(entry.path())
                        )),
                        Ok(_) => {}
                        Err(e) if has_rust_extension(&entry) => errors.push(DiscoveryError {
                            path: entry.path().to_path_buf(),
                            message: super::link_message(entry.path(), &e),
                        }),
                        Err(_) => {}
                    }
                }
                if let Some(kind) = special_rust_file(&entry) {
                    *left_out += 1;
                    notes.push(format!(
                        "{} was not checked: it is {kind}, not a regular file",
                        crate::source::display_path(entry.path())
                    ));
                }
                if is_rust_file(&entry) {
                    let unit = crate_dir
                        .as_ref()
                        .map_or_else(|| root.to_path_buf(), |(_, dir)| dir.clone());
                    files.push((entry.into_path(), unit));
                }
            }
            Err(err) => errors.push(DiscoveryError {
                path: err.path().unwrap_or(root).to_path_buf(),
                message: match err.io_error() {
                    Some(io) => format!("cannot read: {}", super::io_message(io)),
                    None => err.to_string(),
                },
            }),
        }
    }
    files.sort();
    files
}

/// A package below the root whose `Cargo.toml` is there but is not a regular file (a FIFO, a
/// device, a dangling link) cannot be checked: its configuration cannot be read, and a FIFO
/// would block whoever reads it. An error for the manifest, and its directory is not walked, so
/// that the rest still is. (The root's own manifest is the configuration's business.)
fn unreadable_manifest(entry: &DirEntry) -> Option<DiscoveryError> {
    if entry.depth() == 0 || !entry.file_type().is_dir() {
        return None;
    }
    let manifest = entry.path().join("Cargo.toml");
    std::fs::symlink_metadata(&manifest).ok()?;
    let why = crate::read::not_regular(&manifest)?;
    Some(DiscoveryError {
        path: manifest,
        message: format!("cannot read the package manifest: {why}; the package is not checked"),
    })
}

fn skipped(entry: &DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy();
    name.starts_with('.') || (entry.file_type().is_dir() && name == "target")
}

fn has_rust_extension(entry: &DirEntry) -> bool {
    entry.path().extension() == Some(OsStr::new("rs"))
}

/// What a `*.rs` entry that is neither a regular file nor a directory is (a FIFO, a device, a
/// socket), links followed.
fn special_rust_file(entry: &DirEntry) -> Option<&'static str> {
    if !has_rust_extension(entry) {
        return None;
    }
    let ft = if entry.file_type().is_symlink() {
        std::fs::metadata(entry.path()).ok()?.file_type()
    } else {
        entry.file_type()
    };
    (!ft.is_file() && !ft.is_dir()).then(|| crate::read::kind(ft))
}

fn is_rust_file(entry: &DirEntry) -> bool {
    if !has_rust_extension(entry) {
        return false;
    }
    let ft = entry.file_type();
    ft.is_file() || (ft.is_symlink() && std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file()))
}
