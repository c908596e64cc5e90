//! Helpers of dependencies: the public functions of dependency crates that make kube requests
//! (a company's shared operator library with `create_if_missing(api, obj)`), found without
//! `[[wrappers]]` in the configuration and turned into wrappers ([`WrapperSpec::from_dependency`]).
//!
//! The dependencies come from `cargo metadata` with dependencies, run as the discovery runs it
//! (in an empty directory of its own, as the cargo that runs this tool), `--offline --locked`:
//! no network, and no `Cargo.lock` written into the user's tree (a package without one, a library
//! usually, is checked without dependency helpers, silently); `--filter-platform` this
//! machine's, so that packages of other platforms need not be downloaded. When it fails (no lock file, a
//! dependency not downloaded), the run goes on without dependency helpers, with a note. Only
//! packages that depend on `kube` or `kube-client` themselves are read, from their sources on
//! disk (cargo's registry or git checkouts, or a path); nothing is built or run.
//!
//! What a registry or git package makes is cached per name and version (and git revision) in
//! `$XDG_CACHE_HOME/kube-order-lint/deps/` (else `~/.cache/kube-order-lint/deps/`), written
//! atomically: directories the tool creates (mode 0700) and owns, never a link (the checked
//! crate's `target` may be a link to anywhere, so nothing goes there). Path dependencies change
//! without a new version: they are read every run and never cached. Their files get the caps
//! of the crate's own: a file with more code than the parse limit is not read, with a note.
//!
//! A summary is one wrapper per request of a function (writes first, then reads), with the
//! object named by a parameter (`name: &str`), an object parameter's `metadata.name` or a
//! literal inside the function, and the `Api` parameter that gives kind and namespace. Public
//! methods of inherent `impl`s are summarised too, as wrappers that answer only a receiver of
//! their type ([`WrapperSpec::method_of`]). Trait methods, re-exports and functions whose object
//! is computed inside are not summarised. A dependency that may have helpers but cannot be read
//! (cargo cannot resolve it offline, its sources are not on disk) is named in one note and
//! counted ([`DepHelpers::unread`]); a file reached through a link out of its package is not read.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use cargo_metadata::{DependencyKind, Metadata, Package};

use crate::model::link::Linker;
use crate::model::wrappers::WrapperSpec;
use crate::model::{build, Access, FileFacts, FunctionFacts, HandleOrigin, NameExpr, Root};
use crate::model::{ObjectName, Request};
use crate::source::SourceFile;

/// Bumped whenever what a cache file holds changes meaning.
pub const CACHE_FORMAT: u32 = 3;

/// The kube crates themselves: their requests are modelled as such, not summarised.
const KUBE_CRATES: &[&str] = &[
    "kube",
    "kube-client",
    "kube-runtime",
    "kube-core",
    "kube-derive",
];

/// What was found in the dependencies of some packages.
#[derive(Debug, Default)]
pub struct DepHelpers {
    pub wrappers: Vec<WrapperSpec>,
    pub notes: Vec<String>,
    /// Dependencies read from their sources, and those taken from the cache.
    pub scanned: usize,
    pub cached: usize,
    /// Dependencies that may have helpers but could not be read ("oplib 0.3.1"): cargo could
    /// not resolve them offline, or their sources are not on disk. Named once, in one note.
    pub unread: Vec<String>,
    /// Of those, the ones cargo resolved but whose sources are not on disk.
    missing: Vec<String>,
}

