//! The run's files indexed once for linking (functions by name and overload, entries by
//! function and body, callbacks), with one more file laid on top: a doc example, or a new text
//! of one of the run's files that hides the old one (`--fix` re-checking a file).

// foldhash, seeded per run, as the rest of the model (see `model::build`).
use foldhash::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use super::call_shape::{CallShape, Overload};
use super::crate_index::{CrateIndex, IndexView, Scope};
use super::FunctionRef;
use crate::model::wrappers::WrapperSpec;
use crate::model::{FileFacts, FunctionFacts, ReturnedType};
use crate::source::FileId;

/// The facts of the files of a run, indexed once: the linkers of all its units share them. One
/// more file can be laid on top ([`LinkIndex::with_file`]): a doc example, linked in the scope
/// of the unit it documents without indexing that unit again; or a new text of one of the
/// run's files, in its place ([`LinkIndex::replacing`]).
pub struct LinkIndex<'a> {
    pub(super) run: Arc<Layer<'a>>,
    /// Its positions follow the run's; it hides the run's file of its id from [`Self::position`].
    /// When it replaces a file of the run, its one file takes that file's position instead.
    top: Option<Layer<'a>>,
    /// The position of the run's file the top replaces, [`NOT_REPLACED`] if none: nothing of
    /// that file is seen, the top's file is seen in its place (and in its order).
    replaced: usize,
}

/// [`LinkIndex::replaced`] when the top layer replaces no file.
const NOT_REPLACED: usize = usize::MAX;

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
    displays: std::collections::HashMap<FileId, String>,
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
    /// A top layer replacing a file of the run: the old file's items, which the run's
    /// [`CrateIndex`] holds and a view must not see.
    replaced_items: Option<CrateIndex>,
}

/// Whether a function's result can give a name (see [`Layer::name_givers`]).
fn gives_names(f: &FunctionFacts) -> bool {
    f.returned_name.is_some() || !f.struct_literals.is_empty()
}

impl<'a> LinkIndex<'a> {
    /// `files`: every file's facts with its id and link unit; `displays`: the path shown for
    /// each file.
    pub fn new(
        files: Vec<(FileId, &'a FileFacts, usize)>,
        displays: std::collections::HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        LinkIndex {
            run: Arc::new(Layer::new(files, displays, wrappers)),
            top: None,
            replaced: NOT_REPLACED,
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
        let displays = std::collections::HashMap::from([(file, display.to_string())]);
        LinkIndex {
            run: self.run.clone(),
            top: Some(Layer::new(
                vec![(file, facts, unit)],
                displays,
                self.run.wrappers,
            )),
            replaced: NOT_REPLACED,
        }
    }

    /// The run's files with `facts` in place of the run's file `file` (same position, same
    /// unit): how a new text of a file is linked against the run without indexing the run again.
    /// Nothing of the old file is seen. None when `file` is not a file of the run.
    pub fn replacing(&self, file: FileId, facts: &'a FileFacts, display: &str) -> Option<Self> {
        let pos = *self.run.positions.get(&file)?;
        let displays = std::collections::HashMap::from([(file, display.to_string())]);
        let unit = self.run.units[pos];
        let mut replaced = Layer::new(vec![(file, facts, unit)], displays, self.run.wrappers);
        let mut old_items = CrateIndex::default();
        old_items.add(unit, &self.run.files[pos].1.items);
        replaced.replaced_items = Some(old_items);
        Some(LinkIndex {
            run: self.run.clone(),
            top: Some(replaced),
            replaced: pos,
        })
    }

    /// The position of the top layer's first file.
    fn top_first(&self) -> usize {
        match self.replaced {
            NOT_REPLACED => self.run.files.len(),
            pos => pos,
        }
    }

    /// Where the run's entries of the replaced file begin and end in a slice of entries sorted
    /// by file position (the whole slice's end twice when no file is replaced).
    #[inline]
    fn replaced_range<T>(&self, sorted: &[(usize, T)]) -> (usize, usize) {
        match self.replaced {
            NOT_REPLACED => (sorted.len(), sorted.len()),
            pos => (
                sorted.partition_point(|(p, _)| *p < pos),
                sorted.partition_point(|(p, _)| *p <= pos),
            ),
        }
    }

    /// Entries of the run and of the top (file positions first, each slice sorted by them) in
    /// position order, without the replaced file's entries of the run.
    #[inline]
    fn merged<'s, T: Copy>(
        &self,
        run: &'s [(usize, T)],
        top: &'s [(usize, T)],
    ) -> impl Iterator<Item = (usize, T)> + 's {
        let (before, after) = self.replaced_range(run);
        let first = self.top_first();
        run[..before]
            .iter()
            .copied()
            .chain(top.iter().map(move |&(p, x)| (first + p, x)))
            .chain(run[after..].iter().copied())
    }

