//! A callee's requests and names in its caller's terms: its parameters replaced by the call's
//! arguments.

// foldhash, seeded per run, as the rest of the model (see `model::build`).
use foldhash::HashMap;

use super::crate_index::IndexView;
use crate::model::{
    Argument, Callee, ComputedLocal, FunctionFacts, Handle, HandleOrigin, HelperCall, Listed,
    NameExpr, Namespace, ObjectName, Precondition, Request, Root,
};

/// Callee parameters → caller arguments at one call site.
pub(super) struct Substitution<'c> {
    index: IndexView<'c>,
    generics: &'c [String],
    /// The kind of each of `generics` at this call: its turbofish's, else the kind of the
    /// argument given for a parameter of that type (see [`FunctionFacts::typed_by_generic`]).
    type_args: Vec<Option<String>>,
    /// The argument given for a parameter of each of `generics`' types, if any.
    generic_args: Vec<Option<&'c Argument>>,
    pub(super) params: HashMap<u64, &'c Argument>,
    receiver: Option<&'c Argument>,
    /// The callee's locals computed by a `let` (see [`NameExpr::Computed`]).
    computed: &'c [(u64, ComputedLocal)],
    /// How many more computed locals one name may still expand: locals that each read many
    /// others would otherwise make the expansion exponential in [`MAX_COMPUTED_DEPTH`].
    computed_budget: std::cell::Cell<usize>,
}

/// How many computed locals deep a name is followed (`let a = ..; let b = f(a);`).
const MAX_COMPUTED_DEPTH: usize = 6;

/// How many computed locals one name expands at most, in all.
const MAX_COMPUTED_LOCALS: usize = 32;

impl<'c> Substitution<'c> {
    pub(super) fn new(
        index: IndexView<'c>,
        callee: &'c FunctionFacts,
        call: &'c HelperCall,
    ) -> Self {
        let mut args = call.args.iter();
        // `Type::method(recv, ..)` passes the receiver as the first argument.
        let receiver = match (&call.callee, callee.has_self) {
            (Callee::Method { .. }, _) => call.receiver.as_ref(),
            (Callee::Path(_) | Callee::Field(_), true) => args.next(),
            (Callee::Path(_) | Callee::Field(_), false) => None,
        };
        // The positional arguments, after the receiver when it is passed as one.
        let positional = args.clone();
        let params = callee
            .params
            .iter()
            .zip(args)
            .filter_map(|(p, a)| p.map(|id| (id, a)))
            .collect();
        let generic_args: Vec<Option<&Argument>> = callee
            .generics
            .iter()
            .map(|g| {
                let typed = |t: &Option<String>| t.as_ref() == Some(g);
                let j = callee.typed_by_generic.iter().position(typed)?;
                positional.clone().nth(j)
            })
            .collect();
        let type_args = generic_args
            .iter()
            .enumerate()
            .map(|(i, arg)| {
                let turbofish = call.type_args.get(i).cloned().flatten();
                turbofish.or_else(|| arg.and_then(|a| a.kind.clone()))
            })
            .collect();
        Substitution {
            index,
            generics: &callee.generics,
            type_args,
            generic_args,
            params,
            receiver,
            computed: &callee.computed_locals,
            computed_budget: std::cell::Cell::new(0),
        }
    }

    /// Kinds of type parameters no turbofish or written type gave, from what `kind_of` knows
    /// of the argument for a parameter of that type (an object a `get` fetched).
    pub(super) fn infer_kinds(&mut self, kind_of: impl Fn(&Argument) -> Option<String>) {
        for (kind, arg) in self.type_args.iter_mut().zip(&self.generic_args) {
            if kind.is_none() {
                *kind = arg.and_then(&kind_of);
            }
        }
    }

    /// A closure's parameters → the arguments of a call of it.
    pub(super) fn of_closure(
        index: IndexView<'c>,
        params: &'c [Option<u64>],
        call: &'c HelperCall,
    ) -> Self {
        Substitution {
            index,
            generics: &[],
            type_args: call.type_args.clone(),
            generic_args: Vec::new(),
            params: params
                .iter()
                .zip(&call.args)
                .filter_map(|(p, a)| p.map(|id| (id, a)))
                .collect(),
            receiver: None,
            computed: &[],
            computed_budget: std::cell::Cell::new(0),
        }
    }

