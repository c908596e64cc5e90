//! The pipeline: discover files, parse each once (following `mod` items), build its facts, link
//! each crate with the workspace members it depends on ([`discover::Seed::link_unit`]), run the
//! lints. Syntax trees are dropped as soon as a file's facts are built, and the text of a file is
//! kept only when it has something to report on.
//!
//! Files go through a rayon pool, one file per worker at a time, and the texts being parsed at
//! once stay within a budget ([`ParseBudget`]), so memory holds a bounded amount of syntax trees
//! plus the (small) facts of every file parsed. Files are searched for trigger words before they
//! are parsed ([`crate::prefilter`]): those that cannot contribute a fact are read, not parsed,
//! and still count as checked; later passes parse those that use a name their unit links to.
//! Units are linked and linted in parallel. Files too large to parse within the budget are
//! skipped with a note.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use std::sync::Arc;

use crate::config::{self, Level, Settings};
use crate::diagnostic::{Diagnostic, Severity};
use crate::discover::{self, modules::ChildModule, CanonicalPaths};
use crate::doc_examples;
use crate::lints::{self, LintContext};
use crate::model::stats::ModelStatistics;
use crate::model::wrappers::WrapperSpec;
use crate::model::{build, link, scopes, Confidence, FileFacts};
use crate::parse_budget::ParseBudget;
use crate::prefilter::{self, Name, NameUse, Prefilter};
use crate::source::{display_path, FileId, SourceFile};
use crate::suppression::{self, FileSuppressions};

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
    /// Parse every file, also those the trigger-word prefilter would skip (to test the prefilter).
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

/// A file or path that could not be checked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FileError {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    pub message: String,
}

/// Everything a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Sources of the files that diagnostics point into, by id.
    pub sources: Vec<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
    pub errors: Vec<FileError>,
    /// Things the user should know that are not errors.
    pub notes: Vec<String>,
    pub files_checked: usize,
    /// Of the files checked, those that were parsed (the others were ruled out by the prefilter).
    pub files_parsed: usize,
    /// Nothing was checked: the run stopped at the error in `errors` (a configuration that
    /// cannot be used, a package selection that matches nothing).
    pub aborted: bool,
    /// The facts of every file checked, to re-check a file after fixes ([`recheck`]).
    pub linked: LinkedFiles,
    /// Files deliberately not checked: excluded by the configuration, or a missing module file
    /// whose `mod` item is behind `#[cfg]` (with a note).
    pub files_skipped: usize,
    /// Files and paths that could not be checked, each with its entry in `errors`: a file that
    /// could not be read, parsed or analysed, a path that does not exist, a directory that
    /// cannot be listed, a missing module file. (Other errors, such as a malformed suppression
    /// comment, are about files that were checked.)
    pub files_failed: usize,
    /// What the model saw in the files checked (`--statistics`).
    pub statistics: ModelStatistics,
    /// Every source file the run went to read (checked, skipped or failed), as found: files
    /// that `--output` and `--write-baseline` must not overwrite.
    pub paths: Vec<PathBuf>,
}

/// The facts of every file of a run and what reporting on them needs: a file's new text is
/// linked against the others again, and filtered the same way, when `--fix` re-checks it.
#[derive(Debug)]
pub struct LinkedFiles {
    pub facts: Vec<(FileId, FileFacts)>,
    pub displays: HashMap<FileId, String>,
    pub settings: HashMap<FileId, Arc<Settings>>,
    /// The link unit of each file, and each unit's scope (itself and its dependencies): a file
    /// is re-checked against the files of its unit's scope only.
    pub units: HashMap<FileId, usize>,
    pub scopes: Vec<Vec<usize>>,
    pub wrappers: Vec<WrapperSpec>,
    pub min_confidence: Confidence,
    /// Batch checking asked for by the caller (configurations may turn it on per crate).
    pub batch_checking: bool,
}

impl Default for LinkedFiles {
    fn default() -> Self {
        LinkedFiles {
            facts: Vec::new(),
            displays: HashMap::new(),
            settings: HashMap::new(),
            units: HashMap::new(),
            scopes: Vec::new(),
            wrappers: Vec::new(),
            min_confidence: Confidence::Possible,
            batch_checking: false,
        }
    }
}

impl LinkedFiles {
    /// A linker for one file as `check` links it: the files of its unit's scope in the order of
    /// the run, this one with `facts` (its new facts, for `--fix`).
    pub fn linker_for<'a>(&'a self, file: FileId, facts: &'a FileFacts) -> link::Linker<'a> {
        let scope = self.units.get(&file).and_then(|u| self.scopes.get(*u));
        let mut files: Vec<(FileId, &FileFacts)> = self
            .facts
            .iter()
            .filter(|(id, _)| match (scope, self.units.get(id)) {
                (Some(scope), Some(unit)) => scope.contains(unit),
                _ => true,
            })
            .map(|(id, f)| (*id, if *id == file { facts } else { f }))
            .collect();
        if !files.iter().any(|(id, _)| *id == file) {
            files.push((file, facts));
        }
        link::Linker::new(files, self.displays.clone(), &self.wrappers)
    }
}