/// The helpers of the dependencies of the packages in `dirs` (directories with a `Cargo.toml`);
/// files with more than `max_file_size` bytes of code are not parsed, as in the crate.
pub fn helpers(dirs: &[PathBuf], max_file_size: usize) -> DepHelpers {
    let mut out = DepHelpers::default();
    let cache = std::cell::OnceCell::new();
    let mut workspaces = HashSet::new();
    let mut seen = HashSet::new();
    let mut locks = HashSet::new();
    for dir in dirs {
        // Without a lock file, resolving would write one into the user's tree: not tried.
        let Some(lock) = dir
            .ancestors()
            .map(|d| d.join("Cargo.lock"))
            .find(|l| l.is_file())
        else {
            continue;
        };
        // `cargo metadata` resolves the whole graph (most of a run's time): only when the lock
        // file lists a package that may have helpers, once per lock file.
        if !locks.insert(lock.clone()) {
            continue;
        }
        let candidates = possible_helpers(&lock, dir);
        if candidates.as_ref().is_some_and(Vec::is_empty) {
            continue;
        }
        let metadata = match metadata(dir) {
            Ok(m) => m,
            // The workspace has no lock file (the one found above is another workspace's).
            Err(why) if why.contains("cannot create the lock file") => continue,
            Err(why) => {
                // Cargo needs every package of the graph to resolve offline; the registry
                // packages that may have helpers are read where cargo unpacked them.
                let mut unread = Vec::new();
                for locked in candidates.unwrap_or_default() {
                    let label = locked.label();
                    let found = registry_package(&locked);
                    match found {
                        Some(package) if seen.insert(label.clone()) => {
                            let key = locked.key();
                            summarise(&mut out, &cache, &key, &package, max_file_size);
                        }
                        Some(_) => {}
                        None => unread.push(label),
                    }
                }
                if !unread.is_empty() {
                    out.notes.push(format!(
                        "{}: helpers of dependencies not read: `cargo metadata --offline --locked` failed ({why}), and {} not unpacked in cargo's registry; checked without them",
                        crate::source::display_path(dir),
                        unread.join(", ")
                    ));
                    out.unread.extend(unread);
                }
                continue;
            }
        };
        if !workspaces.insert(metadata.workspace_root.clone()) {
            continue;
        }
        let members: HashSet<_> = metadata.workspace_members.iter().collect();
        for package in &metadata.packages {
            if members.contains(&package.id) || !makes_requests(package) {
                continue;
            }
            let label = format!("{} {}", package.name, package.version);
            if !seen.insert(label) {
                continue;
            }
            let key = Key {
                name: &package.name,
                version: package.version.to_string(),
                source: package.source.as_ref().map(|s| s.repr.as_str()),
            };
            let Some(lib) = package
                .targets
                .iter()
                .find(|t| t.kind.iter().any(|k| k == "lib" || k == "rlib"))
            else {
                continue;
            };
            let found = SourcePackage {
                lib_name: lib.name.clone(),
                root: lib.src_path.clone().into_std_path_buf(),
                dir: package
                    .manifest_path
                    .parent()
                    .map(|d| d.as_std_path().to_path_buf()),
            };
            summarise(&mut out, &cache, &key, &found, max_file_size);
        }
    }
    out.unread.sort();
    out.unread.dedup();
    let missing: Vec<&String> = out.missing.iter().collect();
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
        out.notes.push(format!(
            "helpers of dependencies not read, their sources not on disk: {}",
            names.join(", ")
        ));
    }
    out
}

/// Where a package's library is: its crate name, root file and package directory.
struct SourcePackage {
    lib_name: String,
    root: PathBuf,
    dir: Option<PathBuf>,
}

/// A package's helpers, from the cache or its sources, added to `out`.
fn summarise(
    out: &mut DepHelpers,
    cache: &std::cell::OnceCell<Option<PathBuf>>,
    key: &Key<'_>,
    package: &SourcePackage,
    max_file_size: usize,
) {
    let cache_dir = match cache_stem(key).is_some() {
        true => cache.get_or_init(user_cache_dir).as_deref(),
        false => None,
    };
    let file = cache_dir.and_then(|dir| cache_file(dir, key));
    let from = format!("{} {}", key.name, key.version);
    let specs = match file.as_deref().and_then(|f| read_cache(f, key)) {
        Some(specs) => {
            out.cached += 1;
            specs
        }
        None => {
            let Some(specs) = scan(package, &from, max_file_size, &mut out.notes) else {
                out.unread.push(from.clone());
                out.missing.push(from);
                return;
            };
            out.scanned += 1;
            if let Some(file) = &file {
                write_cache(file, key, &specs);
            }
            specs
        }
    };
    out.wrappers.extend(specs.into_iter().map(|mut s| {
        s.from_dependency = Some(from.clone());
        s
    }));
}

