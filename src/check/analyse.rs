//! One file: a job, the gate that decides whether it is parsed, and its analysis (read, parse,
//! build its facts, its child modules and its suppressions).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Options;
use crate::config::Settings;
use crate::discover::{self, modules::ChildModule};
use crate::doc_examples;
use crate::lints;
use crate::model::wrappers::WrapperSpec;
use crate::model::{build, known, scopes, FileFacts};
use crate::outcome::FileError;
use crate::parse_budget::ParseBudget;
use crate::prefilter::{self, Identifiers, Name, NameKeys, NameUse, Prefilter};
use crate::source::{display_path, FileId, SourceFile};
use crate::suppression::{self, FileSuppressions};

/// One file to analyse.
pub(super) struct Job {
    pub(super) id: FileId,
    pub(super) path: PathBuf,
    pub(super) follow_modules: bool,
    pub(super) owns_directory: bool,
    /// The settings of the crate the file belongs to.
    pub(super) settings: Arc<Settings>,
    /// Named on the command line: always parsed, so that its syntax errors are reported.
    pub(super) explicit: bool,
    /// Already searched for trigger words (and found none): later passes look for names only.
    pub(super) triggers_searched: bool,
    /// Of a file held back by a name pass: its identifiers, asked by later passes before the
    /// file is read again ([`Job::may_mention`]).
    pub(super) identifiers: Option<Identifiers>,
    /// The link unit ([`discover::Seed::link_unit`]) the file belongs to, numbered by the driver.
    pub(super) unit: usize,
}

impl Job {
    /// May the file mention one of `names`? Always, for a file not held back yet.
    pub(super) fn may_mention(&self, names: &NameKeys) -> bool {
        self.identifiers
            .as_ref()
            .map_or(true, |ids| ids.may_mention(names))
    }
}

/// What analysing one file produced.
pub(super) struct Outcome {
    pub(super) path: PathBuf,
    /// Kept only when the file has facts to report on, or doc-comment examples to lint.
    pub(super) source: Option<SourceFile>,
    pub(super) facts: FileFacts,
    pub(super) children: Vec<ChildModule>,
    pub(super) error: Option<FileError>,
    pub(super) parent_display: String,
    pub(super) follow_modules: bool,
    pub(super) suppressions: FileSuppressions,
    /// Malformed suppression comments and unknown lint names in them.
    pub(super) suppression_errors: Vec<FileError>,
    pub(super) settings: Arc<Settings>,
    /// See [`Job::unit`].
    pub(super) unit: usize,
    pub(super) parsed: bool,
    /// Read, and not parsed: the prefilter found nothing the model could use. A later pass with
    /// more linked names may parse it after all. Its source is kept when its doc-comment
    /// examples are to be linted ([`super::schedule::Driver::examples_only`]).
    pub(super) deferred: bool,
    /// Would have been parsed, but has more code than [`Options::max_file_size`] (its size,
    /// comments aside).
    pub(super) too_large: Option<usize>,
    /// Of a deferred file: its identifiers ([`Job::identifiers`]).
    pub(super) identifiers: Option<Identifiers>,
}

/// What the doc examples of each unit are linted with once every pass is done: the prefilter
/// that gates them (the trigger words, the wrappers and the names linked in the unit's group:
/// [`Gate::by_unit`], by group) and the name their crate is used by in them.
pub(super) struct ExampleGate {
    /// None when every example is linted (no prefilter).
    prefilter: Option<Prefilter>,
    by_group: HashMap<usize, Prefilter>,
    group_of: Vec<usize>,
    /// By unit ([`discover::crate_name`]); empty when no file has examples.
    crate_names: Vec<Option<String>>,
}

impl ExampleGate {
    /// `linked`: the names linked in each group; `group_of`: each unit's group.
    pub(super) fn new(
        options: &Options,
        group_of: Vec<usize>,
        linked: &HashMap<usize, BTreeSet<Name>>,
        crate_names: Vec<Option<String>>,
    ) -> ExampleGate {
        let gate = Gate::new(options, linked.iter().map(|(g, names)| (*g, names)));
        ExampleGate {
            prefilter: gate.prefilter,
            by_group: gate.by_unit,
            group_of,
            crate_names,
        }
    }

