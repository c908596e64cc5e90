//! Reading one configuration source, with errors that name the file, the key and the line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::patterns::Patterns;
use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::{ConfigError, Level, Levels, ALL, FILE_NAMES};
use crate::model::wrappers::WrapperSpec;
use crate::model::Confidence;
use crate::source::display_path;

/// The settings of one configuration source; every key is optional.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// The file, and for `Cargo.toml` the table: "Cargo.toml [package.metadata.kube-order-lint]".
    pub display: String,
    /// Canonical directory of the file: `exclude` patterns are relative to it.
    pub dir: PathBuf,
    pub levels: Levels,
    pub min_confidence: Option<Confidence>,
    pub batch_checking: Option<bool>,
    pub doc_examples: Option<bool>,
    pub deps_helpers: Option<bool>,
    pub exclude: Option<Patterns>,
    pub report_unused_suppressions: Option<bool>,
    pub wrappers: Option<Vec<WrapperSpec>>,
}

/// The keys of a configuration table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    lints: Option<BTreeMap<Spanned<String>, Spanned<Level>>>,
    min_confidence: Option<RawConfidence>,
    batch_checking: Option<bool>,
    doc_examples: Option<bool>,
    deps_helpers: Option<bool>,
    exclude: Option<Vec<Spanned<String>>>,
    report_unused_suppressions: Option<bool>,
    wrappers: Option<Vec<WrapperSpec>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum RawConfidence {
    Unknown,
    Possible,
    Definite,
}

/// The parts of `Cargo.toml` that hold configuration; everything else is cargo's business.
#[derive(Deserialize)]
struct Manifest {
    package: Option<Section>,
    workspace: Option<Section>,
}

#[derive(Deserialize)]
struct Section {
    metadata: Option<Metadata>,
}

#[derive(Deserialize)]
struct Metadata {
    #[serde(rename = "kube-order-lint")]
    kube_order_lint: Option<Raw>,
}

const WORKSPACE_TABLE: &str = "workspace.metadata.kube-order-lint";
const PACKAGE_TABLE: &str = "package.metadata.kube-order-lint";

/// The sources in one directory, farthest first (`Cargo.toml`'s workspace table, its package
/// table, then the configuration file), and whether the upward walk stops here (a workspace
/// root or a repository root).
/// The configuration sources of one directory, whether it is a root the lookup stops at (a
/// repository, a workspace), and whether it holds a `Cargo.toml` (a package's root).
pub(super) struct DirSources {
    pub files: Vec<Arc<ConfigFile>>,
    pub stop: bool,
    pub package: bool,
    /// A source here that cannot be used: an error only if the lookup keeps this directory.
    pub error: Option<ConfigError>,
    /// What is here but not read, said once a run when the lookup keeps this directory.
    pub notes: Vec<String>,
}

pub(super) fn sources_in(dir: &Path) -> DirSources {
    let stop = dir.join(".git").exists();
    let package = is_present(&dir.join("Cargo.toml"));
    let notes = unread_lint_tables(&dir.join("Cargo.toml"));
    match read_sources(dir) {
        Ok((files, workspace)) => DirSources {
            files,
            stop: stop || workspace,
            package,
            error: None,
            notes,
        },
        // Where the lookup stops does not depend on the configuration files being valid.
        Err(e) => DirSources {
            files: Vec::new(),
            stop: stop || is_workspace_manifest(&dir.join("Cargo.toml")),
            package,
            error: Some(e),
            notes,
        },
    }
}

/// Cargo's `[lints.kube-order-lint]` (or `[workspace.lints.kube-order-lint]`) table in
/// `manifest`: not read, since cargo warns on every build about the lint tables of tools it
/// does not know ("unrecognized lint tool"), which the metadata table does not make it do.
/// A note for each, naming the file and line, pointing to the table that is read.
fn unread_lint_tables(manifest: &Path) -> Vec<String> {
    let Ok(Some(text)) = read_if_present(manifest) else {
        return Vec::new();
    };
    let Ok(table) = DeTable::parse(&text) else {
        return Vec::new();
    };
    let tool_table = |lints: &Spanned<DeValue<'_>>| match lints.get_ref() {
        DeValue::Table(t) => t
            .iter()
            .find(|(k, _)| k.get_ref() == "kube-order-lint")
            .map(|(k, _)| k.span().start),
        _ => None,
    };
    let root = table.get_ref();
    let mut found = Vec::new();
    if let Some(at) = root.get("lints").and_then(tool_table) {
        found.push(("lints.kube-order-lint", PACKAGE_TABLE, at));
    }
    let workspace_lints = root.get("workspace").and_then(|w| match w.get_ref() {
        DeValue::Table(t) => t.get("lints"),
        _ => None,
    });
    if let Some(at) = workspace_lints.and_then(tool_table) {
        found.push(("workspace.lints.kube-order-lint", WORKSPACE_TABLE, at));
    }
    found
        .into_iter()
        .map(|(table, read, at)| {
            format!(
                "{}:{}: `[{table}]` is not read (cargo knows no lint tool of that name and warns about it on every build); put the levels in `[{read}.lints]` or in kube-order-lint.toml's `[lints]`, with the same keys",
                display_path(manifest),
                line_of(&text, at)
            )
        })
        .collect()
}

