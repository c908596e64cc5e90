//! The kube requests a body makes: `Api` methods (by verb), kube-runtime and kube-client requests
//! that are not (`Entry::commit`, `Client::request`, `Recorder::publish`, `finalizer`, …), each
//! recorded with its handle, object and what it is keyed by.

use syn::{Expr, Pat};

use super::{same_object, strip, Builder, EntryValue, Value};
use crate::model::{
    known, verbs, ApiCall, Handle, HandleOrigin, HandleSource, Listed, NameExpr, Namespace,
    ObjectName, Precondition, RawKind, RawRequest, Root, Target,
};
use crate::source::Span;

impl Builder<'_> {
    pub(super) fn record_request(&mut self, call: &syn::ExprMethodCall) {
        let Some(verb) = verbs::lookup(&call.method.to_string()) else {
            return;
        };
        let Some(source) = self.handle_source(&call.receiver) else {
            return;
        };
        let mut keyed_by = self.deps_of_expr(&call.receiver);
        let object = match verb.target {
            Target::Collection => ObjectName::All,
            Target::NameArg(i) => match call.args.iter().nth(i) {
                Some(arg) => {
                    keyed_by.extend(self.deps_of_expr(arg));
                    ObjectName::One {
                        name: self.name_of(arg),
                        text: self.text(strip(arg)),
                    }
                }
                // Too few arguments: not kube's method.
                None => return,
            },
            Target::DataArg(i) => match call.args.iter().nth(i) {
                Some(arg) => {
                    keyed_by.extend(self.deps_of_expr(arg));
                    let name = self.metadata_name_of(arg);
                    let text = match &name {
                        NameExpr::Literal(_) => String::new(),
                        NameExpr::Unknown => String::new(),
                        _ => format!("{}.metadata.name", self.text(strip(arg))),
                    };
                    ObjectName::One { name, text }
                }
                None => return,
            },
        };
        let receiver = self.text(strip(&call.receiver));
        let precondition = verbs::body_arg(verb)
            .and_then(|i| call.args.iter().nth(i))
            .map_or(Precondition::None, |body| {
                self.write_precondition(body, &receiver, &object)
            });
        let (object, name_from_get) = match object {
            ObjectName::One {
                name: NameExpr::Unknown,
                ..
            } if verb.method == "create" => match self.name_got_before(&receiver) {
                Some(got) => (got, true),
                None => (object, false),
            },
            object => (object, false),
        };
        let name_from_list = self.names_listed_element(&object, &receiver, &keyed_by);
        let listed = self
            .listing_named(&object)
            .or_else(|| self.param_element_named(&object))
            .map(Box::new);
        let kind = RawKind::Api(Box::new(ApiCall {
            verb,
            source,
            receiver,
            object,
            name_from_get,
            name_from_list,
            listed,
            precondition,
            may_create: verb.method == "create"
                || (verb.method.starts_with("patch")
                    && call
                        .args
                        .iter()
                        .any(|a| self.text(a).contains("Patch::Apply"))),
            // `manager.watch()` on a receiver that turns out not to be an `Api`.
            as_method: Some(self.helper_method_call(call)),
        }));
        self.push_entry(self.span(call), kind, keyed_by);
    }

    /// The object of the last `get` (or `get_opt`, `get_metadata`, …) made through this
    /// receiver earlier in the function, when its name is known: what a create of an object
    /// built elsewhere creates, in the get-or-create idiom.
    fn name_got_before(&self, receiver: &str) -> Option<ObjectName> {
        let function = self.functions.last().copied()?;
        self.facts.requests.iter().rev().find_map(|r| match &r.kind {
            RawKind::Api(c)
                if r.function == Some(function)
                    && c.receiver == receiver
                    && c.verb.method.starts_with("get")
                    && matches!(&c.object, ObjectName::One { name, .. } if *name != NameExpr::Unknown) =>
            {
                Some(c.object.clone())
            }
            _ => None,
        })
    }

    /// The kube `Entry` an expression gives: `api.entry(name).await?`, followed by the methods
    /// of `Entry` that keep the object (`or_insert`, `and_modify`), or a binding holding one.
    pub(super) fn entry_of(&self, expr: &Expr) -> Option<EntryValue> {
        match strip(expr) {
            Expr::Try(t) => self.entry_of(&t.expr),
            Expr::Await(a) => self.entry_of(&a.base),
            Expr::Path(p) => match &self.lookup(&p.path.get_ident()?.to_string())?.value {
                Value::Entry(e) => Some((**e).clone()),
                _ => None,
            },
            Expr::MethodCall(m) => match m.method.to_string().as_str() {
                "entry" if m.args.len() == 1 => {
                    let source = self.handle_source(&m.receiver)?;
                    let mut keyed_by = self.deps_of_expr(&m.receiver);
                    keyed_by.extend(self.deps_of_expr(&m.args[0]));
                    Some(EntryValue {
                        source,
                        receiver: self.text(strip(&m.receiver)),
                        name: self.name_of(&m.args[0]),
                        text: self.text(strip(&m.args[0])),
                        keyed_by,
                    })
                }
                "or_insert" | "or_insert_with" | "and_modify" | "unwrap" | "expect" => {
                    self.entry_of(&m.receiver)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The requests of kube-runtime and kube-client that are not `Api` methods, made by method
    /// calls: `Entry::commit`, `Client::request`/`send`, `Recorder::publish`.
    pub(super) fn record_runtime_method(&mut self, call: &syn::ExprMethodCall) {
        let method = call.method.to_string();
        let Some(verb) = verbs::lookup_runtime(&method) else {
            return;
        };
        let unknown_object = ObjectName::One {
            name: NameExpr::Unknown,
            text: String::new(),
        };
        let (source, receiver, object, keyed_by) = match method.as_str() {
            "commit" if call.args.len() == 1 => {
                let Some(e) = self.entry_of(&call.receiver) else {
                    return;
                };
                let object = ObjectName::One {
                    name: e.name,
                    text: e.text,
                };
                (e.source, e.receiver, object, e.keyed_by)
            }
            "request" | "request_text" | "request_status" | "send"
                if call.args.len() == 1
                    && self.expr_type(&call.receiver).name.as_deref() == Some(known::CLIENT) =>
            {
                let handle = Handle {
                    kind: None,
                    namespace: Namespace::Unknown,
                    origin: None,
                    kind_param: None,
                };
                let receiver = self.text(strip(&call.receiver));
                (
                    HandleSource::Known(handle),
                    receiver,
                    unknown_object,
                    Vec::new(),
                )
            }
            "publish" if (1..=2).contains(&call.args.len()) && self.is_recorder(&call.receiver) => {
                // kube 0.91 and later: `publish(&event, &reference)`; before: `publish(event)`,
                // the reference given to `Recorder::new`, so the recorder stands for it.
                let reference = call.args.iter().nth(1).unwrap_or(&call.receiver);
                let handle = Handle {
                    kind: Some("Event".to_string()),
                    // Every Event lives in the namespace of the object it is about: the same
                    // reference is the same namespace.
                    namespace: Namespace::Unknown,
                    origin: Some(HandleOrigin::Place("events".to_string())),
                    kind_param: None,
                };
                let object = ObjectName::One {
                    name: self.name_of(reference),
                    text: self.text(strip(reference)),
                };
                let keyed_by = self.deps_of_expr(reference);
                let receiver = self.text(strip(&call.receiver));
                (HandleSource::Known(handle), receiver, object, keyed_by)
            }
            _ => return,
        };
        let kind = RawKind::Api(Box::new(ApiCall {
            verb,
            source,
            receiver,
            object,
            name_from_get: false,
            name_from_list: false,
            listed: None,
            precondition: Precondition::None,
            may_create: matches!(method.as_str(), "commit" | "publish"),
            as_method: Some(self.helper_method_call(call)),
        }));
        self.push_entry(self.span(call), kind, keyed_by);
    }

    /// A kube-runtime event `Recorder`: typed so, or named so (`recorder`, `self.recorder`,
    /// `ctx.diagnostics.recorder(..)`). The words are trigger words ([`known::TRIGGERS`]): a file
    /// is parsed only if it has one of them (or another trigger).
    fn is_recorder(&self, receiver: &Expr) -> bool {
        if self.expr_type(receiver).name.as_deref() == Some(known::RECORDER) {
            return true;
        }
        let last = match strip(receiver) {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            Expr::Field(f) => match &f.member {
                syn::Member::Named(i) => Some(i.to_string()),
                syn::Member::Unnamed(_) => None,
            },
            Expr::MethodCall(m) => Some(m.method.to_string()),
            _ => None,
        };
        last.is_some_and(|l| l == known::RECORDER_VALUE)
    }

    /// kube-runtime's request functions called by path: `finalizer(&api, NAME, obj, reconcile)`,
    /// `await_condition(api, name, cond)`, `delete_and_finalize(api, name, &dp)`. True when the
    /// call is one of them, with a possible `Api` as its first argument.
    pub(super) fn record_runtime_call(
        &mut self,
        call: &syn::ExprCall,
        segments: &[String],
    ) -> bool {
        let Some(last) = segments.last() else {
            return false;
        };
        if !through_kube_runtime(segments) {
            return false;
        }
        let arity = match last.as_str() {
            "finalizer" => 4,
            "await_condition" | "delete_and_finalize" => 3,
            _ => return false,
        };
        let Some(verb) = verbs::lookup_runtime(last) else {
            return false;
        };
        if call.args.len() != arity {
            return false;
        }
        let Some(source) = self.handle_source(&call.args[0]) else {
            return false;
        };
        let mut keyed_by = self.deps_of_expr(&call.args[0]);
        let object = match verb.target {
            Target::DataArg(i) => {
                let arg = &call.args[i];
                keyed_by.extend(self.deps_of_expr(arg));
                let name = self.metadata_name_of(arg);
                let text = match &name {
                    NameExpr::Literal(_) | NameExpr::Unknown => String::new(),
                    _ => format!("{}.metadata.name", self.text(same_object(arg))),
                };
                ObjectName::One { name, text }
            }
            Target::NameArg(i) => {
                let arg = &call.args[i];
                keyed_by.extend(self.deps_of_expr(arg));
                ObjectName::One {
                    name: self.name_of(arg),
                    text: self.text(strip(arg)),
                }
            }
            Target::Collection => ObjectName::All,
        };
        let kind = RawKind::Api(Box::new(ApiCall {
            verb,
            source,
            receiver: self.text(strip(&call.args[0])),
            object,
            name_from_get: false,
            name_from_list: false,
            listed: None,
            precondition: Precondition::None,
            may_create: false,
            as_method: None,
        }));
        self.push_entry(self.span(call), kind, keyed_by);
        true
    }

    pub(super) fn push_entry(&mut self, span: Span, kind: RawKind, mut keyed_by: Vec<u64>) {
        let line = self.source.line_col(span.start).0;
        keyed_by.sort_unstable();
        keyed_by.dedup();
        self.entry_by_span
            .entry((span.start, span.end))
            .or_insert(self.facts.requests.len());
        self.facts.requests.push(RawRequest {
            span,
            line,
            function: self.functions.last().copied(),
            kind,
            keyed_by,
            body: self.body,
            branches: self.branches.clone(),
            loops: self.loops.clone(),
            in_channel_loop: self.channel_loops.contains(&self.body),
            cfg: self.cfg.clone(),
            controller: None,
        });
    }

    /// A request's object is an element of a list made through the same receiver: its name is
    /// a place computed from a loop element over that list's result (see
    /// [`crate::model::Request::name_from_list`]).
    fn names_listed_element(&self, object: &ObjectName, receiver: &str, keyed_by: &[u64]) -> bool {
        let named_by_place = matches!(
            object,
            ObjectName::One {
                name: NameExpr::Path { .. },
                ..
            }
        );
        named_by_place
            && keyed_by
                .iter()
                .any(|k| self.listed_elements.get(k).is_some_and(|r| r == receiver))
    }

    /// `let list = claims.list(&lp).await?;` (or `let Ok(list) = ..`, a `match` on it): the binding holds the
    /// result of the one list request its initialiser makes (`first`: the first entry of it).
    pub(super) fn note_list_result(&mut self, pat: &syn::Pat, first: usize) {
        // `list`, `Ok(list)`, `Some(list)`: one binding.
        let Some(id) = self.only_binding(pat) else {
            return;
        };
        let mut receivers = self.facts.requests[first..]
            .iter()
            .filter_map(|r| match &r.kind {
                RawKind::Api(call) => Some(call),
                RawKind::Helper(_) => None,
            });
        let (Some(call), None) = (receivers.next(), receivers.next()) else {
            return;
        };
        if call.verb.method != "list" {
            return;
        }
        self.list_results.insert(id, call.receiver.clone());
    }

    /// The listing a request's object is an element of: its name is the `metadata.name` of a
    /// loop element of a collection of objects a call returned (see
    /// [`crate::model::Request::listed`]).
    fn listing_named(&self, object: &ObjectName) -> Option<Listed> {
        let (element, fields) = named_by_binding(object)?;
        if fields != ["metadata", "name"] {
            return None;
        }
        let (listed, depth, guarded) = self.listing_elements.get(&element)?;
        // What the conditions of the arms the write is in, within the loop, and of the `if`s
        // before it that leave read select the elements written too (`if cm.owner() ==
        // obj.name_any()`, `if cm.owner() != name { continue; }`), the element itself apart.
        let mut listed = listed.clone();
        let reads = self.arm_reads.get(*depth..).unwrap_or_default();
        let leaving = self.leaving_guards.get(*guarded..).unwrap_or_default();
        let guards = reads.iter().flatten().chain(leaving).filter(|b| {
            self.listing_elements
                .get(b)
                .map_or(true, |(other, _, _)| other.text != listed.text)
        });
        let mut selected_by = listed.selected_by.into_vec();
        selected_by.extend(guards.map(|&b| NameExpr::Path {
            root: Root::Binding(b),
            fields: Vec::new(),
        }));
        listed.selected_by = selected_by.into_boxed_slice();
        Some(listed)
    }

    /// `let mcs: Vec<Arc<MachineConfig>> = ctx.stores.machines_in(&ns).await?;`: the binding
    /// holds what the call returned, made from its receiver and arguments (a listing when its
    /// elements are objects: the loop over it says, by their written type). A pick of one
    /// element of a listing (`let free = mcs.iter().find(|m| ..)`) binds an element of it.
    pub(super) fn note_listing(&mut self, pat: &Pat, init: &Expr) {
        let call = returned_call(init);
        if let Some(Expr::MethodCall(m)) = call {
            if is_pick(m) {
                // The `let`'s own bindings are in scope already, but not read by its
                // initialiser: a name the adapters read is the outer binding's.
                let listed = self.listing_element_of(init);
                self.note_listing_elements(pat, listed);
                return;
            }
        }
        let Some(id) = self.only_binding(pat) else {
            return;
        };
        let selected_by: Vec<NameExpr> = match call {
            Some(Expr::MethodCall(m)) => std::iter::once(&*m.receiver)
                .chain(m.args.iter())
                .map(|e| self.name_of(e))
                .collect(),
            Some(Expr::Call(c)) => c.args.iter().map(|e| self.name_of(e)).collect(),
            _ => return,
        };
        let text = self.text(strip(call.unwrap_or(init)));
        self.listings.insert(id, (selected_by, text));
    }

    /// The listing whose elements an iteration or a pick gives (`for mc in &mcs`,
    /// `mcs: Vec<Arc<MachineConfig>>`; `mcs.iter().find(..)`): a call's result whose element
    /// kind is written. Asked before the pattern's bindings are in scope.
    pub(super) fn listing_element_of(&self, iterated: &Expr) -> Option<Listed> {
        let (selected_by, text, collection) = self.listing_of(iterated)?;
        let kind = self.item_type(collection).name?;
        Some(Listed {
            kind: Some(kind),
            selected_by: selected_by.into_boxed_slice(),
            text,
            names_of_param: None,
        })
    }

    /// The bindings of a pattern are elements of that listing.
    pub(super) fn note_listing_elements(&mut self, pat: &Pat, listed: Option<Listed>) {
        let Some(listed) = listed else {
            return;
        };
        let mut names = Vec::new();
        super::scopes::collect_pattern_idents(pat, &mut names);
        let (depth, guarded) = (self.arm_reads.len(), self.leaving_guards.len());
        for name in names {
            if let Some(id) = self.lookup(&name).map(|b| b.id) {
                self.listing_elements
                    .insert(id, (listed.clone(), depth, guarded));
            }
        }
    }

    /// The call result an iteration or a pick goes over (`&mcs`, `mcs.iter()`,
    /// `mcs.iter().filter(..).take(n)`, `mcs.iter().find(..)`), if it is one, with the binding's
    /// expression. The bindings the adapters' arguments read (a filter by the reconciled
    /// object's name) select the listing too.
    fn listing_of<'e>(&self, expr: &'e Expr) -> Option<(Vec<NameExpr>, String, &'e Expr)> {
        match strip(expr) {
            Expr::Reference(r) => self.listing_of(&r.expr),
            Expr::Try(t) => self.listing_of(&t.expr),
            Expr::MethodCall(m) if is_adapter(m) || is_pick(m) => {
                let (mut selected_by, text, collection) = self.listing_of(&m.receiver)?;
                for arg in &m.args {
                    selected_by.extend(self.referenced_bindings(arg).into_iter().map(|b| {
                        NameExpr::Path {
                            root: Root::Binding(b),
                            fields: Vec::new(),
                        }
                    }));
                }
                Some((selected_by, text, collection))
            }
            e @ Expr::Path(_) => {
                let id = self.path_binding(e)?;
                let (selected_by, text) = self.listings.get(&id).cloned()?;
                Some((selected_by, text, e))
            }
            _ => None,
        }
    }

    /// The list receiver whose result a loop iterates (`&list.items`, `list.items.iter()`,
    /// `list`), if it is one.
    pub(super) fn list_result_of(&self, expr: &Expr) -> Option<String> {
        match strip(expr) {
            Expr::Reference(r) => self.list_result_of(&r.expr),
            Expr::Field(f) => self.list_result_of(&f.base),
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(m.method.to_string().as_str(), "iter" | "into_iter") =>
            {
                self.list_result_of(&m.receiver)
            }
            e @ Expr::Path(_) => self.list_results.get(&self.path_binding(e)?).cloned(),
            // `for pvc in claims.list(&lp).await?.items`: the list made in the loop's head.
            Expr::Try(t) => self.list_result_of(&t.expr),
            Expr::Await(a) => match strip(&a.base) {
                Expr::MethodCall(m)
                    if m.method == "list" && self.handle_source(&m.receiver).is_some() =>
                {
                    Some(self.text(strip(&m.receiver)))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The bindings of a loop's pattern are elements of the list made through `receiver`.
    pub(super) fn note_listed_elements(&mut self, pat: &syn::Pat, receiver: Option<String>) {
        let Some(receiver) = receiver else {
            return;
        };
        let mut names = Vec::new();
        super::scopes::collect_pattern_idents(pat, &mut names);
        for name in names {
            if let Some(id) = self.lookup(&name).map(|b| b.id) {
                self.listed_elements.insert(id, receiver.clone());
            }
        }
    }
}

/// The binding an object is named by, and the fields taken of it (`pvc.metadata.name`).
pub(super) fn named_by_binding(object: &ObjectName) -> Option<(u64, &[String])> {
    match object {
        ObjectName::One {
            name:
                NameExpr::Path {
                    root: Root::Binding(b),
                    fields,
                },
            ..
        } => Some((*b, fields)),
        _ => None,
    }
}

/// The call whose result an initialiser binds, through `?` and `.await`
/// (`ctx.stores.machines_in(&ns).await?`).
fn returned_call(init: &Expr) -> Option<&Expr> {
    match strip(init) {
        Expr::Try(t) => returned_call(&t.expr),
        Expr::Await(a) => returned_call(&a.base),
        e @ (Expr::MethodCall(_) | Expr::Call(_)) => Some(e),
        _ => None,
    }
}

/// A call that passes on some elements of what it iterates (`iter()`, `filter(..)`, `take(n)`).
fn is_adapter(m: &syn::ExprMethodCall) -> bool {
    matches!(
        (m.method.to_string().as_str(), m.args.len()),
        ("iter" | "into_iter" | "unwrap" | "cloned", 0)
            | ("filter" | "take" | "skip" | "expect", 1)
    )
}

/// A call that picks one element of what it iterates (`find(|m| ..)`, `next()`, `first()`).
fn is_pick(m: &syn::ExprMethodCall) -> bool {
    matches!(
        (m.method.to_string().as_str(), m.args.len()),
        ("find" | "max_by_key" | "min_by_key", 1) | ("next" | "first" | "last", 0)
    )
}

/// Whether a call's path can name a kube-runtime function: a path through another crate than
/// kube's is not one (`finalizer`, `runtime::wait::await_condition`, `kube::runtime::finalizer`).
pub(super) fn through_kube_runtime(segments: &[String]) -> bool {
    segments.len() <= 1
        || matches!(
            segments[0].as_str(),
            "kube" | "kube_runtime" | "runtime" | "finalizer" | "wait" | "delete" | "crate"
        )
}
