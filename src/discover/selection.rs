//! Cargo's package and target selection flags, applied to `cargo metadata`.

use std::path::Path;

use cargo_metadata::{Metadata, Package, Target};

use super::DiscoveryError;

/// Which packages and targets of a workspace to check. The default is cargo's default package
/// choice (the package of the directory, or every member under it) and every target but build
/// scripts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// `-p/--package SPEC`: a name, `name@version`, a package id, or a glob over names.
    pub packages: Vec<String>,
    /// `--workspace`: every member of the workspace.
    pub workspace: bool,
    /// `--exclude SPEC` (with `--workspace`).
    pub exclude: Vec<String>,
    pub targets: TargetFilter,
}

/// `--lib`, `--bins`, `--bin NAME`, … When nothing is set, every target but build scripts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TargetFilter {
    pub lib: bool,
    pub bins: bool,
    pub bin: Vec<String>,
    pub examples: bool,
    pub example: Vec<String>,
    pub tests: bool,
    pub test: Vec<String>,
    pub benches: bool,
    pub bench: Vec<String>,
    pub all_targets: bool,
}

impl TargetFilter {
    fn is_default(&self) -> bool {
        *self == TargetFilter::default()
    }

    fn everything(&self) -> bool {
        self.all_targets || self.is_default()
    }

    /// Does the filter take this target (build scripts never)?
    pub(super) fn selects(&self, target: &Target) -> bool {
        let has = |k: &str| target.kind.iter().any(|x| x == k);
        if target.kind.iter().all(|k| k == "custom-build") {
            return false;
        }
        if self.everything() {
            return true;
        }
        let named = |names: &[String]| names.contains(&target.name);
        (self.lib && is_lib(target))
            || (has("bin") && (self.bins || named(&self.bin)))
            || (has("example") && (self.examples || named(&self.example)))
            || (has("test") && (self.tests || named(&self.test)))
            || (has("bench") && (self.benches || named(&self.bench)))
    }

    /// Why target flags that selected no target at all stop the run, as cargo's "no library
    /// targets found in package `x`" does. None without target flags.
    pub(super) fn nothing_selected(&self, packages: &[&Package]) -> Option<String> {
        if self.everything() {
            return None;
        }
        let names: Vec<String> = packages.iter().map(|p| format!("`{}`", p.name)).collect();
        let (noun, names) = match names.len() {
            0 => return None,
            1 => ("package", names[0].clone()),
            _ => ("packages", names.join(", ")),
        };
        if self.lib
            && !self.bins
            && self.bin.is_empty()
            && !self.examples
            && self.example.is_empty()
            && !self.tests
            && self.test.is_empty()
            && !self.benches
            && self.bench.is_empty()
        {
            return Some(format!("no library targets found in {noun} {names}"));
        }
        let mut flags = Vec::new();
        for (on, flag) in [
            (self.lib, "--lib"),
            (self.bins, "--bins"),
            (self.examples, "--examples"),
            (self.tests, "--tests"),
            (self.benches, "--benches"),
        ] {
            if on {
                flags.push(flag.to_string());
            }
        }
        Some(format!(
            "no targets matched {} in {noun} {names}",
            flags.join(" ")
        ))
    }

    /// Named targets (`--bin x`) that no selected package has: cargo's "no bin target named".
    pub(super) fn missing_named(&self, packages: &[&Package]) -> Option<String> {
        let lists: [(&str, &Vec<String>); 4] = [
            ("bin", &self.bin),
            ("example", &self.example),
            ("test", &self.test),
            ("bench", &self.bench),
        ];
        for (kind, names) in lists {
            for name in names {
                let found = packages.iter().any(|p| {
                    p.targets
                        .iter()
                        .any(|t| t.name == *name && t.kind.iter().any(|k| k == kind))
                });
                if !found {
                    return Some(format!(
                        "no {kind} target named `{name}` in the selected packages"
                    ));
                }
            }
        }
        None
    }
}

fn is_lib(target: &Target) -> bool {
    target.kind.iter().any(|k| {
        matches!(
            k.as_str(),
            "lib" | "rlib" | "dylib" | "cdylib" | "staticlib" | "proc-macro"
        )
    })
}

impl Selection {
    pub fn is_default(&self) -> bool {
        *self == Selection::default()
    }

    /// Package flags choose among all workspace members, wherever the directory is.
    pub(super) fn chooses_packages(&self) -> bool {
        self.workspace || !self.packages.is_empty() || !self.exclude.is_empty()
    }

    /// Selection flags make sense only for Cargo packages.
    pub(super) fn require_cargo(&self, path: &Path) -> Result<(), DiscoveryError> {
        if self.is_default() {
            return Ok(());
        }
        Err(DiscoveryError {
            path: path.to_path_buf(),
            message: "package and target flags (-p, --workspace, --lib, ...) apply to Cargo packages, and this is not one".to_string(),
        })
    }

    /// The members to check, as cargo would choose them for these flags.
    pub(super) fn packages<'m>(&self, metadata: &'m Metadata) -> Result<Vec<&'m Package>, String> {
        let members: Vec<&Package> = metadata
            .packages
            .iter()
            .filter(|p| metadata.workspace_members.contains(&p.id))
            .collect();
        if !self.exclude.is_empty() && !self.workspace {
            return Err("--exclude can only be used together with --workspace".to_string());
        }
        let chosen: Vec<&Package> = if self.workspace {
            members
                .iter()
                .copied()
                .filter(|p| !self.exclude.iter().any(|spec| matches_spec(spec, p)))
                .collect()
        } else {
            for spec in &self.packages {
                if !members.iter().any(|p| matches_spec(spec, p)) {
                    let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
                    return Err(format!(
                        "package `{spec}` matches no workspace member (members: {})",
                        names.join(", ")
                    ));
                }
            }
            members
                .iter()
                .copied()
                .filter(|p| self.packages.iter().any(|spec| matches_spec(spec, p)))
                .collect()
        };
        Ok(chosen)
    }
}

/// cargo's package id specifications, for members: `name`, `name@version`, the full id, or a
/// glob over names (`kube-*`).
fn matches_spec(spec: &str, package: &Package) -> bool {
    if spec == package.id.repr || spec == package.name {
        return true;
    }
    if let Some((name, version)) = spec.split_once('@') {
        return name == package.name && package.version.to_string().starts_with(version);
    }
    if spec.contains(['*', '?', '[']) {
        return globset::Glob::new(spec)
            .map(|g| g.compile_matcher().is_match(&package.name))
            .unwrap_or(false);
    }
    false
}