impl Report {
    pub fn source(&self, id: FileId) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.id == id)
    }
}

/// Stack of the threads that parse and analyse files: syn and the analysis recurse along the
/// syntax tree, and [`crate::parse::MAX_NESTING`] is chosen so that the deepest file it lets
/// through fits in this stack several times over. Only the pages a thread touches are committed.
pub const WORKER_STACK: usize = 256 * 1024 * 1024;

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
        Ok(pool) => pool.install(|| check_in_pool(options, resolver, discovery)),
        Err(e) => aborted(
            "kube-order-lint".to_string(),
            None,
            format!("cannot start a worker thread: {e}"),
        ),
    }
}

/// At most this many worker threads per core: more cannot run at once, and each costs memory
/// and start-up time (`-j 10000` used to spend minutes starting and spinning threads).
pub const MAX_JOBS_PER_CORE: usize = 4;

/// The worker threads for `jobs` (None or 0: rayon's default, one per core or
/// `RAYON_NUM_THREADS`), at most [`MAX_JOBS_PER_CORE`] per core and, when the number of files is
/// known, no more than there are files. None leaves the choice to rayon.
fn worker_count(jobs: Option<usize>, files: Option<usize>) -> Option<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = jobs
        .filter(|&j| j > 0)
        .map(|j| j.min(cores.saturating_mul(MAX_JOBS_PER_CORE)));
    match files {
        Some(files) => {
            let default = || {
                std::env::var("RAYON_NUM_THREADS")
                    .ok()
                    .and_then(|v| v.parse::<usize>().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or(cores)
            };
            Some(asked.unwrap_or_else(default).min(files).max(1))
        }
        None => asked,
    }
}

/// `jobs` threads; None (or 0) for one per core (rayon's default, which honours
/// `RAYON_NUM_THREADS`).
fn worker_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .stack_size(WORKER_STACK)
        .build()
}

/// One file to analyse.
struct Job {
    id: FileId,
    path: PathBuf,
    follow_modules: bool,
    owns_directory: bool,
    /// The settings of the crate the file belongs to.
    settings: Arc<Settings>,
    /// Named on the command line: always parsed, so that its syntax errors are reported.
    explicit: bool,
    /// Already searched for trigger words (and found none): later passes look for names only.
    triggers_searched: bool,
    /// The link unit ([`discover::Seed::link_unit`]) the file belongs to, numbered by the driver.
    unit: usize,
}

/// What analysing one file produced.
struct Outcome {
    path: PathBuf,
    /// Kept only when the file has facts to report on.
    source: Option<SourceFile>,
    facts: FileFacts,
    children: Vec<ChildModule>,
    error: Option<FileError>,
    parent_display: String,
    follow_modules: bool,
    suppressions: FileSuppressions,
    /// Malformed suppression comments and unknown lint names in them.
    suppression_errors: Vec<FileError>,
    settings: Arc<Settings>,
    /// See [`Job::unit`].
    unit: usize,
    parsed: bool,
    /// Read, and not parsed: the prefilter found nothing the model could use. A later pass with
    /// more linked names may parse it after all.
    deferred: bool,
    /// Would have been parsed, but has more code than [`Options::max_file_size`] (its size,
    /// comments aside).
    too_large: Option<usize>,
    /// Findings in the examples of its doc comments ([`doc_findings`]).
    doc_findings: Vec<Diagnostic>,
}

/// Decides which files are parsed.
struct Gate {
    /// Trigger words and declared wrappers; None when every file is parsed.
    prefilter: Option<Prefilter>,
    /// The same, plus the names linked so far in a unit ([`link::linked_names`]), for the units
    /// of a later pass.
    by_unit: HashMap<usize, Prefilter>,
    max_file_size: usize,
    budget: ParseBudget,
    /// [`Options::texts`], by path.
    texts: HashMap<PathBuf, String>,
}

impl Gate {
    /// `linked`: the names each unit of this pass has linked so far.
    fn new<'n>(
        options: &Options,
        linked: impl Iterator<Item = (usize, &'n BTreeSet<Name>)>,
    ) -> Gate {
        // A declared wrapper `Client::apply_patch` is called as `apply_patch`.
        let wrappers: Vec<Name> = options
            .wrappers
            .iter()
            .filter_map(|w| w.function.rsplit("::").next())
            .map(|text| Name::new(text, NameUse::Anywhere))
            .collect();
        let by_unit = if options.no_prefilter {
            HashMap::new()
        } else {
            linked
                .map(|(unit, names)| {
                    let mut all = wrappers.clone();
                    all.extend(names.iter().cloned());
                    (unit, Prefilter::new(&all))
                })
                .collect()
        };
        Gate {
            prefilter: (!options.no_prefilter).then(|| Prefilter::new(&wrappers)),
            by_unit,
            max_file_size: options.max_file_size,
            budget: ParseBudget::new(options.max_file_size),
            texts: options.texts.iter().cloned().collect(),
        }
    }