fn is_workspace_manifest(manifest: &Path) -> bool {
    matches!(read_if_present(manifest), Ok(Some(text))
        if DeTable::parse(&text).is_ok_and(|t| t.get_ref().contains_key("workspace")))
}

/// The sources of a directory, and whether its manifest is a workspace's.
fn read_sources(dir: &Path) -> Result<(Vec<Arc<ConfigFile>>, bool), ConfigError> {
    let mut out = Vec::new();
    let mut stop = false;
    let manifest = dir.join("Cargo.toml");
    // A manifest that is there but cannot be read is an error: its `exclude` would be lost. One
    // that is not TOML is cargo's problem (discovery reports it); it holds no configuration of
    // ours.
    if let Some(text) = read_if_present(&manifest)? {
        if let Ok(table) = DeTable::parse(&text) {
            stop |= table.get_ref().contains_key("workspace");
            out.extend(
                manifest_sources(&manifest, &text)?
                    .into_iter()
                    .map(Arc::new),
            );
        }
    }
    // Present in any form (a directory, a FIFO, a dangling link): reading it says what is wrong.
    let files: Vec<PathBuf> = FILE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .filter(|p| is_present(p))
        .collect();
    if files.len() > 1 {
        return Err(ConfigError {
            file: display_path(&files[1]),
            line: None,
            message: format!(
                "two configuration files in one directory: keep {} or this one",
                display_path(&files[0])
            ),
        });
    }
    if let Some(path) = files.first() {
        out.push(Arc::new(load_file(path)?));
    }
    Ok((out, stop))
}

/// `--config FILE`: a configuration file, or a `Cargo.toml` whose metadata tables are read
/// (the package's over the workspace's).
pub(super) fn load_explicit(path: &Path) -> Result<Vec<Arc<ConfigFile>>, ConfigError> {
    if path.file_name().is_some_and(|n| n == "Cargo.toml") {
        let text = read(path)?;
        return Ok(manifest_sources(path, &text)?
            .into_iter()
            .map(Arc::new)
            .collect());
    }
    Ok(vec![Arc::new(load_file(path)?)])
}

/// A `kube-order-lint.toml`.
pub fn load_file(path: &Path) -> Result<ConfigFile, ConfigError> {
    let text = read(path)?;
    let raw: Raw = toml::from_str(&text).map_err(|e| toml_error(path, &text, &e))?;
    convert(path, display_path(path), &text, raw, "")
}

fn manifest_sources(path: &Path, text: &str) -> Result<Vec<ConfigFile>, ConfigError> {
    let manifest: Manifest = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    let mut out = Vec::new();
    let tables = [
        (manifest.workspace, WORKSPACE_TABLE),
        (manifest.package, PACKAGE_TABLE),
    ];
    for (section, table) in tables {
        let raw = section
            .and_then(|s| s.metadata)
            .and_then(|m| m.kube_order_lint);
        if let Some(raw) = raw {
            let display = format!("{} [{table}]", display_path(path));
            out.push(convert(path, display, text, raw, table)?);
        }
    }
    Ok(out)
}

fn read(path: &Path) -> Result<String, ConfigError> {
    crate::read::read_text(path, crate::read::MAX_SMALL_FILE_BYTES).map_err(|e| ConfigError {
        file: display_path(path),
        line: None,
        message: format!("cannot read configuration: {e}"),
    })
}

/// [`read`], or None when nothing is at `path` (not even a dangling link).
fn read_if_present(path: &Path) -> Result<Option<String>, ConfigError> {
    if !is_present(path) {
        return Ok(None);
    }
    read(path).map(Some)
}

