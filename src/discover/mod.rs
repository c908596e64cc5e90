//! Which files belong to the crate(s) the user pointed at.
//!
//! INTERFACE (implemented by the discovery work): `discover(paths)` turns command-line paths into
//! seeds. The driver in `lib.rs` parses each seed and, when `follow_modules` is set, asks
//! `modules::child_modules` for the files its `mod x;` items load, so every file is parsed once.
//!
//! For each command-line path:
//!
//! * a `.rs` file is one seed whose modules are not followed;
//! * a `Cargo.toml` file stands for its directory;
//! * a directory with a `Cargo.toml` is asked to `cargo metadata --no-deps`: every target of every
//!   workspace member under the directory (all members when it is the workspace root) is a seed
//!   whose modules are followed, except build scripts. When cargo fails, the directory is walked
//!   instead, with a note;
//! * any other directory is walked: every `.rs` file under it, skipping `target` directories and
//!   hidden entries, is a seed whose modules are not followed (each file is checked on its own).
//!
//! Seeds are sorted by path within each command-line path and deduplicated (by canonical path)
//! across all of them; when a file is found both as a crate root and as a plain file, the crate
//! root wins.
//!
//! A [`Selection`] (cargo's `-p`, `--workspace`, `--exclude` and target flags) narrows what a
//! Cargo directory contributes: with `-p` or `--workspace` the packages are chosen among all
//! members of the directory's workspace, wherever the directory lies in it.

pub(crate) mod cargo;
pub mod modules;
mod selection;
mod walk;

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::source::display_path;

/// I/O errors are worded where files are read; discovery words its errors the same way.
pub(crate) use crate::read::{io_message, link_message};

pub use selection::{Selection, TargetFilter};

/// A file to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    pub path: PathBuf,
    /// Follow `mod x;` items of this file (crate roots found through cargo metadata).
    pub follow_modules: bool,
    /// See `modules::child_modules` (true for crate roots).
    pub owns_directory: bool,
    /// The crate this file belongs to, for linking: helper calls, `Api` fields and consts are
    /// resolved among the files of its unit and of the units in [`Seed::link_deps`]. A Cargo
    /// package's directory; for a walked directory, the outermost directory at or under it
    /// with a `Cargo.toml` that holds the file (so every crate of a directory of crates is
    /// linked on its own), else the walked directory; for files named on the command line, none
    /// (they are linked together).
    pub link_unit: PathBuf,
    /// The units this file's unit depends on directly: for a Cargo package, the directories of
    /// the workspace members it depends on. Its calls may reach these and, through
    /// [`Discovery::member_deps`], theirs.
    pub link_deps: Vec<PathBuf>,
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
    /// Files left out on purpose, each with a note: FIFOs, devices and sockets named `*.rs` in
    /// a walked directory.
    pub skipped: usize,
    /// The direct dependencies of every workspace member seen, by directory ([`Seed::link_deps`]
    /// for members not checked), closed by the run into each unit's scope.
    pub member_deps: HashMap<PathBuf, Vec<PathBuf>>,
}

#[derive(Debug, Clone)]
pub struct DiscoveryError {
    pub path: PathBuf,
    /// One line, lower case, without the path (e.g. "no such file or directory").
    pub message: String,
}

pub fn discover(paths: &[PathBuf]) -> Discovery {
    // The default selection never fails.
    discover_with(paths, &Selection::default()).unwrap_or_default()
}

/// Like [`discover`], with cargo's package and target selection. A selection that cannot be
/// applied (an unknown package or target, `--exclude` without `--workspace`, a path that is not
/// a Cargo package) is an error that stops discovery.
pub fn discover_with(
    paths: &[PathBuf],
    selection: &Selection,
) -> Result<Discovery, DiscoveryError> {
    let mut d = Discovery::default();
    let mut seen: HashMap<PathBuf, usize> = HashMap::new();
    let mut canonical_paths = CanonicalPaths::default();
    for path in paths {
        for seed in seeds_for(path, selection, &mut d)? {
            let key = canonical_paths.get(&seed.path);
            match seen.get(&key) {
                Some(&i) => {
                    let existing = &mut d.seeds[i];
                    if seed.follow_modules && !existing.follow_modules {
                        *existing = Seed {
                            path: existing.path.clone(),
                            ..seed
                        };
                    }
                }
                None => {
                    seen.insert(key, d.seeds.len());
                    d.seeds.push(seed);
                }
            }
        }
    }
    Ok(d)
}

