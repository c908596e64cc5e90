//! The names through which parsed files depend on files not parsed yet (for the prefilter's
//! later passes), and the crate functions other files' findings can rest on.

use std::collections::{HashMap, HashSet};

use super::call_shape::CallShape;
use super::crate_index::{CrateIndex, IndexView, Scope};
use super::receivers::MAX_TYPE_DEPTH;
use super::wrappers::wrapper_matches;
use super::{callee_name, Linker};
use crate::model::wrappers::WrapperSpec;
use crate::model::{
    CallbackTarget, Callee, FileFacts, FunctionFacts, Handle, HandleSource, HelperCall, NameExpr,
    Namespace, ObjectName, RawKind, RawRequest, ReturnedType, Root,
};
use crate::prefilter::{Name, NameUse};

/// The names through which the files parsed so far depend on files not parsed yet: what the
/// linker resolves across files, for the prefilter's later passes ([`crate::prefilter`]). A file
/// holds a request only if it names an `Api` (a trigger word), uses one of these names, or
/// calls a declared wrapper:
///
/// * fields and functions typed `Api<K>`: files *using* them (`.pods`, `pods(`) may make
///   requests through them;
/// * functions that make requests (directly, through a wrapper or through other such functions,
///   by name as the linker resolves calls), and sync functions that block on a future: files
///   *calling* them make those requests (or block) too, and files *declaring* a function of the
///   same name change how the linker resolves such calls;
/// * consts that requests, or calls of such functions, name: files *declaring* a const of that
///   name give (or make ambiguous) its value.
///
/// By induction on the call chain, every file holding a request, directly or through helpers,
/// is parsed once no new name appears. Keep this in step with what [`Linker`] looks up by name.
///
/// `one_scope`: the files are the scope of one link unit (a crate on its own, every file of a
/// directory without manifests), so that a field's function values counted over them are
/// those a call of the field resolves with.
pub fn linked_names<'f>(
    files: impl Iterator<Item = &'f FileFacts> + Clone,
    wrappers: &'f [WrapperSpec],
    one_scope: bool,
) -> HashSet<Name> {
    let name = |text: &str, used_as| Name::new(text, used_as);
    let mut index = CrateIndex::default();
    let mut names = HashSet::new();
    for facts in files.clone() {
        index.add(0, &facts.items);
        for (field, _) in &facts.items.api_fields {
            names.insert(name(field, NameUse::Field));
        }
        for (function, _) in &facts.items.api_returning_fns {
            names.insert(name(function, NameUse::Call));
        }
        // Files typing a value or a field by an alias of `Api<K>` make requests through it.
        for (alias, _) in &facts.items.api_aliases {
            names.insert(name(alias, NameUse::Anywhere));
        }
    }
    let is_wrapper = |call: &HelperCall| wrappers.iter().any(|w| wrapper_matches(w, call));
    let files: Vec<&FileFacts> = files.collect();
    let linker = Linker::new(
        files.iter().enumerate().map(|(i, f)| (i, *f)).collect(),
        HashMap::new(),
        wrappers,
    );
    let makers = linker.linked_functions();
    // The names a call's arguments carry matter only to the requests its callee makes: a
    // function that only blocks (`block_on(fut)`) makes none of them an object's name.
    let requesters = linker.requesting_functions();
    // A method of a trait no parsed file declares is not resolved by its name alone (see
    // `Linker::fits`): the file declaring the trait, if the crate has one, changes that.
    for t in linker.undeclared_traits_of_linked_functions() {
        names.insert(name(t, NameUse::DeclaredTrait));
    }
    let index = index.view(Scope::All);
    // A provided method runs for the implementors that do not override it: the files naming
    // its trait (`impl Syncer for Loud {}`) say which types those are.
    for t in linker.traits_of_linked_provided_methods() {
        names.insert(name(t, NameUse::Anywhere));
    }
    let mut consts: HashSet<&str> = HashSet::new();
    let mut found_name_makers: HashSet<NameMaker> = HashSet::new();
    for facts in &files {
        let sources = RequestNameSources {
            index: &index,
            is_wrapper: &is_wrapper,
            requesters: &requesters,
        };
        sources.scan(facts, &mut consts, &mut found_name_makers);
    }
    names.extend(receiver_typer_names(&linker, &files));
    for (f, of_type) in name_makers(&files, found_name_makers) {
        names.insert(Name {
            with: of_type.map(str::to_string),
            with_impl: true,
            ..name(f, NameUse::DeclaredFunction)
        });
    }
    // Fields holding function values (see `Linker::callback`): the files giving them values,
    // wherever a file calls the field, and the files calling them, wherever a file gives the
    // field a function that makes requests.
    let makes_requests = |facts: &FileFacts, target: &CallbackTarget| match target {
        CallbackTarget::Function(path) => {
            path.last().is_some_and(|f| makers.contains_key(f.as_str()))
        }
        CallbackTarget::Closure { span, .. } => {
            facts.requests.iter().any(|raw| span.contains(&raw.span))
        }
        CallbackTarget::Opaque => false,
    };
    let mut called_fields: HashSet<&str> = HashSet::new();
    for facts in &files {
        // Only calls in async code: a request future is made there (sync function tables,
        // such as COM vtables called by the thousand, do not make requests).
        let in_async = |raw: &RawRequest| {
            facts
                .bodies
                .get(raw.body as usize)
                .is_some_and(|b| b.kind.is_async())
        };
        let called = facts.requests.iter().filter_map(|raw| match &raw.kind {
            RawKind::Helper(HelperCall {
                callee: Callee::Field(f),
                ..
            }) if in_async(raw) => Some(f.as_str()),
            _ => None,
        });
        let given = facts
            .callbacks
            .iter()
            .filter(|c| makes_requests(facts, &c.target))
            .map(|c| c.field.as_str());
        called_fields.extend(called);
        // Calls of the field run it, unless another value given to it makes them ambiguous.
        for field in given {
            names.insert(name(field, NameUse::Field));
            names.insert(name(field, NameUse::GivenToField));
        }
    }
    for field in called_fields {
        let values = values_given(&files, field);
        let makers = makers.keys().copied();
        names.extend(values_that_matter(
            field,
            &values,
            one_scope,
            makers,
            &makes_requests,
        ));
    }
    for (m, companions) in makers {
        for with in companions {
            for used_as in [NameUse::Call, NameUse::DeclaredFunction] {
                names.insert(Name {
                    with: with.map(str::to_string),
                    ..name(m, used_as)
                });
            }
        }
    }
    for c in consts {
        names.insert(name(c, NameUse::DeclaredConst));
    }
    names
}

