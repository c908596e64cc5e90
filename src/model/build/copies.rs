//! Identity through copies and struct literals: `let renewer = lock.clone();` is the same
//! value as `lock`, fields included, and a struct literal (`LeaseParams { lease_name: LEASE
//! .into(), .. }`) carries the names of its fields to whoever reads them, through constructors
//! that keep it in a field (`LeaseLock::new(client, params)`) as through bindings.

use syn::{Expr, Pat};

use super::{same_object, strip, strip_pat, Builder};
use crate::model::{NameExpr, Root};

/// Struct literals get ids in a range of their own: the file's id in the high bits, then the
/// two bits above every binding id `fresh_id` gives and every returned value's id
/// (`name_returned_by`), then the literal's offset in the file.
const STRUCT_VALUE_BITS: u64 = 3 << 30;

/// The literal's offset must fit below [`STRUCT_VALUE_BITS`].
const MAX_STRUCT_OFFSET: usize = 1 << 30;

impl Builder<'_> {
    /// `let renewer = lock.clone();` (also `to_owned()`, `Arc::clone(&lock)`,
    /// `Clone::clone(&lock)`, `&lock`, a move): names rooted at `renewer` are `lock`'s from now
    /// on. Not for a `mut` copy, which can be changed apart from its original.
    pub(super) fn note_copy(&mut self, local: &syn::Local, init: &Expr) {
        let Pat::Ident(p) = strip_pat(&local.pat) else {
            return;
        };
        if p.mutability.is_some() || p.by_ref.is_some() || p.subpat.is_some() {
            return;
        }
        let original = shared_value(init);
        let (place, text) = match original {
            // `let lock = Arc::new(Lock { .. });`: the literal's fields are the binding's.
            Expr::Struct(s) => (self.struct_value_name(s), p.ident.to_string()),
            Expr::Path(_) | Expr::Field(_) => {
                let Some(place) = self.place(original) else {
                    return;
                };
                let text = self
                    .copied_text(original)
                    .unwrap_or_else(|| self.text(original));
                (place, text)
            }
            _ => return,
        };
        if !matches!(place, NameExpr::Path { .. }) {
            return;
        }
        if let Some(b) = self.lookup_mut(&p.ident.to_string()) {
            b.same_as = Some(Box::new((place, text)));
        }
    }

    /// `renewer.params.lease_name = ..;`: the binding's fields are no longer those of the value
    /// it was given (see [`crate::model::FileFacts::assigned_fields`]).
    pub(super) fn note_field_assigned(&mut self, left: &Expr) {
        if let Some(NameExpr::Path {
            root: Root::Binding(b),
            ..
        }) = self.place(left)
        {
            self.facts.assigned_fields.push(b);
        }
    }

    /// The text of the place a binding copies (`lock` for `renewer`): a handle in a field of the
    /// copy is the original's (`renewer.api` is `lock.api`).
    pub(super) fn copied_text(&self, expr: &Expr) -> Option<String> {
        let Expr::Path(p) = strip(expr) else {
            return None;
        };
        let b = self.lookup(&p.path.get_ident()?.to_string())?;
        b.same_as.as_ref().map(|copy| copy.1.clone())
    }

    /// A struct literal as a name: a value of its own whose fields are the names its fields are
    /// given (see [`crate::model::FileFacts::struct_values`]); Unknown when none is known.
    pub(super) fn struct_value_name(&self, s: &syn::ExprStruct) -> NameExpr {
        // The first segment of its path starts the literal: its offset tells literals apart.
        let Some(first) = s.path.segments.first() else {
            return NameExpr::Unknown;
        };
        let span = self.span(&first.ident);
        if span.start >= MAX_STRUCT_OFFSET {
            return NameExpr::Unknown;
        }
        let fields: Vec<(String, NameExpr)> = s
            .fields
            .iter()
            .filter_map(|f| match &f.member {
                syn::Member::Named(name) => Some((name.to_string(), self.name_of(&f.expr))),
                syn::Member::Unnamed(_) => None,
            })
            .filter(|(_, name)| !matches!(name, NameExpr::Unknown))
            .collect();
        if fields.is_empty() {
            return NameExpr::Unknown;
        }
        let id = ((self.source.id as u64) << 32) | STRUCT_VALUE_BITS | span.start as u64;
        self.struct_values.borrow_mut().insert(id, fields);
        NameExpr::Path {
            root: Root::Binding(id),
            fields: Vec::new(),
        }
    }
}

/// What a binding's initialiser shares its value with: through copies (see [`same_object`])
/// and `Arc::new(x)`, `Rc::new(x)`, `Box::new(x)`.
pub(super) fn shared_value(init: &Expr) -> &Expr {
    let init = same_object(init);
    if let Expr::Call(c) = init {
        if let (Expr::Path(p), 1) = (strip(&c.func), c.args.len()) {
            let segments = crate::model::sites::segments(&p.path);
            if matches!(segments.as_slice(), [ty, f] if matches!(ty.as_str(), "Arc" | "Rc" | "Box") && f == "new")
            {
                return shared_value(&c.args[0]);
            }
        }
    }
    init
}
