//! Names of a listing's elements handed to a helper (`let names: Vec<String> =
//! mcs.iter().map(|mc| mc.name_any()).collect(); clear(&machines, &names)`), and a helper's
//! requests on the elements of a parameter (`for name in names { api.patch_status(name, ..) }`):
//! together, a helper's write of elements of its caller's listing (see
//! [`crate::model::Request::listed`]).

use syn::{Expr, Pat};

use super::requests::named_by_binding;
use super::{strip, Builder};
use crate::model::{Listed, ObjectName};

impl Builder<'_> {
    /// `let names = mcs.iter().map(|mc| mc.name_any()).collect();` over a listing `mcs`: the
    /// binding holds the names of the listing's elements.
    pub(super) fn note_listed_names(&mut self, pat: &Pat, init: &Expr) {
        let Some(iterated) = names_mapped(init) else {
            return;
        };
        let Some(listed) = self.listing_element_of(iterated) else {
            return;
        };
        if let Some(id) = self.only_binding(pat) {
            self.name_listings.insert(id, listed);
        }
    }

    /// The listing whose elements' names an argument holds (`&names`), if it does.
    pub(super) fn listed_names_of(&self, arg: &Expr) -> Option<Listed> {
        let id = self.path_binding(strip(arg))?;
        self.name_listings.get(&id).cloned()
    }

    /// The parameter of the function being built that a loop iterates (`names`, `&names`,
    /// `names.iter()`), if it is one.
    pub(super) fn iterated_param(&self, iterated: &Expr) -> Option<u64> {
        let e = match strip(iterated) {
            Expr::MethodCall(m)
                if m.args.is_empty() && (m.method == "iter" || m.method == "into_iter") =>
            {
                strip(&m.receiver)
            }
            e => e,
        };
        self.param_binding(e)
    }

    /// The binding of a loop's pattern (one identifier) is an element of parameter `param`.
    pub(super) fn note_param_elements(&mut self, pat: &Pat, param: Option<u64>) {
        if let (Some(param), Some(id)) = (param, self.only_binding(pat)) {
            self.param_elements.insert(id, param);
        }
    }

    /// A request on an element of a parameter: a write of elements of the listing whose names
    /// the caller passes, resolved when the helper is linked into its callers.
    pub(super) fn param_element_named(&self, object: &ObjectName) -> Option<Listed> {
        let (element, fields) = named_by_binding(object)?;
        if !fields.is_empty() {
            return None;
        }
        let param = *self.param_elements.get(&element)?;
        Some(Listed {
            kind: None,
            selected_by: Box::default(),
            text: String::new(),
            names_of_param: Some(param),
        })
    }
}

/// `iterated.map(|mc| mc.name_any()).collect()` (any turbofish): what is iterated, when the
/// closure gives its element's own name.
fn names_mapped(init: &Expr) -> Option<&Expr> {
    let Expr::MethodCall(collect) = strip(init) else {
        return None;
    };
    if collect.method != "collect" || !collect.args.is_empty() {
        return None;
    }
    let Expr::MethodCall(map) = strip(&collect.receiver) else {
        return None;
    };
    let [Expr::Closure(c)] = map.args.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    if map.method != "map" || c.inputs.len() != 1 {
        return None;
    }
    let Pat::Ident(element) = &c.inputs[0] else {
        return None;
    };
    is_name_of(&c.body, &element.ident.to_string()).then_some(&*map.receiver)
}

/// Whether `expr` is the name of binding `element`: `element.name_any()`, `.name_unchecked()`,
/// `element.metadata.name` (through `clone`, `unwrap`, `to_string` and the like).
fn is_name_of(expr: &Expr, element: &str) -> bool {
    match strip(expr) {
        Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
            syn::Stmt::Expr(e, None) => is_name_of(e, element),
            _ => false,
        },
        Expr::MethodCall(m) if m.args.is_empty() => match m.method.to_string().as_str() {
            "name_any" | "name_unchecked" => is_path(&m.receiver, element),
            "clone" | "to_string" | "to_owned" | "unwrap" | "unwrap_or_default" | "into" => {
                is_name_of(&m.receiver, element)
            }
            _ => false,
        },
        Expr::MethodCall(m) if m.method == "expect" && m.args.len() == 1 => {
            is_name_of(&m.receiver, element)
        }
        Expr::Field(name) => match (&name.member, strip(&name.base)) {
            (syn::Member::Named(n), Expr::Field(meta)) if n == "name" => {
                matches!(&meta.member, syn::Member::Named(m) if m == "metadata")
                    && is_path(&meta.base, element)
            }
            _ => false,
        },
        _ => false,
    }
}

fn is_path(expr: &Expr, name: &str) -> bool {
    matches!(strip(expr), Expr::Path(p) if p.path.is_ident(name))
}