/// Linked methods by name: their arguments besides `self`, and the types a receiver returned
/// by a call must have to run them (`None`: any type may).
type LinkedMethods<'f> = HashMap<&'f str, Vec<(usize, Option<&'f str>)>>;

/// The functions whose calls make requests, by name (see [`Linker::requesting_functions`]).
#[derive(Default)]
struct Requesters<'f> {
    by_name: HashMap<&'f str, Vec<&'f FunctionFacts>>,
}

impl Requesters<'_> {
    /// Whether the call may be of one of them: the linker takes a call for a function only
    /// when it fits the call's shape (see [`CallShape::fits`]), so `Type::new(..)` is not a call
    /// of `Controller::new`, nor `map.get(k)` of a `get` taking two arguments. The receiver's
    /// type is left out (the linker may find it, or call a trait's provided method on it), and
    /// a function value held by a field is taken by its name.
    fn may_be_called_by(&self, call: &HelperCall) -> bool {
        let Some(functions) = self.by_name.get(callee_name(call)) else {
            return false;
        };
        functions.iter().any(|f| fits_untyped(call, f))
    }
}

/// What the prefilter needs to know to scan a file's requests for the names they carry.
struct RequestNameSources<'s, 'f> {
    index: &'s IndexView<'f>,
    is_wrapper: &'s dyn Fn(&HelperCall) -> bool,
    requesters: &'s Requesters<'f>,
}

