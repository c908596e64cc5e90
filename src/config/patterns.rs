//! The `exclude` patterns of one configuration file, compiled once and only where needed.
//!
//! A `GlobSet` compiles each pattern with a wildcard into a regular expression up front: 200,000
//! patterns took 16 seconds and 2 GB before the first file was checked. A pattern can only match
//! paths that start with its literal directories (`gen/a/` for `gen/a/**/*.rs`), so patterns are
//! grouped by those, and a group is compiled into a set of its own the first time a path under
//! its directories is asked about. Patterns without a literal directory are compiled at once.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// Shared, so that the settings of every crate can hold the patterns of a configuration.
#[derive(Clone, Debug)]
pub struct Patterns(Arc<Groups>);

#[derive(Debug)]
struct Groups {
    anywhere: GlobSet,
    /// By literal directory prefix, with its `/` (`gen/a/`).
    by_prefix: HashMap<String, Group>,
}

#[derive(Debug)]
struct Group {
    patterns: Vec<String>,
    set: OnceLock<GlobSet>,
}

/// One pattern as `exclude` reads it: `*` and `?` stop at `/`, `**` crosses directories.
pub fn glob(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern).literal_separator(true).build()
}

impl Patterns {
    /// Patterns already checked with [`glob`].
    pub fn new(patterns: &[&str]) -> Result<Patterns, globset::Error> {
        let mut anywhere = Vec::new();
        let mut by_prefix: HashMap<String, Group> = HashMap::new();
        for &p in patterns {
            match literal_directories(p) {
                "" => anywhere.push(p.to_string()),
                prefix => {
                    let group = by_prefix
                        .entry(prefix.to_string())
                        .or_insert_with(|| Group {
                            patterns: Vec::new(),
                            set: OnceLock::new(),
                        });
                    group.patterns.push(p.to_string());
                }
            }
        }
        Ok(Patterns(Arc::new(Groups {
            anywhere: compile(&anywhere)?,
            by_prefix,
        })))
    }

    /// Does a pattern match `path` (relative to the configuration's directory)?
    pub fn is_match(&self, path: impl AsRef<Path>) -> bool {
        let path = path.as_ref();
        let groups = &self.0;
        if groups.anywhere.is_match(path) {
            return true;
        }
        if groups.by_prefix.is_empty() {
            return false;
        }
        // Paths are matched with `/` separators, as globset matches them.
        let text = path
            .to_string_lossy()
            .replace(std::path::MAIN_SEPARATOR, "/");
        text.match_indices('/').any(|(end, _)| {
            groups
                .by_prefix
                .get(&text[..=end])
                .is_some_and(|g| g.set().is_match(path))
        })
    }
}

impl Group {
    fn set(&self) -> &GlobSet {
        // The patterns compiled at load time: a second compilation cannot fail.
        self.set
            .get_or_init(|| compile(&self.patterns).unwrap_or_else(|_| GlobSet::empty()))
    }
}

fn compile(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        builder.add(glob(p)?);
    }
    builder.build()
}

/// The most wildcards (`*`, `?`) the patterns without a literal directory may hold together:
/// they are compiled into one matcher at load time, whose size grows with them (3,000 patterns
/// of twelve wildcards took 0.9 s and 60 MiB; 9,000 ran out of room after 1.8 s, 180,000 after
/// 32 s and 9.9 GB).
pub const MAX_WILDCARDS_AT_ONCE: usize = 40_000;

/// How many wildcards the patterns without a literal directory hold, those compiled at once.
pub fn wildcards_at_once(patterns: &[&str]) -> usize {
    patterns
        .iter()
        .filter(|p| literal_directories(p).is_empty())
        .map(|p| p.matches(['*', '?']).count())
        .sum()
}

/// The directories a pattern starts with literally, up to its last `/` before the first
/// character that is not literal (a wildcard, a class, an alternation, an escape).
fn literal_directories(pattern: &str) -> &str {
    let literal = pattern
        .find(['*', '?', '[', '{', '\\'])
        .unwrap_or(pattern.len());
    pattern[..literal].rfind('/').map_or("", |i| &pattern[..=i])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(patterns: &[&str], path: &str) -> bool {
        let ours = Patterns::new(patterns).unwrap().is_match(path);
        // The same answer as one set of every pattern.
        let all: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            ours,
            compile(&all).unwrap().is_match(path),
            "{patterns:?} {path}"
        );
        ours
    }

    #[test]
    fn grouped_patterns_match_as_one_set_does() {
        let patterns = [
            "gen/a/**/*.rs",
            "gen/b/x.rs",
            "**/generated.rs",
            "src/{a,b}/*.rs",
            "gen/c*/y.rs",
            "lit\\*/z.rs",
        ];
        for (path, excluded) in [
            ("gen/a/x.rs", true),
            ("gen/a/d/e/x.rs", true),
            ("gen/ab/x.rs", false),
            ("gen/b/x.rs", true),
            ("gen/b/y.rs", false),
            ("src/generated.rs", true),
            ("src/a/m.rs", true),
            ("src/c/m.rs", false),
            ("gen/cd/y.rs", true),
            ("lit*/z.rs", true),
            ("x.rs", false),
        ] {
            assert_eq!(matches(&patterns, path), excluded, "{path}");
        }
        assert_eq!(literal_directories("gen/a/**/*.rs"), "gen/a/");
        assert_eq!(literal_directories("gen/c*/y.rs"), "gen/");
        assert_eq!(literal_directories("**/x.rs"), "");
    }

    /// Only the group of a path's directories is compiled.
    #[test]
    fn groups_are_compiled_when_a_path_needs_them() {
        let many: Vec<String> = (0..1000).map(|i| format!("gen/d{i}/**/*_{i}.rs")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let patterns = Patterns::new(&refs).unwrap();
        assert!(patterns.is_match("gen/d7/x/a_7.rs"));
        assert!(!patterns.is_match("gen/d7/x/a_8.rs"));
        let compiled = patterns
            .0
            .by_prefix
            .values()
            .filter(|g| g.set.get().is_some());
        assert_eq!(compiled.count(), 1);
    }
}
