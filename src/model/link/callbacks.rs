//! Function values the crate stores in fields (`on_change: Arc::new(handle)`): the function or
//! closure a call of the field runs.

use std::rc::Rc;

use super::call_shape::CallShape;
use super::callees::visible_from;
use super::substitution::Substitution;
use super::{FunctionRef, Linker};
use crate::model::{CallbackTarget, Callee, Cfg, HelperCall, RawRequest, Request, Resolution};
use crate::source::Span;

impl<'a> Linker<'a> {
    /// The one function value the crate gives a field, with the file it is written in; None
    /// when it gives it several, or one this pass does not know.
    pub(super) fn callback(&self, field: &str) -> Option<(usize, &'a CallbackTarget)> {
        let mut given = self.shared.callbacks_of(field);
        match (given.next(), given.next()) {
            (Some((apos, i)), None) => Some((apos, &self.shared.facts(apos).callbacks[i].target)),
            _ => None,
        }
    }

    /// The crate function a field holds (`on_change: Arc::new(handle)`), resolved where the
    /// field is given it.
    pub(super) fn callback_function(&self, field: &str, cfg: &Cfg) -> Option<FunctionRef> {
        let (apos, CallbackTarget::Function(path)) = self.callback(field)? else {
            return None;
        };
        let call = HelperCall {
            callee: Callee::Path(path.clone()),
            text: path.join("::"),
            receiver: None,
            args: Vec::new(),
            type_args: Vec::new(),
        };
        // Any arity: the value is the function, not a call of it.
        let name = path.last()?;
        let fits: Vec<FunctionRef> = self
            .shared
            .functions_named(name.as_str())
            .filter(|&(p, k)| {
                let f = &self.shared.facts(p).functions[k];
                let arity = f.params.len() + usize::from(f.has_self);
                let shape = CallShape::of(&call, None).map(|(_, s)| s.with_arity(arity));
                shape.is_some_and(|s| self.fits(s, f)) && visible_from(cfg, f)
            })
            .collect();
        match fits.as_slice() {
            [one] => Some(*one),
            several => several
                .iter()
                .copied()
                .find(|(p, _)| *p == apos)
                .filter(|_| several.iter().filter(|(p, _)| *p == apos).count() == 1),
        }
    }

    /// The requests of the closure a field holds (`on_change: Arc::new(|o| ..)`), called with
    /// `call`'s arguments; None when the field holds no closure the crate gives it.
    pub(super) fn closure_callback_requests(
        &self,
        pos: usize,
        raw: &RawRequest,
        call: &HelperCall,
        depth: usize,
    ) -> Option<Vec<Request>> {
        let Callee::Field(field) = &call.callee else {
            return None;
        };
        let (apos, CallbackTarget::Closure { span, params }) = self.callback(field)? else {
            return None;
        };
        let summary = self.closure_summary(apos, *span, depth + 1);
        let subst = Substitution::of_closure(self.index(), params, call);
        let resolution = Resolution::Typed;
        Some(
            summary
                .iter()
                .map(|r| self.at_call(pos, raw, subst.apply(r), field.clone(), resolution, depth))
                .collect(),
        )
    }

    /// The requests a closure's body makes, in its own terms.
    fn closure_summary(&self, pos: usize, span: Span, depth: usize) -> Rc<Vec<Request>> {
        let key = (pos, span.start, span.end);
        if let Some(s) = self.closure_summaries.borrow().get(&key) {
            return s.clone();
        }
        if !self.closures_in_progress.borrow_mut().insert(key) {
            return Rc::new(Vec::new());
        }
        let requests: Vec<Request> = self.summarising(None, || {
            self.shared
                .facts(pos)
                .requests
                .iter()
                .filter(|raw| span.contains(&raw.span))
                .flat_map(|raw| self.resolve_entry(pos, raw, depth))
                .collect()
        });
        self.closures_in_progress.borrow_mut().remove(&key);
        let summary = Rc::new(requests);
        self.closure_summaries
            .borrow_mut()
            .insert(key, summary.clone());
        summary
    }
}
