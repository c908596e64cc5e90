//! The requests an entry makes: an `Api` call as one request, a call of a crate function as
//! that function's summary (computed on demand, recursion-safe) in the caller's terms.

use std::rc::Rc;

use super::callees::resolution_of;
use super::substitution::Substitution;
use super::wrappers::wrapper_matches;
use super::{display_name, Linker, MAX_DEPTH};
use crate::model::verbs;
use crate::model::wrappers::WrapperSpec;
use crate::model::{
    Argument, Callee, FunctionFacts, HelperCall, NameExpr, RawKind, RawRequest, Request,
    Resolution, Root,
};

impl<'a> Linker<'a> {
    /// The requests one entry makes when polled, in the terms of its own function.
    pub(super) fn resolve_entry(&self, pos: usize, raw: &RawRequest, depth: usize) -> Vec<Request> {
        match &raw.kind {
            RawKind::Api(call) => {
                // `recorder.publish(..)`, `entry.commit(..)` are taken for kube-runtime's by
                // their names; a method of the crate they resolve to (its own `Recorder`) wins.
                if verbs::lookup(call.verb.method).is_none() {
                    let typed = |m: &&HelperCall| {
                        resolution_of(m, self.receiver_type(pos, m, 0).is_some())
                            == Resolution::Typed
                    };
                    if let Some(method) = call
                        .as_method
                        .as_ref()
                        .filter(typed)
                        .filter(|m| self.resolve_callee(pos, raw, m).is_some())
                    {
                        return self.resolve_helper(pos, raw, method, depth, false);
                    }
                }
                let Some(handle) = self.resolve_handle(pos, &call.source) else {
                    return match &call.as_method {
                        Some(method) => self.resolve_helper(pos, raw, method, depth, true),
                        None => Vec::new(),
                    };
                };
                let mut request = Request {
                    span: raw.span,
                    verb: call.verb,
                    handle,
                    receiver: call.receiver.clone(),
                    object: self.index().resolve_object(&call.object),
                    via: Vec::new(),
                    defined_at: self.shared.display(pos).map(|d| (d.clone(), raw.line)),
                    written_at: raw.span,
                    keyed_by: raw.keyed_by.clone(),
                    in_channel_loop: raw.in_channel_loop,
                    resolution: Resolution::Typed,
                    may_create: call.may_create,
                    cfg: raw.cfg.clone(),
                    name_from_get: call.name_from_get,
                    name_from_list: call.name_from_list,
                    listed: call.listed.clone(),
                    fetched: None,
                    precondition: self.resolve_returned_body(pos, call.precondition),
                    controller: None,
                    left_running: None,
                };
                self.follow_returned_values(pos, &mut request, depth);
                request.fetched = self.fetched_object(pos, &request);
                // The name a fetch was made with may be a value a crate call returned.
                if self.name_fetched_objects(pos, &mut request) {
                    self.follow_returned_values(pos, &mut request, depth);
                }
                vec![request]
            }
            // A controller's run, followed through the functions its controller went through.
            RawKind::Helper(call) => match self.with_linked_run(pos, raw) {
                Some(raw) => self.resolve_helper(pos, &raw, call, depth, false),
                None => Vec::new(),
            },
        }
    }

    /// The requests a call of a crate function makes, in the caller's terms. `verb_named`: a
    /// request method's name on a receiver that is not an `Api` (`manager.watch()`), which by
    /// its name alone says nothing.
    fn resolve_helper(
        &self,
        pos: usize,
        raw: &RawRequest,
        call: &HelperCall,
        depth: usize,
        verb_named: bool,
    ) -> Vec<Request> {
        let declared = |w: &&WrapperSpec| w.from_dependency.is_none() && wrapper_matches(w, call);
        if let Some(spec) = self.shared.run.wrappers.iter().find(declared) {
            return vec![self.wrapper_request(pos, raw, call, spec)];
        }
        if depth >= MAX_DEPTH {
            return Vec::new();
        }
        if let Some(requests) = self.closure_callback_requests(pos, raw, call, depth) {
            return requests;
        }
        let callees = self.callees(pos, raw, call);
        // A helper of a dependency answers only calls no function of the crate answers; one
        // function may make several requests (a get, then a patch).
        if callees.is_empty() {
            let found = self.dependency_helpers(pos, call);
            if !found.is_empty() {
                return found
                    .into_iter()
                    .map(|spec| self.wrapper_request(pos, raw, call, spec))
                    .collect();
            }
        }
        let known_type = match &call.callee {
            Callee::Method {
                self_type: Some(t), ..
            } => Some(t.clone()),
            _ => self.receiver_type(pos, call, 0),
        };
        let mut resolution = resolution_of(call, known_type.is_some());
        if verb_named && resolution != Resolution::Typed {
            resolution = Resolution::AmbiguousName;
        }
        // A value known by its traits, with several implementors in scope: the call runs one
        // of them, which one the caller's type decides (not followed): evidence, not proof.
        let bounded = known_type
            .as_deref()
            .is_some_and(|t| crate::model::bound_traits(t).is_some());
        if bounded && callees.len() > 1 && resolution == Resolution::Typed {
            resolution = Resolution::ByName;
        }
        let mut out = Vec::new();
        for (cpos, k) in callees {
            let callee = &self.shared.facts(cpos).functions[k];
            // A provided method run for a known type calls that type's methods on `self`.
            let impl_type = callee.provided.then_some(known_type.as_deref()).flatten();
            let summary = self.summary_as(cpos, k, impl_type, depth + 1);
            let handed;
            let call = match raw.controller {
                Some(_) => {
                    handed = handed_reconciled_object(call, callee);
                    &handed
                }
                None => call,
            };
            let mut subst = Substitution::new(self.index(), callee, call);
            subst.infer_kinds(|a| self.fetched_kind(pos, a));
            out.extend(summary.iter().map(|r| {
                let via = display_name(callee);
                self.at_call(pos, raw, subst.apply(r), via, resolution, depth)
            }));
        }
        out
    }

