//! Blocking calls: those of a file, written in it or made through the crate's sync functions
//! that block (`BlockingChain`); and blocking helpers: a `block_on` in a sync function of the
//! crate, reported once at the `block_on` with the async code of its link unit that calls it
//! (directly or through other sync functions), instead of once per caller.

// foldhash, seeded per run, as the rest of the model (see `model::build`).
use foldhash::HashSet;
use std::rc::Rc;

use super::{by_name_only, display_name, FunctionRef, Linker, MAX_DEPTH};
use crate::model::{
    Argument, Blocking, BlockingCall, BlockingCaller, BlockingHelper, BodyKind, Callee,
    FunctionFacts, HelperCall, RawKind, Selection,
};

/// How many async callers of one helper are gathered (the note shows the first few and the
/// count; a bound, not a rule).
const MAX_ASYNC_CALLERS: usize = 256;

/// The way from a helper up to one of its callers: the functions on it (callee first) and what
/// holds all along it.
#[derive(Clone)]
struct Way {
    via: Vec<String>,
    on_every_path: bool,
    /// The way is not on every path, but the literal arguments of the call of the helper
    /// select its branch, and the calls after it are made on every path.
    selects: bool,
    by_name_only: bool,
    /// On the first step (the calls of the helper): the blocking call, in a branch of the
    /// helper, whose branch a call's literal arguments may select (index into its file's
    /// blocking calls).
    branch: Option<usize>,
}

/// How a sync function blocks: the functions on the way (it first) and the blocking call.
#[derive(Debug)]
pub(super) struct BlockingChain {
    /// The file of the blocking call.
    file: usize,
    via: Vec<String>,
    spelling: String,
    defined_at: (String, usize),
    unconditional: bool,
    by_name_only: bool,
}

impl<'a> Linker<'a> {
    /// The blocking calls of a file: those written in it, and the calls of sync functions of
    /// the crate that block.
    pub(super) fn blocking_of(&self, pos: usize) -> Vec<Blocking> {
        let facts = self.shared.facts(pos);
        let mut out = Vec::new();
        for b in &facts.blocking {
            if self.calls_crate_function(pos, b) {
                continue;
            }
            out.push(Blocking {
                span: b.span,
                spelling: b.spelling.clone(),
                via: Vec::new(),
                defined_at: None,
                unconditional: true,
                on_every_path: true,
                by_name_only: false,
                body: b.body,
                direct: Some(b.clone()),
            });
        }
        for raw in &facts.requests {
            let RawKind::Helper(call) = &raw.kind else {
                continue;
            };
            if self.is_wrapper_call(call) {
                continue;
            }
            // `x.run().await`: what is called returns a future, it is not a sync function.
            if facts.awaits.iter().any(|w| w.span.start == raw.span.start) {
                continue;
            }
            let Some((cpos, k)) = self.resolve_callee(pos, raw, call) else {
                continue;
            };
            if let Some(chain) = self.blocking_chain(cpos, k, 1) {
                if self.reported_at_helper(pos, chain.file) {
                    continue;
                }
                out.push(Blocking {
                    span: raw.span,
                    spelling: chain.spelling.clone(),
                    via: chain.via.clone(),
                    defined_at: Some(chain.defined_at.clone()),
                    unconditional: raw.branches.is_empty() && chain.unconditional,
                    on_every_path: chain.unconditional,
                    by_name_only: by_name_only(call) || chain.by_name_only,
                    body: raw.body,
                    direct: None,
                });
            }
        }
        out.sort_by_key(|b| (b.span.start, b.span.end));
        out
    }

    /// A bare `block_on(..)` that calls the crate's own function of that name.
    fn calls_crate_function(&self, pos: usize, b: &BlockingCall) -> bool {
        let facts = self.shared.facts(pos);
        let Some(raw) = b.entry.and_then(|e| facts.requests.get(e)) else {
            return false;
        };
        match &raw.kind {
            RawKind::Helper(call) => self.resolve_callee(pos, raw, call).is_some(),
            _ => false,
        }
    }

