//! What a run produced: the diagnostics, the errors and the counters of a [`Report`], and the
//! facts `--fix` needs to re-check a file ([`LinkedFiles`]). Every stage that reports (the
//! suppressions, the fix engine, the output formats, the baseline) reads these types, so they sit
//! below the driver that fills them in (`crate::check`) and import nothing above it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::model::stats::ModelStatistics;
use crate::model::units::UnitScopes;
use crate::model::wrappers::WrapperSpec;
use crate::model::{link, Confidence, FileFacts};
use crate::source::{FileId, SourceFile};

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
    /// The facts of every file checked, to re-check a file after fixes ([`crate::check::recheck`]).
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
    pub scopes: UnitScopes,
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
            scopes: UnitScopes::default(),
            wrappers: Vec::new(),
            min_confidence: Confidence::Possible,
            batch_checking: false,
        }
    }
}

impl LinkedFiles {
    /// The facts of every file of the run indexed once, with their units, in the order of the
    /// run: what [`Self::linker_on`] lays a file's new facts on.
    pub fn run_index(&self) -> link::LinkIndex<'_> {
        let files = self
            .facts
            .iter()
            .map(|(id, f)| (*id, f, self.units.get(id).copied().unwrap_or(0)))
            .collect();
        link::LinkIndex::new(files, self.displays.clone(), &self.wrappers)
    }

    /// A linker for one file as `check` links it, in its unit's scope, with `facts` (its new
    /// facts, for `--fix`) in place of the file's facts in `index` (this run's
    /// [`Self::run_index`]): the run is not indexed again for each file. A file that is not one
    /// of the run is linked as [`Self::linker_for`] links it.
    pub fn linker_on<'a>(
        &'a self,
        index: &Arc<link::LinkIndex<'a>>,
        file: FileId,
        facts: &'a FileFacts,
    ) -> link::Linker<'a> {
        let display = self.displays.get(&file).map_or("", String::as_str);
        let Some(replaced) = index.replacing(file, facts, display) else {
            return self.linker_for(file, facts);
        };
        let scope = match self.units.get(&file) {
            Some(&unit) if unit < self.scopes.len() => link::Scope::Of {
                unit,
                scopes: &self.scopes,
            },
            _ => link::Scope::All,
        };
        link::Linker::scoped(Arc::new(replaced), scope)
    }

    /// A linker for one file as `check` links it: the files of its unit's scope in the order of
    /// the run, this one with `facts` (its new facts, for `--fix`). It indexes them all: to link
    /// many files, [`Self::linker_on`] one [`Self::run_index`].
    pub fn linker_for<'a>(&'a self, file: FileId, facts: &'a FileFacts) -> link::Linker<'a> {
        let unit = self.units.get(&file);
        let mut files: Vec<(FileId, &FileFacts)> = self
            .facts
            .iter()
            .filter(|(id, _)| match (unit, self.units.get(id)) {
                (Some(&unit), Some(&other)) if unit < self.scopes.len() => {
                    self.scopes.contains(unit, other)
                }
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
