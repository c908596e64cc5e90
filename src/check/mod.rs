//! The pipeline: discover files, parse each once (following `mod` items), build its facts, link
//! each crate with the workspace members it depends on ([`discover::Seed::link_unit`]), run the
//! lints. Syntax trees are dropped as soon as a file's facts are built, and the text of a file is
//! kept only when it has something to report on.
//!
//! Files go through a rayon pool, one file per worker at a time, and the texts being parsed at
//! once stay within a budget (`ParseBudget`), so memory holds a bounded amount of syntax trees
//! plus the (small) facts of every file parsed. Files are searched for trigger words before they
//! are parsed ([`crate::prefilter`]): those that cannot contribute a fact are read, not parsed,
//! and still count as checked; later passes parse those that use a name their unit links to.
//! Units are linked and linted in parallel. Files too large to parse within the budget are
//! skipped with a note.
//!
//! - `run.rs`: the run in the pool, as a short sequence of the steps below.
//! - `schedule.rs`: waves of jobs following `mod` items; link units and their scopes.
//! - `analyse.rs`: a job, the gate that decides whether it is parsed, one file analysed, and
//!   which files are linted (derived from the facts the lints declare they read).
//! - `assemble.rs`: each unit linked and its files linted; the report put together.
//! - `lint_file.rs`: the one path of a file through link → lints → policy, also used by
//!   [`check_text`] and [`recheck`] ([`Rechecker`]) (`single.rs`).
//! - `pool.rs`: the worker threads.

mod analyse;
mod assemble;
mod lint_file;
mod pool;
mod run;
mod schedule;
mod single;

use std::path::PathBuf;

use crate::config;
use crate::discover;
use crate::model::Confidence;
use crate::source::display_path;

pub use crate::outcome::{FileError, LinkedFiles, Report};
pub use crate::parse::{on_worker_stack, WORKER_STACK};
pub use pool::MAX_JOBS_PER_CORE;
pub use single::{check_text, check_text_on_current_thread, recheck, Rechecker};

use pool::{worker_count, worker_pool};

/// What to check and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub paths: Vec<PathBuf>,
    /// Worker threads; None for all cores.
    pub jobs: Option<usize>,
    /// Drop findings below this confidence: a floor under each crate's settings, which default
    /// to `possible` (the command line's `--min-confidence` sets the settings).
    pub min_confidence: Confidence,
    /// Report batches (one request per element of a collection) whose names are derived from
    /// the element as `possible` findings too.
    pub batch_checking: bool,
    /// User-declared request wrappers (see [`crate::model::wrappers`]).
    pub wrappers: Vec<crate::model::wrappers::WrapperSpec>,
    /// Where configuration files come from (see [`crate::config`]); none by default.
    pub config: config::ConfigSource,
    /// Settings that win over configuration files (the command line).
    pub overrides: config::Overrides,
    /// Which packages and targets of a Cargo workspace to check (cargo's flags).
    pub selection: discover::Selection,
    /// Parse every file, also those the trigger-word prefilter would skip, and lint every file
    /// parsed, also those whose facts no lint reads (to test both shortcuts).
    pub no_prefilter: bool,
    /// Files with more code than this (bytes, comments aside) that would have to be parsed are
    /// skipped with a note, and the code parsed at the same time adds up to no more than this: a syntax tree takes 50 to
    /// 125 times the bytes of its text, and generated tables run to megabytes.
    pub max_file_size: usize,
    /// Files whose text is given instead of read (standard input, an editor's buffer): each is
    /// checked as a file named on the command line, with the configuration of its directory.
    /// The path need not exist.
    pub texts: Vec<(PathBuf, String)>,
}

/// See [`Options::max_file_size`]: about 130 MiB of syntax trees at most.
pub const DEFAULT_MAX_FILE_SIZE: usize = 1024 * 1024;

impl Default for Options {
    fn default() -> Self {
        Options {
            paths: vec![PathBuf::from(".")],
            jobs: None,
            min_confidence: Confidence::Unknown,
            batch_checking: false,
            wrappers: Vec::new(),
            config: config::ConfigSource::None,
            overrides: config::Overrides::default(),
            selection: discover::Selection::default(),
            no_prefilter: false,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            texts: Vec::new(),
        }
    }
}

pub fn check(options: &Options) -> Report {
    // Configuration and files first: the pool is sized by the work.
    let resolver = match config::Resolver::new(options.config.clone(), options.overrides.clone()) {
        Ok(r) => r,
        Err(e) => return aborted(e.file, e.line, e.message),
    };
    let mut discovery = match discover::discover_with(&options.paths, &options.selection) {
        Ok(d) => d,
        Err(e) => return aborted(display_path(&e.path), None, e.message),
    };
    for (path, _) in &options.texts {
        discovery.seeds.retain(|s| s.path != *path);
        discovery.seeds.push(discover::Seed {
            path: path.clone(),
            follow_modules: false,
            owns_directory: false,
            link_unit: PathBuf::new(),
            link_deps: Vec::new(),
        });
    }
    // Without modules to follow, every file to check is a seed.
    let files =
        (!discovery.seeds.iter().any(|s| s.follow_modules)).then_some(discovery.seeds.len());
    let threads = worker_count(options.jobs, files);
    match worker_pool(threads).or_else(|_| worker_pool(Some(1))) {
        Ok(pool) => pool.install(|| run::check_in_pool(options, resolver, discovery)),
        Err(e) => aborted(
            "kube-order-lint".to_string(),
            None,
            format!("cannot start a worker thread: {e}"),
        ),
    }
}