    /// How a sync function of the crate blocks the thread, when it does: a blocking call in its
    /// own body (not in a closure or `async` block of it), directly or through the sync
    /// functions it calls. Functions that check for a runtime (`Handle::try_current`) know
    /// where they run and are not followed.
    pub(super) fn blocking_chain(
        &self,
        pos: usize,
        k: usize,
        depth: usize,
    ) -> Option<Rc<BlockingChain>> {
        if let Some(c) = self.blocking_chains.borrow().get(&(pos, k)) {
            return c.clone();
        }
        if depth > MAX_DEPTH || !self.blocking_in_progress.borrow_mut().insert((pos, k)) {
            return None;
        }
        let facts = self.shared.facts(pos);
        let f = &facts.functions[k];
        let mut found: Option<BlockingChain> = None;
        let mut consider = |c: BlockingChain| {
            // The first unconditional way wins, else the first way.
            let better = match &found {
                None => true,
                Some(old) => c.unconditional && !old.unconditional,
            };
            if better {
                found = Some(c);
            }
        };
        if !f.is_async && !f.checks_runtime {
            let display = self.shared.display(pos).cloned();
            let blocking = self.shared.blocking_of_body(pos, f.body);
            for b in blocking.iter().map(|&i| &facts.blocking[i]) {
                if self.calls_crate_function(pos, b) {
                    continue;
                }
                consider(BlockingChain {
                    file: pos,
                    via: vec![display_name(f)],
                    spelling: b.spelling.clone(),
                    defined_at: (display.clone().unwrap_or_default(), b.line),
                    unconditional: b.on_every_path(),
                    by_name_only: false,
                });
            }
            let entries = self.shared.entries_of_body(pos, f.body);
            for raw in entries.iter().map(|&i| &facts.requests[i]) {
                let RawKind::Helper(call) = &raw.kind else {
                    continue;
                };
                if self.is_wrapper_call(call) {
                    continue;
                }
                let Some((cpos, ck)) = self.resolve_callee(pos, raw, call) else {
                    continue;
                };
                if let Some(inner) = self.blocking_chain(cpos, ck, depth + 1) {
                    let mut via = vec![display_name(f)];
                    via.extend(inner.via.iter().cloned());
                    consider(BlockingChain {
                        file: inner.file,
                        via,
                        spelling: inner.spelling.clone(),
                        defined_at: inner.defined_at.clone(),
                        unconditional: raw.branches.is_empty() && inner.unconditional,
                        by_name_only: by_name_only(call) || inner.by_name_only,
                    });
                }
            }
        }
        self.blocking_in_progress.borrow_mut().remove(&(pos, k));
        let chain = found.map(Rc::new);
        self.blocking_chains
            .borrow_mut()
            .insert((pos, k), chain.clone());
        chain
    }
}

impl Linker<'_> {
    /// Whether a call in the file at `caller` of a helper blocking in the file at `helper` is
    /// reported at the helper's `block_on` (both files of the run and of one link unit), not at
    /// the call.
    pub(super) fn reported_at_helper(&self, caller: usize, helper: usize) -> bool {
        self.shared.in_run(caller)
            && self.shared.in_run(helper)
            && self.shared.unit(caller) == self.shared.unit(helper)
    }

    /// The blocking calls in the sync functions of the file at `pos` that async code of its
    /// unit calls, each with those callers.
    pub(super) fn blocking_helpers_of(&self, pos: usize) -> Vec<BlockingHelper> {
        let facts = self.shared.facts(pos);
        if facts.blocking.is_empty() || !self.shared.in_run(pos) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (k, f) in facts.functions.iter().enumerate() {
            if f.is_async || f.checks_runtime {
                continue;
            }
            for &i in self.shared.blocking_of_body(pos, f.body) {
                let b = &facts.blocking[i];
                if self.calls_crate_function(pos, b) {
                    continue;
                }
                let way = Way {
                    via: vec![display_name(f)],
                    on_every_path: b.on_every_path(),
                    selects: false,
                    by_name_only: false,
                    branch: (!b.on_every_path()).then_some(i),
                };
                let mut callers = Vec::new();
                let mut seen = HashSet::default();
                self.async_callers(pos, (pos, k), &way, 1, &mut seen, &mut callers);
                if callers.is_empty() {
                    continue;
                }
                out.push(BlockingHelper {
                    span: b.span,
                    spelling: b.spelling.clone(),
                    function: display_name(f),
                    on_every_path: way.on_every_path,
                    callers,
                });
            }
        }
        out
    }

    /// The async callers of `function` in the unit of the file at `helper`, through sync
    /// functions that do not check for a runtime.
    fn async_callers(
        &self,
        helper: usize,
        function: FunctionRef,
        way: &Way,
        depth: usize,
        seen: &mut HashSet<FunctionRef>,
        out: &mut Vec<BlockingCaller>,
    ) {
        if depth > MAX_DEPTH || !seen.insert(function) {
            return;
        }
        let (pos, k) = function;
        let name = self.shared.facts(pos).functions[k].name.as_str();
        for (cpos, entry) in self.shared.calls_named(name) {
            if out.len() >= MAX_ASYNC_CALLERS {
                return;
            }
            if !self.sees(cpos) || !self.reported_at_helper(cpos, helper) {
                continue;
            }
            let facts = self.shared.facts(cpos);
            let raw = &facts.requests[entry];
            let RawKind::Helper(call) = &raw.kind else {
                continue;
            };
            // As at the call (`Linker::blocking_of`): wrappers and awaited calls do not block.
            if self.is_wrapper_call(call)
                || facts.awaits.iter().any(|w| w.span.start == raw.span.start)
                || self.resolve_callee(cpos, raw, call) != Some(function)
            {
                continue;
            }
            let selection = match way.branch {
                Some(i) => self.selection(helper, i, function, call),
                None => Selection::Unknown,
            };
            if selection == Selection::Avoided {
                continue;
            }
            let selects = way.selects || selection == Selection::Selected;
            let Some(body) = facts.bodies.get(raw.body as usize) else {
                continue;
            };
            let by_name_only = way.by_name_only || by_name_only(call);
            let caller_fn = body.function.and_then(|f| facts.functions.get(f));
            if body.kind.is_async() {
                let context = match (body.kind, caller_fn) {
                    (BodyKind::AsyncFn, Some(f)) => format!("the async fn `{}`", f.name),
                    (BodyKind::AsyncBlock, Some(f)) => format!("an `async` block in `{}`", f.name),
                    (BodyKind::AsyncClosure, Some(f)) => {
                        format!("an async closure in `{}`", f.name)
                    }
                    _ => "async code".to_string(),
                };
                out.push(BlockingCaller {
                    span: raw.span,
                    at: (
                        self.shared.display(cpos).cloned().unwrap_or_default(),
                        raw.line,
                    ),
                    context,
                    via: way.via.iter().rev().cloned().collect(),
                    on_every_path: way.on_every_path,
                    selects_branch: selects,
                    unconditional: raw.branches.is_empty(),
                    by_name_only,
                });
                continue;
            }
            // A call in the sync function's own body (not in a closure of it) blocks it.
            let Some((ck, f)) = body
                .function
                .and_then(|ck| facts.functions.get(ck).map(|f| (ck, f)))
                .filter(|(_, f)| f.body == raw.body && !f.is_async && !f.checks_runtime)
            else {
                continue;
            };
            let mut via = way.via.clone();
            via.push(display_name(f));
            let up = Way {
                via,
                on_every_path: way.on_every_path && raw.branches.is_empty(),
                selects: selects && raw.branches.is_empty(),
                by_name_only,
                branch: None,
            };
            self.async_callers(helper, (cpos, ck), &up, depth + 1, seen, out);
        }
    }
}

