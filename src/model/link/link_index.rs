//! The run's files indexed once for linking (functions by name and overload, entries by
//! function and body, callbacks), with one more file laid on top for a doc example.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use super::call_shape::{CallShape, Overload};
use super::crate_index::{CrateIndex, IndexView, Scope};
use super::FunctionRef;
use crate::model::wrappers::WrapperSpec;
use crate::model::{FileFacts, ReturnedType};
use crate::source::FileId;

/// The facts of the files of a run, indexed once: the linkers of all its units share them. One
/// more file can be laid on top ([`LinkIndex::with_file`]): a doc example, linked in the scope
/// of the unit it documents without indexing that unit again.
pub struct LinkIndex<'a> {
    pub(super) run: Arc<Layer<'a>>,
    /// Its positions follow the run's; it hides the run's file of its id from [`Self::position`].
    top: Option<Layer<'a>>,
}

/// Files indexed together: the run's, or a file on top of them (see [`LinkIndex`]).
pub(super) struct Layer<'a> {
    index: CrateIndex,
    pub(super) wrappers: &'a [WrapperSpec],
    files: Vec<(FileId, &'a FileFacts)>,
    /// Each file's link unit (same positions as `files`).
    units: Vec<usize>,
    /// Each file's position in `files`, by id.
    positions: HashMap<FileId, usize>,
    /// Per file (same positions as `files`): its entries by function, and its entries and
    /// blocking calls by body, so that a summary does not scan the whole file.
    entries_by_function: Vec<HashMap<usize, Vec<usize>>>,
    entries_by_body: Vec<HashMap<u32, Vec<usize>>>,
    blocking_by_body: Vec<HashMap<u32, Vec<usize>>>,
    /// Per file: [`FileFacts::returned_values`] by binding.
    returned_values: Vec<HashMap<u64, ReturnedType>>,
    displays: HashMap<FileId, String>,
    /// Function name → (file position in `files`, function index).
    by_name: HashMap<&'a str, Vec<(usize, usize)>>,
    /// The same functions by the calls that can mean them (see [`Overload`]): a name like
    /// `new` or `get` has thousands of functions in a big unit, and a call fits few of them.
    by_overload: HashMap<Overload<'a>, Vec<FunctionRef>>,
    /// (trait, type, method) of the methods `impl Trait for Type` blocks define.
    trait_methods: HashSet<(String, String, String)>,
    /// Field → where the crate gives it a function value (file position, index into that
    /// file's [`FileFacts::callbacks`]).
    callbacks: HashMap<&'a str, Vec<(usize, usize)>>,
    /// Names of the functions whose result can give a name: a tail name or struct literals.
    name_givers: HashSet<&'a str>,
    /// Calls by the callee's name, made when a write's body is a parameter (see
    /// [`callers`]): most runs never need it.
    calls_by_name: OnceLock<super::callers::CallsByName>,
}

impl<'a> LinkIndex<'a> {
    /// `files`: every file's facts with its id and link unit; `displays`: the path shown for
    /// each file.
    pub fn new(
        files: Vec<(FileId, &'a FileFacts, usize)>,
        displays: HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        LinkIndex {
            run: Arc::new(Layer::new(files, displays, wrappers)),
            top: None,
        }
    }

    /// The run's files and `facts` on top, a file of link unit `unit` (replacing the file on
    /// top, if any): the run's files are shared, not indexed again.
    pub fn with_file(
        &self,
        file: FileId,
        facts: &'a FileFacts,
        unit: usize,
        display: &str,
    ) -> Self {
        let displays = HashMap::from([(file, display.to_string())]);
        LinkIndex {
            run: self.run.clone(),
            top: Some(Layer::new(
                vec![(file, facts, unit)],
                displays,
                self.run.wrappers,
            )),
        }
    }

    /// The layer holding position `pos`, and the position in it.
    fn layer(&self, pos: usize) -> (&Layer<'a>, usize) {
        match &self.top {
            Some(top) if pos >= self.run.files.len() => (top, pos - self.run.files.len()),
            _ => (&self.run, pos),
        }
    }

    /// Each layer with the position of its first file.
    fn layers(&self) -> impl Iterator<Item = (&Layer<'a>, usize)> {
        std::iter::once((&*self.run, 0)).chain(self.top.iter().map(|t| (t, self.run.files.len())))
    }

    pub(super) fn len(&self) -> usize {
        self.layers().map(|(l, _)| l.files.len()).sum()
    }

    #[inline]
    pub(super) fn facts(&self, pos: usize) -> &'a FileFacts {
        match self.run.files.get(pos) {
            Some((_, facts)) => facts,
            None => {
                let (layer, at) = self.layer(pos);
                layer.files[at].1
            }
        }
    }