    fn must_parse(&self, job: &Job, text: &str) -> bool {
        let Some(p) = &self.prefilter else {
            return true;
        };
        let p = self.by_unit.get(&job.unit).unwrap_or(p);
        if job.explicit {
            return true;
        }
        let relevant = if job.triggers_searched {
            p.mentions_names(text)
        } else {
            p.must_parse(text)
        };
        relevant
            || (job.follow_modules && prefilter::may_declare_modules(text))
            // Suppression comments are checked (malformed ones, unused ones) wherever they are.
            || suppression::may_have_suppressions(text)
            // So are the examples of doc comments, which stand on their own.
            || (job.settings.doc_examples && doc_examples::may_matter(text, p))
    }
}

/// The state of a run between passes over the files.
struct Driver {
    next_id: AtomicUsize,
    seen: HashSet<PathBuf>,
    outcomes: Vec<(FileId, Outcome)>,
    /// Files read but not parsed, for the next pass.
    deferred: Vec<Job>,
    /// Link units by directory ([`discover::Seed::link_unit`]).
    units: HashMap<PathBuf, usize>,
    /// Each unit's scope: itself, then the units its calls may reach
    /// ([`discover::Seed::link_deps`]).
    scopes: Vec<Vec<usize>>,
    /// Units with files parsed in the last pass: their linked names may have grown.
    changed_units: HashSet<usize>,
    errors: Vec<FileError>,
    notes: Vec<String>,
    /// Missing module files behind `#[cfg]` (skipped, with a note) and missing ones (failed).
    skipped: usize,
    failed: usize,
    /// Some file loads modules: a module may also be a seed, so paths are compared canonically.
    /// (Seeds come deduplicated from discovery; resolving every path costs system calls.)
    follows_modules: bool,
    canonical_paths: CanonicalPaths,
    /// Every file given to a job ([`Report::paths`]).
    paths: Vec<PathBuf>,
}

impl Driver {
    fn job(
        &mut self,
        path: PathBuf,
        follow_modules: bool,
        owns_directory: bool,
        settings: Arc<Settings>,
        unit: usize,
    ) -> Option<Job> {
        let new = !self.follows_modules || self.seen.insert(self.canonical_paths.get(&path));
        if new {
            self.paths.push(path.clone());
        }
        new.then(|| Job {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            path,
            follow_modules,
            owns_directory,
            settings,
            explicit: false,
            triggers_searched: false,
            unit,
        })
    }

    fn unit(&mut self, dir: PathBuf) -> usize {
        let next = self.units.len();
        let unit = *self.units.entry(dir).or_insert(next);
        if unit == self.scopes.len() {
            self.scopes.push(vec![unit]);
        }
        unit
    }

    /// The seed's unit, with its dependencies added to the unit's scope.
    fn unit_of(&mut self, seed: &discover::Seed) -> usize {
        let unit = self.unit(seed.link_unit.clone());
        for dep in &seed.link_deps {
            let dep = self.unit(dep.clone());
            if !self.scopes[unit].contains(&dep) {
                self.scopes[unit].push(dep);
            }
        }
        unit
    }

    /// Analyse `wave` and, in further waves, the modules its files load.
    fn run(&mut self, mut wave: Vec<Job>, gate: &Gate, wrappers: &[WrapperSpec]) {
        while !wave.is_empty() {
            let done: Vec<(Job, Outcome)> = wave
                .into_par_iter()
                .map(|job| {
                    let outcome = analyse(&job, gate, wrappers);
                    (job, outcome)
                })
                .collect();
            wave = Vec::new();
            for (job, outcome) in done {
                if outcome.deferred {
                    self.deferred.push(Job {
                        triggers_searched: true,
                        ..job
                    });
                    continue;
                }
                if outcome.follow_modules {
                    for child in &outcome.children {
                        if !child.exists && child.conditional {
                            self.skipped += 1;
                            self.notes.push(format!(
                                "{}: module file {} not found; skipped, as its `mod` item is behind #[cfg]",
                                outcome.parent_display,
                                display_path(&child.path)
                            ));
                            continue;
                        }
                        if !child.exists {
                            self.failed += 1;
                            self.errors.push(missing_module(&outcome, child));
                            continue;
                        }
                        let child_job = self.job(
                            child.path.clone(),
                            true,
                            child.owns_directory,
                            outcome.settings.clone(),
                            job.unit,
                        );
                        wave.extend(child_job);
                    }
                }
                if outcome.parsed {
                    self.changed_units.insert(job.unit);
                }
                self.outcomes.push((job.id, outcome));
            }
        }
    }
}