impl<'f> RequestNameSources<'_, 'f> {
    /// The consts a file's requests (or calls of functions making requests) name, and the
    /// functions whose returned names flow into them.
    fn scan(
        &self,
        facts: &'f FileFacts,
        consts: &mut HashSet<&'f str>,
        found_name_makers: &mut HashSet<NameMaker<'f>>,
    ) {
        let (index, is_wrapper, requesters) = (self.index, self.is_wrapper, self.requesters);
        let mut request_names: Vec<&NameExpr> = Vec::new();
        for raw in &facts.requests {
            match &raw.kind {
                // `map.get(KEY)` is not a request: only calls on an `Api` count.
                RawKind::Api(call) if may_be_api(index, &call.source) => {
                    const_of(&call.source, consts);
                    if let ObjectName::One { name, .. } = &call.object {
                        const_root(name, consts);
                        request_names.push(name);
                    }
                }
                RawKind::Api(_) => {}
                RawKind::Helper(call) if is_wrapper(call) || requesters.may_be_called_by(call) => {
                    for arg in call.receiver.iter().chain(&call.args) {
                        const_root(&arg.name, consts);
                        request_names.push(&arg.name);
                        if let Some(h) = &arg.handle {
                            const_of(h, consts);
                        }
                    }
                }
                RawKind::Helper(_) => {}
            }
        }
        let returned = returned_entries(facts);
        returned_name_callees(
            facts,
            &returned,
            request_names.into_iter(),
            found_name_makers,
        );
    }
}

/// The function values the files give `field`, with the file giving each.
fn values_given<'f>(
    files: &[&'f FileFacts],
    field: &str,
) -> Vec<(&'f FileFacts, &'f CallbackTarget)> {
    files
        .iter()
        .flat_map(|facts| {
            facts
                .callbacks
                .iter()
                .filter(move |c| c.field == field)
                .map(move |c| (*facts, &c.target))
        })
        .collect()
}

/// The names of the files that may give `field`, a field called in async code, the value its
/// calls run. A call of a field runs the one value the crate gives it (several leave it
/// unresolved, see `Linker::callback`), so within one scope: given two values already, no
/// other file changes that; given one, only when it makes requests (or blocks) can another
/// file's value matter, by making it ambiguous (a file giving the field a value); given none,
/// the file giving it one that does (a closure with requests holds them, and is parsed for
/// them) names a function that makes requests or blocks (`maker`), by path: such files have
/// both names. Over several scopes (a workspace), every file giving the field a value or
/// calling it.
fn values_that_matter<'f>(
    field: &'f str,
    values: &[(&'f FileFacts, &'f CallbackTarget)],
    one_scope: bool,
    makers: impl Iterator<Item = &'f str>,
    makes_requests: &impl Fn(&FileFacts, &CallbackTarget) -> bool,
) -> Vec<Name> {
    let given = Name::new(field, NameUse::GivenToField);
    if !one_scope {
        return vec![given, Name::new(field, NameUse::Field)];
    }
    match values {
        [] => makers
            .map(|maker| Name {
                with: Some(field.to_string()),
                ..Name::new(maker, NameUse::Anywhere)
            })
            .collect(),
        [(facts, target)] if makes_requests(facts, target) => vec![given],
        _ => Vec::new(),
    }
}

/// A function whose returned value a name is built from, with the type its call names, if
/// any: a call `Lease::name(..)` runs only a function of an `impl Lease` block (see
/// `CallShape::fits`), so only files naming `Lease` can declare it (or make it ambiguous).
type NameMaker<'f> = (&'f str, Option<&'f str>);

