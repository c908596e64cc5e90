//! Scopes and bindings: what each name holds (see [`Value`]) and patterns that bind names.

use foldhash::HashMap;
use syn::visit::{self, Visit};
use syn::Pat;

use super::handles::{annotated_handle, api_kind, api_kind_param, has_origin, with_origin};
use super::{Binding, Builder, Value};
use crate::model::HandleOrigin;

impl Builder<'_> {
    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub(super) fn bind(&mut self, name: String, value: Value) -> u64 {
        let id = self.fresh_id();
        // A handle bound to a name is identified by that binding from now on.
        let value = match value {
            // A copy of another handle (`let p = pods.clone();`) keeps the origin of the original.
            Value::Handle(source) if has_origin(&source) => Value::Handle(source),
            Value::Handle(source) => Value::Handle(with_origin(source, HandleOrigin::Binding(id))),
            Value::Call { entry, returned } => Value::Call {
                entry,
                returned: with_origin(returned, HandleOrigin::Binding(id)),
            },
            v => v,
        };
        let deps = match &mut self.binding_elements {
            Some(elements) => {
                elements.push(id);
                let mut deps = vec![id];
                deps.extend(self.element_deps.iter().copied());
                deps
            }
            None => self.binding_deps.clone(),
        };
        let binding = Binding {
            id,
            value,
            ty_of: super::types::ExprType::default(),
            deps,
            rep_depth: self.reps.len(),
            bound: None,
            used: false,
            same_as: None,
        };
        if let Some(scope) = self.scopes.last_mut() {
            if let Some(shadowed) = scope.insert(name, binding) {
                self.retire(shadowed);
            }
        }
        id
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub(super) fn lookup_mut(&mut self, name: &str) -> Option<&mut Binding> {
        self.scopes.iter_mut().rev().find_map(|s| s.get_mut(name))
    }

    /// Bind every identifier of a pattern. The whole value goes to a plain identifier pattern;
    /// destructured parts are unknown.
    pub(super) fn bind_pattern(&mut self, pat: &Pat, value: Value) {
        match pat {
            Pat::Ident(p) => {
                self.bind(p.ident.to_string(), value);
                if let Some((_, sub)) = &p.subpat {
                    self.bind_pattern(sub, Value::Unknown);
                }
            }
            Pat::Type(p) => {
                let value = match api_kind(&p.ty, &self.generics) {
                    Some(kind) => Value::Handle(annotated_handle(
                        value,
                        kind,
                        api_kind_param(&p.ty, &self.generics),
                    )),
                    None => value,
                };
                self.bind_pattern(&p.pat, value);
            }
            Pat::Reference(p) => self.bind_pattern(&p.pat, value),
            Pat::Paren(p) => self.bind_pattern(&p.pat, value),
            _ => {
                let mut names = Vec::new();
                collect_pattern_idents(pat, &mut names);
                for n in names {
                    self.bind(n, Value::Unknown);
                }
            }
        }
    }

    /// The binding a path of one identifier reads (`names`), if it is in scope.
    pub(super) fn path_binding(&self, expr: &syn::Expr) -> Option<u64> {
        let syn::Expr::Path(p) = expr else {
            return None;
        };
        Some(self.lookup(&p.path.get_ident()?.to_string())?.id)
    }

    /// The parameter of the function being built that a path of one identifier reads.
    pub(super) fn param_binding(&self, expr: &syn::Expr) -> Option<u64> {
        let id = self.path_binding(expr)?;
        let function = &self.facts.functions[*self.functions.last()?];
        function.params.contains(&Some(id)).then_some(id)
    }

    /// The binding of a pattern's only identifier (`list`, `Ok(list)`, `names: Vec<String>`),
    /// once bound; None for a pattern of several.
    pub(super) fn only_binding(&self, pat: &Pat) -> Option<u64> {
        let mut names = Vec::new();
        collect_pattern_idents(pat, &mut names);
        let [name] = names.as_slice() else {
            return None;
        };
        Some(self.lookup(name)?.id)
    }

    pub(super) fn with_scope(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(HashMap::default());
        f(self);
        if let Some(scope) = self.scopes.pop() {
            self.retire_scope(scope);
        }
    }
}

pub(super) fn collect_pattern_idents(pat: &Pat, out: &mut Vec<String>) {
    struct Idents<'o>(&'o mut Vec<String>);
    impl<'ast> Visit<'ast> for Idents<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.to_string());
            visit::visit_pat_ident(self, p);
        }
    }
    Idents(out).visit_pat(pat);
}