    /// The name the crate of a unit is used by in its examples, when known.
    pub(super) fn crate_name(&self, unit: usize) -> Option<&str> {
        self.crate_names.get(unit)?.as_deref()
    }

    /// The prefilter of the examples of a unit's files; None when all are linted.
    pub(super) fn of_unit(&self, unit: usize) -> Option<&Prefilter> {
        let linked = self.group_of.get(unit).and_then(|g| self.by_group.get(g));
        linked.or(self.prefilter.as_ref())
    }
}

/// Decides which files are parsed.
pub(super) struct Gate {
    /// Trigger words and declared wrappers; None when every file is parsed.
    pub(super) prefilter: Option<Prefilter>,
    /// The same, plus the names linked so far in a unit ([`crate::model::link::linked_names`]), for the units
    /// of a later pass.
    pub(super) by_unit: HashMap<usize, Prefilter>,
    pub(super) max_file_size: usize,
    pub(super) budget: ParseBudget,
    /// [`Options::texts`], by path.
    pub(super) texts: HashMap<PathBuf, String>,
}

impl Gate {
    /// `linked`: the names each unit of this pass has linked so far.
    pub(super) fn new<'n>(
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
                    (unit, Prefilter::new(&known::trigger_words(), &all))
                })
                .collect()
        };
        Gate {
            prefilter: (!options.no_prefilter)
                .then(|| Prefilter::new(&known::trigger_words(), &wrappers)),
            by_unit,
            max_file_size: options.max_file_size,
            budget: ParseBudget::new(options.max_file_size),
            texts: options
                .texts
                .iter()
                .map(|(path, text)| {
                    let mut text = text.clone();
                    strip_bom(&mut text);
                    (path.clone(), text)
                })
                .collect(),
        }
    }

    pub(super) fn must_parse(&self, job: &Job, text: &str) -> bool {
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
    }

    /// Has a file that is not parsed doc-comment examples to lint? They stand on their own: the
    /// file's text is kept for them, and its code (nothing in it can be a fact) is not parsed.
    fn examples_matter(&self, job: &Job, text: &str) -> bool {
        let Some(p) = &self.prefilter else {
            return false;
        };
        let p = self.by_unit.get(&job.unit).unwrap_or(p);
        job.settings.doc_examples && doc_examples::may_matter(text, p)
    }
}

pub(super) fn missing_module(parent: &Outcome, child: &ChildModule) -> FileError {
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
pub(super) fn analyse(job: &Job, gate: &Gate, wrappers: &[WrapperSpec]) -> Outcome {
    let failed = |message: String, line: Option<usize>, column: Option<usize>| {
        let error = FileError {
            file: display_path(&job.path),
            line,
            column,
            message,
        };
        Outcome::unparsed(job, Some(error))
    };
    let text = match gate.texts.get(&job.path) {
        Some(text) => text.clone(),
        None => match read_source(&job.path) {
            Ok(t) => t,
            Err(message) => return failed(message, None, None),
        },
    };
    if !gate.must_parse(job, &text) {
        let examples = gate.examples_matter(job, &text);
        return Outcome {
            deferred: true,
            // Kept from the first name pass on: most held-back files (those of units that
            // link no name) are never searched again, and collecting costs a search.
            identifiers: job.triggers_searched.then(|| Identifiers::of(&text)),
            source: examples.then(|| SourceFile::new(job.id, job.path.clone(), text)),
            ..Outcome::unparsed(job, None)
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
            ..Outcome::unparsed(job, None)
        };
    }
    let reservation = gate.budget.reserve(weight);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        #[cfg(test)]
        super::tests::panic_if_asked(&text);
        analyse_text(job.id, &job.path, text, job.owns_directory, wrappers)
    }));
    drop(reservation);
    // Spans of this file are no longer needed; free proc-macro2's per-thread source map.
    proc_macro2::extra::invalidate_current_thread_spans();
    match result {
        Ok(Ok(analysed)) => Outcome::parsed(job, gate, analysed),
        Ok(Err(e)) => failed(e.message, e.line, e.column),
        Err(panic) => failed(internal_error(&*panic), None, None),
    }
}

