//! A run in the pool, as a short sequence: settings per crate, the waves of files, the prefilter
//! fixpoint over linked names, then linking and linting each unit ([`super::assemble`]).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::analyse::{ExampleGate, Gate, Job};
use super::schedule::Driver;
use super::{aborted, assemble, Options};
use crate::config::{self, Settings};
use crate::discover::{self, CanonicalPaths};
use crate::model::units::UnitScopes;
use crate::model::{link, FileFacts};
use crate::outcome::{FileError, Report};
use crate::prefilter::{Name, NameKeys};
use crate::source::display_path;

pub(super) fn check_in_pool(
    options: &Options,
    mut resolver: config::Resolver,
    discovery: discover::Discovery,
) -> Report {
    let seed_settings = match settings_per_seed(&mut resolver, &discovery.seeds) {
        Ok(s) => s,
        Err(e) => return aborted(e.file, e.line, e.message),
    };
    let mut report = discovery_report(&discovery);
    report.notes.extend(resolver.take_notes());
    // Lints check batches per crate: asked for by the caller, or by the file's configuration.
    let batch_requested = options.batch_checking;
    let mut options = effective_options(options, &seed_settings);
    let deps = deps_helpers(&discovery.seeds, &seed_settings, options.max_file_size);
    report.notes.extend(deps.notes);
    report.statistics.dependencies_unread = deps.unread.len();
    for w in deps.wrappers {
        if !options.wrappers.contains(&w) {
            options.wrappers.push(w);
        }
    }
    let options = &options;
    let mut driver = Driver::new(discovery.seeds.iter().any(|s| s.follow_modules));
    let wave = seed_jobs(&mut driver, discovery.seeds, seed_settings, options);
    let scopes = driver.scopes(&discovery.member_deps);
    driver.run(
        wave,
        &Gate::new(options, std::iter::empty()),
        &options.wrappers,
    );
    let examples = follow_linked_names(&mut driver, &scopes, options);
    assemble::report(
        &mut report,
        driver,
        scopes,
        &examples,
        options,
        batch_requested,
    );
    report
}

/// What discovery found wrong or left out, as the start of the report.
fn discovery_report(discovery: &discover::Discovery) -> Report {
    let mut report = Report::default();
    report.notes.extend(discovery.notes.iter().cloned());
    report.files_skipped += discovery.skipped;
    for e in &discovery.errors {
        report.files_failed += 1;
        report.errors.push(FileError {
            file: display_path(&e.path),
            line: None,
            column: None,
            message: e.message.clone(),
        });
    }
    report
}

/// Settings per crate, resolved before anything is parsed so that a bad configuration stops
/// the run at once.
fn settings_per_seed(
    resolver: &mut config::Resolver,
    seeds: &[discover::Seed],
) -> Result<Vec<Arc<Settings>>, config::ConfigError> {
    seeds
        .iter()
        .map(|seed| {
            let dir = seed
                .path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            resolver.settings_for_dir(dir)
        })
        .collect()
}

/// Batch checking and wrappers shape the model, which is built once per run: any crate's
/// configuration turning batch checking on turns it on, and every declared wrapper is known.
fn effective_options(options: &Options, seed_settings: &[Arc<Settings>]) -> Options {
    let mut effective = options.clone();
    for s in seed_settings {
        effective.batch_checking |= s.batch_checking;
        for w in &s.wrappers {
            if !effective.wrappers.contains(w) {
                effective.wrappers.push(w.clone());
            }
        }
    }
    effective
}

/// The helpers of the dependencies of the packages checked ([`crate::deps`]), wrappers like
/// the declared ones: for the packages whose settings ask for them.
fn deps_helpers(
    seeds: &[discover::Seed],
    settings: &[Arc<Settings>],
    max_file_size: usize,
) -> crate::deps::DepHelpers {
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
    crate::deps::helpers(&dirs, max_file_size)
}

/// The first wave: one job per seed, in its link unit; files named on the command line (and
/// given texts) are explicit, always parsed.
fn seed_jobs(
    driver: &mut Driver,
    seeds: Vec<discover::Seed>,
    seed_settings: Vec<Arc<Settings>>,
    options: &Options,
) -> Vec<Job> {
    let explicit: HashSet<PathBuf> = options
        .paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .chain(options.texts.iter().map(|(p, _)| p))
        .map(|p| CanonicalPaths::default().get(p))
        .collect();
    let mut wave = Vec::new();
    for (seed, settings) in seeds.into_iter().zip(seed_settings) {
        let unit = driver.unit_of(&seed);
        let job = driver.job(
            seed.path,
            seed.follow_modules,
            seed.owns_directory,
            settings,
            unit,
        );
        if let Some(mut job) = job {
            job.explicit =
                !explicit.is_empty() && explicit.contains(&driver.canonical_paths.get(&job.path));
            wave.push(job);
        }
    }
    wave
}