    /// The layer holding position `pos`, and the position in it.
    fn layer(&self, pos: usize) -> (&Layer<'a>, usize) {
        match &self.top {
            Some(top) if pos == self.replaced => (top, 0),
            Some(top) if pos >= self.run.files.len() => (top, pos - self.run.files.len()),
            _ => (&self.run, pos),
        }
    }

    pub(super) fn len(&self) -> usize {
        match (&self.top, self.replaced) {
            (Some(top), NOT_REPLACED) => self.run.files.len() + top.files.len(),
            _ => self.run.files.len(),
        }
    }

    #[inline]
    pub(super) fn facts(&self, pos: usize) -> &'a FileFacts {
        match self.run.files.get(pos) {
            Some((_, facts)) if pos != self.replaced => facts,
            _ => {
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
            Some(at) => Some(self.top_first() + at),
            None => self.run.positions.get(&file).copied(),
        }
    }

    /// The path shown for the file at `pos`.
    pub(super) fn display(&self, pos: usize) -> Option<&String> {
        let (layer, at) = self.layer(pos);
        layer.displays.get(&layer.files[at].0)
    }

    /// The function references one lookup gives in each layer, the top layer's moved to its
    /// positions, in position order. A hot path: slices, no boxing.
    #[inline]
    fn in_layers<'s>(
        &'s self,
        lookup: impl Fn(&'s Layer<'a>) -> &'s [FunctionRef],
    ) -> impl Iterator<Item = FunctionRef> + 's {
        let on_top = self.top.as_ref().map_or(&[][..], &lookup);
        self.merged(lookup(&self.run), on_top)
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
        let calls = |l: &'s Layer<'a>| l.calls_by_name().get(name).map_or(&[][..], Vec::as_slice);
        self.merged(calls(&self.run), self.top.as_ref().map_or(&[][..], calls))
    }

    /// Where the files give a field a function value (file position, callback index).
    pub(super) fn callbacks_of<'s>(
        &'s self,
        field: &'s str,
    ) -> impl Iterator<Item = (usize, usize)> + 's {
        let callbacks = |l: &'s Layer<'a>| l.callbacks.get(field).map_or(&[][..], Vec::as_slice);
        self.merged(
            callbacks(&self.run),
            self.top.as_ref().map_or(&[][..], callbacks),
        )
    }

    pub(super) fn gives_names(&self, name: &str) -> bool {
        let on_top = self
            .top
            .as_ref()
            .is_some_and(|t| t.name_givers.contains(name));
        on_top
            || match self.replaced {
                NOT_REPLACED => self.run.name_givers.contains(name),
                // The run's set counts the replaced file: ask its other files' functions.
                _ => {
                    self.run.name_givers.contains(name)
                        && self.functions_of_run(name).any(gives_names)
                }
            }
    }

    pub(super) fn defines_trait_method(&self, key: &(String, String, String)) -> bool {
        let on_top = self
            .top
            .as_ref()
            .is_some_and(|t| t.trait_methods.contains(key));
        let (t, ty, name) = key;
        on_top
            || match self.replaced {
                NOT_REPLACED => self.run.trait_methods.contains(key),
                _ => {
                    self.run.trait_methods.contains(key)
                        && self.functions_of_run(name).any(|f| {
                            f.trait_name.as_ref() == Some(t)
                                && f.self_type.as_ref() == Some(ty)
                                && !f.provided
                        })
                }
            }
    }

    /// The functions of a name in the run's files but the replaced one.
    fn functions_of_run<'s>(&'s self, name: &str) -> impl Iterator<Item = &'a FunctionFacts> + 's {
        let named = self.run.by_name.get(name).map_or(&[][..], Vec::as_slice);
        named
            .iter()
            .filter(|(p, _)| *p != self.replaced)
            .map(|&(p, k)| &self.run.files[p].1.functions[k])
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
        let top = self.top.as_ref();
        IndexView {
            index: &self.run.index,
            top: top.map(|t| &t.index),
            hidden: top
                .filter(|_| self.replaced != NOT_REPLACED)
                .and_then(|t| t.replaced_items.as_ref()),
            scope,
        }
    }
}

