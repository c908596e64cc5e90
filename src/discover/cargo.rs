//! Crate roots of the packages under a directory, through `cargo metadata --no-deps`.
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use cargo_metadata::{Metadata, MetadataCommand};

use super::{canonical, Seed, Selection};

/// Why `crate_roots` gave no seeds.
pub(crate) enum CargoError {
    /// `cargo metadata` failed: the caller may walk the directory instead.
    Metadata(String),
    /// The package or target selection cannot be applied: the run stops.
    Selection(String),
    /// `cargo metadata` did not finish in time and was killed (a manifest of the workspace
    /// that blocks, a FIFO, makes it wait forever), or was not run because a manifest it would
    /// read is not a regular file or too large. An error, and the directory is walked.
    TimedOut(String),
}

/// How long `cargo metadata` may run: far longer than it takes (it reads manifests only, with
/// `--no-deps`), and a bound on a manifest that blocks. `KUBE_ORDER_LINT_CARGO_TIMEOUT` (in
/// seconds) sets another, for tests.
fn metadata_timeout() -> Duration {
    std::env::var("KUBE_ORDER_LINT_CARGO_TIMEOUT")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(Duration::from_secs(30), Duration::from_secs_f64)
}

/// Run `cargo metadata` as `exec` does, but kill it when it runs longer than `timeout`.
fn exec_within(command: &MetadataCommand, timeout: Duration) -> Result<Metadata, CargoError> {
    let failed = |e: &std::io::Error| CargoError::Metadata(super::io_message(e));
    let mut child = command
        .cargo_command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                CargoError::Metadata("could not run `cargo`: not found".to_string())
            }
            _ => failed(&e),
        })?;
    // Both pipes are drained while cargo runs, so that a full pipe cannot stall it.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| failed(&e))? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(CargoError::TimedOut(format!(
                "cargo metadata did not finish within {} s and was stopped (a manifest that \
                 blocks when read, such as a FIFO?)",
                timeout.as_secs_f64()
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (joined(stdout), joined(stderr));
    let metadata = if status.success() {
        stdout
            .lines()
            .find(|line| line.starts_with('{'))
            .ok_or(cargo_metadata::Error::NoJson)
            .and_then(MetadataCommand::parse)
    } else {
        Err(cargo_metadata::Error::CargoMetadata { stderr })
    };
    metadata.map_err(|e| CargoError::Metadata(error_line(&e)))
}

/// Read a child's pipe to the end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn joined(reader: std::thread::JoinHandle<String>) -> String {
    reader.join().unwrap_or_default()
}

