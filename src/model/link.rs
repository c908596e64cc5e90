//! Linking the files of one crate:
//! - receivers that were not visibly `Api` handles in their own file (fields, helper return
//!   values) are resolved against item facts from every file;
//! - calls of the crate's own functions are replaced by the requests those functions make
//!   (their summaries, computed on demand, recursion-safe), with the caller's arguments
//!   substituted for the parameters.
//!
//! Its parts: the index (`link_index`, `crate_index`); how a call resolves (`call_shape`,
//! `callees`, `receivers`, `callbacks`, `wrappers`, `controllers`); what it makes (`summaries`,
//! `substitution`, `returned_names`, `callers`, `blocking`); the prefilter's names
//! (`linked_names`).

use std::cell::RefCell;
// foldhash, seeded per run, as the rest of the model (see `model::build`).
use foldhash::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

mod blocking;
mod call_shape;
mod callbacks;
mod callees;
mod callers;
mod controllers;
mod crate_index;
mod fetched;
mod handlers;
mod left_running;
mod link_index;
mod linked_names;
mod receivers;
mod returned_bodies;
mod returned_names;
mod substitution;
mod summaries;
mod wrappers;

pub use crate_index::{CrateIndex, IndexView, Scope};
pub use link_index::LinkIndex;
pub use linked_names::linked_names;

use super::wrappers::WrapperSpec;
use super::{
    CallbackTarget, Callee, FileFacts, FileModel, FunctionFacts, HelperCall, RawKind, RawRequest,
    Request, ReturnedType, UnpolledFuture,
};
use crate::source::FileId;
use blocking::BlockingChain;
use callees::CandidatesKey;

/// A function: its file's position in the run's files ([`LinkIndex`]) and its index in that file's functions.
type FunctionRef = (usize, usize);

/// A closure: its file's position and its span's start and end.
type ClosureRef = (usize, usize, usize);

/// The requests a function or closure makes, in its own terms.
type Summary = Rc<Vec<Request>>;

/// Helpers calling helpers deeper than this are not followed (a bound, not a semantic rule).
const MAX_DEPTH: usize = 12;

fn callee_name(call: &HelperCall) -> &str {
    match &call.callee {
        Callee::Path(segments) => segments.last().map_or("", String::as_str),
        Callee::Method { name, .. } | Callee::Field(name) => name.as_str(),
    }
}

/// Files linked together, for resolving helper calls across them: those of a [`LinkIndex`] its
/// scope sees.
pub struct Linker<'a> {
    shared: Arc<LinkIndex<'a>>,
    scope: Scope<'a>,
    /// Summaries of closures stored in fields, by file position and span.
    closure_summaries: RefCell<HashMap<ClosureRef, Summary>>,
    closures_in_progress: RefCell<HashSet<ClosureRef>>,
    /// The implementor type of the provided method whose requests or names are being followed
    /// (see [`Linker::summary_as`]); None in other functions.
    summarised_for: RefCell<Option<String>>,
    /// Summaries by function, and by the implementor's type a provided method runs for.
    summaries: RefCell<HashMap<(FunctionRef, Option<String>), Summary>>,
    in_progress: RefCell<HashSet<(FunctionRef, Option<String>)>>,
    /// How each sync function blocks the thread, if it does (see [`Linker::blocking_chain`]).
    blocking_chains: RefCell<HashMap<FunctionRef, Option<Rc<BlockingChain>>>>,
    blocking_in_progress: RefCell<HashSet<FunctionRef>>,
    /// The types of values returned by calls (see [`Linker::receiver_type`]).
    returned_types: RefCell<HashMap<(usize, ReturnedType), Option<String>>>,
    /// Whether every caller of a function passes a guarded body for a parameter (see
    /// [`callers`]).
    guarded_params: RefCell<HashMap<(FunctionRef, u64), bool>>,
    /// [`Linker::candidates`] by call: a big unit asks for one name and shape thousands of
    /// times, and each answer scans the functions of the name.
    candidates: RefCell<HashMap<CandidatesKey, Rc<[FunctionRef]>>>,
}

/// A method call whose receiver's type is not known: resolved by the method's name alone.
fn by_name_only(call: &HelperCall) -> bool {
    // A receiver another call returned is typed when the call resolves (see `candidates`).
    matches!(
        call.callee,
        Callee::Method {
            self_type: None,
            receiver_from: None,
            ..
        }
    )
}

