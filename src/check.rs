//! The pipeline: discover files, parse each once (following `mod` items), build its facts, link
//! the crate, run the lints. Syntax trees are dropped as soon as a file's facts are built, and
//! the text of a file is kept only when it has something to report on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::discover::{self, modules::ChildModule};
use crate::lints::{self, LintContext};
use crate::model::wrappers::WrapperSpec;
use crate::model::{build, link, Confidence, FileFacts};
use crate::source::{display_path, FileId, SourceFile};

/// What to check and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub paths: Vec<PathBuf>,
    /// Worker threads; None for all cores.
    pub jobs: Option<usize>,
    /// Drop findings below this confidence.
    pub min_confidence: Confidence,
    /// Report batches (one request per element of a collection) whose names are derived from
    /// the element as `possible` findings too.
    pub batch_checking: bool,
    /// User-declared request wrappers (see [`crate::model::wrappers`]).
    pub wrappers: Vec<crate::model::wrappers::WrapperSpec>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paths: vec![PathBuf::from(".")],
            jobs: None,
            min_confidence: Confidence::Possible,
            batch_checking: false,
            wrappers: Vec::new(),
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
}

impl Report {
    pub fn source(&self, id: FileId) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.id == id)
    }
}

/// Stack for worker threads: syn recurses on nested expressions.
const WORKER_STACK: usize = 64 * 1024 * 1024;

pub fn check(options: &Options) -> Report {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .stack_size(WORKER_STACK)
        .build();
    match pool {
        Ok(pool) => pool.install(|| check_in_pool(options)),
        Err(_) => check_in_pool(options),
    }
}

/// One file to analyse.
struct Job {
    id: FileId,
    path: PathBuf,
    follow_modules: bool,
    owns_directory: bool,
}

/// What analysing one file produced.
struct Outcome {
    /// Kept only when the file has facts to report on.
    source: Option<SourceFile>,
    facts: FileFacts,
    children: Vec<ChildModule>,
    error: Option<FileError>,
    parent_display: String,
    follow_modules: bool,
}

fn check_in_pool(options: &Options) -> Report {
    let mut report = Report::default();
    let discovery = discover::discover(&options.paths);
    report.notes.extend(discovery.notes);
    for e in discovery.errors {
        report.errors.push(FileError {
            file: display_path(&e.path),
            line: None,
            column: None,
            message: e.message,
        });
    }

    let next_id = AtomicUsize::new(0);
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut wave: Vec<Job> = Vec::new();
    for seed in discovery.seeds {
        if seen.insert(canonical(&seed.path)) {
            wave.push(Job {
                id: next_id.fetch_add(1, Ordering::Relaxed),
                path: seed.path,
                follow_modules: seed.follow_modules,
                owns_directory: seed.owns_directory,
            });
        }
    }

    let mut outcomes: Vec<(FileId, Outcome)> = Vec::new();
    while !wave.is_empty() {
        let done: Vec<(FileId, Outcome)> = wave
            .par_iter()
            .map(|job| (job.id, analyse(job, &options.wrappers)))
            .collect();
        wave = Vec::new();
        for (_, outcome) in &done {
            if !outcome.follow_modules {
                continue;
            }
            for child in &outcome.children {
                if !child.exists && child.conditional {
                    report.notes.push(format!(
                        "{}: module file {} not found; skipped, as its `mod` item is behind #[cfg]",
                        outcome.parent_display,
                        display_path(&child.path)
                    ));
                    continue;
                }
                if !child.exists {
                    report.errors.push(missing_module(outcome, child));
                    continue;
                }
                if seen.insert(canonical(&child.path)) {
                    wave.push(Job {
                        id: next_id.fetch_add(1, Ordering::Relaxed),
                        path: child.path.clone(),
                        follow_modules: true,
                        owns_directory: child.owns_directory,
                    });
                }
            }
        }
        outcomes.extend(done);
    }
    outcomes.sort_by_key(|(id, _)| *id);

    let displays = outcomes
        .iter()
        .map(|(id, o)| (*id, o.parent_display.clone()))
        .collect();
    let linker = link::Linker::new(
        outcomes.iter().map(|(id, o)| (*id, &o.facts)).collect(),
        displays,
        &options.wrappers,
    );
    let mut kept_sources = Vec::new();
    for (id, o) in &outcomes {
        match &o.error {
            Some(e) => report.errors.push(e.clone()),
            None => report.files_checked += 1,
        }
        let Some(source) = &o.source else { continue };
        let model = linker.link(*id);
        let cx = LintContext {
            model: &model,
            source,
        };
        let found: Vec<Diagnostic> = lints::run_all(&cx)
            .into_iter()
            .filter(|d| d.confidence >= options.min_confidence)
            .collect();
        if !found.is_empty() {
            report.diagnostics.extend(found);
            kept_sources.push(*id);
        }
    }
    drop(linker);
    for (id, o) in outcomes {
        if kept_sources.contains(&id) {
            report.sources.extend(o.source);
        }
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
        message: format!(
            "file not found for module: {} does not exist",
            display_path(&child.path)
        ),
    }
}

