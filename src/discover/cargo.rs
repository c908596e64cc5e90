//! Crate roots of the packages under a directory, through `cargo metadata --no-deps`.
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use cargo_metadata::{Metadata, MetadataCommand};

use super::{canonical, Seed, Selection};

/// Why `crate_roots` gave no seeds.
pub(super) enum CargoError {
    /// `cargo metadata` failed: the caller may walk the directory instead.
    Metadata(String),
    /// The package or target selection cannot be applied: the run stops.
    Selection(String),
    /// `cargo metadata` did not finish in time and was killed: a manifest of the workspace
    /// that blocks (a FIFO) makes it wait forever. An error, and the directory is walked.
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
    // The checked crate must not choose the program that runs: rustup's `cargo` proxy picks
    // the toolchain from the working directory (`rust-toolchain.toml`, whose `path` can name a
    // `cargo` the crate ships), and cargo reads `.cargo/config.toml` from there. So cargo runs
    // in an empty directory of its own, and as the cargo that runs us when there is one.
    if let Some(why) = blocking_member_manifest(&canon_dir) {
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
        .no_deps();
    let metadata = exec_within(&command, metadata_timeout())?;

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
/// A workspace member whose `Cargo.toml` is not a regular file (a FIFO, a device): `cargo
/// metadata` would block reading it until the timeout. Found without opening anything, from
/// the `members` of the workspace's manifest, their globs expanded as cargo expands them.
fn blocking_member_manifest(root: &Path) -> Option<String> {
    let bytes =
        crate::read::read_file(&root.join("Cargo.toml"), crate::read::MAX_SOURCE_BYTES).ok()?;
    let manifest: toml::Value = toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()?;
    let workspace = manifest.get("workspace")?;
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
        .find_map(|dir| {
            let file = dir.join("Cargo.toml");
            let kind = std::fs::symlink_metadata(&file).ok()?.file_type();
            let regular = kind.is_file()
                || (kind.is_symlink() && std::fs::metadata(&file).is_ok_and(|m| m.is_file()));
            (!regular).then(|| {
                format!(
                    "the manifest of member `{}` is not a regular file, and cargo metadata would block reading it",
                    pattern_display(root, &dir)
                )
            })
        })
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