    /// A file of the run (not a file laid on top of it: a doc example).
    pub(super) fn in_run(&self, pos: usize) -> bool {
        pos < self.run.files.len()
    }

    #[inline]
    pub(super) fn unit(&self, pos: usize) -> usize {
        match self.run.units.get(pos) {
            Some(&unit) => unit,
            None => {
                let (layer, at) = self.layer(pos);
                layer.units[at]
            }
        }
    }

    /// A file's position: the file on top first.
    pub(super) fn position(&self, file: FileId) -> Option<usize> {
        let on_top = self.top.as_ref().and_then(|t| t.positions.get(&file));
        match on_top {
            Some(at) => Some(self.run.files.len() + at),
            None => self.run.positions.get(&file).copied(),
        }
    }

    /// The path shown for the file at `pos`.
    pub(super) fn display(&self, pos: usize) -> Option<&String> {
        let (layer, at) = self.layer(pos);
        layer.displays.get(&layer.files[at].0)
    }

    /// The function references one lookup gives in each layer, the top layer's moved past the
    /// run's positions. A hot path: two slices, no boxing.
    #[inline]
    fn in_layers<'s>(
        &'s self,
        lookup: impl Fn(&'s Layer<'a>) -> &'s [FunctionRef],
    ) -> impl Iterator<Item = FunctionRef> + 's {
        let first = self.run.files.len();
        let on_top = self.top.as_ref().map_or(&[][..], &lookup);
        lookup(&self.run)
            .iter()
            .copied()
            .chain(on_top.iter().map(move |&(p, k)| (first + p, k)))
    }

    /// The functions of a name, as (file position, function index).
    #[inline]
    pub(super) fn functions_named<'s>(
        &'s self,
        name: &'s str,
    ) -> impl Iterator<Item = FunctionRef> + 's {
        self.in_layers(move |layer| layer.by_name.get(name).map_or(&[], Vec::as_slice))
    }

    /// The functions named `name` that a call of this shape may mean, a superset of those it
    /// fits (in every file of the run: the caller checks which its scope sees).
    #[inline]
    pub(super) fn overloads<'s>(
        &'s self,
        name: &'s str,
        shape: CallShape<'s>,
    ) -> impl Iterator<Item = FunctionRef> + 's {
        let overload = Overload::of_call(name, shape);
        self.in_layers(move |layer| {
            // The map is covariant in its keys: looked up with the call's shorter-lived strings.
            let by_overload: &HashMap<Overload<'s>, Vec<FunctionRef>> = &layer.by_overload;
            by_overload.get(&overload).map_or(&[], Vec::as_slice)
        })
    }

    /// The calls of a name, as (file position, entry index), in both layers (see
    /// [`callers`]); indexed the first time a write's body is a parameter.
    pub(super) fn calls_named<'s>(
        &'s self,
        name: &'s str,
    ) -> impl Iterator<Item = (usize, usize)> + 's {
        self.layers().flat_map(move |(l, first)| {
            l.calls_by_name()
                .get(name)
                .into_iter()
                .flatten()
                .map(move |&(p, i)| (first + p, i))
        })
    }

    /// Where the files give a field a function value (file position, callback index).
    pub(super) fn callbacks_of<'s>(
        &'s self,
        field: &'s str,
    ) -> impl Iterator<Item = (usize, usize)> + 's {
        self.layers().flat_map(move |(l, first)| {
            l.callbacks
                .get(field)
                .into_iter()
                .flatten()
                .map(move |&(p, i)| (first + p, i))
        })
    }

    pub(super) fn gives_names(&self, name: &str) -> bool {
        self.layers().any(|(l, _)| l.name_givers.contains(name))
    }

    pub(super) fn defines_trait_method(&self, key: &(String, String, String)) -> bool {
        self.layers().any(|(l, _)| l.trait_methods.contains(key))
    }

    /// Whether a field of the binding is assigned (see [`FileFacts::assigned_fields`]).
    pub(super) fn fields_assigned(&self, binding: u64) -> bool {
        self.position((binding >> 32) as FileId).is_some_and(|pos| {
            self.facts(pos)
                .assigned_fields
                .binary_search(&binding)
                .is_ok()
        })
    }

    pub(super) fn returned_value(&self, pos: usize, binding: &u64) -> Option<&ReturnedType> {
        let (layer, at) = self.layer(pos);
        layer.returned_values[at].get(binding)
    }

    pub(super) fn entries_of_function(&self, pos: usize, k: usize) -> &[usize] {
        let (layer, at) = self.layer(pos);
        layer.entries_by_function[at]
            .get(&k)
            .map_or(&[], Vec::as_slice)
    }

    pub(super) fn entries_of_body(&self, pos: usize, body: u32) -> &[usize] {
        let (layer, at) = self.layer(pos);
        layer.entries_by_body[at]
            .get(&body)
            .map_or(&[], Vec::as_slice)
    }

    pub(super) fn blocking_of_body(&self, pos: usize, body: u32) -> &[usize] {
        let (layer, at) = self.layer(pos);
        layer.blocking_by_body[at]
            .get(&body)
            .map_or(&[], Vec::as_slice)
    }

    pub(super) fn view<'i>(&'i self, scope: Scope<'i>) -> IndexView<'i> {
        IndexView {
            index: &self.run.index,
            top: self.top.as_ref().map(|t| &t.index),
            scope,
        }
    }
}