/// The cargo binary that runs this tool (`CARGO`, set by cargo for its subcommands), when it is
/// an absolute path; else `cargo` from `PATH`.
fn own_cargo() -> Option<std::path::PathBuf> {
    std::env::var_os("CARGO")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// What `cargo metadata` resolves: the workspace's own packages (`--no-deps`), or its whole
/// dependency graph with these options, which makes cargo read the manifests of path
/// dependencies too.
pub(crate) enum Resolve {
    NoDeps,
    WithDeps(Vec<String>),
}

/// `cargo metadata` of the package or workspace in `dir` (canonical), run the one way every
/// call of the tool runs it, since the checked crate is hostile:
/// - the crate must not choose the program that runs: rustup's `cargo` proxy picks the
///   toolchain from the working directory (`rust-toolchain.toml`, whose `path` can name a
///   `cargo` the crate ships), and cargo reads `.cargo/config.toml` from there. So cargo runs
///   in an empty directory of its own, as the cargo that runs us when there is one;
/// - nothing is written into the checkout: its target directory is the private temporary
///   directory's (a `target` that is a link to outside would otherwise be written to);
/// - the manifests cargo would read are looked at first ([`unfit_manifest`]): one that is not a
///   regular file (a FIFO blocks cargo forever) or is larger than [`MAX_MANIFEST_BYTES`]
///   (cargo reads it whole) is an error, and cargo does not run;
/// - it is stopped after [`metadata_timeout`], for what the look above cannot see.
pub(crate) fn metadata(canon_dir: &Path, resolve: Resolve) -> Result<Metadata, CargoError> {
    if let Some(why) = unfit_manifests(canon_dir) {
        return Err(CargoError::TimedOut(why));
    }
    let neutral = tempfile::tempdir().map_err(|e| CargoError::Metadata(super::io_message(&e)))?;
    let mut command = MetadataCommand::new();
    if let Some(cargo) = own_cargo() {
        command.cargo_path(cargo);
    }
    command
        .manifest_path(canon_dir.join("Cargo.toml"))
        .current_dir(neutral.path())
        .env("CARGO_TARGET_DIR", neutral.path().join("target"));
    match resolve {
        Resolve::NoDeps => {
            command.no_deps();
        }
        Resolve::WithDeps(options) => {
            command.other_options(options);
        }
    }
    exec_within(&command, metadata_timeout())
}

/// The largest manifest cargo is let read: the limit of the tool's own reads of manifests.
pub(crate) const MAX_MANIFEST_BYTES: u64 = crate::read::MAX_SMALL_FILE_BYTES;

/// How many manifests of path dependencies are looked at before `cargo metadata`, in all.
const MAX_PATH_MANIFESTS: usize = 10_000;

/// Why cargo should not read the manifest `file`: not a regular file (a FIFO, a device, a
/// dangling link) or larger than [`MAX_MANIFEST_BYTES`]. None when fine or absent (cargo then
/// says it is missing). Only `stat`: nothing is opened.
fn unfit_manifest(file: &Path) -> Option<String> {
    std::fs::symlink_metadata(file).ok()?;
    match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() && meta.len() > MAX_MANIFEST_BYTES => Some(format!(
            "is larger than {} MiB, which cargo metadata would read whole",
            MAX_MANIFEST_BYTES / (1024 * 1024)
        )),
        Ok(meta) if meta.is_file() => None,
        _ => Some("is not a regular file, and cargo metadata would block reading it".to_string()),
    }
}

/// The first manifest cargo may read that it should not ([`unfit_manifest`]): the package's
/// own, the workspace members' and those of path dependencies (followed from manifest to
/// manifest, within [`MAX_PATH_MANIFESTS`]; even with `--no-deps`, cargo reads them to check
/// the lock file).
fn unfit_manifests(root: &Path) -> Option<String> {
    if let Some(why) = unfit_manifest(&root.join("Cargo.toml")) {
        return Some(format!("the manifest {why}"));
    }
    let members = member_manifest_dirs(root);
    for dir in &members {
        if let Some(why) = unfit_manifest(&dir.join("Cargo.toml")) {
            return Some(format!(
                "the manifest of member `{}` {why}",
                pattern_display(root, dir)
            ));
        }
    }
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut todo: Vec<PathBuf> = std::iter::once(root.to_path_buf()).chain(members).collect();
    while let Some(dir) = todo.pop() {
        if !seen.insert(dir.clone()) || seen.len() > MAX_PATH_MANIFESTS {
            continue;
        }
        for dep in path_dependencies(&dir) {
            if seen.contains(&dep) {
                continue;
            }
            if let Some(why) = unfit_manifest(&dep.join("Cargo.toml")) {
                let shown = pathdiff::diff_paths(&dep, root).unwrap_or(dep);
                return Some(format!(
                    "the manifest of path dependency `{}` {why}",
                    crate::source::display_path(&shown)
                ));
            }
            todo.push(dep);
        }
    }
    None
}

/// The manifest in `dir`, parsed, read through the manifest size limit; `None` when it cannot
/// be read or parsed (cargo then says what is wrong with it).
fn read_manifest(dir: &Path) -> Option<toml::Value> {
    let bytes = crate::read::read_file(&dir.join("Cargo.toml"), MAX_MANIFEST_BYTES).ok()?;
    toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()
}