fn name_maker(call: &HelperCall) -> NameMaker<'_> {
    let of_type = match CallShape::of(call, None) {
        Some((_, CallShape::Qualified { qualifier, .. }))
            if qualifier.starts_with(char::is_uppercase) =>
        {
            Some(qualifier)
        }
        _ => None,
    };
    (callee_name(call), of_type)
}

/// The functions called where this file builds a name from what a call returns
/// (`api.get(&lease_name(app))`, `let n = lease_name(app)`), in `names`: a file declaring one
/// gives the name.
fn returned_name_callees<'f>(
    facts: &'f FileFacts,
    returned: &HashMap<u64, usize>,
    names: impl Iterator<Item = &'f NameExpr>,
    out: &mut HashSet<NameMaker<'f>>,
) {
    let mut names: Vec<&NameExpr> = names.collect();
    while let Some(n) = names.pop() {
        match n {
            NameExpr::Path {
                root: Root::Binding(b),
                ..
            } => {
                let call = returned.get(b).and_then(|&e| facts.requests.get(e));
                if let Some(RawKind::Helper(call)) = call.map(|r| &r.kind) {
                    out.insert(name_maker(call));
                }
            }
            NameExpr::Format { parts, .. } => names.extend(parts.iter()),
            _ => {}
        }
    }
}

/// The declarations that decide the receivers' types of the files' calls of linked functions
/// (`rt.block_on(..)` after `let rt = Builder::new().build()?`, see
/// [`Linker::receiver_type`]): which function of a name a method call runs can depend on its
/// receiver's type, and a receiver returned by a call is typed by the function that call runs.
///
/// Such a call runs a linked `f` only when its receiver is typed `T`, the `impl` type of an `f`
/// (the linker does not take it by name, see [`Linker::candidates`]): then only files
/// declaring the receiver's maker `g` and naming `T` can type it so. Once a parsed `g` returns
/// `T`, every file declaring a `g` matters (one more makes the call ambiguous), and so do the
/// makers of `g`'s receiver, for `g`'s types, and so on. A linked provided method, run for any
/// implementor (`None`), makes every declaration of every maker up the chain matter.
fn receiver_typer_names<'f>(linker: &Linker<'f>, files: &[&'f FileFacts]) -> HashSet<Name> {
    let linked = linker.linked_methods();
    let mut out = HashSet::new();
    for facts in files {
        for raw in &facts.requests {
            let RawKind::Helper(HelperCall {
                callee:
                    Callee::Method {
                        name,
                        self_type: None,
                        receiver_from: Some(from),
                    },
                args,
                ..
            }) = &raw.kind
            else {
                continue;
            };
            let wanted: Vec<Option<&str>> = linked
                .get(name.as_str())
                .into_iter()
                .flatten()
                .filter(|(params, _)| *params == args.len())
                .map(|&(_, of_type)| of_type)
                .collect();
            if !wanted.is_empty() {
                let chain = ReceiverChain { facts, linker };
                chain.typer_names(*from, wanted, &mut out);
            }
        }
    }
    out
}

/// The calls of one file whose results are receivers, followed back from one call.
struct ReceiverChain<'s, 'f> {
    facts: &'f FileFacts,
    linker: &'s Linker<'f>,
}

