//! kube-runtime's `finalizer(&api, NAME, obj, |event| ..)` hands its closure an `Event` whose
//! `Apply(o)` and `Cleanup(o)` carry `obj` itself (the object the reconcile was handed, after
//! the finalizer patch): names rooted at `o` are `obj`'s, so a write named after `o` is named
//! after the reconciled object, as it is when the reconcile calls its body directly.

use syn::visit::Visit;
use syn::{Expr, Pat};

use super::copies::shared_value;
use super::flow::PendingClosure;
use super::requests::through_kube_runtime;
use super::{strip, strip_pat, Builder, EventObject, Value};
use crate::model::NameExpr;

/// What a finalizer's event carries, by the variants of kube-runtime's `finalizer::Event`.
const EVENT_VARIANTS: &[&str] = &["Apply", "Cleanup"];

impl Builder<'_> {
    /// Visits the arguments of a call of kube-runtime's `finalizer`, its closure's first
    /// parameter bound as the event of the object given to it (see
    /// [`Value::FinalizerEvent`]). False, visiting nothing, when the call is not one.
    pub(super) fn visit_finalizer_call(&mut self, call: &syn::ExprCall) -> bool {
        let Expr::Path(p) = strip(&call.func) else {
            return false;
        };
        let segments = crate::model::sites::segments(&p.path);
        if !segments.last().is_some_and(|l| l == "finalizer")
            || !through_kube_runtime(&segments)
            || call.args.len() != 4
        {
            return false;
        }
        let object = self.event_object(&call.args[2]);
        self.visit_expr(&call.func);
        for (i, arg) in call.args.iter().enumerate() {
            if let (3, Expr::Closure(_), Some(object)) = (i, strip(arg), &object) {
                self.pending_closure =
                    Some(PendingClosure::FinalizerEvent(Box::new(object.clone())));
            }
            self.visit_expr(arg);
            self.pending_closure = None;
        }
        true
    }

    /// `Finalizer::Apply(o) =>` in a `match` on a finalizer's event, or `if let
    /// Event::Cleanup(o) = event`: `o` is the object the event carries (a copy: names rooted
    /// at it are that object's). Not for a `mut` binding, which can be changed apart from it.
    pub(super) fn note_event_object(&mut self, pat: &Pat, scrutinee: &Expr) {
        let Expr::Path(p) = strip(scrutinee) else {
            return;
        };
        let Some(ident) = p.path.get_ident() else {
            return;
        };
        let Some(Value::FinalizerEvent(object)) = self.lookup(&ident.to_string()).map(|b| &b.value)
        else {
            return;
        };
        let EventObject { place, text, ty } = (**object).clone();
        let Pat::TupleStruct(t) = strip_pat(pat) else {
            return;
        };
        let variant = t.path.segments.last().map(|s| s.ident.to_string());
        if !variant.is_some_and(|v| EVENT_VARIANTS.contains(&v.as_str())) || t.elems.len() != 1 {
            return;
        }
        let Pat::Ident(o) = strip_pat(&t.elems[0]) else {
            return;
        };
        if o.mutability.is_some() || o.subpat.is_some() {
            return;
        }
        if let Some(b) = self.lookup_mut(&o.ident.to_string()) {
            b.same_as = Some(Box::new((place, text)));
        }
        // Its methods are the object's type's (`Finalizer::Apply(db) => db.reconcile(..)`).
        self.type_pattern(&t.elems[0], ty);
    }

    /// The object argument of `finalizer` (through copies, `Arc::new`): its place, text and
    /// type.
    fn event_object(&self, arg: &Expr) -> Option<EventObject> {
        let original = shared_value(arg);
        if !matches!(original, Expr::Path(_) | Expr::Field(_)) {
            return None;
        }
        let place = self.place(original)?;
        if !matches!(place, NameExpr::Path { .. }) {
            return None;
        }
        let text = self
            .copied_text(original)
            .unwrap_or_else(|| self.text(original));
        Some(EventObject {
            place,
            text,
            ty: self.expr_type(original),
        })
    }
}