/// The name a package's code is used by from other crates, and so in its doc examples: its
/// `[lib]` name, else its package name, `-` written `_`. None without a regular, readable
/// `Cargo.toml` naming it in `dir`.
pub fn crate_name(dir: &Path) -> Option<String> {
    const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;
    let text = crate::read::read_text(&dir.join("Cargo.toml"), MAX_MANIFEST_BYTES).ok()?;
    let manifest = toml::de::DeTable::parse(&text).ok()?;
    let name_in = |section: &str| match manifest.get_ref().get(section)?.get_ref() {
        toml::de::DeValue::Table(t) => match t.get("name")?.get_ref() {
            toml::de::DeValue::String(name) => Some(name.replace('-', "_")),
            _ => None,
        },
        _ => None,
    };
    name_in("lib").or_else(|| name_in("package"))
}

/// What to check when no path is given: the nearest directory at or above the current one
/// that has a `Cargo.toml`, as cargo finds its manifest (`..`, `../..`); the current directory
/// when there is none.
pub fn default_path() -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return PathBuf::from(".");
    };
    let mut up = PathBuf::from(".");
    for dir in cwd.ancestors() {
        if dir.join("Cargo.toml").is_file() {
            return up;
        }
        up = if up == Path::new(".") {
            PathBuf::from("..")
        } else {
            up.join("..")
        };
    }
    PathBuf::from(".")
}

fn seeds_for(
    path: &Path,
    selection: &Selection,
    d: &mut Discovery,
) -> Result<Vec<Seed>, DiscoveryError> {
    let metadata = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
            d.errors.push(DiscoveryError {
                path: path.to_path_buf(),
                message: if is_link {
                    link_message(path, &e)
                } else {
                    io_message(&e)
                },
            });
            return Ok(Vec::new());
        }
    };
    if metadata.is_dir() {
        return directory_seeds(path, selection, d);
    }
    if !metadata.is_file() {
        d.errors.push(DiscoveryError {
            path: path.to_path_buf(),
            message: format!(
                "{}, not a regular file or a directory",
                crate::read::kind(metadata.file_type())
            ),
        });
        return Ok(Vec::new());
    }
    if path.file_name() == Some(OsStr::new("Cargo.toml")) {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        return directory_seeds(dir, selection, d);
    }
    if path.extension() != Some(OsStr::new("rs")) {
        d.errors.push(DiscoveryError {
            path: path.to_path_buf(),
            message: "not a Rust source file (.rs), a Cargo.toml or a directory".to_string(),
        });
        return Ok(Vec::new());
    }
    selection.require_cargo(path)?;
    Ok(vec![plain_file(path.to_path_buf(), PathBuf::new())])
}

fn directory_seeds(
    dir: &Path,
    selection: &Selection,
    d: &mut Discovery,
) -> Result<Vec<Seed>, DiscoveryError> {
    if dir.join("Cargo.toml").is_file() {
        match cargo::crate_roots(dir, selection) {
            Err(cargo::CargoError::Selection(message)) => {
                return Err(DiscoveryError {
                    path: dir.join("Cargo.toml"),
                    message,
                })
            }
            Ok(roots) => {
                let seeds = roots.seeds;
                d.member_deps.extend(roots.member_deps);
                if seeds.is_empty() {
                    d.notes.push(format!(
                        "no crate targets under {} (cargo metadata found no workspace member there)",
                        display_path(dir)
                    ));
                }
                return Ok(seeds);
            }
            Err(cargo::CargoError::Metadata(why) | cargo::CargoError::TimedOut(why))
                if !selection.is_default() =>
            {
                return Err(DiscoveryError {
                    path: dir.join("Cargo.toml"),
                    message: format!(
                        "cargo metadata failed ({why}), so packages and targets cannot be selected"
                    ),
                })
            }
            // An error (the packages cannot be known), but the files are still checked.
            Err(cargo::CargoError::TimedOut(why)) => d.errors.push(DiscoveryError {
                path: dir.join("Cargo.toml"),
                message: format!("{why}; checking every .rs file under it instead"),
            }),
            Err(cargo::CargoError::Metadata(why)) => d.notes.push(format!(
                "cargo metadata failed for {} ({why}); checking every .rs file under it instead",
                display_path(dir)
            )),
        }
    }
    selection.require_cargo(dir)?;
    let errors_before = d.errors.len();
    let files = walk::rust_files(dir, d);
    if files.is_empty() && d.errors.len() == errors_before {
        d.notes
            .push(format!("no .rs files under {}", display_path(dir)));
    }
    Ok(files
        .into_iter()
        .map(|(path, unit)| plain_file(path, unit))
        .collect())
}