/// A registry package of the lock file, where cargo unpacks it
/// (`$CARGO_HOME/registry/src/<index>/<name>-<version>`), with its library's root from its
/// manifest (`[lib] path`, else `src/lib.rs`); None when it is not there.
fn registry_package(locked: &LockedPackage) -> Option<SourcePackage> {
    let source = locked.source.as_deref()?;
    if !(source.starts_with("registry+") || source.starts_with("sparse+")) {
        return None;
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let stem = format!("{}-{}", locked.name, locked.version);
    let dir = std::fs::read_dir(home.join("registry/src"))
        .ok()?
        .flatten()
        .map(|index| index.path().join(&stem))
        .find(|d| d.join("Cargo.toml").is_file())?;
    let bytes =
        crate::read::read_file(&dir.join("Cargo.toml"), crate::read::MAX_SMALL_FILE_BYTES).ok()?;
    let manifest: toml::Value = toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()?;
    let lib = manifest.get("lib");
    let field = |k: &str| lib.and_then(|l| l.get(k)).and_then(toml::Value::as_str);
    Some(SourcePackage {
        lib_name: field("name").unwrap_or(&locked.name).to_string(),
        root: dir.join(field("path").unwrap_or("src/lib.rs")),
        dir: Some(dir),
    })
}

/// A helper found in a dependency, as `debug model` lists it: "oplib::OpClient::copy_settings
/// (oplib 0.3.1): get read, method of OpClient, name argument 0".
pub fn describe(spec: &WrapperSpec) -> Option<String> {
    let from = spec.from_dependency.as_deref()?;
    let verb = spec.verb.as_deref().unwrap_or("request");
    let access = match spec.access {
        Access::Read => "read",
        Access::Write => "write",
    };
    let mut parts = vec![format!("{verb} {access}")];
    parts.extend(spec.method_of.as_ref().map(|t| format!("method of {t}")));
    parts.extend(spec.kind.as_ref().map(|k| format!("kind {k}")));
    parts.extend(spec.kind_arg.map(|i| format!("kind of argument {i}")));
    parts.extend(spec.fixed_name.as_ref().map(|n| format!("name {n:?}")));
    parts.extend(spec.name_arg.map(|i| format!("name argument {i}")));
    parts.extend(spec.object_arg.map(|i| format!("object argument {i}")));
    parts.extend(spec.api_arg.map(|i| format!("Api argument {i}")));
    Some(format!("{} ({from}): {}", spec.function, parts.join(", ")))
}

/// `cargo metadata` with dependencies, offline and locked, run as the discovery runs it
/// ([`crate::discover::cargo::metadata`]: in an empty directory of its own with its own target
/// directory, as the cargo that runs this tool, its manifests and those of path dependencies
/// looked at first, within the same time limit).
fn metadata(dir: &Path) -> Result<Metadata, String> {
    use crate::discover::cargo::{self, CargoError, Resolve};
    let dir = dir.canonicalize().map_err(|e| e.to_string())?;
    cargo::metadata(&dir, Resolve::WithDeps(options())).map_err(|e| match e {
        CargoError::Metadata(why) | CargoError::TimedOut(why) | CargoError::Selection(why) => {
            first_error_line(&why)
        }
    })
}

/// Offline and locked; for this machine's platform only, so that the packages of other
/// platforms (which cargo would otherwise want on disk) are not needed.
fn options() -> Vec<String> {
    let mut options = vec!["--offline".to_string(), "--locked".to_string()];
    if let Some(triple) = host_triple() {
        options.extend(["--filter-platform".to_string(), triple]);
    }
    options
}

/// The target triple of the common platforms, from what this binary was built for (asking
/// `rustc` would run a program the checked crate's directory may choose).
fn host_triple() -> Option<String> {
    let arch = std::env::consts::ARCH;
    let rest = if cfg!(all(target_os = "linux", target_env = "gnu")) {
        "unknown-linux-gnu"
    } else if cfg!(all(target_os = "linux", target_env = "musl")) {
        "unknown-linux-musl"
    } else if cfg!(target_os = "macos") {
        "apple-darwin"
    } else if cfg!(all(target_os = "windows", target_env = "msvc")) {
        "pc-windows-msvc"
    } else if cfg!(all(target_os = "windows", target_env = "gnu")) {
        "pc-windows-gnu"
    } else {
        return None;
    };
    Some(format!("{arch}-{rest}"))
}

fn first_error_line(text: &str) -> String {
    let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.starts_with("error"))
        .or_else(|| lines().next())
        .unwrap_or("cargo metadata failed")
        .to_string()
}