/// Something is at `path`, or cannot be known not to be (a directory that cannot be searched).
fn is_present(path: &Path) -> bool {
    !matches!(path.symlink_metadata(), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
}

/// Check what serde cannot (lint names, patterns) and build the source.
fn convert(
    path: &Path,
    display: String,
    text: &str,
    raw: Raw,
    table: &str,
) -> Result<ConfigFile, ConfigError> {
    let key = |k: &str| {
        if table.is_empty() {
            k.to_string()
        } else {
            format!("{table}.{k}")
        }
    };
    let error_at = |span: std::ops::Range<usize>, message: String| ConfigError {
        file: display_path(path),
        line: Some(line_of(text, span.start)),
        message,
    };
    let mut levels = Levels::default();
    if let Some(lints) = &raw.lints {
        let mut named = Vec::new();
        for (name, level) in lints {
            let Some(canonical) = super::canonical_lint_name(name.get_ref()) else {
                return Err(error_at(
                    name.span(),
                    format!(
                        "key `{}`: {}",
                        key(&format!("lints.{}", name.get_ref())),
                        super::unknown_lint_message(name.get_ref())
                    ),
                ));
            };
            named.push((canonical, *level.get_ref()));
        }
        // `all` first, so that a lint named in the same table overrides it.
        named.sort_by_key(|(name, _)| *name != ALL);
        for (name, level) in named {
            levels.set(name, level);
        }
    }
    let exclude = match &raw.exclude {
        None => None,
        Some(patterns) => {
            for p in patterns {
                super::patterns::glob(p.get_ref()).map_err(|e| {
                    error_at(
                        p.span(),
                        format!(
                            "key `{}`: invalid pattern `{}`: {}",
                            key("exclude"),
                            p.get_ref(),
                            glob_error(&e)
                        ),
                    )
                })?;
            }
            let texts: Vec<&str> = patterns.iter().map(|p| p.get_ref().as_str()).collect();
            // Refused before compiling: the matcher of these grows with them, to gigabytes.
            let wildcards = super::patterns::wildcards_at_once(&texts);
            if wildcards > super::patterns::MAX_WILDCARDS_AT_ONCE {
                return Err(ConfigError {
                    file: display_path(path),
                    line: None,
                    message: format!(
                        "key `{}`: the patterns that do not start with a directory (`gen/`) hold {wildcards} wildcards, over the limit of {}: they are matched by one automaton built at load time; start them with the directories they apply to",
                        key("exclude"),
                        super::patterns::MAX_WILDCARDS_AT_ONCE
                    ),
                });
            }
            Some(Patterns::new(&texts).map_err(|e| ConfigError {
                file: display_path(path),
                line: None,
                message: format!("key `{}`: {e}", key("exclude")),
            })?)
        }
    };
    let dir = path
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .map(crate::discover::canonical)
        .unwrap_or_default();
    Ok(ConfigFile {
        path: path.to_path_buf(),
        display,
        dir,
        levels,
        min_confidence: raw.min_confidence.map(|c| match c {
            RawConfidence::Unknown => Confidence::Unknown,
            RawConfidence::Possible => Confidence::Possible,
            RawConfidence::Definite => Confidence::Definite,
        }),
        batch_checking: raw.batch_checking,
        doc_examples: raw.doc_examples,
        deps_helpers: raw.deps_helpers,
        exclude,
        report_unused_suppressions: raw.report_unused_suppressions,
        wrappers: raw.wrappers,
    })
}

fn glob_error(e: &globset::Error) -> String {
    // globset's message repeats the pattern; keep only the reason.
    e.kind().to_string()
}

/// A TOML or schema error, with the key it is about when the position tells.
fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> ConfigError {
    let message = e.message().trim().replace("unknown field", "unknown key");
    let position = e.span().map(|s| s.start);
    let key = position.and_then(|pos| key_at(text, pos));
    ConfigError {
        file: display_path(path),
        line: position.map(|p| line_of(text, p)),
        message: match key {
            Some(k) => format!("key `{k}`: {message}"),
            None => message,
        },
    }
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len()))
        .map_or(1, |t| t.matches('\n').count() + 1)
}

/// The dotted path of the key (or the value of the key) at `pos`: `lints.x`, `wrappers[1].access`.
fn key_at(text: &str, pos: usize) -> Option<String> {
    let table = DeTable::parse(text).ok()?;
    let mut path = Vec::new();
    find_key(table.get_ref(), pos, &mut path).then(|| path.join("."))
}

fn find_key(table: &DeTable<'_>, pos: usize, path: &mut Vec<String>) -> bool {
    for (key, value) in table.iter() {
        let name = key.get_ref().to_string();
        if key.span().contains(&pos) {
            path.push(name);
            return true;
        }
        path.push(name);
        if find_in_value(value, pos, path) {
            return true;
        }
        path.pop();
    }
    false
}