/// The directories named by `path =` in the manifest in `dir`: dependencies of every kind, per
/// target too, the workspace's, `[patch]` and `[replace]`. A manifest that cannot be read or
/// parsed names none (cargo then says what is wrong with it).
fn path_dependencies(dir: &Path) -> Vec<PathBuf> {
    let Some(manifest) = read_manifest(dir) else {
        return Vec::new();
    };
    const KINDS: [&str; 5] = [
        "dependencies",
        "dev-dependencies",
        "dev_dependencies",
        "build-dependencies",
        "build_dependencies",
    ];
    let tables = |v: &toml::Value| -> Vec<toml::Value> {
        KINDS.iter().filter_map(|k| v.get(*k).cloned()).collect()
    };
    let mut groups: Vec<toml::Value> = tables(&manifest);
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        groups.extend(targets.values().flat_map(tables));
    }
    if let Some(deps) = manifest
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
    {
        groups.push(deps.clone());
    }
    if let Some(patches) = manifest.get("patch").and_then(toml::Value::as_table) {
        groups.extend(patches.values().cloned());
    }
    groups.extend(manifest.get("replace").cloned());
    groups
        .iter()
        .filter_map(toml::Value::as_table)
        .flat_map(|t| t.values())
        .filter_map(|d| d.get("path").and_then(toml::Value::as_str))
        .filter_map(|p| std::fs::canonicalize(dir.join(p)).ok())
        .collect()
}

/// The crate roots of every target of the workspace-member packages whose manifest lies under
/// `dir` (all members when `dir` is the workspace root), sorted by path. With package flags in
/// `selection` (`-p`, `--workspace`), the packages are chosen among all members instead; target
/// flags narrow the targets.
///
/// Build scripts (`custom-build` targets) are skipped: they run at compile time and never talk
/// to a cluster. Targets whose root lies outside `dir` (`path = "../x.rs"`) are kept.
///
/// When cargo fails, returns the most useful line of its error output.
pub(super) fn crate_roots(dir: &Path, selection: &Selection) -> Result<CrateRoots, CargoError> {
    let canon_dir = dir
        .canonicalize()
        .map_err(|e| CargoError::Metadata(super::io_message(&e)))?;
    let metadata = metadata(&canon_dir, Resolve::NoDeps)?;

    let workspace_root = canonical(metadata.workspace_root.as_std_path());
    let whole_workspace = workspace_root == canon_dir;
    let packages = if selection.chooses_packages() {
        selection
            .packages(&metadata)
            .map_err(CargoError::Selection)?
    } else {
        let members: HashSet<_> = metadata.workspace_members.iter().collect();
        metadata
            .packages
            .iter()
            .filter(|p| members.contains(&p.id))
            .filter(|p| whole_workspace || package_dir(p).starts_with(&canon_dir))
            .collect()
    };
    if let Some(missing) = selection.targets.missing_named(&packages) {
        return Err(CargoError::Selection(missing));
    }
    let deps = member_dependencies(&metadata);
    let mut seeds = Vec::new();
    let chosen = packages.clone();
    for package in packages {
        let unit = package_dir(package);
        let link_deps: Vec<PathBuf> = deps.get(&unit).cloned().unwrap_or_default();
        for target in &package.targets {
            if !selection.targets.selects(target) {
                continue;
            }
            seeds.push(Seed {
                path: shown_under(
                    dir,
                    &canon_dir,
                    &workspace_root,
                    target.src_path.as_std_path(),
                ),
                follow_modules: true,
                owns_directory: true,
                link_unit: unit.clone(),
                link_deps: link_deps.clone(),
            });
        }
    }
    if seeds.is_empty() {
        if let Some(why) = selection.targets.nothing_selected(&chosen) {
            return Err(CargoError::Selection(why));
        }
    }
    seeds.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(CrateRoots {
        seeds,
        member_deps: deps,
    })
}

