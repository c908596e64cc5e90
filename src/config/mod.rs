//! Configuration: lint levels, exclusions, minimum confidence, batch checking and wrapper
//! declarations, from `kube-order-lint.toml`, `.kube-order-lint.toml` and the
//! `[workspace.metadata.kube-order-lint]` / `[package.metadata.kube-order-lint]` tables of
//! `Cargo.toml`, overridden by command-line flags.
//!
//! Lookup ([`Resolver`]): for a crate, starting at the directory of its root file and walking up
//! to the workspace root (a `Cargo.toml` with `[workspace]`) or the repository root (a directory
//! with `.git`), every configuration found is merged key by key, the nearest winning. In one
//! directory `Cargo.toml`'s `workspace` table is the farthest, then its `package` table, then the
//! configuration file. Lint levels add up in that order (a nearer `all` overrides a farther
//! `concurrent-same-object`); `exclude` patterns add up; `[[wrappers]]` of the nearest source that
//! declares any are used. Command-line flags win over every file.

mod load;
mod patterns;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use patterns::Patterns;

use crate::model::wrappers::WrapperSpec;
use crate::model::Confidence;

pub use load::{load_file, ConfigFile};

/// The names of configuration files, in the order they are looked for in a directory.
pub const FILE_NAMES: &[&str] = &["kube-order-lint.toml", ".kube-order-lint.toml"];

pub use crate::lints::Level;

/// The name that stands for every lint in levels and suppressions.
pub const ALL: &str = "all";

/// The name of a lint, or `all`, as written anywhere a lint is named (flags, comments,
/// configuration, baselines): `unawaited_request` is `unawaited-request`, as clippy takes
/// `needless_return` for `needless-return` (`#[allow]` needs the underscores). None when no
/// lint has the name.
pub fn canonical_lint_name(name: &str) -> Option<&'static str> {
    let spelled = name.replace('_', "-");
    if spelled == ALL {
        return Some(ALL);
    }
    crate::lints::find(&spelled).map(|l| l.name)
}

/// "unknown lint `x` (known: a, b, all)", for messages.
pub fn unknown_lint_message(name: &str) -> String {
    let mut known: Vec<&str> = crate::lints::LINTS.iter().map(|l| l.name).collect();
    known.push(ALL);
    format!("unknown lint `{name}` (known: {})", known.join(", "))
}

/// Lint levels in the order they were set: the last setting that names a lint (or `all`) wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    entries: Vec<(String, Level)>,
}

impl Levels {
    pub fn set(&mut self, lint: impl Into<String>, level: Level) {
        self.entries.push((lint.into(), level));
    }

    /// Settings of `other` after (and so over) those of `self`.
    pub fn extend(&mut self, other: &Levels) {
        self.entries.extend(other.entries.iter().cloned());
    }

    /// The level of `lint`: its default level ([`crate::lints::Lint::default_level`]) unless
    /// set.
    pub fn level(&self, lint: &str) -> Level {
        let default = crate::lints::find(lint).map_or(Level::Warn, |l| l.default_level);
        self.entries
            .iter()
            .rev()
            .find(|(name, _)| name == lint || name == ALL)
            .map_or(default, |(_, level)| *level)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// `exclude` patterns, each relative to the directory of the configuration that declared it.
#[derive(Clone, Debug, Default)]
pub struct Exclude {
    sets: Vec<(PathBuf, Patterns)>,
}

impl Exclude {
    /// Is `path` excluded? `path` may be relative to the current directory.
    pub fn matches(&self, path: &Path) -> bool {
        if self.sets.is_empty() {
            return false;
        }
        let path = crate::discover::canonical(path);
        self.sets
            .iter()
            .any(|(base, set)| path.strip_prefix(base).is_ok_and(|rest| set.is_match(rest)))
    }

    fn add(&mut self, base: PathBuf, set: Patterns) {
        self.sets.push((base, set));
    }
}

/// The settings for the files of one crate: configuration sources merged, flags applied.
#[derive(Clone, Debug)]
pub struct Settings {
    pub levels: Levels,
    pub min_confidence: Confidence,
    pub batch_checking: bool,
    /// Lint the Rust examples of doc comments ([`crate::doc_examples`]).
    pub doc_examples: bool,
    /// Summarise the helpers of dependencies that make requests ([`crate::deps`]).
    pub deps_helpers: bool,
    pub exclude: Exclude,
    pub report_unused_suppressions: bool,
    pub wrappers: Vec<WrapperSpec>,
    /// The configuration sources merged, farthest first (for `--show-settings`-like notes).
    pub sources: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            levels: Levels::default(),
            min_confidence: Confidence::Possible,
            batch_checking: false,
            doc_examples: true,
            deps_helpers: true,
            exclude: Exclude::default(),
            report_unused_suppressions: false,
            wrappers: Vec::new(),
            sources: Vec::new(),
        }
    }
}

/// What the command line says; it wins over every file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub levels: Levels,
    pub min_confidence: Option<Confidence>,
    pub report_unused_suppressions: Option<bool>,
    pub batch_checking: Option<bool>,
    pub doc_examples: Option<bool>,
    pub deps_helpers: Option<bool>,
}

/// Where configuration comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ConfigSource {
    /// No files: defaults and overrides only (the library's default, for reproducible tests).
    #[default]
    None,
    /// Look for configuration next to each crate and up to its workspace root.
    Discover,
    /// This file only (`--config FILE`).
    File(PathBuf),
}