impl<'f> ReceiverChain<'_, 'f> {
    /// [`receiver_typer_names`] of the call at `from`, whose result must be of one of `wanted`.
    fn typer_names(
        &self,
        from: ReturnedType,
        mut wanted: Vec<Option<&'f str>>,
        out: &mut HashSet<Name>,
    ) {
        // The linker types a receiver through at most `MAX_TYPE_DEPTH` calls: past them, no
        // declaration changes what a call runs (and the chain ends whatever the entries say).
        let mut next = Some(from);
        for _ in 0..=MAX_TYPE_DEPTH {
            let Some(returned) = next.take() else {
                return;
            };
            let call = match self.facts.requests.get(returned.entry).map(|r| &r.kind) {
                Some(RawKind::Helper(call)) => call,
                Some(RawKind::Api(api)) => match &api.as_method {
                    Some(call) => call,
                    None => return,
                },
                _ => return,
            };
            let (maker, of_type) = name_maker(call);
            let every_declaration = Name {
                with: of_type.map(str::to_string),
                with_impl: of_type.is_some(),
                ..Name::new(maker, NameUse::DeclaredFunction)
            };
            if wanted.contains(&None) {
                out.insert(every_declaration);
            } else {
                for t in wanted.iter().flatten() {
                    out.insert(Name {
                        with: Some(t.to_string()),
                        ..Name::new(maker, NameUse::DeclaredFunction)
                    });
                }
                let shared = &self.linker.shared;
                let typing: Vec<&FunctionFacts> = shared
                    .functions_named(maker)
                    .map(|(p, k)| &shared.facts(p).functions[k])
                    .filter(|g| fits_untyped(call, g) && returns_one_of(g, &wanted))
                    .collect();
                if typing.is_empty() {
                    return;
                }
                out.insert(every_declaration);
                wanted = typing.iter().map(|g| g.self_type.as_deref()).collect();
            }
            if let Callee::Method {
                self_type: None,
                receiver_from,
                ..
            } = &call.callee
            {
                next = *receiver_from;
            }
        }
    }
}

/// Whether `call` may run `g`, whatever its receiver's type (see [`CallShape::fits`]).
fn fits_untyped(call: &HelperCall, g: &FunctionFacts) -> bool {
    match CallShape::of(call, None) {
        Some((_, CallShape::Method { arity, .. })) => CallShape::Method {
            self_type: None,
            arity,
        }
        .fits(g),
        Some((_, shape)) => shape.fits(g),
        None => true,
    }
}

/// `g` returns a value of one of the types (or holds one, as a tuple's element or an item).
fn returns_one_of(g: &FunctionFacts, types: &[Option<&str>]) -> bool {
    let returns = &g.returns;
    std::iter::once(&returns.name)
        .chain(&returns.elements)
        .chain(std::iter::once(&returns.item))
        .flatten()
        .any(|t| types.contains(&Some(t.as_str())))
}

/// A function's tail ([`FunctionFacts::returned_name`]), with its file's position and the type
/// of its `impl` block.
type Tail<'f> = (usize, &'f NameExpr, Option<&'f str>);

/// The functions whose tails give the names requests use (see [`Linker::returned_field`]),
/// from the callees of `direct` through the tails of the functions of those names (of the
/// type a call names, if it names one).
fn name_makers<'f>(
    files: &[&'f FileFacts],
    mut found: HashSet<NameMaker<'f>>,
) -> HashSet<NameMaker<'f>> {
    let mut todo: Vec<NameMaker> = found.iter().copied().collect();
    // By name: the file, the tail and the function's `impl` type.
    let mut tails: HashMap<&str, Vec<Tail>> = HashMap::new();
    for (i, facts) in files.iter().enumerate() {
        for f in &facts.functions {
            if let Some(n) = &f.returned_name {
                let of_type = f.self_type.as_deref();
                tails
                    .entry(f.name.as_str())
                    .or_default()
                    .push((i, n, of_type));
            }
        }
    }
    let returned: Vec<HashMap<u64, usize>> = files.iter().map(|f| returned_entries(f)).collect();
    while let Some((function, of_type)) = todo.pop() {
        let fitting = tails.get(function).into_iter().flatten();
        for &(i, tail, _) in fitting.filter(|t| of_type.is_none() || t.2 == of_type) {
            let mut more = HashSet::new();
            returned_name_callees(files[i], &returned[i], std::iter::once(tail), &mut more);
            for m in more {
                if found.insert(m) {
                    todo.push(m);
                }
            }
        }
    }
    found
}

/// [`FileFacts::returned_values`]: binding → the entry whose call returned its value.
fn returned_entries(facts: &FileFacts) -> HashMap<u64, usize> {
    facts
        .returned_values
        .iter()
        .map(|(id, r)| (*id, r.entry))
        .collect()
}