/// Files without a trigger word may still matter through names used or declared elsewhere
/// in their unit's scope (`self.pods.get(..)`, a call of a helper that makes requests, a
/// const naming an object): parse those that have such a name, until no group has a new name.
/// Names are found once per group of units linked by their scopes (a workspace's members, a
/// crate on its own), over all the group's facts, and gate the files of every unit of the group:
/// more than each unit's scope would give, never fewer, so no file that matters is left out.
/// Finding them per unit, over each unit's scope, was quadratic in a chain of members.
/// The names found last gate the doc examples of each unit (they call the unit's functions):
/// found even when no file was deferred, if some file has examples.
fn follow_linked_names(driver: &mut Driver, scopes: &UnitScopes, options: &Options) -> ExampleGate {
    let group_of = groups(scopes);
    let mut linked: HashMap<usize, BTreeSet<Name>> = HashMap::new();
    loop {
        // With no file left to parse, the names are wanted only for the examples.
        if driver.deferred.is_empty() && !driver.outcomes.iter().any(|(_, o)| o.has_examples()) {
            return ExampleGate::new(options, group_of, &linked, Vec::new());
        }
        let added = grow_linked_names(driver, &group_of, options, &mut linked);
        // A held-back file was searched for every name of its group but those just added.
        let added: HashMap<usize, NameKeys> = added
            .into_iter()
            .map(|(group, names)| (group, NameKeys::new(&names)))
            .collect();
        let (wave, rest) = std::mem::take(&mut driver.deferred)
            .into_iter()
            .partition(|j: &Job| {
                added
                    .get(&group_of[j.unit])
                    .is_some_and(|names| j.may_mention(names))
            });
        driver.deferred = rest;
        driver.changed_units.clear();
        if wave.is_empty() {
            break;
        }
        let units: BTreeSet<usize> = wave.iter().map(|j| j.unit).collect();
        let gate = Gate::new(
            options,
            units
                .iter()
                .filter_map(|&u| linked.get(&group_of[u]).map(|names| (u, names))),
        );
        driver.run(wave, &gate, &options.wrappers);
    }
    for job in &mut driver.deferred {
        job.identifiers = None;
    }
    ExampleGate::new(options, group_of, &linked, driver.crate_names())
}

/// Each unit's group: the units joined by one's scope holding another (union-find).
fn groups(scopes: &UnitScopes) -> Vec<usize> {
    fn root(parent: &mut [usize], mut u: usize) -> usize {
        while parent[u] != u {
            parent[u] = parent[parent[u]];
            u = parent[u];
        }
        u
    }
    let mut parent: Vec<usize> = (0..scopes.len()).collect();
    for unit in 0..scopes.len() {
        for member in scopes.members(unit) {
            let (a, b) = (root(&mut parent, unit), root(&mut parent, member));
            parent[a] = b;
        }
    }
    (0..scopes.len()).map(|u| root(&mut parent, u)).collect()
}

/// The names each group with files parsed in the last pass links to now, added to `linked`:
/// the names added, by group (only groups whose names grew).
fn grow_linked_names(
    driver: &Driver,
    group_of: &[usize],
    options: &Options,
    linked: &mut HashMap<usize, BTreeSet<Name>>,
) -> HashMap<usize, Vec<Name>> {
    let stale: HashSet<usize> = driver.changed_units.iter().map(|&u| group_of[u]).collect();
    let mut facts_by_group: HashMap<usize, Vec<&FileFacts>> = HashMap::new();
    for (_, o) in &driver.outcomes {
        let group = group_of[o.unit];
        if stale.contains(&group) {
            facts_by_group.entry(group).or_default().push(&o.facts);
        }
    }
    let found: Vec<(usize, HashSet<Name>)> = facts_by_group
        .into_par_iter()
        .map(|(group, facts)| {
            let one_scope = group_of.iter().filter(|&&g| g == group).count() == 1;
            let names = link::linked_names(facts.iter().copied(), &options.wrappers, one_scope);
            (group, names)
        })
        .collect();
    let mut added: HashMap<usize, Vec<Name>> = HashMap::new();
    for (group, names) in found {
        let known = linked.entry(group).or_default();
        let new: Vec<Name> = names
            .into_iter()
            .filter(|n| known.insert(n.clone()))
            .collect();
        if !new.is_empty() {
            added.insert(group, new);
        }
    }
    added
}