/// A file checked on its own. Its modules are not followed, so `owns_directory` only matters
/// to a caller that decides to follow them anyway: it is guessed from the file name.
fn plain_file(path: PathBuf, link_unit: PathBuf) -> Seed {
    let owns_directory = matches!(
        path.file_name().and_then(OsStr::to_str),
        Some("lib.rs" | "main.rs" | "mod.rs")
    );
    Seed {
        path,
        follow_modules: false,
        owns_directory,
        link_unit,
        link_deps: Vec::new(),
    }
}

/// Canonical forms of file paths, resolving each directory once: `realpath` costs system calls
/// per path component, and a large workspace has tens of thousands of files in a few thousand
/// directories.
#[derive(Debug, Default)]
pub(crate) struct CanonicalPaths {
    dirs: HashMap<PathBuf, PathBuf>,
}

impl CanonicalPaths {
    /// The same as [`canonical`] for existing files, with one `lstat` per file.
    pub(crate) fn get(&mut self, path: &Path) -> PathBuf {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return canonical(path);
        };
        // A symbolic link must be resolved as a whole; a missing file keeps its path as given.
        match path.symlink_metadata() {
            Ok(m) if !m.file_type().is_symlink() => {}
            _ => return canonical(path),
        }
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        self.dirs
            .entry(parent.to_path_buf())
            .or_insert_with(|| canonical(parent))
            .join(name)
    }
}