fn const_root<'f>(name: &'f NameExpr, consts: &mut HashSet<&'f str>) {
    if let NameExpr::Path {
        root: Root::Const(c),
        ..
    } = name
    {
        consts.insert(c);
    }
}

/// A handle the index resolves, or one unwrapped from a crate call (the linker decides).
fn may_be_api(index: &IndexView<'_>, source: &HandleSource) -> bool {
    matches!(source, HandleSource::Unwrapped { .. }) || index.resolve(source).is_some()
}

fn const_of<'f>(source: &'f HandleSource, consts: &mut HashSet<&'f str>) {
    if let HandleSource::Known(Handle {
        namespace: Namespace::Named(n),
        ..
    }) = source
    {
        const_root(n, consts);
    }
}

impl<'a> Linker<'a> {
    /// The functions whose calls other files' findings can rest on, by name, each with the
    /// identifiers a calling file must have ([`Linker::callable_with`]): those that make
    /// requests, directly or through others (their summaries are not empty), and the sync
    /// functions that block the thread on a future. Functions no call can resolve to (tests,
    /// `main`, `Drop::drop`, methods other methods of their name make ambiguous) are left out.
    pub fn linked_functions(&self) -> HashMap<&'a str, Vec<Option<&'a str>>> {
        let mut out: HashMap<&'a str, Vec<Option<&'a str>>> = HashMap::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            if !self.sees(pos) {
                continue;
            }
            for (k, f) in facts.functions.iter().enumerate() {
                if !self.is_linked(pos, k) {
                    continue;
                }
                let with = self.callable_with(pos, k);
                let known = out.entry(f.name.as_str()).or_default();
                for w in with {
                    if !known.contains(&w) {
                        known.push(w);
                    }
                }
            }
        }
        for with in out.values_mut() {
            if with.contains(&None) {
                *with = vec![None];
            }
        }
        out
    }

    /// The linked methods (see [`Linker::linked_functions`]) by name: for each, its arguments
    /// besides `self` and the type a receiver returned by a call must have to run it (such a
    /// receiver is never taken by name, see [`Linker::candidates`]): its `impl` type, or any
    /// (`None`) for a trait's provided method, run for every implementor not overriding it.
    fn linked_methods(&self) -> LinkedMethods<'a> {
        let mut out: LinkedMethods<'a> = HashMap::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            if !self.sees(pos) {
                continue;
            }
            for (k, f) in facts.functions.iter().enumerate() {
                if f.has_self && self.is_linked(pos, k) && !self.callable_with(pos, k).is_empty() {
                    let of_type = if f.provided {
                        None
                    } else {
                        f.self_type.as_deref()
                    };
                    out.entry(f.name.as_str())
                        .or_default()
                        .push((f.params.len(), of_type));
                }
            }
        }
        out
    }

    /// The functions whose calls make requests (see [`Linker::linked_functions`]), not only
    /// block: their arguments may name the objects. Provided methods are kept whenever linked
    /// (their requests may depend on the implementor's type).
    fn requesting_functions(&self) -> Requesters<'a> {
        let mut out = Requesters::default();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            if !self.sees(pos) {
                continue;
            }
            for (k, f) in facts.functions.iter().enumerate() {
                let requests = !f.entry_point && !self.summary(pos, k, 0).is_empty();
                if requests || (f.provided && self.is_linked(pos, k)) {
                    out.by_name.entry(f.name.as_str()).or_default().push(f);
                }
            }
        }
        out
    }

    /// Whether other files' findings can rest on calls of this function: it makes requests,
    /// directly or through others (its summary is not empty), or it is sync and blocks the
    /// thread on a future. Tests and `main` are called by no one.
    fn is_linked(&self, pos: usize, k: usize) -> bool {
        !self.shared.facts(pos).functions[k].entry_point
            && (!self.summary(pos, k, 0).is_empty() || self.blocking_chain(pos, k, 1).is_some())
    }

    /// The traits of linked functions (see [`Linker::linked_functions`]) that no file declares.
    fn undeclared_traits_of_linked_functions(&self) -> HashSet<&'a str> {
        let mut out = HashSet::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            if !self.sees(pos) {
                continue;
            }
            for (k, f) in facts.functions.iter().enumerate() {
                let Some(t) = f.trait_name.as_deref() else {
                    continue;
                };
                if !self.index().has_trait(t) && self.is_linked(pos, k) {
                    out.insert(t);
                }
            }
        }
        out
    }

    /// The traits of linked provided methods (see [`FunctionFacts::provided`]).
    fn traits_of_linked_provided_methods(&self) -> HashSet<&'a str> {
        let mut out = HashSet::new();
        for (pos, facts) in (0..self.shared.len()).map(|p| (p, self.shared.facts(p))) {
            for (k, f) in facts.functions.iter().enumerate() {
                if let (true, Some(t)) = (f.provided, f.trait_name.as_deref()) {
                    if self.is_linked(pos, k) {
                        out.insert(t);
                    }
                }
            }
        }
        out
    }

    /// The identifiers a file must have for one of its calls to resolve to this function (see
    /// [`Name::with`]): empty when no call can (another function of the name fits every call
    /// shape that fits it), `[None]` when its name alone may do. Files not parsed yet can only
    /// add functions of the name, which makes calls more ambiguous, never less.
    fn callable_with(&self, pos: usize, k: usize) -> Vec<Option<&'a str>> {
        let f = &self.shared.facts(pos).functions[k];
        // `x.drop()` does not compile: `Drop::drop` is called by the compiler only.
        if f.entry_point || f.trait_name.as_deref() == Some("Drop") {
            return Vec::new();
        }
        // A provided method: any call of its name may run it (for an implementor that does not
        // override it, of whatever type), which a file written elsewhere cannot make ambiguous.
        if f.provided {
            return vec![None];
        }
        let path_arity = f.params.len() + usize::from(f.has_self);
        let self_type = f.self_type.as_deref();
        let mut shapes: Vec<(CallShape<'_>, Option<&'a str>)> =
            vec![(CallShape::Bare { arity: path_arity }, None)];
        if let Some(t) = self_type {
            shapes.push((
                CallShape::Qualified {
                    qualifier: t,
                    arity: path_arity,
                },
                Some(t),
            ));
        }
        if let Some(m) = f.module.last() {
            shapes.push((
                CallShape::Qualified {
                    qualifier: m,
                    arity: path_arity,
                },
                Some(m.as_str()),
            ));
        }
        if f.has_self {
            shapes.push((
                CallShape::Method {
                    self_type: None,
                    arity: f.params.len(),
                },
                None,
            ));
            if let Some(t) = self_type {
                shapes.push((
                    CallShape::Method {
                        self_type: Some(t),
                        arity: f.params.len(),
                    },
                    Some(t),
                ));
            }
        }
        let mut out: Vec<Option<&'a str>> = Vec::new();
        for (shape, with) in shapes {
            let unique = self.fits(shape, f)
                && self
                    .shared
                    .overloads(&f.name, shape)
                    .filter(|&(p, c)| {
                        let g = &self.shared.facts(p).functions[c];
                        if !self.sees(p) {
                            return false;
                        }
                        // The functions a call compiled with `f` can also mean (see
                        // `resolve_callee`): tests prefer test-only functions.
                        self.fits(shape, g)
                            && g.cfg.is_test() == f.cfg.is_test()
                            && g.cfg.can_coexist(&f.cfg)
                    })
                    // A second one is enough to know (a name can have thousands).
                    .take(2)
                    .count()
                    == 1;
            if unique && !out.contains(&with) {
                out.push(with);
            }
        }
        if out.contains(&None) {
            out = vec![None];
        }
        out
    }
}