/// A report that says only why nothing was checked.
fn aborted(file: String, line: Option<usize>, message: String) -> Report {
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

fn check_in_pool(
    options: &Options,
    mut resolver: config::Resolver,
    discovery: discover::Discovery,
) -> Report {
    let mut report = Report::default();
    report.notes.extend(discovery.notes);
    report.files_skipped += discovery.skipped;
    for e in discovery.errors {
        report.files_failed += 1;
        report.errors.push(FileError {
            file: display_path(&e.path),
            line: None,
            column: None,
            message: e.message,
        });
    }
    // Settings per crate, resolved before anything is parsed so that a bad configuration stops
    // the run at once.
    let mut seed_settings = Vec::new();
    for seed in &discovery.seeds {
        let dir = seed
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        match resolver.settings_for_dir(dir) {
            Ok(s) => seed_settings.push(s),
            Err(e) => return aborted(e.file, e.line, e.message),
        }
    }
    // Batch checking and wrappers shape the model, which is built once per run: any crate's
    // configuration turning batch checking on turns it on, and every declared wrapper is known.
    let mut effective = options.clone();
    for s in &seed_settings {
        effective.batch_checking |= s.batch_checking;
        for w in &s.wrappers {
            if !effective.wrappers.contains(w) {
                effective.wrappers.push(w.clone());
            }
        }
    }
    // Helpers of dependencies are wrappers too, for every crate whose settings read them.
    let deps = deps_helpers(&discovery.seeds, &seed_settings);
    report.notes.extend(deps.notes);
    for w in deps.wrappers {
        if !effective.wrappers.contains(&w) {
            effective.wrappers.push(w);
        }
    }
    // Lints check batches per crate: asked for by the caller, or by the file's configuration.
    let batch_requested = options.batch_checking;
    let options = &effective;

    let explicit: HashSet<PathBuf> = options
        .paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .chain(options.texts.iter().map(|(p, _)| p))
        .map(|p| CanonicalPaths::default().get(p))
        .collect();
    let mut driver = Driver {
        next_id: AtomicUsize::new(0),
        seen: HashSet::new(),
        outcomes: Vec::new(),
        deferred: Vec::new(),
        units: HashMap::new(),
        scopes: Vec::new(),
        changed_units: HashSet::new(),
        errors: Vec::new(),
        notes: Vec::new(),
        skipped: 0,
        failed: 0,
        follows_modules: discovery.seeds.iter().any(|s| s.follow_modules),
        canonical_paths: CanonicalPaths::default(),
        paths: Vec::new(),
    };
    let mut wave: Vec<Job> = Vec::new();
    for (seed, settings) in discovery.seeds.into_iter().zip(seed_settings) {
        let unit = driver.unit_of(&seed);
        if let Some(mut job) = driver.job(
            seed.path,
            seed.follow_modules,
            seed.owns_directory,
            settings,
            unit,
        ) {
            job.explicit =
                !explicit.is_empty() && explicit.contains(&driver.canonical_paths.get(&job.path));
            wave.push(job);
        }
    }
    driver.run(
        wave,
        &Gate::new(options, std::iter::empty()),
        &options.wrappers,
    );
    // Files without a trigger word may still matter through names used or declared elsewhere
    // in their unit's scope (`self.pods.get(..)`, a call of a helper that makes requests, a
    // const naming an object): parse those that have such a name, until no unit has a new name.
    // A unit's names come from the facts of its scope, and gate the files of every unit in it
    // (a file of a dependency declaring a function of the same name changes how calls resolve).
    let scopes = std::mem::take(&mut driver.scopes);
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); scopes.len()];
    for (unit, scope) in scopes.iter().enumerate() {
        for &member in scope {
            dependents[member].push(unit);
        }
    }
    let mut linked: HashMap<usize, BTreeSet<Name>> = HashMap::new();
    while !driver.deferred.is_empty() {
        let mut facts_by_unit: HashMap<usize, Vec<&FileFacts>> = HashMap::new();
        for (_, o) in &driver.outcomes {
            facts_by_unit.entry(o.unit).or_default().push(&o.facts);
        }
        let stale: Vec<usize> = (0..scopes.len())
            .filter(|&u| scopes[u].iter().any(|m| driver.changed_units.contains(m)))
            .collect();
        let found: Vec<(usize, HashSet<Name>)> = stale
            .into_par_iter()
            .map(|unit| {
                let facts = scopes[unit]
                    .iter()
                    .filter_map(|m| facts_by_unit.get(m))
                    .flatten()
                    .copied();
                (unit, link::linked_names(facts, &options.wrappers))
            })
            .collect();
        let mut grown = HashSet::new();
        for (unit, names) in found {
            let known = linked.entry(unit).or_default();
            let before = known.len();
            known.extend(names);
            if known.len() > before {
                grown.insert(unit);
            }
        }
        // The units whose files the new names may concern.
        let regated: HashSet<usize> = grown
            .iter()
            .flat_map(|&u| scopes[u].iter().copied())
            .collect();
        if regated.is_empty() {
            break;
        }
        let (wave, rest) = std::mem::take(&mut driver.deferred)
            .into_iter()
            .partition(|j: &Job| regated.contains(&j.unit));
        driver.deferred = rest;
        driver.changed_units.clear();
        let gate_names: Vec<(usize, BTreeSet<Name>)> = regated
            .iter()
            .map(|&member| {
                let names = dependents[member]
                    .iter()
                    .filter_map(|u| linked.get(u))
                    .flatten()
                    .cloned()
                    .collect();
                (member, names)
            })
            .collect();
        let gate = Gate::new(options, gate_names.iter().map(|(u, n)| (*u, n)));
        driver.run(wave, &gate, &options.wrappers);
    }
    report.errors.append(&mut driver.errors);
    report.notes.append(&mut driver.notes);
    report.paths = std::mem::take(&mut driver.paths);
    report.files_skipped += driver.skipped;
    report.files_failed += driver.failed;
    // Read and ruled out by the prefilter: checked, unless excluded by the configuration.
    let excluded = driver
        .deferred
        .iter()
        .filter(|j| j.settings.exclude.matches(&j.path))
        .count();
    report.files_skipped += excluded;
    report.files_checked += driver.deferred.len() - excluded;
    let mut outcomes = driver.outcomes;
    outcomes.sort_by_key(|(id, _)| *id);
    let mut too_large = Vec::new();
    outcomes.retain(|(_, o)| match o.too_large {
        Some(size) => {
            report.files_skipped += 1;
            if !o.settings.exclude.matches(&o.path) {
                too_large.push((o.parent_display.clone(), size));
            }
            false
        }
        None => true,
    });
    too_large.sort();
    for (file, size) in too_large {
        report.notes.push(format!(
            "{file} was not checked: it has {} KiB of code, over the {} KiB limit for parsing (generated code?)",
            size / 1024,
            options.max_file_size / 1024
        ));
    }

    // Each unit is linked with its scope, the units in parallel.
    let mut members_of: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, (_, o)) in outcomes.iter().enumerate() {
        members_of.entry(o.unit).or_default().push(i);
    }
    let linted: HashMap<usize, Result<(Vec<Diagnostic>, ModelStatistics), String>> = members_of
        .par_iter()
        .flat_map_iter(|(&unit, members)| {
            let mut in_scope: Vec<usize> = scopes[unit]
                .iter()
                .filter_map(|member| members_of.get(member))
                .flatten()
                .copied()
                .collect();
            // In the order of the run, as linking a unit on its own did.
            in_scope.sort_unstable();
            let linker = link::Linker::new(
                in_scope
                    .iter()
                    .map(|&i| (outcomes[i].0, &outcomes[i].1.facts))
                    .collect(),
                in_scope
                    .iter()
                    .map(|&i| (outcomes[i].0, outcomes[i].1.parent_display.clone()))
                    .collect(),
                &options.wrappers,
            );
            let mut found = Vec::new();
            for &i in members {
                let (id, o) = &outcomes[i];
                if o.settings.exclude.matches(&o.path) {
                    continue;
                }
                let Some(source) = &o.source else { continue };
                let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let model = linker.link(*id);
                    let cx = LintContext {
                        model: &model,
                        source,
                        batch_checking: batch_requested || o.settings.batch_checking,
                    };
                    let mut found = lints::run_all(&cx);
                    found.extend(o.doc_findings.iter().cloned());
                    let found = reported(
                        source,
                        &o.suppressions,
                        &o.settings,
                        options.min_confidence,
                        found,
                    );
                    (found, ModelStatistics::of(&model))
                }));
                found.push((i, linted.map_err(|panic| internal_error(&*panic))));
            }
            found
        })
        .collect();
    let mut kept_sources = HashSet::new();
    for (i, (id, o)) in outcomes.iter().enumerate() {
        if o.settings.exclude.matches(&o.path) {
            report.files_skipped += 1;
            // Read only to follow its modules and learn the crate's types; nothing in it is
            // reported.
            continue;
        }
        match &o.error {
            Some(e) => {
                report.files_failed += 1;
                report.errors.push(e.clone());
            }
            None => report.files_checked += 1,
        }
        report.files_parsed += usize::from(o.parsed);
        report.errors.extend(o.suppression_errors.iter().cloned());
        match linted.get(&i) {
            None => {}
            Some(Err(message)) => {
                report.files_checked -= 1;
                report.files_failed += 1;
                report.errors.push(FileError {
                    file: o.parent_display.clone(),
                    line: None,
                    column: None,
                    message: message.clone(),
                });
            }
            Some(Ok((found, stats))) => {
                report.statistics.add(stats);
                if !found.is_empty() {
                    report.diagnostics.extend(found.iter().cloned());
                    kept_sources.insert(*id);
                }
            }
        }
    }
    drop(linted);
    report.linked.wrappers = options.wrappers.clone();
    report.linked.min_confidence = options.min_confidence;
    report.linked.batch_checking = batch_requested;
    report.linked.scopes = scopes;
    for (id, o) in outcomes {
        if kept_sources.contains(&id) {
            report.sources.extend(o.source);
        }
        report.linked.displays.insert(id, o.parent_display);
        report.linked.settings.insert(id, o.settings);
        report.linked.units.insert(id, o.unit);
        report.linked.facts.push((id, o.facts));
    }
    sort_diagnostics(&mut report);
    report
}

