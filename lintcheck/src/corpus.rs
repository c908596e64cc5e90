//! The pinned corpus: the direct dependencies of `lintcheck/corpus`, fetched with
//! `cargo fetch --locked` and found in cargo's registry cache through `cargo metadata`. Their
//! code is only read, never built.

use std::path::{Path, PathBuf};
use std::process::Command;

use cargo_metadata::MetadataCommand;

/// One crate of the corpus, unpacked by cargo.
pub struct Crate {
    pub name: String,
    pub version: String,
    /// The directory holding its `Cargo.toml`.
    pub dir: PathBuf,
}

impl Crate {
    /// `name@version`, the first column of the logs.
    pub fn key(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

/// The cargo that runs this program (`cargo run` sets `CARGO`), else the one on the path.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Fetches the corpus and lists its crates, sorted by name and version.
pub fn fetch_and_list(corpus: &Path) -> Result<Vec<Crate>, String> {
    let manifest = corpus.join("Cargo.toml");
    let host = host_triple()?;
    let status = cargo()
        .args([
            "fetch",
            "--locked",
            "--quiet",
            "--target",
            &host,
            "--manifest-path",
        ])
        .arg(&manifest)
        .status()
        .map_err(|e| format!("cannot run cargo fetch: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo fetch --locked failed for {}",
            manifest.display()
        ));
    }
    let metadata = MetadataCommand::new()
        .manifest_path(&manifest)
        .other_options(vec![
            "--locked".to_string(),
            "--offline".to_string(),
            "--filter-platform".to_string(),
            host,
        ])
        .exec()
        .map_err(|e| format!("cargo metadata failed for {}: {e}", manifest.display()))?;
    let root = metadata
        .root_package()
        .ok_or("the corpus manifest has no package")?;
    // The declared dependencies, not the resolve graph: cargo leaves binary-only crates
    // (kubectl-like tools, TUIs) out of it, but fetches them beside the others.
    let unpacked = metadata
        .packages
        .iter()
        .find(|p| p.id != root.id)
        .and_then(|p| p.manifest_path.parent()?.parent())
        .ok_or("cargo metadata lists no fetched crate")?;
    let mut crates = Vec::new();
    for dep in &root.dependencies {
        let pinned = dep.req.to_string();
        let Some(pinned) = pinned.strip_prefix('=') else {
            return Err(format!("pin {} with an exact `=` version", dep.name));
        };
        // The resolved package when cargo lists it: its version keeps build metadata
        // (`1.0.1+20260517`), which a requirement drops, and names its directory.
        let resolved = metadata
            .packages
            .iter()
            .find(|p| p.name.as_str() == dep.name && dep.req.matches(&p.version));
        let (version, dir) = match resolved {
            Some(p) => (
                p.version.to_string(),
                p.manifest_path.parent().map(|d| d.to_path_buf()),
            ),
            None => (pinned.to_string(), None),
        };
        let dir = dir.unwrap_or_else(|| unpacked.join(format!("{}-{version}", dep.name)));
        if !dir.join("Cargo.toml").is_file() {
            return Err(format!("{dir} was not fetched"));
        }
        crates.push(Crate {
            name: dep.name.clone(),
            version,
            dir: dir.into_std_path_buf(),
        });
    }
    crates.sort_by_key(Crate::key);
    Ok(crates)
}

/// The host's target triple, from `rustc -vV`: only what builds here is fetched.
fn host_triple() -> Result<String, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV printed no host".to_string())
}