/// The packages the lock file lists ("name version"), other than kube's own and the one in
/// `dir`, that depend on kube or kube-client: only such a package can have helpers. None for
/// an unreadable lock file (`cargo metadata` then says what is wrong).
fn possible_helpers(lock: &Path, dir: &Path) -> Option<Vec<LockedPackage>> {
    #[derive(serde::Deserialize)]
    struct Lock {
        #[serde(default)]
        package: Vec<Locked>,
    }
    #[derive(serde::Deserialize)]
    struct Locked {
        name: String,
        #[serde(default)]
        version: String,
        #[serde(default)]
        source: Option<String>,
        #[serde(default)]
        dependencies: Vec<String>,
    }
    let text = crate::read::read_file(lock, crate::read::MAX_SOURCE_BYTES)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())?;
    let parsed = toml::from_str::<Lock>(&text).ok()?;
    let own = own_package_name(dir);
    let found = parsed.package.iter().filter(|p| {
        !KUBE_CRATES.contains(&p.name.as_str())
            && own.as_deref() != Some(p.name.as_str())
            && p.dependencies.iter().any(|d| {
                // "kube", "kube 0.98.0", "kube 0.98.0 (registry+…)".
                matches!(d.split(' ').next(), Some("kube" | "kube-client"))
            })
    });
    Some(
        found
            .map(|p| LockedPackage {
                name: p.name.clone(),
                version: p.version.clone(),
                source: p.source.clone(),
            })
            .collect(),
    )
}

/// A package as the lock file lists it.
#[derive(Debug, PartialEq, Eq)]
struct LockedPackage {
    name: String,
    version: String,
    source: Option<String>,
}

impl LockedPackage {
    fn label(&self) -> String {
        format!("{} {}", self.name, self.version)
    }

    fn key(&self) -> Key<'_> {
        Key {
            name: &self.name,
            version: self.version.clone(),
            source: self.source.as_deref(),
        }
    }
}

/// The `[package] name` of `dir/Cargo.toml`, if it has one.
fn own_package_name(dir: &Path) -> Option<String> {
    let bytes =
        crate::read::read_file(&dir.join("Cargo.toml"), crate::read::MAX_SOURCE_BYTES).ok()?;
    let manifest: toml::Value = toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()?;
    Some(manifest.get("package")?.get("name")?.as_str()?.to_string())
}

/// A package whose own code may make requests: it depends on kube or kube-client (normal
/// dependencies: its public functions are built without dev-dependencies), and is not kube.
fn makes_requests(package: &Package) -> bool {
    !KUBE_CRATES.contains(&package.name.as_str())
        && package.dependencies.iter().any(|d| {
            d.kind == DependencyKind::Normal && matches!(d.name.as_str(), "kube" | "kube-client")
        })
}

/// What identifies a package's sources: name, version, and cargo's source id (None for a path).
struct Key<'p> {
    name: &'p str,
    version: String,
    source: Option<&'p str>,
}

/// Where a package's summary is cached: by name and version for a registry, plus the revision
/// for git. None for path dependencies, whose sources change without a new version.
fn cache_file(dir: &Path, key: &Key<'_>) -> Option<PathBuf> {
    Some(dir.join(format!("{}.json", cache_stem(key)?)))
}

fn cache_stem(key: &Key<'_>) -> Option<String> {
    let source = key.source?;
    let (name, version) = (key.name, &key.version);
    let stem = if source.starts_with("registry+") || source.starts_with("sparse+") {
        format!("{name}-{version}")
    } else if source.starts_with("git+") {
        let rev = source.rsplit_once('#')?.1;
        let rev: String = rev.chars().filter(char::is_ascii_alphanumeric).collect();
        format!("{name}-{version}-git-{rev}")
    } else {
        return None;
    };
    Some(stem)
}

/// The cache's directory under the user's cache directory (`XDG_CACHE_HOME`, else
/// `~/.cache`); None (no cache) when there is none or it is not one the tool owns.
fn user_cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    owned_cache_dir(&base)
}