impl Outcome {
    /// Has the file doc-comment examples to lint (its text kept for them)?
    pub(super) fn has_examples(&self) -> bool {
        self.settings.doc_examples
            && self
                .source
                .as_ref()
                .is_some_and(|s| doc_examples::may_have_examples(&s.text))
    }

    /// A file not parsed (yet): failed with `error`, deferred, or too large.
    fn unparsed(job: &Job, error: Option<FileError>) -> Outcome {
        Outcome {
            path: job.path.clone(),
            source: None,
            facts: FileFacts::default(),
            children: Vec::new(),
            error,
            parent_display: display_path(&job.path),
            follow_modules: false,
            suppressions: FileSuppressions::default(),
            suppression_errors: Vec::new(),
            settings: job.settings.clone(),
            unit: job.unit,
            parsed: false,
            deferred: false,
            too_large: None,
            identifiers: None,
        }
    }

    fn parsed(job: &Job, gate: &Gate, analysed: Analysed) -> Outcome {
        let Analysed {
            source,
            facts,
            children,
            suppressions,
            suppression_errors,
        } = analysed;
        // Examples of doc comments are linted whatever the file's facts. Whether one matters
        // depends on the names the unit links, known only after the last pass ([`ExampleGate`]):
        // the text of every file with examples is kept.
        let keep = keeps_text(gate, &facts, &suppressions, &children)
            || (job.settings.doc_examples && doc_examples::may_have_examples(&source.text));
        Outcome {
            source: keep.then_some(source),
            facts,
            children,
            follow_modules: job.follow_modules,
            suppressions,
            suppression_errors,
            parsed: true,
            ..Outcome::unparsed(job, None)
        }
    }
}

/// The error for a file whose analysis panicked: a bug of ours, reported with what the panic
/// said so that the report can be acted on.
pub(super) fn internal_error(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    let what = what.lines().next().unwrap_or_default();
    format!("internal error: the analysis panicked on this file ({what}); please report it")
}

/// Whether a parsed file keeps its text and is linted: some lint reads one of its facts
/// ([`lints::read_by_a_lint`]), findings of other files may point into it
/// ([`lints::pointed_into`]), its suppressions must be matched (and reported when unused),
/// or a module file it declares is missing (the error is placed in its text). Other files only
/// lend their facts to the files of their unit. Without the prefilter (`--no-prefilter`, the
/// equivalence tests) every parsed file is linted, which tests this rule too.
fn keeps_text(
    gate: &Gate,
    facts: &FileFacts,
    suppressions: &FileSuppressions,
    children: &[ChildModule],
) -> bool {
    gate.prefilter.is_none()
        || lints::read_by_a_lint(facts)
        || lints::pointed_into(facts)
        || !suppressions.is_empty()
        || !children.iter().all(|c| c.exists)
}

pub(super) struct Analysed {
    pub(super) source: SourceFile,
    pub(super) facts: FileFacts,
    pub(super) children: Vec<ChildModule>,
    pub(super) suppressions: FileSuppressions,
    pub(super) suppression_errors: Vec<FileError>,
}

pub(super) fn analyse_text(
    id: FileId,
    path: &Path,
    text: String,
    owns_directory: bool,
    wrappers: &[WrapperSpec],
) -> Result<Analysed, FileError> {
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
    // The facts are kept for the whole run: copied once the syntax tree is freed, they take
    // the space they use (no vector's spare capacity, no pages shared with the tree's nodes).
    // It cuts the one-unit benchmark's peak memory by a fifth.
    drop(file);
    let facts = facts.clone();
    Ok(Analysed {
        source,
        facts,
        children,
        suppressions,
        suppression_errors,
    })
}

pub(super) fn read_source(path: &Path) -> Result<String, String> {
    let bytes = crate::read::read_file(path, crate::read::MAX_SOURCE_BYTES)?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or_default();
        let line = valid.matches('\n').count() + 1;
        let column = valid.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        format!("file is not valid UTF-8 (invalid byte at line {line}, column {column}, byte offset {at})")
    })?;
    strip_bom(&mut text);
    Ok(text)
}

/// A byte-order mark is not part of the code: as rustc does, exactly one is removed where a
/// text comes in (read, or given), so that positions do not count it. A second one is code,
/// which does not lex, as for rustc; and `--fix`, which removes one too, finds the same text.
pub(super) fn strip_bom(text: &mut String) {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
}