/// What is reported of a file's findings: suppressed ones and those below the minimum
/// confidence dropped, each at its configured level, plus unused suppressions when asked for.
fn reported(
    source: &SourceFile,
    suppressions: &FileSuppressions,
    settings: &Settings,
    min_confidence: Confidence,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let (found, used) = suppression::apply(source, suppressions, found);
    let min_confidence = min_confidence.max(settings.min_confidence);
    let mut found: Vec<Diagnostic> = found
        .into_iter()
        .filter(|d| d.confidence >= min_confidence)
        .filter_map(|d| with_level(d, settings))
        .collect();
    if settings.report_unused_suppressions {
        found.extend(suppression::unused(source, suppressions, &used));
    }
    found
}

/// The finding at its configured level: dropped when allowed, as the lint reports it when
/// warned (a `possible` finding is a note), an error when denied.
fn with_level(mut d: Diagnostic, settings: &Settings) -> Option<Diagnostic> {
    match settings.levels.level(d.lint) {
        Level::Allow => None,
        Level::Warn => Some(d),
        Level::Deny => {
            d.severity = Severity::Error;
            Some(d)
        }
    }
}

/// Findings in path order, then by position, as users read them.
fn sort_diagnostics(report: &mut Report) {
    let display: std::collections::HashMap<FileId, String> = report
        .sources
        .iter()
        .map(|s| (s.id, s.display.clone()))
        .collect();
    report.diagnostics.sort_by(|a, b| {
        let pa = display.get(&a.primary.span.file);
        let pb = display.get(&b.primary.span.file);
        pa.cmp(&pb).then_with(|| a.sort_key().cmp(&b.sort_key()))
    });
    report
        .errors
        .sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
}