fn find_in_value(value: &Spanned<DeValue<'_>>, pos: usize, path: &mut Vec<String>) -> bool {
    match value.get_ref() {
        DeValue::Table(t) => find_key(t, pos, path),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let inside = item.span().contains(&pos);
                if let Some(last) = path.last_mut() {
                    last.push_str(&format!("[{i}]"));
                }
                if find_in_value(item, pos, path) || inside {
                    return true;
                }
                if let Some(last) = path.last_mut() {
                    let cut = last.rfind('[').unwrap_or(last.len());
                    last.truncate(cut);
                }
            }
            false
        }
        _ => value.span().contains(&pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> ConfigError {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kube-order-lint.toml");
        std::fs::write(&path, text).unwrap();
        let e = load_file(&path).expect_err("an error");
        ConfigError {
            file: "F".into(),
            ..e
        }
    }

    #[test]
    fn unknown_keys_name_key_and_line() {
        let e = error_of("min_confidence = \"possible\"\n\nlintz = 3\n");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.starts_with("key `lintz`: unknown key"), "{e}");
    }

    #[test]
    fn invalid_values_name_key_and_line() {
        let e = error_of("[lints]\nconcurrent-same-object = \"loud\"\n");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(
            e.message
                .starts_with("key `lints.concurrent-same-object`: unknown variant `loud`"),
            "{e}"
        );
        let e = error_of("batch_checking = \"yes\"\n");
        assert_eq!(e.line, Some(1), "{e}");
        assert!(e.message.starts_with("key `batch_checking`:"), "{e}");
        let e = error_of("[[wrappers]]\nfunction = \"f\"\naccess = \"write\"\n\n[[wrappers]]\nfunction = \"g\"\naccess = \"sideways\"\n");
        assert_eq!(e.line, Some(7), "{e}");
        assert!(e.message.starts_with("key `wrappers[1].access`:"), "{e}");
    }

    #[test]
    fn unknown_lints_and_bad_patterns_are_errors() {
        let e = error_of("[lints]\nall = \"warn\"\nno-such-lint = \"deny\"\n");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            e.message
                .starts_with("key `lints.no-such-lint`: unknown lint `no-such-lint`"),
            "{e}"
        );
        let e = error_of("exclude = [\"ok/**\",\n  \"bad[\"]\n");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(
            e.message
                .starts_with("key `exclude`: invalid pattern `bad[`"),
            "{e}"
        );
    }

    /// Wildcard patterns without a directory are one automaton: too many are refused before it
    /// is built; as many under directories are compiled only when a path under them is checked.
    #[test]
    fn too_many_wildcards_at_once_are_refused_before_compiling() {
        let many = |prefix: &str| {
            let patterns: Vec<String> = (0..4_000)
                .map(|i| format!("  \"{prefix}*?*?*?*?{i}*?*?\","))
                .collect();
            format!("exclude = [\n{}\n]\n", patterns.join("\n"))
        };
        let e = error_of(&many(""));
        assert!(
            e.message.starts_with("key `exclude`: the patterns that do not start with a directory (`gen/`) hold 48000 wildcards, over the limit of 40000"),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kube-order-lint.toml");
        std::fs::write(&path, many("gen/")).unwrap();
        assert!(load_file(&path).is_ok());
    }

    #[test]
    fn a_whole_file_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kube-order-lint.toml");
        std::fs::write(
            &path,
            "min_confidence = \"definite\"\nbatch_checking = true\ndoc_examples = false\ndeps_helpers = false\nexclude = [\"gen/**\"]\nreport_unused_suppressions = true\n[lints]\nconcurrent-same-object = \"deny\"\nall = \"allow\"\n[[wrappers]]\nfunction = \"Client::apply_patch\"\naccess = \"write\"\nname_arg = 0\n",
        )
        .unwrap();
        let c = load_file(&path).unwrap();
        assert_eq!(c.min_confidence, Some(Confidence::Definite));
        assert_eq!(c.batch_checking, Some(true));
        assert_eq!(c.doc_examples, Some(false));
        assert_eq!(c.deps_helpers, Some(false));
        assert_eq!(c.report_unused_suppressions, Some(true));
        assert_eq!(c.levels.level("concurrent-same-object"), Level::Deny);
        assert_eq!(c.wrappers.as_ref().map(Vec::len), Some(1));
        assert!(c.exclude.unwrap().is_match("gen/a/b.rs"));
    }
}