/// `base/kube-order-lint/deps`, each created by the tool (mode 0700) if missing; None when one
/// is a symbolic link or anything but a directory owned by whoever runs the tool, so that the
/// cache is never written through a link someone planted.
fn owned_cache_dir(base: &Path) -> Option<PathBuf> {
    std::fs::create_dir_all(base).ok()?;
    let mut dir = base.to_path_buf();
    for part in ["kube-order-lint", "deps"] {
        dir.push(part);
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        match builder.create(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(_) => return None,
        }
        let meta = std::fs::symlink_metadata(&dir).ok()?;
        if !meta.file_type().is_dir() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            // SAFETY: geteuid has no preconditions.
            if meta.uid() != unsafe { libc::geteuid() } {
                return None;
            }
        }
    }
    Some(dir)
}

#[derive(serde::Serialize, serde::Deserialize)]
struct CacheFile {
    format_version: u32,
    package: String,
    version: String,
    source: String,
    helpers: Vec<CachedHelper>,
}

/// A helper as cached: the wrapper, and what a configuration's wrapper cannot say.
#[derive(serde::Serialize, serde::Deserialize)]
struct CachedHelper {
    wrapper: WrapperSpec,
    #[serde(default)]
    method_of: Option<String>,
    #[serde(default)]
    fixed_name: Option<String>,
}

fn read_cache(file: &Path, key: &Key<'_>) -> Option<Vec<WrapperSpec>> {
    let bytes = crate::read::read_file(file, 16 * 1024 * 1024).ok()?;
    let cached: CacheFile = serde_json::from_slice(&bytes).ok()?;
    (cached.format_version == CACHE_FORMAT
        && cached.package == key.name
        && cached.version == key.version
        && Some(cached.source.as_str()) == key.source)
        .then(|| {
            let helpers = cached.helpers.into_iter();
            helpers
                .map(|h| WrapperSpec {
                    method_of: h.method_of,
                    fixed_name: h.fixed_name,
                    ..h.wrapper
                })
                .collect()
        })
}

/// Write the cache atomically (a temporary file renamed over it); a cache that cannot be written
/// only costs the next run a scan.
fn write_cache(file: &Path, key: &Key<'_>, helpers: &[WrapperSpec]) {
    let Some(dir) = file.parent() else { return };
    let cached = CacheFile {
        format_version: CACHE_FORMAT,
        package: key.name.to_string(),
        version: key.version.clone(),
        source: key.source.unwrap_or_default().to_string(),
        helpers: helpers
            .iter()
            .map(|h| CachedHelper {
                wrapper: h.clone(),
                method_of: h.method_of.clone(),
                fixed_name: h.fixed_name.clone(),
            })
            .collect(),
    };
    let write = || -> std::io::Result<()> {
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        serde_json::to_writer_pretty(&mut tmp, &cached)?;
        tmp.persist(file).map_err(|e| e.error)?;
        Ok(())
    };
    let _ = write();
}

/// A public function of the crate: where it is declared, its path in the crate, and for a
/// method the type of its inherent `impl` (last segment).
struct PublicFn {
    file: usize,
    line: usize,
    name: String,
    module: Vec<String>,
    self_type: Option<String>,
}

/// The helpers a package's library makes: its module tree read from disk, modelled and linked
/// on its own. None when its root file is not there to read (a checkout cargo removed).
fn scan(
    package: &SourcePackage,
    from: &str,
    max_file_size: usize,
    notes: &mut Vec<String>,
) -> Option<Vec<WrapperSpec>> {
    let root = package.root.as_path();
    if !root.is_file() {
        return None;
    }
    let crate_name = package.lib_name.replace('-', "_");
    let package_dir = package.dir.as_deref().and_then(|d| d.canonicalize().ok())?;
    let (facts, public) = read_crate(root, &package_dir, max_file_size, from, notes);
    let displays: HashMap<usize, String> = (0..facts.len())
        .map(|i| (i, format!("{crate_name}#{i}")))
        .collect();
    let linker = Linker::new(facts.iter().enumerate().collect(), displays, &[]);
    let mut specs = Vec::new();
    for f in &public {
        let Some((k, function)) = facts[f.file]
            .functions
            .iter()
            .enumerate()
            .find(|(_, g)| g.name == f.name && g.line == f.line && g.self_type == f.self_type)
        else {
            continue;
        };
        let path: Vec<&str> = std::iter::once(crate_name.as_str())
            .chain(f.module.iter().map(String::as_str))
            .chain(f.self_type.as_deref())
            .chain([f.name.as_str()])
            .collect();
        let requests = linker.requests_of(f.file, k);
        specs.extend(specs_of(&path.join("::"), function, &requests));
    }
    Some(specs)
}