/// A configuration that cannot be used: one line, with file and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Resolves and caches the settings of directories.
pub struct Resolver {
    source: ConfigSource,
    overrides: Overrides,
    /// Settings by canonical directory.
    settings: HashMap<PathBuf, Arc<Settings>>,
    /// Settings by directory as given: a walked tree asks once per file, and making a path
    /// canonical costs a system call per component.
    settings_as_given: HashMap<PathBuf, Arc<Settings>>,
    /// The sources found in one canonical directory, and whether the walk stops there.
    sources: HashMap<PathBuf, load::DirSources>,
    /// `--config FILE`, loaded once.
    explicit: Vec<Arc<ConfigFile>>,
    /// Notes of the directories the lookups kept (a table that is not read), each once.
    notes: Vec<String>,
}

impl Resolver {
    pub fn new(source: ConfigSource, overrides: Overrides) -> Result<Self, ConfigError> {
        let explicit = match &source {
            ConfigSource::File(path) => load::load_explicit(path)?,
            _ => Vec::new(),
        };
        Ok(Resolver {
            source,
            overrides,
            settings: HashMap::new(),
            settings_as_given: HashMap::new(),
            sources: HashMap::new(),
            explicit,
            notes: Vec::new(),
        })
    }

    /// What the lookups so far found but do not read, each once; taken.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The settings for files of the crate whose root file lies in `dir`.
    pub fn settings_for_dir(&mut self, dir: &Path) -> Result<Arc<Settings>, ConfigError> {
        if let Some(s) = self.settings_as_given.get(dir) {
            return Ok(s.clone());
        }
        let settings = self.settings_for_canonical_dir(dir)?;
        self.settings_as_given
            .insert(dir.to_path_buf(), settings.clone());
        Ok(settings)
    }

    fn settings_for_canonical_dir(&mut self, dir: &Path) -> Result<Arc<Settings>, ConfigError> {
        let dir = crate::discover::canonical(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        });
        if let Some(s) = self.settings.get(&dir) {
            return Ok(s.clone());
        }
        let chain: Vec<Arc<ConfigFile>> = match self.source.clone() {
            ConfigSource::None => Vec::new(),
            ConfigSource::File(_) => self.explicit.clone(),
            ConfigSource::Discover => self.chain(&dir)?,
        };
        let settings = Arc::new(merge(&chain, &self.overrides));
        self.settings.insert(dir, settings.clone());
        Ok(settings)
    }

    /// Sources from `dir` up to the workspace or repository root, farthest first. Outside any
    /// repository or workspace, up to the nearest package root only (or `dir` alone): a crate
    /// checked in a home or temporary directory does not pick up a stranger's configuration
    /// from the directories above it.
    fn chain(&mut self, dir: &Path) -> Result<Vec<Arc<ConfigFile>>, ConfigError> {
        let mut kept: Vec<&Path> = Vec::new();
        let mut package_at = None;
        let mut rooted = false;
        for ancestor in dir.ancestors() {
            let found = self
                .sources
                .entry(ancestor.to_path_buf())
                .or_insert_with(|| load::sources_in(ancestor));
            if found.package && package_at.is_none() {
                package_at = Some(kept.len());
            }
            kept.push(ancestor);
            if found.stop {
                rooted = true;
                break;
            }
        }
        if !rooted {
            kept.truncate(package_at.unwrap_or(0) + 1);
        }
        let mut nearest_first = Vec::new();
        for ancestor in kept {
            let found = &self.sources[ancestor];
            if let Some(e) = &found.error {
                return Err(e.clone());
            }
            for note in &found.notes {
                if !self.notes.contains(note) {
                    self.notes.push(note.clone());
                }
            }
            nearest_first.extend(found.files.iter().rev().cloned());
        }
        nearest_first.reverse();
        Ok(nearest_first)
    }
}

/// Merge sources (farthest first) and the command line.
fn merge(chain: &[Arc<ConfigFile>], overrides: &Overrides) -> Settings {
    let mut s = Settings::default();
    for file in chain {
        s.levels.extend(&file.levels);
        if let Some(c) = file.min_confidence {
            s.min_confidence = c;
        }
        if let Some(b) = file.batch_checking {
            s.batch_checking = b;
        }
        if let Some(d) = file.doc_examples {
            s.doc_examples = d;
        }
        if let Some(d) = file.deps_helpers {
            s.deps_helpers = d;
        }
        if let Some(set) = &file.exclude {
            s.exclude.add(file.dir.clone(), set.clone());
        }
        if let Some(r) = file.report_unused_suppressions {
            s.report_unused_suppressions = r;
        }
        if let Some(w) = &file.wrappers {
            s.wrappers = w.clone();
        }
        s.sources.push(file.display.clone());
    }
    s.levels.extend(&overrides.levels);
    if let Some(c) = overrides.min_confidence {
        s.min_confidence = c;
    }
    if let Some(r) = overrides.report_unused_suppressions {
        s.report_unused_suppressions = r;
    }
    if let Some(b) = overrides.batch_checking {
        s.batch_checking = b;
    }
    if let Some(d) = overrides.doc_examples {
        s.doc_examples = d;
    }
    if let Some(d) = overrides.deps_helpers {
        s.deps_helpers = d;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_level_that_names_a_lint_wins() {
        let mut l = Levels::default();
        assert_eq!(l.level("concurrent-same-object"), Level::Warn);
        l.set("concurrent-same-object", Level::Deny);
        l.set(ALL, Level::Allow);
        assert_eq!(l.level("concurrent-same-object"), Level::Allow);
        l.set("concurrent-same-object", Level::Warn);
        assert_eq!(l.level("concurrent-same-object"), Level::Warn);
        assert_eq!(l.level("other"), Level::Allow);
    }
}
