//! Blocking helpers: a `block_on` in a sync function of the crate, reported once at the
//! `block_on` with the async code of its link unit that calls it (directly or through other sync
//! functions), instead of once per caller.

use std::collections::HashSet;

use super::{by_name_only, display_name, FunctionRef, Linker, MAX_DEPTH};
use crate::model::{BlockingCaller, BlockingHelper, BodyKind, RawKind};

/// How many async callers of one helper are gathered (the note shows the first few and the
/// count; a bound, not a rule).
const MAX_ASYNC_CALLERS: usize = 256;

/// The way from a helper up to one of its callers: the functions on it (callee first) and what
/// holds all along it.
#[derive(Clone)]
struct Way {
    via: Vec<String>,
    on_every_path: bool,
    by_name_only: bool,
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
                    on_every_path: b.branches.is_empty(),
                    by_name_only: false,
                };
                let mut callers = Vec::new();
                let mut seen = HashSet::new();
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
                by_name_only,
            };
            self.async_callers(helper, (cpos, ck), &up, depth + 1, seen, out);
        }
    }
}