/// The canonical form of `path`, or `path` itself when it cannot be canonicalized.
pub(crate) fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::modules::child_modules;
    use super::*;
    use crate::source::SourceFile;
    use std::collections::BTreeSet;
    use std::fs;
    use std::io;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/crates")
            .join(name)
    }

    #[test]
    fn a_crate_is_named_by_its_lib_else_its_package() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        assert_eq!(crate_name(dir.path()), None);
        fs::write(&manifest, "[package]\nname = \"kube-lease-manager\"\n").unwrap();
        assert_eq!(
            crate_name(dir.path()).as_deref(),
            Some("kube_lease_manager")
        );
        fs::write(
            &manifest,
            "[package]\nname = \"lease\"\n[lib]\nname = \"lease_core\"\n",
        )
        .unwrap();
        assert_eq!(crate_name(dir.path()).as_deref(), Some("lease_core"));
        fs::write(&manifest, "[workspace]\nmembers = []\n").unwrap();
        assert_eq!(crate_name(dir.path()), None);
        fs::write(&manifest, "[package\nname = ").unwrap();
        assert_eq!(crate_name(dir.path()), None);
    }

    fn cargo_available() -> bool {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        std::process::Command::new(cargo)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    fn write(root: &Path, files: &[&str]) {
        for f in files {
            let p = root.join(f);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, "").unwrap();
        }
    }

    fn rel(root: &Path, path: &Path) -> String {
        canonical(path)
            .strip_prefix(canonical(root))
            .unwrap_or_else(|_| panic!("{} is not under {}", path.display(), root.display()))
            .to_string_lossy()
            .replace('\\', "/")
    }

    /// Every file reached from the seeds of `discover(root)`, following modules like the driver.
    fn files_found(root: &Path) -> BTreeSet<String> {
        let d = discover(&[root.to_path_buf()]);
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        let mut queue: Vec<(PathBuf, bool, bool)> = d
            .seeds
            .iter()
            .map(|s| {
                assert!(
                    s.path.starts_with(root),
                    "{} shown outside the input",
                    s.path.display()
                );
                (s.path.clone(), s.follow_modules, s.owns_directory)
            })
            .collect();
        let mut found = BTreeSet::new();
        while let Some((path, follow, owns)) = queue.pop() {
            if !found.insert(rel(root, &path)) || !follow {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            let ast = syn::parse_file(&text).unwrap();
            let source = SourceFile::new(0, path, text);
            for child in child_modules(&source, &ast, owns) {
                assert!(child.exists, "{} missing", child.path.display());
                queue.push((child.path, true, child.owns_directory));
            }
        }
        found
    }

    fn set(files: &[&str]) -> BTreeSet<String> {
        files.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn fixture_crates_are_discovered_through_cargo_metadata() {
        if !cargo_available() {
            eprintln!("skipped: `cargo` is not available");
            return;
        }
        assert_eq!(
            files_found(&fixture("workspace")),
            set(&[
                "alpha/src/client.rs",
                "alpha/src/client/retry.rs",
                "alpha/src/lib.rs",
                "alpha/src/util/mod.rs",
                "beta/examples/demo.rs",
                "beta/src/cmd.rs",
                "beta/src/main.rs",
            ])
        );
        assert_eq!(
            files_found(&fixture("pathmod")),
            set(&[
                "src/elsewhere/helper.rs",
                "src/elsewhere/special.rs",
                "src/lib.rs",
                "src/outer/deep.rs",
                "src/outer/inner.rs",
            ])
        );
        let seeds = discover(&[fixture("workspace")]).seeds;
        assert!(seeds.iter().all(|s| s.follow_modules && s.owns_directory));
        let paths: Vec<_> = seeds.iter().map(|s| s.path.clone()).collect();
        let mut sorted = paths.clone();
        sorted.sort();
        assert_eq!(paths, sorted);
    }

    #[test]
    fn a_member_directory_keeps_only_its_own_packages() {
        if !cargo_available() {
            eprintln!("skipped: `cargo` is not available");
            return;
        }
        let alpha = fixture("workspace/alpha");
        assert_eq!(
            files_found(&alpha),
            set(&[
                "src/client.rs",
                "src/client/retry.rs",
                "src/lib.rs",
                "src/util/mod.rs"
            ])
        );
        // A Cargo.toml stands for its directory; the same crate twice gives its seeds once.
        let d = discover(&[alpha.clone(), alpha.join("Cargo.toml")]);
        assert_eq!(d.seeds.len(), 1);
        assert_eq!(d.seeds[0].path, alpha.join("src/lib.rs"));
    }

    #[test]
    fn crate_root_wins_over_the_same_file_given_alone() {
        if !cargo_available() {
            eprintln!("skipped: `cargo` is not available");
            return;
        }
        let lib = fixture("pathmod/src/lib.rs");
        let d = discover(&[lib.clone(), fixture("pathmod")]);
        assert_eq!(
            d.seeds,
            vec![Seed {
                path: lib,
                follow_modules: true,
                owns_directory: true,
                link_unit: canonical(&fixture("pathmod")),
                link_deps: Vec::new(),
            }]
        );
    }

    #[test]
    fn a_workspace_member_is_linked_with_the_members_it_depends_on() {
        if !cargo_available() {
            eprintln!("skipped: `cargo` is not available");
            return;
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/ui/concurrent-same-object/workspace_deps");
        let d = discover(std::slice::from_ref(&root));
        let unit = |s: &Seed| rel(&root, &s.link_unit);
        let got: Vec<(String, String, Vec<String>)> = d
            .seeds
            .iter()
            .map(|s| {
                let deps = s.link_deps.iter().map(|p| rel(&root, p)).collect();
                (rel(&root, &s.path), unit(s), deps)
            })
            .collect();
        let seed = |f: &str, u: &str, deps: &[&str]| {
            (
                f.to_string(),
                u.to_string(),
                deps.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            got,
            vec![
                seed("app/src/lib.rs", "app", &["core"]),
                seed("core/src/lib.rs", "core", &[]),
                seed("other/src/lib.rs", "other", &[]),
            ]
        );
    }

    /// A chain of members: each seed lists the members its package depends on directly, and
    /// the run closes them ([`Discovery::member_deps`]). Lists of every member reached, per
    /// seed, were n²/2 paths for a chain of n members.
    #[test]
    fn a_chain_of_members_lists_direct_dependencies_only() {
        if !cargo_available() {
            eprintln!("skipped: `cargo` is not available");
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nmembers = [\"m0\", \"m1\", \"m2\", \"m3\"]\n",
        )
        .unwrap();
        for i in 0..4 {
            let dep = match i {
                0 => String::new(),
                _ => format!("m{} = {{ path = \"../m{}\" }}\n", i - 1, i - 1),
            };
            let manifest = format!(
                "[package]\nname = \"m{i}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{dep}"
            );
            write(root, &[&format!("m{i}/src/lib.rs")]);
            fs::write(root.join(format!("m{i}/Cargo.toml")), manifest).unwrap();
        }
        let d = discover(&[root.to_path_buf()]);
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        let deps = |dirs: &[PathBuf]| dirs.iter().map(|p| rel(root, p)).collect::<Vec<_>>();
        let seeds: Vec<(String, Vec<String>)> = d
            .seeds
            .iter()
            .map(|s| (rel(root, &s.link_unit), deps(&s.link_deps)))
            .collect();
        let expected =
            |u: &str, d: &[&str]| (u.to_string(), d.iter().map(|s| s.to_string()).collect());
        let direct = vec![
            expected("m0", &[]),
            expected("m1", &["m0"]),
            expected("m2", &["m1"]),
            expected("m3", &["m2"]),
        ];
        assert_eq!(seeds, direct);
        let mut members: Vec<(String, Vec<String>)> = d
            .member_deps
            .iter()
            .map(|(dir, dirs)| (rel(root, dir), deps(dirs)))
            .collect();
        members.sort();
        assert_eq!(members, direct);
    }

    #[test]
    fn broken_manifest_falls_back_to_walking() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("Cargo.toml"), "this is [[ not toml").unwrap();
        write(tmp.path(), &["src/lib.rs", "src/a.rs"]);
        let d = discover(&[tmp.path().to_path_buf()]);
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        assert_eq!(d.notes.len(), 1, "{:?}", d.notes);
        let note = &d.notes[0];
        assert!(note.starts_with("cargo metadata failed for "), "{note}");
        assert!(
            note.ends_with("; checking every .rs file under it instead"),
            "{note}"
        );
        assert!(!note.contains('\n'), "{note}");
        let got: Vec<_> = d.seeds.iter().map(|s| rel(tmp.path(), &s.path)).collect();
        assert_eq!(got, vec!["src/a.rs", "src/lib.rs"]);
        assert!(d.seeds.iter().all(|s| !s.follow_modules));
    }

    #[test]
    fn plain_directories_are_walked_in_order_skipping_target_and_hidden() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            &[
                "b.rs",
                "a/z.rs",
                "a.rs",
                "notes.txt",
                "target/debug/build/out.rs",
                "sub/target/gen.rs",
                ".git/hooks/x.rs",
                "a/.#lock.rs",
                "x/y/deep.rs",
            ],
        );
        let d = discover(&[tmp.path().to_path_buf()]);
        assert!(d.errors.is_empty() && d.notes.is_empty(), "{d:?}");
        let got: Vec<_> = d.seeds.iter().map(|s| rel(tmp.path(), &s.path)).collect();
        // Sorted by path components: `a/z.rs` comes before `a.rs`.
        assert_eq!(got, vec!["a/z.rs", "a.rs", "b.rs", "x/y/deep.rs"]);
        assert!(d.seeds.iter().all(|s| !s.follow_modules));
        // Paths are kept as given.
        assert!(d.seeds.iter().all(|s| s.path.starts_with(tmp.path())));
    }

    #[test]
    fn each_crate_of_a_walked_directory_is_a_link_unit_of_its_own() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            &[
                "loose.rs",
                "alpha-1.0/Cargo.toml",
                "alpha-1.0/src/lib.rs",
                "alpha-1.0/examples/inner/Cargo.toml",
                "alpha-1.0/examples/inner/main.rs",
                "beta-2.0/Cargo.toml",
                "beta-2.0/src/main.rs",
                "tools/gamma/Cargo.toml",
                "tools/gamma/src/lib.rs",
                "tools/script.rs",
            ],
        );
        let d = discover(&[tmp.path().to_path_buf()]);
        let got: Vec<_> = d
            .seeds
            .iter()
            .map(|s| {
                (
                    rel(tmp.path(), &s.path),
                    s.link_unit
                        .strip_prefix(tmp.path())
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                )
            })
            .collect();
        let unit = |f: &str, u: &str| (f.to_string(), u.to_string());
        assert_eq!(
            got,
            vec![
                // A crate nested in a crate's directory is linked with the outer crate.
                unit("alpha-1.0/examples/inner/main.rs", "alpha-1.0"),
                unit("alpha-1.0/src/lib.rs", "alpha-1.0"),
                unit("beta-2.0/src/main.rs", "beta-2.0"),
                unit("loose.rs", ""),
                unit("tools/gamma/src/lib.rs", "tools/gamma"),
                unit("tools/script.rs", ""),
            ]
        );
    }

    #[test]
    fn hidden_directory_given_explicitly_is_walked() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[".hidden/a.rs"]);
        let d = discover(&[tmp.path().join(".hidden")]);
        assert_eq!(d.seeds.len(), 1, "{d:?}");
    }

    #[test]
    fn files_missing_paths_and_empty_directories() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            &["one.rs", "lib.rs", "README.md", "empty/keep.txt"],
        );
        let d = discover(&[
            tmp.path().join("one.rs"),
            tmp.path().join("missing"),
            tmp.path().join("lib.rs"),
            tmp.path().join("README.md"),
            tmp.path().join("empty"),
            tmp.path().join("one.rs"),
        ]);
        assert_eq!(
            d.seeds,
            vec![
                Seed {
                    path: tmp.path().join("one.rs"),
                    follow_modules: false,
                    owns_directory: false,
                    link_unit: PathBuf::new(),
                    link_deps: Vec::new(),
                },
                Seed {
                    path: tmp.path().join("lib.rs"),
                    follow_modules: false,
                    owns_directory: true,
                    link_unit: PathBuf::new(),
                    link_deps: Vec::new(),
                },
            ]
        );
        let errors: Vec<_> = d
            .errors
            .iter()
            .map(|e| (rel(tmp.path(), &e.path), e.message.as_str()))
            .collect();
        assert_eq!(
            errors,
            vec![
                ("missing".to_string(), "no such file or directory"),
                (
                    "README.md".to_string(),
                    "not a Rust source file (.rs), a Cargo.toml or a directory"
                ),
            ]
        );
        assert_eq!(d.notes.len(), 1);
        assert!(
            d.notes[0].starts_with("no .rs files under "),
            "{:?}",
            d.notes
        );
    }

    #[cfg(unix)]
    #[test]
    fn unreadable_directories_are_errors_and_the_walk_goes_on() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &["a.rs", "locked/b.rs", "z.rs"]);
        let locked = tmp.path().join("locked");
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
        let readable = fs::read_dir(&locked).is_ok(); // e.g. running as root
        let d = discover(&[tmp.path().to_path_buf()]);
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        if readable {
            eprintln!("skipped: permissions are not enforced for this user");
            return;
        }
        let got: Vec<_> = d.seeds.iter().map(|s| rel(tmp.path(), &s.path)).collect();
        assert_eq!(got, vec!["a.rs", "z.rs"]);
        assert_eq!(d.errors.len(), 1, "{:?}", d.errors);
        assert_eq!(d.errors[0].path, locked);
        assert!(
            d.errors[0].message.contains("permission denied"),
            "{:?}",
            d.errors
        );
    }

    #[test]
    fn io_messages_are_short_and_lower_case() {
        let e = io::Error::from_raw_os_error(13);
        let m = io_message(&e);
        assert!(!m.contains("os error"), "{m}");
        assert!(m.starts_with(|c: char| !c.is_uppercase()), "{m}");
        let e = io::Error::new(io::ErrorKind::NotFound, "whatever");
        assert_eq!(io_message(&e), "no such file or directory");
    }
}