    /// Every request a function makes, directly or through helpers, in its own terms.
    pub(super) fn summary(&self, pos: usize, k: usize, depth: usize) -> Rc<Vec<Request>> {
        self.summary_as(pos, k, None, depth)
    }

    /// A function's summary; for a trait's provided method run for an implementor of a known
    /// type (`impl_type`), with its calls of methods on `self` resolved to that type's methods.
    fn summary_as(
        &self,
        pos: usize,
        k: usize,
        impl_type: Option<&str>,
        depth: usize,
    ) -> Rc<Vec<Request>> {
        let key = ((pos, k), impl_type.map(str::to_string));
        if let Some(s) = self.summaries.borrow().get(&key) {
            return s.clone();
        }
        // Recursion: a function being summarised contributes nothing more to itself.
        if !self.in_progress.borrow_mut().insert(key.clone()) {
            return Rc::new(Vec::new());
        }
        let facts = self.shared.facts(pos);
        let entries = self.shared.entries_of_function(pos, k);
        let left_running = self.left_running_entries(pos, k);
        let requests: Vec<Request> = self.summarising(impl_type.map(str::to_string), || {
            entries
                .iter()
                .flat_map(|&i| {
                    let raw = &facts.requests[i];
                    let mut made = match impl_type.and_then(|t| on_self_as(raw, t)) {
                        Some(typed) => self.resolve_entry(pos, &typed, depth),
                        None => self.resolve_entry(pos, raw, depth),
                    };
                    // A task left running by a function deeper down stays that function's.
                    if let Some(left) = left_running.get(&i) {
                        for r in made.iter_mut().filter(|r| r.left_running.is_none()) {
                            r.left_running = Some(Box::new(left.clone()));
                        }
                    }
                    made
                })
                .collect()
        });
        self.in_progress.borrow_mut().remove(&key);
        let summary = Rc::new(requests);
        self.summaries.borrow_mut().insert(key, summary.clone());
        summary
    }

    /// `f` run with `impl_type` as the type a provided method being followed runs for (None:
    /// the function being followed is not one), restored after.
    pub(super) fn summarising<R>(&self, impl_type: Option<String>, f: impl FnOnce() -> R) -> R {
        let saved = self.summarised_for.replace(impl_type);
        let out = f();
        self.summarised_for.replace(saved);
        out
    }

    /// A callee's request, substituted, as made by the call `raw` (of file `pos`) through `via`.
    pub(super) fn at_call(
        &self,
        pos: usize,
        raw: &RawRequest,
        mut r: Request,
        via: String,
        resolution: Resolution,
        depth: usize,
    ) -> Request {
        self.follow_returned_values(pos, &mut r, depth);
        // A fetched object the caller passed the callee, named by the name it was fetched with.
        r.fetched = self.fetched_object(pos, &r);
        if self.name_fetched_objects(pos, &mut r) {
            self.follow_returned_values(pos, &mut r, depth);
        }
        // A body the caller's argument gave, returned by a call in the caller's file.
        r.precondition = self.resolve_returned_body(pos, r.precondition);
        r.span = raw.span;
        r.via.insert(0, via);
        // Keyed, in the caller, by what the call's arguments are computed from.
        r.keyed_by = raw.keyed_by.clone();
        r.in_channel_loop |= raw.in_channel_loop;
        r.resolution = r.resolution.min(resolution);
        // Made under the helper's `cfg` and the call's.
        r.cfg = raw.cfg.and(&r.cfg);
        // A controller that the reconcile starts and leaves running reconciles its own
        // objects: its requests are not made by each reconcile of the controller running it.
        if raw.controller.is_some() && !(r.left_running.is_some() && r.controller.is_some()) {
            r.controller = raw.controller.clone();
        }
        r
    }
}

/// A call of a method on `self` (`self.publish()`) in a provided method, as a call on a
/// receiver of type `impl_type`; None for other entries.
pub(super) fn on_self_as(raw: &RawRequest, impl_type: &str) -> Option<RawRequest> {
    let RawKind::Helper(call) = &raw.kind else {
        return None;
    };
    let (
        Callee::Method {
            name,
            self_type: None,
            ..
        },
        Some(Argument {
            name:
                NameExpr::Path {
                    root: Root::SelfValue(None),
                    fields,
                },
            ..
        }),
    ) = (&call.callee, &call.receiver)
    else {
        return None;
    };
    if !fields.is_empty() {
        return None;
    }
    let mut typed = raw.clone();
    typed.kind = RawKind::Helper(HelperCall {
        callee: Callee::Method {
            name: name.clone(),
            self_type: Some(impl_type.to_string()),
            receiver_from: None,
        },
        ..call.clone()
    });
    Some(typed)
}

/// A controller's call of its reconcile, with the object it hands it: one of the reconcile's
/// kind (see [`Root::Reconciled`]). Messages describe it by that root, not by a text.
fn handed_reconciled_object(call: &HelperCall, reconcile: &FunctionFacts) -> HelperCall {
    // A generic reconcile (`Arc<K>`) run for the one kind its turbofish names.
    let kind = reconcile.reconciled_kind.clone().or_else(|| {
        match (reconcile.generics.as_slice(), call.type_args.as_slice()) {
            ([_], [Some(kind)]) if reconcile.reconciler => Some(kind.clone()),
            _ => None,
        }
    });
    let mut call = call.clone();
    if let Some(object) = call.args.first_mut() {
        object.name = NameExpr::Path {
            root: Root::Reconciled(kind),
            fields: Vec::new(),
        };
    }
    call
}