/// Read, parse and build the facts of one file. Never panics: a panic in the analysis is turned
/// into an error for this file.
fn analyse(job: &Job, wrappers: &[WrapperSpec]) -> Outcome {
    let display = display_path(&job.path);
    let failed = |message: String, line: Option<usize>, column: Option<usize>| Outcome {
        source: None,
        facts: FileFacts::default(),
        children: Vec::new(),
        error: Some(FileError {
            file: display.clone(),
            line,
            column,
            message,
        }),
        parent_display: display.clone(),
        follow_modules: false,
    };
    let text = match read_source(&job.path) {
        Ok(t) => t,
        Err(message) => return failed(message, None, None),
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        analyse_text(job.id, &job.path, text, job.owns_directory, wrappers)
    }));
    // Spans of this file are no longer needed; free proc-macro2's per-thread source map.
    proc_macro2::extra::invalidate_current_thread_spans();
    match result {
        Ok(Ok((source, facts, children))) => {
            // Lints quote source text only around sites and direct requests; files with
            // nothing but helper calls contribute facts, not text.
            let keep = !facts.sites.is_empty()
                || facts
                    .requests
                    .iter()
                    .any(|r| matches!(r.kind, crate::model::RawKind::Api(_)))
                || !children.iter().all(|c| c.exists);
            Outcome {
                source: keep.then_some(source),
                facts,
                children,
                error: None,
                parent_display: display.clone(),
                follow_modules: job.follow_modules,
            }
        }
        Ok(Err(e)) => failed(e.message, e.line, e.column),
        Err(_) => failed(
            "internal error: the analysis panicked on this file (please report it)".into(),
            None,
            None,
        ),
    }
}

type Analysed = (SourceFile, FileFacts, Vec<ChildModule>);

fn analyse_text(
    id: FileId,
    path: &Path,
    text: String,
    owns_directory: bool,
    wrappers: &[WrapperSpec],
) -> Result<Analysed, FileError> {
    let source = SourceFile::new(id, path.to_path_buf(), text);
    let file = syn::parse_file(&source.text).map_err(|e| {
        let start = e.span().start();
        FileError {
            file: source.display.clone(),
            line: Some(start.line.max(1)),
            column: Some(start.column + 1),
            message: e.to_string(),
        }
    })?;
    let facts = build::build_with_wrappers(&source, &file, wrappers);
    let children = discover::modules::child_modules(&source, &file, owns_directory);
    Ok((source, facts, children))
}

/// Analyse one source text on its own (no module following): the entry point for tests, fuzzing
/// and integrations.
pub fn check_text(path: &Path, text: &str) -> Report {
    let mut report = Report::default();
    match analyse_text(0, path, text.to_string(), false, &[]) {
        Err(e) => report.errors.push(e),
        Ok((source, facts, _)) => {
            report.files_checked = 1;
            let model = link::link_single(0, &facts, &source.display);
            let cx = LintContext {
                model: &model,
                source: &source,
            };
            report.diagnostics = lints::run_all(&cx);
            report
                .diagnostics
                .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            report.sources.push(source);
        }
    }
    proc_macro2::extra::invalidate_current_thread_spans();
    report
}

fn read_source(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| io_message(&e))?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "file is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    // A byte-order mark is not part of the code; rustc ignores it too.
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

fn io_message(e: &std::io::Error) -> String {
    let s = e.to_string();
    // "Permission denied (os error 13)" → "permission denied"
    let s = s.split(" (os error").next().unwrap_or(&s).to_string();
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => s,
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