impl<'a> Linker<'a> {
    /// `files`: every file's facts with its id; `displays`: the path shown for each file.
    pub fn new(
        files: Vec<(FileId, &'a FileFacts)>,
        displays: std::collections::HashMap<FileId, String>,
        wrappers: &'a [WrapperSpec],
    ) -> Self {
        let files = files.into_iter().map(|(id, f)| (id, f, 0)).collect();
        Self::scoped(
            Arc::new(LinkIndex::new(files, displays, wrappers)),
            Scope::All,
        )
    }

    /// A linker over the files of `shared` that `scope` sees: building it costs nothing, so each
    /// unit of a workspace gets its own without indexing its dependencies again.
    pub fn scoped(shared: Arc<LinkIndex<'a>>, scope: Scope<'a>) -> Self {
        Linker {
            shared,
            scope,
            closure_summaries: Default::default(),
            closures_in_progress: Default::default(),
            summarised_for: Default::default(),
            summaries: Default::default(),
            in_progress: Default::default(),
            blocking_chains: Default::default(),
            blocking_in_progress: Default::default(),
            returned_types: RefCell::default(),
            guarded_params: RefCell::default(),
            candidates: RefCell::default(),
        }
    }

    /// A linker of `facts` in this linker's scope, as one more file of the scope's own unit: a
    /// doc example (with the id of the file it is written in), which calls the unit's functions
    /// as the crate rustdoc builds it does, while no function of the unit calls it. The run's
    /// files are shared, not indexed again; summaries are made afresh.
    pub fn with_file<'e>(&self, file: FileId, facts: &'e FileFacts, display: &str) -> Linker<'e>
    where
        'a: 'e,
    {
        let unit = match self.scope {
            Scope::All => 0,
            Scope::Of { unit, .. } => unit,
        };
        let shared: &LinkIndex<'e> = &self.shared;
        let index = shared.with_file(file, facts, unit, display);
        Linker::scoped(Arc::new(index), self.scope)
    }

