//! The end of a run: what the waves counted, each unit linked with its scope and its files linted
//! ([`super::lint_file`]), and the report put together: counters, notes, kept sources, the facts
//! `--fix` needs, findings in reading order.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use super::analyse::{internal_error, ExampleGate, Outcome};
use super::lint_file::{self, FileToLint, Linted};
use super::schedule::Driver;
use super::Options;
use crate::diagnostic::Diagnostic;
use crate::doc_examples::Documented;
use crate::model::link;
use crate::model::stats::ModelStatistics;
use crate::model::units::UnitScopes;
use crate::outcome::{FileError, Report};
use crate::source::FileId;
use crate::suppression::RunSuppressions;

/// A file's lint result, by its index in the outcomes: an internal error when linting panicked.
type LintedFiles = HashMap<usize, Result<Linted, String>>;

pub(super) fn report(
    report: &mut Report,
    driver: Driver,
    scopes: UnitScopes,
    examples: &ExampleGate,
    options: &Options,
    batch_requested: bool,
) {
    let outcomes = count_waves(report, driver, options);
    let linted = lint_units(&outcomes, &scopes, examples, options, batch_requested);
    let kept_sources = count_files(report, &outcomes, &linted);
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
    sort_diagnostics(report);
}

/// What the waves found and counted, into the report; the outcomes of the files parsed or
/// failed, in the order of the run, without those too large to parse (named in a note).
fn count_waves(
    report: &mut Report,
    mut driver: Driver,
    options: &Options,
) -> Vec<(FileId, Outcome)> {
    report.errors.append(&mut driver.errors);
    report.notes.append(&mut driver.notes);
    report.paths = std::mem::take(&mut driver.paths);
    report.files_skipped += driver.skipped;
    report.files_failed += driver.failed;
    // Read and ruled out by the prefilter: checked, unless excluded by the configuration. Those
    // with doc-comment examples to lint are counted with the outcomes.
    let examples_only = std::mem::take(&mut driver.examples_only);
    let deferred: Vec<_> = driver
        .deferred
        .iter()
        .filter(|j| !examples_only.contains_key(&j.id))
        .collect();
    let excluded = deferred
        .iter()
        .filter(|j| j.settings.exclude.matches(&j.path))
        .count();
    report.files_skipped += excluded;
    report.files_checked += deferred.len() - excluded;
    let mut outcomes = driver.outcomes;
    outcomes.extend(examples_only);
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
    outcomes
}

/// Each unit linked with its scope, the units in parallel, and its files with a kept source
/// linted; a panic is an internal error for that file. The files of the run are indexed once,
/// and each unit's linker sees those of its scope: indexing each unit's dependencies again
/// made a workspace that is a chain of members quadratic. The examples of the files' doc
/// comments are linked each on its own in its file's unit scope over the same index: they are
/// checked file by file meanwhile, so that a unit with many of them does not keep one worker
/// busy while the others wait.
fn lint_units(
    outcomes: &[(FileId, Outcome)],
    scopes: &UnitScopes,
    gate: &ExampleGate,
    options: &Options,
    batch_requested: bool,
) -> LintedFiles {
    let shared = Arc::new(run_index(outcomes, options));
    let suppressions = RunSuppressions::new(outcomes.iter().filter_map(|(_, o)| {
        let linted = !o.settings.exclude.matches(&o.path);
        Some((o.source.as_ref().filter(|_| linted)?, &o.suppressions))
    }));
    let (found, mut examples) = rayon::join(
        || unit_findings(outcomes, &shared, scopes, &suppressions, batch_requested),
        || {
            example_findings(
                outcomes,
                &shared,
                scopes,
                gate,
                &suppressions,
                batch_requested,
            )
        },
    );
    // Every file's findings are made: a suppression may have covered a part of a finding of
    // another file (see `RunSuppressions`).
    found
        .into_iter()
        .filter_map(|(i, found)| {
            let file = to_lint(&outcomes[i], &suppressions)?;
            let in_examples = examples.remove(&i).unwrap_or(Ok(Vec::new()));
            let linted = found.and_then(|(mut found, statistics)| {
                found.extend(in_examples?);
                let diagnostics = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    lint_file::reported(&file, options.min_confidence, found)
                }))
                .map_err(|panic| internal_error(&*panic))?;
                Ok(Linted {
                    diagnostics,
                    statistics,
                })
            });
            Some((i, linted))
        })
        .collect()
}

