//! Which files are analysed when: waves of jobs that follow `mod` items, link units and their
//! scopes.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use super::analyse::{analyse, missing_module, Gate, Job, Outcome};
use crate::config::Settings;
use crate::discover::{self, CanonicalPaths};
use crate::model::units::UnitScopes;
use crate::model::wrappers::WrapperSpec;
use crate::outcome::FileError;
use crate::source::{display_path, FileId};

/// The state of a run between passes over the files.
pub(super) struct Driver {
    pub(super) next_id: AtomicUsize,
    pub(super) seen: HashSet<PathBuf>,
    pub(super) outcomes: Vec<(FileId, Outcome)>,
    /// Files read but not parsed, for the next pass.
    pub(super) deferred: Vec<Job>,
    /// The outcomes of the deferred files whose doc-comment examples are linted (with their
    /// source), by job id: linted as they are unless a later pass parses the file.
    pub(super) examples_only: HashMap<FileId, Outcome>,
    /// Link units by directory ([`discover::Seed::link_unit`]), and each unit's directory.
    pub(super) units: HashMap<PathBuf, usize>,
    unit_dirs: Vec<PathBuf>,
    /// The units each unit depends on directly ([`discover::Seed::link_deps`]), closed into
    /// scopes by [`Driver::scopes`].
    direct: Vec<Vec<usize>>,
    /// Units with files parsed in the last pass: their linked names may have grown.
    pub(super) changed_units: HashSet<usize>,
    pub(super) errors: Vec<FileError>,
    pub(super) notes: Vec<String>,
    /// Missing module files behind `#[cfg]` (skipped, with a note) and missing ones (failed).
    pub(super) skipped: usize,
    pub(super) failed: usize,
    /// Some file loads modules: a module may also be a seed, so paths are compared canonically.
    /// (Seeds come deduplicated from discovery; resolving every path costs system calls.)
    pub(super) follows_modules: bool,
    pub(super) canonical_paths: CanonicalPaths,
    /// Every file given to a job ([`crate::outcome::Report::paths`]).
    pub(super) paths: Vec<PathBuf>,
}

impl Driver {
    /// `follows_modules`: some seed loads its modules ([`Driver::follows_modules`]).
    pub(super) fn new(follows_modules: bool) -> Driver {
        Driver {
            next_id: AtomicUsize::new(0),
            seen: HashSet::new(),
            outcomes: Vec::new(),
            deferred: Vec::new(),
            examples_only: HashMap::new(),
            units: HashMap::new(),
            unit_dirs: Vec::new(),
            direct: Vec::new(),
            changed_units: HashSet::new(),
            errors: Vec::new(),
            notes: Vec::new(),
            skipped: 0,
            failed: 0,
            follows_modules,
            canonical_paths: CanonicalPaths::default(),
            paths: Vec::new(),
        }
    }

    pub(super) fn job(
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
            identifiers: None,
            unit,
        })
    }

    pub(super) fn unit(&mut self, dir: PathBuf) -> usize {
        if let Some(&unit) = self.units.get(&dir) {
            return unit;
        }
        let unit = self.direct.len();
        self.units.insert(dir.clone(), unit);
        self.unit_dirs.push(dir);
        self.direct.push(Vec::new());
        unit
    }

    /// The name each unit's crate is used by from other crates (its doc examples), when known.
    pub(super) fn crate_names(&self) -> Vec<Option<String>> {
        self.unit_dirs
            .iter()
            .map(|dir| discover::crate_name(dir))
            .collect()
    }

    /// The seed's unit, with its direct dependencies.
    pub(super) fn unit_of(&mut self, seed: &discover::Seed) -> usize {
        let unit = self.unit(seed.link_unit.clone());
        self.depends_on(unit, &seed.link_deps);
        unit
    }

    fn depends_on(&mut self, unit: usize, deps: &[PathBuf]) {
        for dep in deps {
            let dep = self.unit(dep.clone());
            // Duplicates (a unit's targets all list its dependencies) go in `scopes`.
            self.direct[unit].push(dep);
        }
    }

    /// Each unit's scope: itself and the units it depends on, directly or not, also through
    /// workspace members that are not checked (`member_deps`: [`discover::Discovery::member_deps`]).
    pub(super) fn scopes(&mut self, member_deps: &HashMap<PathBuf, Vec<PathBuf>>) -> UnitScopes {
        let mut unit = 0;
        // Units are added while their dependencies are looked up.
        while unit < self.direct.len() {
            if let Some(deps) = member_deps.get(&self.unit_dirs[unit]) {
                self.depends_on(unit, deps);
            }
            unit += 1;
        }
        for deps in &mut self.direct {
            deps.sort_unstable();
            deps.dedup();
        }
        UnitScopes::new(&self.direct)
    }

    /// Analyse `wave` and, in further waves, the modules its files load.
    pub(super) fn run(&mut self, mut wave: Vec<Job>, gate: &Gate, wrappers: &[WrapperSpec]) {
        while !wave.is_empty() {
            let done: Vec<(Job, Outcome)> = wave
                .into_par_iter()
                .map(|job| {
                    let outcome = analyse(&job, gate, wrappers);
                    (job, outcome)
                })
                .collect();
            wave = Vec::new();
            for (job, mut outcome) in done {
                self.examples_only.remove(&job.id);
                if outcome.deferred {
                    let identifiers = outcome.identifiers.take();
                    if outcome.source.is_some() {
                        self.examples_only.insert(job.id, outcome);
                    }
                    self.deferred.push(Job {
                        triggers_searched: true,
                        identifiers,
                        ..job
                    });
                    continue;
                }
                if outcome.follow_modules {
                    wave.extend(self.child_jobs(&outcome, job.unit));
                }
                if outcome.parsed {
                    self.changed_units.insert(job.unit);
                }
                self.outcomes.push((job.id, outcome));
            }
        }
    }

    /// Jobs for the modules `outcome`'s file loads; missing module files are noted (behind
    /// `#[cfg]`) or errors.
    fn child_jobs(&mut self, outcome: &Outcome, unit: usize) -> Vec<Job> {
        let mut jobs = Vec::new();
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
                self.errors.push(missing_module(outcome, child));
                continue;
            }
            let child_job = self.job(
                child.path.clone(),
                true,
                child.owns_directory,
                outcome.settings.clone(),
                unit,
            );
            jobs.extend(child_job);
        }
        jobs
    }
}