/// The facts of every file of the module tree rooted at `root`, and the public free functions
/// reachable through public modules.
fn read_crate(
    root: &Path,
    package_dir: &Path,
    max_file_size: usize,
    package: &str,
    notes: &mut Vec<String>,
) -> (Vec<FileFacts>, Vec<PublicFn>) {
    let mut facts = Vec::new();
    let mut public = Vec::new();
    // (path, owns its directory, module path); private modules are read too: their functions
    // may be called by public ones.
    let mut todo = vec![(root.to_path_buf(), true, Vec::<String>::new(), true)];
    let mut seen = HashSet::new();
    while let Some((path, owns_directory, module, is_public)) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        // A file reached through a link out of the package is not the package's to give.
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        if !real.starts_with(package_dir) {
            notes.push(format!(
                "{}: not read for the helpers of dependency {package}: it leads out of the package's directory",
                crate::source::display_path(&path)
            ));
            continue;
        }
        let Ok(bytes) = crate::read::read_file(&path, crate::read::MAX_SOURCE_BYTES) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let text = text
            .strip_prefix('\u{feff}')
            .map(str::to_string)
            .unwrap_or(text);
        // The crate's own limit: comments do not count, code over it is not parsed.
        let weight = match text.len() > max_file_size {
            true => crate::prefilter::code_size(&text),
            false => text.len(),
        };
        if weight > max_file_size {
            notes.push(format!(
                "{}: not read for the helpers of dependency {package}: it has {} KiB of code, over the {} KiB limit for parsing",
                crate::source::display_path(&path),
                weight / 1024,
                max_file_size / 1024
            ));
            continue;
        }
        let id = facts.len();
        let source = SourceFile::new(id, path.clone(), text);
        let Ok(ast) = crate::parse::parse_file(&source.text) else {
            continue;
        };
        facts.push(build::build(&source, &ast));
        let mut items = Items::default();
        items.walk(&source, &ast.items, &module, is_public);
        for (line, name, module, self_type) in items.functions {
            public.push(PublicFn {
                file: id,
                line,
                name,
                module,
                self_type,
            });
        }
        for child in crate::discover::modules::child_modules(&source, &ast, owns_directory) {
            if !child.exists {
                continue;
            }
            let declared = items
                .file_modules
                .iter()
                .find(|m| child.decl.start <= m.0 && m.0 < child.decl.end);
            let (name, child_public) = match declared {
                Some((_, name, p)) => (name.clone(), *p),
                None => (String::new(), false),
            };
            let mut child_module = module.clone();
            child_module.push(name);
            todo.push((
                child.path,
                child.owns_directory,
                child_module,
                is_public && child_public,
            ));
        }
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    (facts, public)
}

/// The public functions of a file's items (in public inline modules too), free or methods of
/// an inherent `impl`: (line, name, module path, `impl` type); and its out-of-line `mod`
/// items: (offset of the name, name, public).
#[derive(Default)]
struct Items {
    functions: Vec<(usize, String, Vec<String>, Option<String>)>,
    file_modules: Vec<(usize, String, bool)>,
}