/// A report that says only why nothing was checked.
pub(crate) fn aborted(file: String, line: Option<usize>, message: String) -> Report {
    Report {
        errors: vec![FileError {
            file,
            line,
            column: None,
            message,
        }],
        aborted: true,
        ..Report::default()
    }
}

#[cfg(test)]
mod tests {
    use super::analyse::read_source;
    use super::*;
    use std::path::Path;

    #[test]
    fn the_worker_count_is_capped_by_the_machine_and_the_files() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(
            worker_count(Some(10_000), None),
            Some(cores * MAX_JOBS_PER_CORE)
        );
        assert_eq!(worker_count(Some(10_000), Some(3)), Some(3.min(cores * 4)));
        assert_eq!(worker_count(Some(2), Some(0)), Some(1));
        assert_eq!(worker_count(None, None), None);
        assert_eq!(worker_count(Some(0), None), None);
        if std::env::var_os("RAYON_NUM_THREADS").is_none() {
            assert_eq!(worker_count(None, Some(1000)), Some(cores));
            assert_eq!(worker_count(None, Some(1)), Some(1));
        }
    }

    #[test]
    fn jobs_set_the_threads_and_default_to_every_core() {
        assert_eq!(worker_pool(Some(3)).unwrap().current_num_threads(), 3);
        if std::env::var_os("RAYON_NUM_THREADS").is_none() {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            assert_eq!(worker_pool(None).unwrap().current_num_threads(), cores);
        }
    }

    /// Marker that makes the analysis of a file panic, in unit tests only: no input is known to
    /// make it panic, and the last line of defence still needs a test.
    const PANIC_MARKER: &str = "// unit test: panic here";

    pub(super) fn panic_if_asked(text: &str) {
        if text.contains(PANIC_MARKER) {
            panic!("asked to by a unit test");
        }
    }

    #[test]
    fn a_panic_is_an_internal_error_for_that_file_and_other_files_are_still_checked() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("a_bad.rs");
        let good = dir.path().join("b_good.rs");
        std::fs::write(&bad, format!("fn f() {{}}\n{PANIC_MARKER}\n")).unwrap();
        std::fs::write(&good, "fn g() {}\n").unwrap();
        let report = check(&Options {
            paths: vec![dir.path().to_path_buf()],
            jobs: Some(1),
            // Neither file has a trigger word: make sure both are analysed.
            no_prefilter: true,
            ..Options::default()
        });
        assert_eq!(report.files_checked, 1);
        assert_eq!(report.files_failed, 1);
        let e = &report.errors[0];
        assert!(e.file.ends_with("a_bad.rs"), "{e:?}");
        assert_eq!(
            e.message,
            "internal error: the analysis panicked on this file (asked to by a unit test); \
             please report it"
        );
    }

    #[test]
    fn crates_of_a_walked_directory_are_linked_apart() {
        // `beta` calls an `update` it does not define (a dependency's): it is not `alpha`'s.
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("alpha/Cargo.toml", "[package]\nname = \"alpha\"\n");
        write(
            "alpha/src/lib.rs",
            "use kube::Api;\nuse k8s_openapi::api::core::v1::Pod;\n\
             pub async fn update(pods: &Api<Pod>) { let _ = pods.replace(\"web\", &pp, &p).await; }\n",
        );
        write("beta/Cargo.toml", "[package]\nname = \"beta\"\n");
        write(
            "beta/src/lib.rs",
            "pub async fn run(c: &Ctx) { tokio::join!(update(c), update(c)); }\n",
        );
        let linked_apart = check(&Options {
            paths: vec![dir.path().to_path_buf()],
            ..Options::default()
        });
        assert_eq!(linked_apart.errors, vec![]);
        assert_eq!(linked_apart.files_checked, 2);
        assert_eq!(linked_apart.diagnostics.len(), 0);
        // Files named on the command line are linked together: then `update` is taken for
        // `alpha`'s, and the join races it.
        let named = check(&Options {
            paths: vec![
                dir.path().join("beta/src/lib.rs"),
                dir.path().join("alpha/src/lib.rs"),
            ],
            ..Options::default()
        });
        assert_eq!(named.diagnostics.len(), 1, "{:?}", named.diagnostics);
    }

    #[test]
    fn check_text_survives_nesting_that_would_overflow_a_small_stack() {
        // Deep enough to overflow a default 2 MiB thread stack, within MAX_NESTING.
        let depth = crate::parse::MAX_NESTING - 100;
        let text = format!("fn f() {{ {}1{} }}", "[".repeat(depth), "]".repeat(depth));
        let report = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || check_text(Path::new("deep.rs"), &text))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(report.errors, vec![]);
        assert_eq!(report.files_checked, 1);
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.rs");
        std::fs::write(&path, b"fn f() {}\n// caf\xe9\n").unwrap();
        assert_eq!(
            read_source(&path).unwrap_err(),
            "file is not valid UTF-8 (invalid byte at line 2, column 7, byte offset 16)"
        );
    }
}