/// The crate roots to check, and the direct dependencies of every workspace member (also of
/// those not checked, through which the checked ones may depend on each other).
pub(super) struct CrateRoots {
    pub(super) seeds: Vec<Seed>,
    pub(super) member_deps: HashMap<PathBuf, Vec<PathBuf>>,
}

/// A package's directory, canonical: its link unit.
/// The directories of the workspace members cargo reads, from the `members` of the workspace's
/// manifest, their globs expanded as cargo expands them (excluded ones left out).
fn member_manifest_dirs(root: &Path) -> Vec<PathBuf> {
    let Some(manifest) = read_manifest(root) else {
        return Vec::new();
    };
    let Some(workspace) = manifest.get("workspace") else {
        return Vec::new();
    };
    let strings = |key: &str| -> Vec<&str> {
        workspace
            .get(key)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_str)
            .collect()
    };
    // Excluded paths are not read by cargo.
    let excluded: Vec<PathBuf> = strings("exclude").iter().map(|e| root.join(e)).collect();
    let mut budget = MAX_MEMBER_DIRS;
    strings("members")
        .into_iter()
        .flat_map(|pattern| member_dirs(root, pattern, &mut budget))
        .filter(|dir| !excluded.iter().any(|e| dir.starts_with(e)))
        .collect()
}

/// How many directories the globs of `members` may look into, in all: a bound on a hostile
/// tree (`**` over millions of directories). Beyond it, cargo's timeout still applies.
const MAX_MEMBER_DIRS: usize = 100_000;

/// The directories a `members` entry names, as cargo expands its glob (`crates/*`,
/// `c*/b`, `crates/x?`, `**/svc`): one path component at a time, `**` for any number of
/// directories. A component without wildcards is taken as written. `budget`: directories that
/// may still be read.
fn member_dirs(root: &Path, pattern: &str, budget: &mut usize) -> Vec<PathBuf> {
    let mut dirs = vec![root.to_path_buf()];
    for component in pattern.split('/').filter(|c| !c.is_empty() && *c != ".") {
        if !component.contains(['*', '?', '[']) {
            dirs = dirs.into_iter().map(|d| d.join(component)).collect();
            continue;
        }
        let matcher = match component {
            "**" => None,
            _ => match globset::Glob::new(component) {
                Ok(glob) => Some(glob.compile_matcher()),
                // Cargo refuses the manifest: it reads nothing.
                Err(_) => return Vec::new(),
            },
        };
        let mut next = Vec::new();
        for dir in dirs {
            match &matcher {
                Some(m) => next.extend(
                    subdirectories(&dir, budget)
                        .into_iter()
                        .filter(|d| d.file_name().is_some_and(|n| m.is_match(n))),
                ),
                None => next.extend(nested_directories(dir, budget)),
            }
        }
        dirs = next;
    }
    dirs
}

/// `dir` and every directory under it (for `**`), within `budget`; links to directories are
/// not followed, so a link loop ends.
fn nested_directories(dir: PathBuf, budget: &mut usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir];
    while let Some(dir) = todo.pop() {
        todo.extend(
            subdirectories(&dir, budget)
                .into_iter()
                .filter(|d| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir())),
        );
        out.push(dir);
    }
    out
}