fn missing_module(parent: &Outcome, child: &ChildModule) -> FileError {
    let (line, column) = parent
        .source
        .as_ref()
        .map(|s| s.line_col(child.decl.start))
        .map_or((None, None), |(l, c)| (Some(l), Some(c)));
    FileError {
        file: parent.parent_display.clone(),
        line,
        column,
        message: match crate::read::not_regular(&child.path) {
            // Says what is there instead: a FIFO, a dangling link, a loop of links.
            Some(why) if why != "does not exist" => format!(
                "file not found for module: {}: {why}",
                display_path(&child.path)
            ),
            _ => format!(
                "file not found for module: {} does not exist",
                display_path(&child.path)
            ),
        },
    }
}

/// Read, parse and build the facts of one file. Never panics: a panic in the analysis is turned
/// into an error for this file.
fn analyse(job: &Job, gate: &Gate, wrappers: &[WrapperSpec]) -> Outcome {
    let display = display_path(&job.path);
    let outcome = |error: Option<FileError>| Outcome {
        path: job.path.clone(),
        source: None,
        facts: FileFacts::default(),
        children: Vec::new(),
        error,
        parent_display: display.clone(),
        follow_modules: false,
        suppressions: FileSuppressions::default(),
        suppression_errors: Vec::new(),
        settings: job.settings.clone(),
        unit: job.unit,
        parsed: false,
        deferred: false,
        too_large: None,
        doc_findings: Vec::new(),
    };
    let failed = |message: String, line: Option<usize>, column: Option<usize>| {
        outcome(Some(FileError {
            file: display.clone(),
            line,
            column,
            message,
        }))
    };
    let text = match gate.texts.get(&job.path) {
        Some(text) => text.clone(),
        None => match read_source(&job.path) {
            Ok(t) => t,
            Err(message) => return failed(message, None, None),
        },
    };
    if !gate.must_parse(job, &text) {
        return Outcome {
            deferred: true,
            ..outcome(None)
        };
    }
    // Comments do not grow the syntax tree: a large file of mostly comments is parsed.
    let weight = if text.len() > gate.max_file_size {
        prefilter::code_size(&text)
    } else {
        text.len()
    };
    if weight > gate.max_file_size {
        return Outcome {
            too_large: Some(weight),
            ..outcome(None)
        };
    }
    let reservation = gate.budget.reserve(weight);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        #[cfg(test)]
        tests::panic_if_asked(&text);
        analyse_text(job.id, &job.path, text, job.owns_directory, wrappers)
    }));
    drop(reservation);
    // Spans of this file are no longer needed; free proc-macro2's per-thread source map.
    proc_macro2::extra::invalidate_current_thread_spans();
    match result {
        Ok(Ok(analysed)) => {
            let Analysed {
                source,
                facts,
                children,
                suppressions,
                suppression_errors,
            } = analysed;
            let doc_findings = doc_findings(&source, &job.settings, wrappers);
            // Lints quote source text only around sites and direct requests; files with
            // nothing but helper calls contribute facts, not text. Suppressions need the text
            // to be matched (and reported when unused).
            let keep = !facts.sites.is_empty()
                || !doc_findings.is_empty()
                || facts
                    .requests
                    .iter()
                    .any(|r| matches!(r.kind, crate::model::RawKind::Api(_)))
                || !suppressions.is_empty()
                || !children.iter().all(|c| c.exists)
                || blocks_in_async(&facts);
            Outcome {
                path: job.path.clone(),
                source: keep.then_some(source),
                facts,
                children,
                error: None,
                parent_display: display.clone(),
                follow_modules: job.follow_modules,
                suppressions,
                suppression_errors,
                settings: job.settings.clone(),
                unit: job.unit,
                parsed: true,
                deferred: false,
                too_large: None,
                doc_findings,
            }
        }
        Ok(Err(e)) => failed(e.message, e.line, e.column),
        Err(panic) => failed(internal_error(&*panic), None, None),
    }
}