impl<'a> Layer<'a> {
    fn new(
        files: Vec<(FileId, &'a FileFacts, usize)>,
        displays: std::collections::HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        let mut index = CrateIndex::default();
        let mut by_name: HashMap<&str, Vec<(usize, usize)>> = HashMap::default();
        let mut by_overload: HashMap<Overload<'a>, Vec<FunctionRef>> = HashMap::default();
        let mut entries_by_function = Vec::with_capacity(files.len());
        let mut entries_by_body = Vec::with_capacity(files.len());
        let mut blocking_by_body = Vec::with_capacity(files.len());
        let mut returned_values = Vec::with_capacity(files.len());
        let mut trait_methods = HashSet::default();
        let mut name_givers = HashSet::default();
        let mut callbacks: HashMap<&str, Vec<(usize, usize)>> = HashMap::default();
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
                if gives_names(f) {
                    name_givers.insert(f.name.as_str());
                }
                if let (Some(t), Some(ty), false) = (&f.trait_name, &f.self_type, f.provided) {
                    trait_methods.insert((t.clone(), ty.clone(), f.name.clone()));
                }
            }
            let mut by_function: HashMap<usize, Vec<usize>> = HashMap::default();
            let mut by_body: HashMap<u32, Vec<usize>> = HashMap::default();
            for (i, r) in facts.requests.iter().enumerate() {
                if let Some(k) = r.function {
                    by_function.entry(k).or_default().push(i);
                }
                by_body.entry(r.body).or_default().push(i);
            }
            let mut blocking: HashMap<u32, Vec<usize>> = HashMap::default();
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
            replaced_items: None,
        }
    }

    fn calls_by_name(&self) -> &super::callers::CallsByName {
        self.calls_by_name
            .get_or_init(|| super::callers::calls_by_name(&self.files))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::LinkIndex;
    use crate::model::link::{Linker, Scope};
    use crate::model::{build, FileFacts, NameExpr, Root};
    use crate::source::SourceFile;

    fn facts(id: usize, text: &str) -> FileFacts {
        let text = format!("use kube::api::{{Api, DeleteParams}};\n{text}");
        let file = syn::parse_file(&text).expect("parses");
        build::build(
            &SourceFile::new(id, format!("f{id}.rs").into(), text),
            &file,
        )
    }

    const OLD: &str = r#"const NAME: &str = "old";
        pub fn old_helper() -> &'static str { "x" }
        async fn helper(pods: &Api<Pod>) { let _ = pods.delete("old", &DeleteParams::default()).await; }"#;
    const NEW: &str = r#"const NAME: &str = "new";
        async fn caller(pods: Api<Pod>) { helper(&pods).await; }
        async fn helper(pods: &Api<Pod>) { let _ = pods.get("new").await; }"#;
    const OTHER: &str = "async fn other(pods: Api<Pod>) { let _ = pods.get(\"b\").await; }";

    /// `--fix` re-checks a new text of a file against the run: none of the old text's
    /// functions or items is seen, the new text's are, in the old file's place.
    #[test]
    fn a_replaced_file_is_not_seen() {
        let (old, other, new) = (facts(7, OLD), facts(8, OTHER), facts(7, NEW));
        let run = LinkIndex::new(vec![(7, &old, 0), (8, &other, 0)], Default::default(), &[]);
        let index = run.replacing(7, &new, "f7.rs").expect("a file of the run");
        assert!(run.replacing(9, &new, "f9.rs").is_none());
        assert_eq!(index.len(), 2);
        assert_eq!(index.position(7), Some(0));
        assert!(std::ptr::eq(index.facts(0), &new));
        let helpers: Vec<_> = index.functions_named("helper").collect();
        assert_eq!(helpers.len(), 1, "{helpers:?}");
        assert!(std::ptr::eq(index.facts(helpers[0].0), &new));
        assert_eq!(index.functions_named("old_helper").count(), 0);
        assert_eq!(run.functions_named("old_helper").count(), 1);
        assert!(!index.gives_names("old_helper") && run.gives_names("old_helper"));
        let name = NameExpr::Path {
            root: Root::Const("NAME".into()),
            fields: vec![],
        };
        let resolved = index.view(Scope::All).resolve_name(&name);
        assert!(matches!(resolved, NameExpr::Literal(v) if v == "new"));
        // The run itself is unchanged: two values of `NAME` there, one here after the other.
        let both = LinkIndex::new(vec![(7, &old, 0), (8, &new, 0)], Default::default(), &[]);
        assert!(matches!(
            both.view(Scope::All).resolve_name(&name),
            NameExpr::Path { .. }
        ));
    }

    /// A file linked in place of its old text is linked as a run made with the new text.
    #[test]
    fn a_replaced_file_links_as_a_run_of_the_new_text() {
        let (old, other, new) = (facts(7, OLD), facts(8, OTHER), facts(7, NEW));
        let run = LinkIndex::new(vec![(7, &old, 0), (8, &other, 0)], Default::default(), &[]);
        let replaced = run.replacing(7, &new, "f7.rs").expect("a file of the run");
        let replaced = Linker::scoped(Arc::new(replaced), Scope::All).link(7);
        let displays = std::collections::HashMap::from([(7, "f7.rs".to_string())]);
        let fresh = LinkIndex::new(vec![(7, &new, 0), (8, &other, 0)], displays, &[]);
        let fresh = Linker::scoped(Arc::new(fresh), Scope::All).link(7);
        assert_eq!(
            format!("{:?}", replaced.requests),
            format!("{:?}", fresh.requests)
        );
        let via_helper: Vec<_> = replaced.requests.iter().flatten().map(|r| r.verb).collect();
        assert_eq!(via_helper.len(), 2, "{:?}", replaced.requests);
    }
}