/// The file of an outcome as it is linted, unless it is excluded or has no kept source.
fn to_lint<'a>(
    (id, o): &'a (FileId, Outcome),
    run_suppressions: &'a RunSuppressions<'a>,
) -> Option<FileToLint<'a>> {
    if o.settings.exclude.matches(&o.path) {
        return None;
    }
    Some(FileToLint {
        id: *id,
        source: o.source.as_ref()?,
        suppressions: &o.suppressions,
        run_suppressions,
        settings: &o.settings,
    })
}

/// The lints' findings and model statistics of each file linted, by index in `outcomes`.
type UnitFindings = Vec<(usize, Result<(Vec<Diagnostic>, ModelStatistics), String>)>;

fn unit_findings(
    outcomes: &[(FileId, Outcome)],
    shared: &Arc<link::LinkIndex<'_>>,
    scopes: &UnitScopes,
    suppressions: &RunSuppressions<'_>,
    batch_requested: bool,
) -> UnitFindings {
    let mut members_of: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, (_, o)) in outcomes.iter().enumerate() {
        members_of.entry(o.unit).or_default().push(i);
    }
    members_of
        .par_iter()
        .flat_map_iter(|(&unit, members)| {
            let linker = link::Linker::scoped(shared.clone(), link::Scope::Of { unit, scopes });
            let mut found = Vec::new();
            for &i in members {
                let Some(file) = to_lint(&outcomes[i], suppressions) else {
                    continue;
                };
                let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    lint_file::unit_findings(&linker, &file, batch_requested)
                }));
                found.push((i, linted.map_err(|panic| internal_error(&*panic))));
            }
            found
        })
        .collect()
}

/// The findings in the doc-comment examples of each file linted, by index in `outcomes`.
fn example_findings(
    outcomes: &[(FileId, Outcome)],
    shared: &Arc<link::LinkIndex<'_>>,
    scopes: &UnitScopes,
    gate: &ExampleGate,
    suppressions: &RunSuppressions<'_>,
    batch_requested: bool,
) -> HashMap<usize, Result<Vec<Diagnostic>, String>> {
    (0..outcomes.len())
        .into_par_iter()
        .filter_map(|i| {
            let file = to_lint(&outcomes[i], suppressions)?;
            let unit = outcomes[i].1.unit;
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let linker = link::Linker::scoped(shared.clone(), link::Scope::Of { unit, scopes });
                let documented = Documented {
                    linker: &linker,
                    crate_name: gate.crate_name(unit),
                };
                let prefilter = gate.of_unit(unit);
                lint_file::example_findings(&file, &documented, prefilter, batch_requested)
            }));
            Some((i, found.map_err(|panic| internal_error(&*panic))))
        })
        .collect()
}

/// Each file's counters, errors, findings and statistics, into the report; the files whose
/// sources the findings point into.
fn count_files(
    report: &mut Report,
    outcomes: &[(FileId, Outcome)],
    linted: &LintedFiles,
) -> HashSet<FileId> {
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
            Some(Ok(linted)) => {
                report.statistics.add(&linted.statistics);
                if !linted.diagnostics.is_empty() {
                    report
                        .diagnostics
                        .extend(linted.diagnostics.iter().cloned());
                    kept_sources.insert(*id);
                }
            }
        }
    }
    // A finding may point into other files than the one it is made in (a write of a helper
    // that a controller's reconciles make; see `Diagnostic::site`): their sources are kept,
    // a finding whose primary file has no text kept stands at its site, and labels in such
    // files are dropped.
    let with_text: HashSet<FileId> = outcomes
        .iter()
        .filter(|(_, o)| o.source.is_some())
        .map(|(id, _)| *id)
        .collect();
    for d in &mut report.diagnostics {
        if !with_text.contains(&d.primary.span.file) {
            d.move_to_site();
        }
        // A label no output could place (every file a lint reads keeps its text: none so far).
        d.secondary.retain(|l| with_text.contains(&l.span.file));
        kept_sources.extend(d.files().filter(|f| with_text.contains(f)));
    }
    kept_sources
}

/// The facts of every file of the run, with their units, in the order of the run (the order a
/// unit's linker sees its scope's files in).
fn run_index<'o>(outcomes: &'o [(FileId, Outcome)], options: &'o Options) -> link::LinkIndex<'o> {
    link::LinkIndex::new(
        outcomes
            .iter()
            .map(|(id, o)| (*id, &o.facts, o.unit))
            .collect(),
        outcomes
            .iter()
            .map(|(id, o)| (*id, o.parent_display.clone()))
            .collect(),
        &options.wrappers,
    )
}

/// Findings in path order, then by position, as users read them.
fn sort_diagnostics(report: &mut Report) {
    let display: HashMap<FileId, String> = report
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