/// The directories in `dir`, sorted, while `budget` lasts (each directory read spends one).
fn subdirectories(dir: &Path, budget: &mut usize) -> Vec<PathBuf> {
    if *budget == 0 {
        return Vec::new();
    }
    *budget -= 1;
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn pattern_display(root: &Path, dir: &Path) -> String {
    dir.strip_prefix(root).unwrap_or(dir).display().to_string()
}

fn package_dir(package: &cargo_metadata::Package) -> PathBuf {
    package
        .manifest_path
        .parent()
        .map(|p| canonical(p.as_std_path()))
        .unwrap_or_default()
}

/// For each workspace member (by directory), the directories of the members it depends on
/// directly, sorted: with theirs, the crates whose functions its code may call (the run closes
/// them, [`crate::model::units::UnitScopes`]: a list per member of every member reached would
/// be quadratic in a chain of members). Dependencies of every kind count (tests call their
/// dev-dependencies).
fn member_dependencies(metadata: &cargo_metadata::Metadata) -> HashMap<PathBuf, Vec<PathBuf>> {
    let members: HashSet<_> = metadata.workspace_members.iter().collect();
    let members: Vec<(PathBuf, &cargo_metadata::Package)> = metadata
        .packages
        .iter()
        .filter(|p| members.contains(&p.id))
        .map(|p| (package_dir(p), p))
        .collect();
    let dirs: HashSet<&PathBuf> = members.iter().map(|(dir, _)| dir).collect();
    let direct: HashMap<PathBuf, Vec<PathBuf>> = members
        .iter()
        .map(|(dir, p)| {
            let mut deps: Vec<PathBuf> = p
                .dependencies
                .iter()
                .filter_map(|d| d.path.as_ref())
                .map(|path| canonical(path.as_std_path()))
                .filter(|dep| dirs.contains(dep) && dep != dir)
                .collect();
            deps.sort();
            deps.dedup();
            (dir.clone(), deps)
        })
        .collect();
    direct
}

/// `path` (absolute, from cargo) re-expressed under `dir` as the user wrote it, so that
/// diagnostics show `my-crate/src/lib.rs` rather than an absolute path. Paths outside `dir` but
/// inside the workspace are made relative to the current directory (`../beta/src/main.rs`);
/// others stay absolute.
fn shown_under(dir: &Path, canon_dir: &Path, workspace_root: &Path, path: &Path) -> PathBuf {
    let rest = match path.strip_prefix(canon_dir) {
        Ok(rest) => rest.to_path_buf(),
        Err(_) => match canonical(path).strip_prefix(canon_dir) {
            Ok(rest) => rest.to_path_buf(),
            Err(_) => {
                let path = canonical(path);
                let cwd = std::env::current_dir().map(|d| canonical(&d));
                return match cwd {
                    Ok(cwd) if path.starts_with(workspace_root) => {
                        pathdiff::diff_paths(&path, cwd).unwrap_or(path)
                    }
                    _ => path,
                };
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What cargo would read is looked at before it runs: members and path dependencies (of
    /// path dependencies too, of every kind), by type and size, without opening them.
    #[test]
    fn manifests_cargo_would_read_are_looked_at_first() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let package = |name: &str| format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n");
        write("Cargo.toml", "[workspace]\nmembers = [\"m\"]\n");
        write(
            "m/Cargo.toml",
            &format!(
                "{}[dev-dependencies]\nd = {{ path = \"../d\" }}\n",
                package("m")
            ),
        );
        write(
            "d/Cargo.toml",
            &format!(
                "{}[target.'cfg(unix)'.dependencies]\ne = {{ path = \"../e\" }}\n",
                package("d")
            ),
        );
        write("e/Cargo.toml", &package("e"));
        assert_eq!(unfit_manifests(&root), None);
        let pad = |rel: &str| {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(root.join(rel))
                .unwrap();
            file.set_len(MAX_MANIFEST_BYTES + 1).unwrap();
        };
        pad("e/Cargo.toml");
        assert_eq!(
            unfit_manifests(&root).as_deref(),
            Some("the manifest of path dependency `e` is larger than 16 MiB, which cargo metadata would read whole")
        );
        pad("m/Cargo.toml");
        assert_eq!(
            unfit_manifests(&root).as_deref(),
            Some("the manifest of member `m` is larger than 16 MiB, which cargo metadata would read whole")
        );
    }
}