/// The error for a file whose analysis panicked: a bug of ours, reported with what the panic
/// said so that the report can be acted on.
fn internal_error(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    let what = what.lines().next().unwrap_or_default();
    format!("internal error: the analysis panicked on this file ({what}); please report it")
}

/// The helpers of the dependencies of the packages checked ([`crate::deps`]): those whose
/// settings ask for them.
fn deps_helpers(seeds: &[discover::Seed], settings: &[Arc<Settings>]) -> crate::deps::DepHelpers {
    let mut dirs: Vec<PathBuf> = seeds
        .iter()
        .zip(settings)
        .filter(|(seed, s)| {
            let unit = &seed.link_unit;
            s.deps_helpers && !unit.as_os_str().is_empty() && unit.join("Cargo.toml").is_file()
        })
        .map(|(seed, _)| seed.link_unit.clone())
        .collect();
    dirs.sort();
    dirs.dedup();
    crate::deps::helpers(&dirs)
}

/// The findings of a file's doc-comment examples, each checked on its own, when its settings ask
/// for them.
fn doc_findings(
    source: &SourceFile,
    settings: &Settings,
    wrappers: &[WrapperSpec],
) -> Vec<Diagnostic> {
    if !settings.doc_examples {
        return Vec::new();
    }
    doc_examples::check(source, wrappers, settings.batch_checking).diagnostics
}

/// The file may block in async code: it makes blocking calls, or calls functions of the crate
/// (which may block) from async code.
fn blocks_in_async(facts: &FileFacts) -> bool {
    !facts.blocking.is_empty()
        || facts.requests.iter().any(|r| {
            matches!(r.kind, crate::model::RawKind::Helper(_))
                && facts
                    .bodies
                    .get(r.body as usize)
                    .is_some_and(|b| b.kind.is_async())
        })
}

struct Analysed {
    source: SourceFile,
    facts: FileFacts,
    children: Vec<ChildModule>,
    suppressions: FileSuppressions,
    suppression_errors: Vec<FileError>,
}

fn analyse_text(
    id: FileId,
    path: &Path,
    text: String,
    owns_directory: bool,
    wrappers: &[WrapperSpec],
) -> Result<Analysed, FileError> {
    // Positions are counted without a byte order mark, as the parser sees the text.
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    let source = SourceFile::new(id, path.to_path_buf(), text);
    let file = crate::parse::parse_file(&source.text).map_err(|e| FileError {
        file: source.display.clone(),
        line: Some(e.line),
        column: Some(e.column),
        message: e.message,
    })?;
    let facts = build::build_with_wrappers(&source, &file, wrappers);
    let children = discover::modules::child_modules(&source, &file, owns_directory);
    let (comments, suppression_errors) = suppression::parse(&source);
    let suppressions = FileSuppressions {
        // Scopes matter only to files with suppressions; most have none.
        scopes: if comments.is_empty() {
            Vec::new()
        } else {
            scopes::scopes(&source, &file)
        },
        comments,
    };
    Ok(Analysed {
        source,
        facts,
        children,
        suppressions,
        suppression_errors,
    })
}

