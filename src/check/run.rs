//! A run in the pool: settings per crate, the waves of files, the prefilter fixpoint, linking
//! and linting each unit, and the report.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use rayon::prelude::*;

use super::analyse::internal_error;
use super::analyse::{Gate, Job};
use super::schedule::Driver;
use super::{aborted, Options};
use crate::config;
use crate::diagnostic::Diagnostic;
use crate::discover::{self, CanonicalPaths};
use crate::lints::{self, LintContext};
use crate::model::stats::ModelStatistics;
use crate::model::{link, FileFacts};
use crate::outcome::{FileError, Report};
use crate::policy::reported;
use crate::prefilter::Name;
use crate::source::{display_path, FileId};

pub(super) fn check_in_pool(
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
                    let found = reported(
                        source,
                        &o.suppressions,
                        &o.settings,
                        options.min_confidence,
                        lints::run_all(&cx),
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