impl<'a> Layer<'a> {
    fn new(
        files: Vec<(FileId, &'a FileFacts, usize)>,
        displays: HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        let mut index = CrateIndex::default();
        let mut by_name: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        let mut by_overload: HashMap<Overload<'a>, Vec<FunctionRef>> = HashMap::new();
        let mut entries_by_function = Vec::with_capacity(files.len());
        let mut entries_by_body = Vec::with_capacity(files.len());
        let mut blocking_by_body = Vec::with_capacity(files.len());
        let mut returned_values = Vec::with_capacity(files.len());
        let mut trait_methods = HashSet::new();
        let mut name_givers = HashSet::new();
        let mut callbacks: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (pos, (_, facts, unit)) in files.iter().enumerate() {
            returned_values.push(facts.returned_values.iter().copied().collect());
            for (i, c) in facts.callbacks.iter().enumerate() {
                callbacks
                    .entry(c.field.as_str())
                    .or_default()
                    .push((pos, i));
            }
            index.add(*unit, &facts.items);
            for (k, f) in facts.functions.iter().enumerate() {
                by_name.entry(f.name.as_str()).or_default().push((pos, k));
                for overload in Overload::of_function(f) {
                    by_overload.entry(overload).or_default().push((pos, k));
                }
                if f.returned_name.is_some() || !f.struct_literals.is_empty() {
                    name_givers.insert(f.name.as_str());
                }
                if let (Some(t), Some(ty), false) = (&f.trait_name, &f.self_type, f.provided) {
                    trait_methods.insert((t.clone(), ty.clone(), f.name.clone()));
                }
            }
            let mut by_function: HashMap<usize, Vec<usize>> = HashMap::new();
            let mut by_body: HashMap<u32, Vec<usize>> = HashMap::new();
            for (i, r) in facts.requests.iter().enumerate() {
                if let Some(k) = r.function {
                    by_function.entry(k).or_default().push(i);
                }
                by_body.entry(r.body).or_default().push(i);
            }
            let mut blocking: HashMap<u32, Vec<usize>> = HashMap::new();
            for (i, b) in facts.blocking.iter().enumerate() {
                blocking.entry(b.body).or_default().push(i);
            }
            entries_by_function.push(by_function);
            entries_by_body.push(by_body);
            blocking_by_body.push(blocking);
        }
        let positions = files
            .iter()
            .enumerate()
            .map(|(pos, (id, _, _))| (*id, pos))
            .collect();
        Layer {
            index,
            wrappers,
            units: files.iter().map(|(_, _, unit)| *unit).collect(),
            files: files
                .into_iter()
                .map(|(id, facts, _)| (id, facts))
                .collect(),
            positions,
            entries_by_function,
            entries_by_body,
            blocking_by_body,
            returned_values,
            displays,
            by_name,
            by_overload,
            trait_methods,
            callbacks,
            name_givers,
            calls_by_name: OnceLock::new(),
        }
    }

    fn calls_by_name(&self) -> &super::callers::CallsByName {
        self.calls_by_name
            .get_or_init(|| super::callers::calls_by_name(&self.files))
    }
}