    /// A request's listing in the caller's terms: for an element of a parameter, the listing
    /// whose names the call passes for it, if it does.
    fn listed(&self, l: &Listed) -> Option<Box<Listed>> {
        if let Some(param) = l.names_of_param {
            return self.params.get(&param)?.listed_names.clone();
        }
        Some(Box::new(Listed {
            kind: l.kind.clone(),
            selected_by: l.selected_by.iter().map(|s| self.name(s)).collect(),
            text: l.text.clone(),
            names_of_param: None,
        }))
    }

    pub(super) fn apply(&self, r: &Request) -> Request {
        let object = match &r.object {
            ObjectName::One { name, text } => ObjectName::One {
                name: self.name(name),
                text: self.text(name, text),
            },
            ObjectName::All => ObjectName::All,
        };
        Request {
            span: r.span,
            verb: r.verb,
            handle: self.handle(&r.handle),
            receiver: r.receiver.clone(),
            object,
            resolution: r.resolution,
            may_create: r.may_create,
            via: r.via.clone(),
            defined_at: r.defined_at.clone(),
            written_at: r.written_at,
            keyed_by: Vec::new(),
            in_channel_loop: r.in_channel_loop,
            cfg: r.cfg.clone(),
            name_from_get: r.name_from_get,
            name_from_list: r.name_from_list,
            listed: r.listed.as_ref().and_then(|l| self.listed(l)),
            fetched: r.fetched.clone(),
            // A body given by a parameter is what the caller passes for it.
            precondition: match r.precondition {
                Precondition::Param(param) => self
                    .params
                    .get(&param)
                    .map_or(Precondition::None, |a| a.precondition),
                p => p,
            },
            controller: r.controller.clone(),
            left_running: r.left_running.clone(),
        }
    }