impl Items {
    fn walk(&mut self, source: &SourceFile, items: &[syn::Item], module: &[String], public: bool) {
        for item in items {
            match item {
                syn::Item::Fn(f) if public && is_pub(&f.vis) => {
                    let line = f.sig.ident.span().start().line;
                    self.functions
                        .push((line, f.sig.ident.to_string(), module.to_vec(), None));
                }
                // Trait impls are left out: a call of a trait method names no type of the
                // dependency's by itself.
                syn::Item::Impl(i) if public && i.trait_.is_none() => {
                    let syn::Type::Path(ty) = &*i.self_ty else {
                        continue;
                    };
                    let Some(ty) = ty.path.segments.last() else {
                        continue;
                    };
                    for item in &i.items {
                        if let syn::ImplItem::Fn(f) = item {
                            if is_pub(&f.vis) && f.sig.receiver().is_some() {
                                let line = f.sig.ident.span().start().line;
                                let name = f.sig.ident.to_string();
                                let of = Some(ty.ident.to_string());
                                self.functions.push((line, name, module.to_vec(), of));
                            }
                        }
                    }
                }
                syn::Item::Mod(m) => match &m.content {
                    Some((_, inner)) => {
                        let mut path = module.to_vec();
                        path.push(m.ident.to_string());
                        self.walk(source, inner, &path, public && is_pub(&m.vis));
                    }
                    None => {
                        let at = m.ident.span().start();
                        let offset = source.offset_of(at.line, at.column);
                        self.file_modules
                            .push((offset, m.ident.to_string(), is_pub(&m.vis)));
                    }
                },
                _ => {}
            }
        }
    }
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// A function's summary as wrappers, one per request it makes (writes first, then reads; once
/// each), when the object is named by a parameter (a name, an object's `metadata.name`) or by
/// a literal inside it. A method (`self`) is one of its `impl` type's, matched by the
/// receiver's type ([`WrapperSpec::method_of`]).
fn specs_of(function: &str, f: &FunctionFacts, requests: &[Request]) -> Vec<WrapperSpec> {
    if f.entry_point || (f.has_self && f.self_type.is_none()) {
        return Vec::new();
    }
    let (writes, reads): (Vec<&Request>, Vec<&Request>) = requests
        .iter()
        .filter(|r| r.controller.is_none())
        .partition(|r| r.verb.access == Access::Write);
    let mut specs: Vec<WrapperSpec> = Vec::new();
    for r in writes.into_iter().chain(reads) {
        if let Some(spec) = spec_of(function, f, r) {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
        }
    }
    specs
}

/// One request as a wrapper; None when its object is neither a parameter's nor a literal.
fn spec_of(function: &str, f: &FunctionFacts, r: &Request) -> Option<WrapperSpec> {
    let param = |b: u64| f.params.iter().position(|p| *p == Some(b));
    let (name_arg, object_arg, fixed_name) = match &r.object {
        ObjectName::All => (None, None, None),
        ObjectName::One {
            name: NameExpr::Literal(name),
            ..
        } => (None, None, Some(name.clone())),
        ObjectName::One {
            name:
                NameExpr::Path {
                    root: Root::Binding(b),
                    fields,
                },
            ..
        } => match (param(*b), fields.as_slice()) {
            (Some(i), []) => (Some(i), None, None),
            (Some(i), [m, n]) if m == "metadata" && n == "name" => (None, Some(i), None),
            _ => return None,
        },
        ObjectName::One { .. } => return None,
    };
    let api_arg = match &r.handle.origin {
        Some(HandleOrigin::Binding(b)) => param(*b),
        _ => None,
    };
    let kind_param = r
        .handle
        .kind_param
        .as_ref()
        .and_then(|g| f.generics.iter().position(|x| x == g));
    // The parameter typed by the kind's type parameter (`obj: &K`), for calls without turbofish.
    let kind_arg = kind_param.and_then(|i| {
        let generic = f.generics.get(i)?;
        f.typed_by_generic
            .iter()
            .position(|t| t.as_ref() == Some(generic))
    });
    Some(WrapperSpec {
        function: function.to_string(),
        access: r.verb.access,
        name_arg,
        namespace_arg: None,
        kind_param,
        kind_arg,
        kind: r.handle.kind.clone(),
        object_arg,
        api_arg,
        verb: Some(r.verb.method.to_string()),
        from_dependency: None,
        method_of: f.self_type.clone().filter(|_| f.has_self),
        fixed_name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGISTRY: &str = "registry+https://github.com/rust-lang/crates.io-index";

    fn key<'p>(source: Option<&'p str>) -> Key<'p> {
        Key {
            name: "oplib",
            version: "0.3.1".to_string(),
            source,
        }
    }

    fn spec() -> WrapperSpec {
        WrapperSpec {
            function: "oplib::create_if_missing".to_string(),
            access: Access::Write,
            name_arg: None,
            namespace_arg: None,
            kind_param: None,
            kind_arg: None,
            kind: Some("Pod".to_string()),
            object_arg: Some(1),
            api_arg: Some(0),
            verb: Some("create".to_string()),
            from_dependency: None,
            method_of: None,
            fixed_name: None,
        }
    }

    #[test]
    fn only_a_lock_file_listing_another_package_on_kube_asks_cargo() {
        let dir = tempfile::tempdir().unwrap();
        let write = |lock: &str| {
            std::fs::write(dir.path().join("Cargo.lock"), lock).unwrap();
            std::fs::write(
                dir.path().join("Cargo.toml"),
                "[package]\nname = \"op\"\nversion = \"0.1.0\"\n",
            )
            .unwrap();
            possible_helpers(&dir.path().join("Cargo.lock"), dir.path())
        };
        let kube_only = "[[package]]\nname = \"op\"\nversion = \"0.1.0\"\ndependencies = [\"kube\"]\n\n[[package]]\nname = \"kube\"\nversion = \"1.0.0\"\ndependencies = [\"kube-client\"]\n";
        assert_eq!(
            write(kube_only),
            Some(vec![]),
            "the crate itself and kube's crates have no helpers"
        );
        let with_library = format!(
            "{kube_only}\n[[package]]\nname = \"oplib\"\nversion = \"0.2.0\"\ndependencies = [\"kube 1.0.0\"]\n"
        );
        assert_eq!(
            write(&with_library),
            Some(vec![LockedPackage {
                name: "oplib".to_string(),
                version: "0.2.0".to_string(),
                source: None,
            }]),
            "a library on kube may have helpers"
        );
        assert_eq!(
            write("not toml ["),
            None,
            "an unreadable lock file is cargo's to report"
        );
    }

    #[test]
    fn registry_and_git_packages_are_cached_by_version_and_path_ones_never() {
        let dir = Path::new("/t");
        assert_eq!(
            cache_file(dir, &key(Some(REGISTRY))),
            Some(dir.join("oplib-0.3.1.json"))
        );
        let git = "git+https://example.com/ops/oplib?branch=main#0123abcd";
        assert_eq!(
            cache_file(dir, &key(Some(git))),
            Some(dir.join("oplib-0.3.1-git-0123abcd.json"))
        );
        assert_eq!(cache_file(dir, &key(None)), None);
        assert_eq!(cache_file(dir, &key(Some("path+file:///x"))), None);
    }

    #[test]
    fn the_cache_is_read_back_only_for_the_same_package_and_format() {
        let dir = tempfile::tempdir().unwrap();
        let deps = owned_cache_dir(dir.path()).unwrap();
        assert_eq!(deps, dir.path().join("kube-order-lint/deps"));
        let file = deps.join("oplib-0.3.1.json");
        // What a configuration's wrapper cannot say is kept too.
        let method = WrapperSpec {
            function: "oplib::OpClient::bump".to_string(),
            method_of: Some("OpClient".to_string()),
            fixed_name: Some("operator-settings".to_string()),
            ..spec()
        };
        write_cache(&file, &key(Some(REGISTRY)), &[spec(), method.clone()]);
        assert_eq!(
            read_cache(&file, &key(Some(REGISTRY))),
            Some(vec![spec(), method])
        );
        let other = Key {
            version: "0.3.2".to_string(),
            ..key(Some(REGISTRY))
        };
        assert_eq!(read_cache(&file, &other), None);
        // Another format version is not trusted.
        let text = std::fs::read_to_string(&file).unwrap();
        let old = text.replace(
            &format!("\"format_version\": {CACHE_FORMAT}"),
            "\"format_version\": 0",
        );
        assert_ne!(old, text);
        std::fs::write(&file, old).unwrap();
        assert_eq!(read_cache(&file, &key(Some(REGISTRY))), None);
        // No temporary file is left next to it.
        let left: Vec<_> = std::fs::read_dir(file.parent().unwrap()).unwrap().collect();
        assert_eq!(left.len(), 1);
    }

    /// The cache's directories are the tool's own: a planted link (to a directory outside, or
    /// dangling) is not followed, and nothing is cached there.
    #[cfg(unix)]
    #[test]
    fn a_cache_directory_that_is_a_link_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        for part in ["kube-order-lint", "kube-order-lint/deps"] {
            let dir = tempfile::tempdir().unwrap();
            let outside = dir.path().join("outside");
            std::fs::create_dir(&outside).unwrap();
            let base = dir.path().join("cache");
            let link = base.join(part);
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(&outside, &link).unwrap();
            assert_eq!(owned_cache_dir(&base), None, "{part}");
            assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "{part}");
        }
        let dir = tempfile::tempdir().unwrap();
        let deps = owned_cache_dir(dir.path()).unwrap();
        let mode = std::fs::metadata(&deps).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
    }
}
