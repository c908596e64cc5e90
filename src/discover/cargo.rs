//! Crate roots of the packages under a directory, through `cargo metadata --no-deps`.
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use cargo_metadata::MetadataCommand;

use super::{canonical, Seed};

/// The crate roots of every target of the workspace-member packages whose manifest lies under
/// `dir` (all members when `dir` is the workspace root), sorted by path.
///
/// Build scripts (`custom-build` targets) are skipped: they run at compile time and never talk
/// to a cluster. Targets whose root lies outside `dir` (`path = "../x.rs"`) are kept.
///
/// On failure, returns the most useful line of cargo's error output.
pub(super) fn crate_roots(dir: &Path) -> Result<Vec<Seed>, String> {
    let canon_dir = dir.canonicalize().map_err(|e| super::io_message(&e))?;
    let metadata = MetadataCommand::new()
        .manifest_path(canon_dir.join("Cargo.toml"))
        // Let cargo find the configuration (`.cargo/config.toml`) of the crate, not ours.
        .current_dir(&canon_dir)
        .no_deps()
        .exec()
        .map_err(|e| error_line(&e))?;

    let whole_workspace = canonical(metadata.workspace_root.as_std_path()) == canon_dir;
    let members: HashSet<_> = metadata.workspace_members.iter().collect();
    let mut seeds = Vec::new();
    for package in metadata.packages.iter().filter(|p| members.contains(&p.id)) {
        let package_dir = package
            .manifest_path
            .parent()
            .map(|p| canonical(p.as_std_path()))
            .unwrap_or_default();
        if !whole_workspace && !package_dir.starts_with(&canon_dir) {
            continue;
        }
        for target in &package.targets {
            if target.kind.iter().all(|k| k == "custom-build") {
                continue;
            }
            seeds.push(Seed {
                path: shown_under(dir, &canon_dir, target.src_path.as_std_path()),
                follow_modules: true,
                owns_directory: true,
            });
        }
    }
    seeds.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(seeds)
}

/// `path` (absolute, from cargo) re-expressed under `dir` as the user wrote it, so that
/// diagnostics show `my-crate/src/lib.rs` rather than an absolute path. Paths outside `dir` stay
/// absolute.
fn shown_under(dir: &Path, canon_dir: &Path, path: &Path) -> PathBuf {
    let rest = match path.strip_prefix(canon_dir) {
        Ok(rest) => rest.to_path_buf(),
        Err(_) => match canonical(path).strip_prefix(canon_dir) {
            Ok(rest) => rest.to_path_buf(),
            Err(_) => return path.to_path_buf(),
        },
    };
    if dir == Path::new(".") || dir.as_os_str().is_empty() {
        rest
    } else {
        dir.join(rest)
    }
}

/// One line describing why `cargo metadata` failed: the first `error:` line of its output (the
/// first non-empty line if there is none), or why it could not be started.
fn error_line(err: &cargo_metadata::Error) -> String {
    match err {
        cargo_metadata::Error::CargoMetadata { stderr } => {
            let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
            lines()
                .find(|l| l.starts_with("error"))
                .or_else(|| lines().next())
                .unwrap_or("cargo metadata exited with an error")
                .to_string()
        }
        cargo_metadata::Error::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            "could not run `cargo`: not found".to_string()
        }
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}