    fn argument_of(&self, root: &Root) -> Option<&'c Argument> {
        match root {
            Root::Binding(id) => self.params.get(id).copied(),
            Root::SelfValue(_) => self.receiver,
            Root::Const(_) | Root::Reconciled(_) | Root::Handled(_) => None,
        }
    }

    /// A callee name in the caller's terms; the callee's own locals become unknown (two calls of
    /// one helper do not share them).
    pub(super) fn name(&self, name: &NameExpr) -> NameExpr {
        self.computed_budget.set(MAX_COMPUTED_LOCALS);
        self.name_within(name, 0)
    }

    fn name_within(&self, name: &NameExpr, depth: usize) -> NameExpr {
        match name {
            NameExpr::Path {
                root: root @ (Root::Binding(_) | Root::SelfValue(_)),
                fields,
            } => match self.argument_of(root) {
                Some(arg) => extend(&arg.name, fields),
                None => self.computed_name(root, fields, depth),
            },
            NameExpr::Computed {
                how,
                inputs,
                fields,
            } => NameExpr::computed(
                *how,
                inputs.iter().map(|i| self.name_within(i, depth)).collect(),
                fields.to_vec(),
            ),
            // The template's parts in the caller's terms (the callee's own locals unknown).
            NameExpr::Format { pieces, parts } => NameExpr::format(
                pieces.to_vec(),
                parts.iter().map(|p| self.name_within(p, depth)).collect(),
            ),
            other => other.clone(),
        }
    }

    /// A name rooted at a local the callee computed: computed, for the caller, from what the
    /// inputs of that computation are in the caller's terms.
    fn computed_name(&self, root: &Root, fields: &[String], depth: usize) -> NameExpr {
        let Root::Binding(id) = root else {
            return NameExpr::Unknown;
        };
        let Some((_, local)) = self.computed.iter().find(|(b, _)| b == id) else {
            return NameExpr::Unknown;
        };
        let budget = self.computed_budget.get();
        if depth >= MAX_COMPUTED_DEPTH || local.inputs.is_empty() || budget == 0 {
            return NameExpr::Unknown;
        }
        self.computed_budget.set(budget - 1);
        let inputs = local
            .inputs
            .iter()
            .map(|&input| {
                let place = NameExpr::Path {
                    root: Root::Binding(input),
                    fields: Vec::new(),
                };
                self.name_within(&place, depth + 1)
            })
            .collect();
        NameExpr::computed(local.how, inputs, fields.to_vec())
    }

    /// The name's text in the caller's terms. A name computed from the callee's own locals has
    /// no meaning at the call site: it is left out (the description then names only the kind).
    fn text(&self, name: &NameExpr, text: &str) -> String {
        match name {
            NameExpr::Path { root, fields } => match self.argument_of(root) {
                Some(arg) if fields.is_empty() => arg.text.clone(),
                Some(arg) => format!("{}.{}", arg.text, crate::model::fields_text(fields)),
                None if matches!(
                    root,
                    Root::Const(_) | Root::Reconciled(_) | Root::Handled(_)
                ) =>
                {
                    text.to_string()
                }
                None => String::new(),
            },
            NameExpr::Literal(_) => text.to_string(),
            NameExpr::Format { .. } | NameExpr::Computed { .. } | NameExpr::Unknown => {
                String::new()
            }
        }
    }

    pub(super) fn handle(&self, h: &Handle) -> Handle {
        let namespace = match &h.namespace {
            Namespace::Named(n) => Namespace::Named(self.name(n)),
            other => other.clone(),
        };
        // A generic helper's kind comes from the caller: a turbofish, or the handle it passes.
        let kind = h.kind.clone().or_else(|| {
            let param = h.kind_param.as_ref()?;
            let i = self.generics.iter().position(|g| g == param)?;
            self.type_args.get(i).cloned().flatten()
        });
        let origin = match &h.origin {
            Some(HandleOrigin::Binding(id)) => {
                if let Some(arg) = self.params.get(id) {
                    if let Some(resolved) = arg.handle.as_ref().and_then(|s| self.index.resolve(s))
                    {
                        return Handle {
                            kind: kind.or(resolved.kind.clone()),
                            ..resolved
                        };
                    }
                    // A handle the caller holds in a binding of unknown value: still that value.
                    let origin = match &arg.name {
                        NameExpr::Path {
                            root: Root::Binding(b),
                            fields,
                        } if fields.is_empty() => Some(HandleOrigin::Binding(*b)),
                        _ => None,
                    };
                    return Handle {
                        kind,
                        namespace,
                        origin,
                        kind_param: None,
                    };
                }
                // A handle the callee made itself, from what it was given.
                self.computed_budget.set(MAX_COMPUTED_LOCALS);
                match self.computed_name(&Root::Binding(*id), &[], 0) {
                    computed @ NameExpr::Computed { .. } => Some(HandleOrigin::Computed(computed)),
                    _ => None,
                }
            }
            Some(HandleOrigin::Computed(c)) => match self.name(c) {
                computed @ NameExpr::Computed { .. } => Some(HandleOrigin::Computed(computed)),
                _ => None,
            },
            Some(HandleOrigin::Place(place)) => match (place.strip_prefix("self"), self.receiver) {
                (Some(rest), Some(recv)) => {
                    Some(HandleOrigin::Place(format!("{}{rest}", recv.text)))
                }
                _ => None,
            },
            None => None,
        };
        Handle {
            kind,
            namespace,
            origin,
            kind_param: None,
        }
    }
}

/// `arg` followed by `fields`: a place when `arg` is one.
pub(super) fn extend(arg: &NameExpr, fields: &[String]) -> NameExpr {
    if fields.is_empty() {
        return arg.clone();
    }
    match arg {
        NameExpr::Path { root, fields: f0 } => {
            let mut all = f0.clone();
            all.extend(fields.iter().cloned());
            NameExpr::Path {
                root: root.clone(),
                fields: all,
            }
        }
        _ => NameExpr::Unknown,
    }
}