/// Analyse one source text on its own (no module following): the entry point for tests, fuzzing
/// and integrations. The analysis runs on a thread of its own with a [`WORKER_STACK`] stack; a
/// panic (a bug) is passed on to the caller, so that tests and fuzzers see it.
pub fn check_text(path: &Path, text: &str) -> Report {
    on_worker_stack(|| check_text_on_current_thread(path, text))
}

/// [`check_text`] on the calling thread, whose stack must hold the analysis: [`WORKER_STACK`]
/// bytes always do. For callers that run it on threads of their own (the fuzz targets).
pub fn check_text_on_current_thread(path: &Path, text: &str) -> Report {
    let mut report = Report::default();
    match analyse_text(0, path, text.to_string(), false, &[]) {
        Err(e) => {
            report.files_failed = 1;
            report.errors.push(e);
        }
        Ok(analysed) => {
            let Analysed {
                source,
                facts,
                suppressions,
                suppression_errors,
                ..
            } = analysed;
            report.files_checked = 1;
            report.files_parsed = 1;
            report.errors.extend(suppression_errors);
            let model = link::link_single(0, &facts, &source.display);
            let cx = LintContext {
                model: &model,
                source: &source,
                batch_checking: false,
            };
            let mut found = lints::run_all(&cx);
            found.extend(doc_findings(&source, &Settings::default(), &[]));
            report.diagnostics = suppression::apply(&source, &suppressions, found).0;
            report.statistics = ModelStatistics::of(&model);
            report
                .diagnostics
                .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            report.linked.displays.insert(0, source.display.clone());
            report.linked.facts.push((0, facts));
            report.sources.push(source);
        }
    }
    proc_macro2::extra::invalidate_current_thread_spans();
    report
}

/// Check a new text of a file of `report` (same id and path), linked against the same crate's
/// other files and filtered as the run filtered it (suppressions, confidence, levels): how
/// `--fix` re-checks a file between rounds. The result holds this one file and what would be
/// reported on it; a text that does not parse is an error with its position.
pub fn recheck(report: &Report, file: &SourceFile, text: &str) -> Result<Report, FileError> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let linked = &report.linked;
        let analysed = analyse_text(
            file.id,
            &file.path,
            text.to_string(),
            false,
            &linked.wrappers,
        )?;
        let linker = linked.linker_for(file.id, &analysed.facts);
        let model = linker.link(file.id);
        let default_settings = Settings::default();
        let settings = linked
            .settings
            .get(&file.id)
            .map_or(&default_settings, |s| s.as_ref());
        let cx = LintContext {
            model: &model,
            source: &analysed.source,
            batch_checking: linked.batch_checking || settings.batch_checking,
        };
        let mut found = lints::run_all(&cx);
        found.extend(doc_findings(&analysed.source, settings, &linked.wrappers));
        let mut found = reported(
            &analysed.source,
            &analysed.suppressions,
            settings,
            linked.min_confidence,
            found,
        );
        drop(linker);
        found.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        Ok(Report {
            diagnostics: found,
            sources: vec![analysed.source],
            files_checked: 1,
            files_parsed: 1,
            ..Report::default()
        })
    }));
    proc_macro2::extra::invalidate_current_thread_spans();
    result.unwrap_or_else(|panic| {
        Err(FileError {
            file: file.display.clone(),
            line: None,
            column: None,
            message: internal_error(&*panic),
        })
    })
}

/// Run `f` on a new thread with a [`WORKER_STACK`]-sized stack, for analyses started outside
/// [`check`]'s workers (syn and the analysis recurse along the syntax tree). A panic in `f` is
/// passed on to the caller. Should no thread be available, `f` runs on the caller's thread.
pub fn on_worker_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let f = std::sync::Mutex::new(Some(f));
    let take = || f.lock().unwrap_or_else(|e| e.into_inner()).take();
    let spawned = std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("kube-order-lint analysis".to_string())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, || take().map(|f| f()))?;
        Ok::<_, std::io::Error>(handle.join())
    });
    match spawned {
        Ok(Ok(Some(value))) => value,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // The thread did not start, or did not take `f`.
        Ok(Ok(None)) | Err(_) => match take() {
            Some(f) => f(),
            None => unreachable!("the analysis thread took the closure and returned"),
        },
    }
}

fn read_source(path: &Path) -> Result<String, String> {
    let bytes = crate::read::read_file(path, crate::read::MAX_SOURCE_BYTES)?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or_default();
        let line = valid.matches('\n').count() + 1;
        let column = valid.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        format!("file is not valid UTF-8 (invalid byte at line {line}, column {column}, byte offset {at})")
    })?;
    // A byte-order mark is not part of the code; rustc ignores it too.
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

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