    /// The items this linker's scope sees.
    fn index(&self) -> IndexView<'_> {
        self.shared.view(self.scope)
    }

    /// Whether the file at `pos` is in this linker's scope.
    fn sees(&self, pos: usize) -> bool {
        self.scope.sees(self.shared.unit(pos))
    }

    /// Every request function `k` of file `file` makes, directly or through helpers, in its own
    /// terms (its parameters' bindings): how a dependency's helpers are summarised
    /// ([`crate::deps`]).
    pub fn requests_of(&self, file: FileId, k: usize) -> Vec<Request> {
        match self.shared.position(file) {
            Some(pos) => self.summary(pos, k, 0).as_ref().clone(),
            None => Vec::new(),
        }
    }

    /// The model of one file.
    pub fn link(&self, file: FileId) -> FileModel {
        let Some(pos) = self.shared.position(file) else {
            return FileModel {
                file,
                ..FileModel::default()
            };
        };
        let facts = self.shared.facts(pos);
        let requests = facts
            .requests
            .iter()
            .map(|raw| {
                let mut requests = self.resolve_entry(pos, raw, 0);
                self.resolve_preconditions(pos, raw, &mut requests);
                requests
            })
            .collect::<Vec<_>>();
        let spawns = self.spawns_with_calls(pos, &requests);
        let handlers = facts
            .handlers
            .iter()
            .map(|route| (route.clone(), self.handler_requests(pos, route)))
            .collect();
        let unresolved = facts
            .requests
            .iter()
            .enumerate()
            .filter(|(_, raw)| !self.resolves(pos, raw))
            .map(|(i, _)| i)
            .collect();
        FileModel {
            file,
            requests,
            handlers,
            unresolved,
            sites: facts.sites.clone(),
            spawns,
            timeouts: facts.timeouts.clone(),
            bound_futures: facts.bound_futures.clone(),
            unpolled: self.unpolled_of(pos),
            awaits: facts.awaits.clone(),
            raw: facts
                .requests
                .iter()
                .map(|raw| {
                    let mut raw = raw.clone();
                    match self.linked_run(pos, &raw) {
                        controllers::LinkedRun::AsBuilt => {}
                        controllers::LinkedRun::Run(run) => raw.controller = Some(run),
                        controllers::LinkedRun::NotARun => raw.controller = None,
                    }
                    raw
                })
                .collect(),
            functions: facts.functions.clone(),
            bodies: facts.bodies.clone(),
            blocking: self.blocking_of(pos),
            blocking_helpers: self.blocking_helpers_of(pos),
            abortables: facts.abortables.clone(),
            timer_waits: facts.timer_waits.clone(),
            timer_index: super::order::PointIndex::new(facts.timer_waits.iter().map(|w| w.point())),
            flow: super::order::ControlFlow::new(
                facts.exiting_arms.clone(),
                facts.breaking_arms.clone(),
                facts.continuing_arms.clone(),
                facts.loops.clone(),
                facts.bodies.iter().map(|b| b.made.clone()).collect(),
            ),
        }
    }

    /// Whether an entry's receiver is known to be a kube `Api`, or its callee is a function of
    /// the crate or a declared wrapper (whether or not it makes requests).
    fn resolves(&self, pos: usize, raw: &RawRequest) -> bool {
        match &raw.kind {
            RawKind::Api(call) => {
                self.resolve_handle(pos, &call.source).is_some()
                    || call
                        .as_method
                        .as_ref()
                        .is_some_and(|m| self.resolve_callee(pos, raw, m).is_some())
            }
            RawKind::Helper(call) => {
                self.is_wrapper_call(call)
                    || !self.callees(pos, raw, call).is_empty()
                    || !self.dependency_helpers(pos, call).is_empty()
                    || matches!(&call.callee, Callee::Field(f)
                        if matches!(self.callback(f), Some((_, CallbackTarget::Closure { .. }))))
            }
        }
    }

    /// The file's unpolled futures; a dropped call of a crate function only when its callee is
    /// lazy (an `async fn`, or [`FunctionFacts::lazy_future`]): a call of any other function
    /// has done its work when it returns.
    fn unpolled_of(&self, pos: usize) -> Vec<UnpolledFuture> {
        let facts = self.shared.facts(pos);
        facts
            .unpolled
            .iter()
            .filter(|u| !u.lazy_callee || u.requests.iter().all(|&e| self.lazy_call(pos, e)))
            .cloned()
            .collect()
    }

    /// Whether entry `entry` of file `pos` calls a crate function that does its work only when
    /// its result is polled (an `async fn`, or [`FunctionFacts::lazy_future`]).
    fn lazy_call(&self, pos: usize, entry: usize) -> bool {
        self.called_function(pos, entry)
            .is_some_and(|f| f.is_async || f.lazy_future)
    }

    /// The crate function entry `entry` of file `pos` calls, when its callee is known (not a
    /// method by its name alone).
    fn called_function(&self, pos: usize, entry: usize) -> Option<&FunctionFacts> {
        let raw = &self.shared.facts(pos).requests[entry];
        let RawKind::Helper(call) = &raw.kind else {
            return None;
        };
        // A method on a receiver of unknown type may be any library's (`v.clear()` on a
        // Vec): dropping its result says nothing unless the receiver's type is known.
        if by_name_only(call) && self.receiver_type(pos, call, 0).is_none() {
            return None;
        }
        self.resolve_callee(pos, raw, call)
            .map(|(cpos, k)| &self.shared.facts(cpos).functions[k])
    }
}

/// "status::mark_terminating", "Context::update_status", "helper".
pub(super) fn display_name(f: &FunctionFacts) -> String {
    if let (true, Some(t)) = (f.provided, &f.trait_name) {
        return format!("{t}::{}", f.name);
    }
    match (&f.self_type, f.module.last()) {
        (Some(t), _) => format!("{t}::{}", f.name),
        (None, Some(m)) => format!("{m}::{}", f.name),
        (None, None) => f.name.clone(),
    }
}

/// Link one file on its own (tests, `check_text`, `debug model`).
pub fn link_single(file: FileId, facts: &FileFacts, display: &str) -> FileModel {
    let displays = std::collections::HashMap::from([(file, display.to_string())]);
    Linker::new(vec![(file, facts)], displays, &[]).link(file)
}
