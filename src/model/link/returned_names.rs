//! Names built from what crate calls return: a field of a returned value, or the name a
//! function's tail gives, in the terms of the call's arguments.

use std::cell::Cell;

use super::callees::resolution_of;
use super::substitution::{extend, Substitution};
use super::summaries::on_self_as;
use super::{callee_name, Linker, MAX_DEPTH};
use crate::model::{
    Callee, FunctionFacts, HelperCall, NameExpr, ObjectName, RawKind, Request, Resolution, Root,
};
use crate::source::FileId;

/// How many names crate calls returned one name follows at most, in all.
const MAX_RETURNED_NAMES: usize = 32;

/// How many names a name built by following returned names may be made of.
const MAX_NAME_SIZE: usize = 64;

fn small_enough(name: &NameExpr) -> bool {
    name.size() <= MAX_NAME_SIZE
}

impl<'a> Linker<'a> {
    /// A name that is a field of a value a crate function returned (`web.pod`, with
    /// `let web = fleet.start("web-1")` and `start` returning `Worker { pod: name.to_string() }`)
    /// is that field's name in the callee, in the terms of the call's arguments (`"web-1"`); a
    /// name a crate function returned (`lease_name(&self.app)`, its tail `format!("{app}-lease")`)
    /// is that name in the terms of the call's arguments (`format!("{}-lease", self.app)`).
    pub(super) fn follow_returned_values(&self, pos: usize, r: &mut Request, depth: usize) {
        if let ObjectName::One { name, .. } = &mut r.object {
            let budget = Cell::new(MAX_RETURNED_NAMES);
            if let Some(followed) = self.follow_name(pos, name, depth, &budget) {
                *name = followed;
            }
        }
    }

    /// A name with the values crate calls returned in it replaced by what they are; None when
    /// nothing in it is followed. `budget`: how many more returned values may be followed (a
    /// helper whose template inserts several calls of another would otherwise make this
    /// exponential in [`MAX_DEPTH`]).
    fn follow_name(
        &self,
        pos: usize,
        name: &NameExpr,
        depth: usize,
        budget: &Cell<usize>,
    ) -> Option<NameExpr> {
        match name {
            NameExpr::Path { .. } => self.returned_field(pos, name, depth, budget),
            NameExpr::Format { pieces, parts } => {
                let followed: Vec<Option<NameExpr>> = parts
                    .iter()
                    .map(|p| self.follow_name(pos, p, depth, budget))
                    .collect();
                if followed.iter().all(Option::is_none) {
                    return None;
                }
                let parts = parts
                    .iter()
                    .zip(followed)
                    .map(|(p, f)| f.unwrap_or_else(|| p.clone()))
                    .collect();
                Some(NameExpr::format(pieces.to_vec(), parts)).filter(small_enough)
            }
            _ => None,
        }
    }

    fn returned_field(
        &self,
        pos: usize,
        name: &NameExpr,
        depth: usize,
        budget: &Cell<usize>,
    ) -> Option<NameExpr> {
        let NameExpr::Path {
            root: Root::Binding(b),
            fields,
        } = name
        else {
            return None;
        };
        if self.shared.fields_assigned(*b) {
            return None;
        }
        if let Some(followed) = self.struct_value_field(*b, fields, depth, budget) {
            return Some(followed);
        }
        let returned = self.shared.returned_value(pos, b)?;
        if returned.element.is_some() || depth >= MAX_DEPTH || budget.get() == 0 {
            return None;
        }
        budget.set(budget.get() - 1);
        let raw = self.shared.facts(pos).requests.get(returned.entry)?;
        // In a provided method summarised for a type, `self.app()` is that type's.
        let summarised_for = self.summarised_for.borrow().clone();
        let typed = summarised_for.and_then(|t| on_self_as(raw, &t));
        let raw = typed.as_ref().unwrap_or(raw);
        let RawKind::Helper(call) = &raw.kind else {
            return None;
        };
        // Most calls in names (`to_string`, `get`) are of no function of the crate that gives a
        // name: resolving them against every function of their name costs much in a big crate.
        if !self.shared.gives_names(callee_name(call)) {
            return None;
        }
        let (cpos, k) = self.resolve_callee(pos, raw, call)?;
        let callee = &self.shared.facts(cpos).functions[k];
        if let Some((field, rest)) = fields.split_first() {
            if let Some(n) = self.struct_literal_field(callee, call, field) {
                // The argument may itself be a struct literal or a returned value.
                let n = extend(&n, rest);
                return Some(self.follow_name(pos, &n, depth + 1, budget).unwrap_or(n));
            }
        }
        // A name the callee's tail gives, followed only through calls resolved by type: a
        // method found by its name alone may be another type's.
        let tail = callee.returned_name.as_ref()?;
        if resolution_of(call, self.receiver_type(pos, call, 0).is_some()) != Resolution::Typed {
            return None;
        }
        let callee_for = match &call.callee {
            Callee::Method {
                self_type: Some(t), ..
            } if callee.provided => Some(t.clone()),
            _ => None,
        };
        let inner = self.summarising(callee_for, || {
            self.follow_name(cpos, tail, depth + 1, budget)
        });
        let followed =
            Substitution::new(self.index(), callee, call).name(inner.as_ref().unwrap_or(tail));
        match extend(&followed, fields) {
            NameExpr::Unknown => None,
            n => Some(n).filter(small_enough),
        }
    }

    /// A field of a struct literal read as a name (`params.lease_name`, with `params` given
    /// `LeaseParams { lease_name: LEASE.into(), .. }`; see [`FileFacts::struct_values`]): the
    /// name the literal gives it, followed further; Unknown for a field it gives no known name.
    /// None when `binding` is no struct literal or the whole value is named.
    fn struct_value_field(
        &self,
        binding: u64,
        fields: &[String],
        depth: usize,
        budget: &Cell<usize>,
    ) -> Option<NameExpr> {
        let (field, rest) = fields.split_first()?;
        let pos = self.shared.position((binding >> 32) as FileId)?;
        let values = &self.shared.facts(pos).struct_values;
        let at = values.binary_search_by_key(&binding, |(id, _)| *id).ok()?;
        let Some((_, name)) = values[at].1.iter().find(|(f, _)| f == field) else {
            return Some(NameExpr::Unknown);
        };
        if depth >= MAX_DEPTH || budget.get() == 0 {
            return Some(NameExpr::Unknown);
        }
        budget.set(budget.get() - 1);
        let name = extend(name, rest);
        Some(
            self.follow_name(pos, &name, depth + 1, budget)
                .unwrap_or(name),
        )
    }

    /// The name a field of the value `callee` returns has, in the terms of `call`'s arguments:
    /// every literal of the returned type must give the field the same name.
    fn struct_literal_field(
        &self,
        callee: &FunctionFacts,
        call: &HelperCall,
        field: &str,
    ) -> Option<NameExpr> {
        let ty = callee.returns.name.as_deref()?;
        let mut values = callee
            .struct_literals
            .iter()
            .filter(|(t, _)| t == ty)
            .map(|(_, fs)| fs.iter().find(|(f, _)| f == field).map(|(_, n)| n));
        let first = values.next()??;
        if values.any(|v| v != Some(first)) {
            return None;
        }
        match Substitution::new(self.index(), callee, call).name(first) {
            NameExpr::Unknown => None,
            n => Some(n),
        }
    }
}
