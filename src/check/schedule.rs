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
    /// Link units by directory ([`discover::Seed::link_unit`]).
    pub(super) units: HashMap<PathBuf, usize>,
    /// Each unit's scope: itself, then the units its calls may reach
    /// ([`discover::Seed::link_deps`]).
    pub(super) scopes: Vec<Vec<usize>>,
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
            scopes: Vec::new(),
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
            unit,
        })
    }

    pub(super) fn unit(&mut self, dir: PathBuf) -> usize {
        let next = self.units.len();
        let unit = *self.units.entry(dir).or_insert(next);
        if unit == self.scopes.len() {
            self.scopes.push(vec![unit]);
        }
        unit
    }

    /// The seed's unit, with its dependencies added to the unit's scope.
    pub(super) fn unit_of(&mut self, seed: &discover::Seed) -> usize {
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
            for (job, outcome) in done {
                self.examples_only.remove(&job.id);
                if outcome.deferred {
                    if outcome.source.is_some() {
                        self.examples_only.insert(job.id, outcome);
                    }
                    self.deferred.push(Job {
                        triggers_searched: true,
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