impl Linker<'_> {
    /// What the literal arguments of `call`, a call of `function`, tell of the branch of the
    /// blocking call `blocking` of the file at `pos` (in `function`'s body): every arm on the
    /// way to it a test its argument passes (selected), one it fails (avoided), or not told.
    fn selection(
        &self,
        pos: usize,
        blocking: usize,
        function: FunctionRef,
        call: &HelperCall,
    ) -> Selection {
        let facts = self.shared.facts(pos);
        let callee = &self.shared.facts(function.0).functions[function.1];
        let b = &facts.blocking[blocking];
        // Whether the call takes an arm: None when not told.
        let takes = |arm: &(u32, u32)| {
            let at = facts
                .arm_conditions
                .binary_search_by_key(arm, |(arm, _)| *arm)
                .ok()?;
            let c = &facts.arm_conditions[at].1;
            let literal = argument_for(callee, call, c.param)?.literal.as_ref()?;
            Some(c.runs_with(literal))
        };
        let mut told = true;
        for arm in &b.branches {
            match takes(arm) {
                Some(false) => return Selection::Avoided,
                Some(true) => {}
                None => told = false,
            }
        }
        // An arm before it that leaves the function: taken when every arm of its path that the
        // blocking call is not in is.
        for exit in &b.exits_before {
            let own = exit.iter().filter(|arm| !b.branches.contains(arm));
            let taken: Vec<Option<bool>> = own.map(takes).collect();
            if taken.is_empty() || taken.contains(&Some(false)) {
                continue;
            }
            if taken.iter().all(|t| *t == Some(true)) {
                return Selection::Avoided;
            }
            told = false;
        }
        match told {
            true => Selection::Selected,
            false => Selection::Unknown,
        }
    }
}

/// What `call` passes for the parameter (binding id) `param` of `callee` (as
/// [`Substitution`](super::substitution::Substitution) pairs them).
fn argument_for<'c>(
    callee: &FunctionFacts,
    call: &'c HelperCall,
    param: u64,
) -> Option<&'c Argument> {
    // `Type::method(recv, ..)` passes the receiver as the first argument.
    let receiver_first = callee.has_self && !matches!(call.callee, Callee::Method { .. });
    callee
        .params
        .iter()
        .zip(call.args.iter().skip(usize::from(receiver_first)))
        .find(|(p, _)| **p == Some(param))
        .map(|(_, a)| a)
}
