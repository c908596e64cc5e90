//! The type of a method call's receiver that the builder could not see: the declared return
//! type of the crate function that returned it.

use super::callees::resolution_of;
use super::substitution::Substitution;
use super::Linker;
use crate::model::{
    Callee, Cfg, Handle, HandleSource, HelperCall, RawKind, Resolution, ReturnedType,
};

/// How many returned values a receiver's type is followed through.
pub(super) const MAX_TYPE_DEPTH: usize = 16;

/// `Recorder::new(..)` of a type whose functions are not the crate's: by convention, that type.
fn foreign_constructor(call: &HelperCall) -> Option<String> {
    match &call.callee {
        Callee::Path(segments) => {
            crate::model::sites::constructed_type(segments).map(str::to_string)
        }
        Callee::Method { .. } | Callee::Field(_) => None,
    }
}

impl<'a> Linker<'a> {
    /// The handle a receiver of file `pos` is: as the crate's items say
    /// ([`IndexView::resolve`](super::crate_index::IndexView::resolve)), or, for the handle
    /// inside what a call gives (`self.api::<Pod>().await?`), the one its callee's tail makes,
    /// in the call's terms: the kind its turbofish or the caller's annotation names, the
    /// namespace the argument passed for the parameter it is scoped to. Only a call resolved by
    /// its path or its receiver's type counts, never a method found by its name alone.
    pub(super) fn resolve_handle(&self, pos: usize, source: &HandleSource) -> Option<Handle> {
        let HandleSource::Unwrapped {
            entry,
            kind,
            origin,
        } = source
        else {
            return self.index().resolve(source);
        };
        let raw = self.shared.facts(pos).requests.get(*entry)?;
        let RawKind::Helper(call) = &raw.kind else {
            return None;
        };
        let typed = match &call.callee {
            Callee::Method {
                self_type: Some(_), ..
            } => true,
            _ => self.receiver_type(pos, call, 0).is_some(),
        };
        if resolution_of(call, typed) != Resolution::Typed {
            return None;
        }
        let (cpos, k) = self.resolve_callee(pos, raw, call)?;
        let callee = &self.shared.facts(cpos).functions[k];
        let returned = callee.returned_handle.as_ref()?;
        let made = Substitution::new(self.index(), callee, call).handle(returned);
        Some(Handle {
            kind: kind.clone().or(made.kind),
            namespace: self.index().resolve_namespace(&made.namespace),
            origin: origin.clone(),
            kind_param: None,
        })
    }

    /// The type of a method call's receiver that the builder could not see: the declared return
    /// type of the crate function that returned it (an element of its tuple, an item of its
    /// collection). None when it is written (see [`Callee::Method`]) or not known.
    pub(super) fn receiver_type(
        &self,
        pos: usize,
        call: &HelperCall,
        depth: usize,
    ) -> Option<String> {
        match &call.callee {
            Callee::Method {
                self_type: None,
                receiver_from: Some(returned),
                ..
            } => self.returned_type(pos, *returned, depth),
            _ => None,
        }
    }

    fn returned_type(&self, pos: usize, r: ReturnedType, depth: usize) -> Option<String> {
        // Entries name earlier entries of their file, so this ends; the bound keeps it short.
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        if let Some(t) = self.returned_types.borrow().get(&(pos, r)) {
            return t.clone();
        }
        let raw = self.shared.facts(pos).requests.get(r.entry);
        let call = match raw.map(|raw| &raw.kind) {
            Some(RawKind::Helper(call)) => Some(call),
            // `manager.watch()`: a request method's name, on a receiver that may not be an `Api`.
            Some(RawKind::Api(api)) if self.resolve_handle(pos, &api.source).is_none() => {
                api.as_method.as_ref()
            }
            _ => None,
        };
        let found = match call {
            Some(call) => self
                .resolve_callee_at(
                    pos,
                    &raw.map_or_else(Cfg::always, |r| r.cfg.clone()),
                    call,
                    depth + 1,
                )
                .map(|(cpos, k)| {
                    let shape = &self.shared.facts(cpos).functions[k].returns;
                    match (r.element, r.item) {
                        (None, false) => shape.name.clone(),
                        (Some(e), false) => shape.elements.get(e).cloned().flatten(),
                        (None, true) => shape.item.clone(),
                        (Some(_), true) => None,
                    }
                })
                .unwrap_or_else(|| {
                    foreign_constructor(call).filter(|_| {
                        r == ReturnedType {
                            element: None,
                            item: false,
                            ..r
                        }
                    })
                }),
            _ => None,
        };
        self.returned_types
            .borrow_mut()
            .insert((pos, r), found.clone());
        found
    }
}
