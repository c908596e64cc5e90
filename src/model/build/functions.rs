//! Entering a function: its parameters, its [`FunctionFacts`], and what its body tells its callers
//! (struct literals, computed locals, the name its tail gives).

use foldhash::HashMap;
use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::handlers::type_text;
use super::handles::{api_kind, api_kind_param, kind_of_type};
use super::scopes::collect_pattern_idents;
use super::{generic_bounds, generic_names, ident_in, strip, strip_pat, Builder, Value};
use crate::model::{
    Computation, ComputedLocal, FunctionFacts, Handle, HandleSource, NameExpr, Namespace,
    Precondition,
};

impl Builder<'_> {
    /// A function body starts with fresh scopes: items do not see their parent's locals.
    pub(super) fn with_fn(&mut self, sig: &syn::Signature, f: impl FnOnce(&mut Self)) {
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![HashMap::default()]);
        let saved_generics = self.generics.len();
        self.generics.extend(generic_names(&sig.generics));
        let saved_bounds = self.generic_bounds.len();
        self.generic_bounds.extend(generic_bounds(&sig.generics));
        let saved_collectors = std::mem::take(&mut self.collectors);
        let saved_functions = self.functions.len();
        let saved_reps = std::mem::take(&mut self.reps);
        let saved_branches = std::mem::take(&mut self.branches);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_loop_bodies = std::mem::take(&mut self.loop_bodies);
        let saved_loop_labels = std::mem::take(&mut self.loop_labels);
        let kind = if sig.asyncness.is_some() {
            crate::model::BodyKind::AsyncFn
        } else {
            crate::model::BodyKind::Fn
        };
        let saved_body = self.enter_body(kind, self.span(&sig.ident));
        let start = self.begin_fn();
        f(self);
        for scope in std::mem::take(&mut self.scopes) {
            self.retire_scope(scope);
        }
        self.finish_fn(start);
        self.body = saved_body;
        self.loops = saved_loops;
        self.loop_bodies = saved_loop_bodies;
        self.loop_labels = saved_loop_labels;
        self.branches = saved_branches;
        self.reps = saved_reps;
        self.functions.truncate(saved_functions);
        self.collectors = saved_collectors;
        self.generics.truncate(saved_generics);
        self.generic_bounds.truncate(saved_bounds);
        self.scopes = saved_scopes;
    }

    /// Bind the parameters of a function and register it in `facts.functions`.
    pub(super) fn enter_function(&mut self, sig: &syn::Signature, entry_point: bool) {
        let mut params = Vec::new();
        let mut typed_by_generic = Vec::new();
        let own_generics: Vec<String> = generic_names(&sig.generics).collect();
        let mut extracted = Vec::new();
        let mut has_self = false;
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(_) => has_self = true,
                syn::FnArg::Typed(p) => {
                    typed_by_generic.push(generic_object(&p.ty, &own_generics));
                    let value = match api_kind(&p.ty, &self.generics) {
                        Some(kind) => Value::Handle(HandleSource::Known(Handle {
                            kind,
                            namespace: Namespace::Unknown,
                            origin: None,
                            kind_param: api_kind_param(&p.ty, &self.generics),
                        })),
                        None => Value::Unknown,
                    };
                    match strip_pat(&p.pat) {
                        Pat::Ident(i) if i.subpat.is_none() => {
                            let name = i.ident.to_string();
                            let id = self.bind(name.clone(), value);
                            if i.mutability.is_some() {
                                self.mut_params.push(id);
                            }
                            params.push(Some(id));
                            self.note_receiver_param(&name, &p.ty);
                            let ty = super::types::declared_type(
                                &p.ty,
                                self.self_types.last().cloned().flatten().as_deref(),
                                &self.generic_bounds,
                            );
                            if let Some(b) = self.lookup_mut(&name) {
                                b.ty_of = ty;
                            }
                        }
                        other => {
                            params.push(None);
                            self.bind_pattern(other, Value::Unknown);
                        }
                    }
                    if let Some((binding, name)) = self.extracted_binding(&p.pat) {
                        extracted.push(crate::model::Extracted {
                            param: params.len() - 1,
                            binding,
                            name,
                            ty: type_text(&p.ty),
                        });
                    }
                }
            }
        }
        let line = self.source.line_col(self.span(&sig.ident).start).0;
        let returns = match &sig.output {
            syn::ReturnType::Default => crate::model::TypeShape::default(),
            syn::ReturnType::Type(_, ty) => {
                super::types::type_shape(ty, self.self_types.last().cloned().flatten().as_deref())
            }
        };
        let reconciled =
            super::types::reconciler_signature(sig).filter(|_| sig.asyncness.is_some());
        self.facts.functions.push(FunctionFacts {
            returns,
            name: sig.ident.to_string(),
            self_type: self.self_types.last().cloned().flatten(),
            module: self.module.clone(),
            has_self,
            params,
            typed_by_generic,
            generics: own_generics,
            line,
            is_async: sig.asyncness.is_some(),
            body: self.body,
            trait_name: self.impl_traits.last().cloned().flatten(),
            checks_runtime: false,
            entry_point,
            cfg: self.cfg.clone(),
            reconciler: reconciled.is_some(),
            reconciled_kind: reconciled
                .flatten()
                .and_then(|ty| kind_of_type(ty, &self.generics)),
            computed_locals: Vec::new(),
            struct_literals: Vec::new(),
            returned_name: None,
            returned_body: Precondition::None,
            returned_handle: match &sig.output {
                syn::ReturnType::Type(_, ty) => api_kind(ty, &self.generics).map(|kind| Handle {
                    kind,
                    namespace: Namespace::Unknown,
                    origin: None,
                    kind_param: api_kind_param(ty, &self.generics),
                }),
                syn::ReturnType::Default => None,
            },
            provided: false,
            extracted,
            exported: false,
            lazy_future: sig.asyncness.is_none() && super::lazy::returns_future(&sig.output),
            passes_controller: super::controllers::passed_controller(sig),
        });
        let index = self.facts.functions.len() - 1;
        self.functions.push(index);
        if let Some(body) = self.facts.bodies.get_mut(self.body as usize) {
            body.function = Some(index);
        }
    }

    /// Whether the function just entered can be called from outside the crate (see
    /// [`FunctionFacts::exported`]): `pub`, or a method of a trait impl.
    pub(super) fn note_visibility(&mut self, vis: &syn::Visibility) {
        if let Some(function) = self.facts.functions.last_mut() {
            function.exported =
                matches!(vis, syn::Visibility::Public(_)) || function.trait_name.is_some();
        }
    }

    /// A struct literal's named fields, for callers of the function that returns it.
    pub(super) fn note_struct_literal(&mut self, s: &syn::ExprStruct) {
        let (Some(&function), Some(ty)) = (self.functions.last(), s.path.segments.last()) else {
            return;
        };
        let ty = match ty.ident.to_string() {
            t if t == "Self" => match self.self_types.last().cloned().flatten() {
                Some(t) => t,
                None => return,
            },
            t => t,
        };
        let fields = s
            .fields
            .iter()
            .filter_map(|f| match &f.member {
                syn::Member::Named(name) => Some((name.to_string(), self.name_of(&f.expr))),
                syn::Member::Unnamed(_) => None,
            })
            .filter(|(_, name)| !matches!(name, NameExpr::Unknown))
            .collect();
        self.facts.functions[function]
            .struct_literals
            .push((ty, fields));
    }

    /// A function's body, and the name its tail gives (`format!("{app}-lease")`) and the write
    /// body it returns (see [`FunctionFacts::returned_body`]), read while the body's locals are
    /// in scope. A body with a `return` elsewhere is left out.
    pub(super) fn visit_fn_block(&mut self, block: &syn::Block) {
        self.with_scope(|b| {
            visit::visit_block(b, block);
            if let Some(&function) = b.functions.last() {
                b.note_lazy_tail(function, block);
                let tail = match block.stmts.last() {
                    Some(syn::Stmt::Expr(tail, None)) if !returns_early(block) => Some(tail),
                    _ => None,
                };
                b.note_passed_controller(function, tail);
            }
            let (Some(&function), Some(syn::Stmt::Expr(tail, None))) =
                (b.functions.last(), block.stmts.last())
            else {
                return;
            };
            if returns_early(block) {
                return;
            }
            b.note_returned_namespace(function, tail);
            b.facts.functions[function].returned_body = match b.precondition_of(tail) {
                p @ (Precondition::ResourceVersion | Precondition::Returned(_)) => p,
                // A copied version returned: guarded, as before the copy was told apart.
                Precondition::Refreshed(_) => Precondition::ResourceVersion,
                Precondition::None
                | Precondition::Param(_)
                | Precondition::Cleared
                | Precondition::Stored => Precondition::None,
            };
            if !gives_a_name(tail) {
                return;
            }
            let name = match b.name_of(tail) {
                NameExpr::Unknown => return,
                name => name,
            };
            b.facts.functions[function].returned_name = Some(name);
        });
    }

    /// The locals a `let` binds, as computed from the bindings its initialiser reads, for
    /// callers that see names rooted at them (see [`ComputedLocal`]).
    pub(super) fn note_computed_locals(
        &mut self,
        local: &syn::Local,
        init: &Expr,
        inputs: Vec<u64>,
    ) {
        let Some(&function) = self.functions.last() else {
            return;
        };
        let span = self.span(init);
        let mut idents = Vec::new();
        collect_pattern_idents(&local.pat, &mut idents);
        for (element, ident) in idents.into_iter().enumerate() {
            let Some(id) = self.lookup(&ident).map(|b| b.id) else {
                continue;
            };
            // Files and offsets past 4 GiB are refused long before (see `read`).
            let how = Computation {
                file: self.source.id as u32,
                start: span.start as u32,
                end: span.end as u32,
                element: element as u32,
            };
            let computed = ComputedLocal {
                how,
                inputs: inputs.clone(),
            };
            self.facts.functions[function]
                .computed_locals
                .push((id, computed));
        }
    }
}

/// A tail that builds or passes on a name: `format!(..)`, a literal, a place (`self.name`,
/// `name`), maybe through `clone()`/`to_string()`/`into()`. Not a call of something else: its
/// tail would be followed by name alone through every function of that name (in a big crate,
/// thousands, making the prefilter parse files by the thousand).
fn gives_a_name(tail: &Expr) -> bool {
    match strip(tail) {
        Expr::Macro(m) => m.mac.path.is_ident("format"),
        Expr::Lit(_) | Expr::Path(_) | Expr::Field(_) => true,
        Expr::Reference(r) => gives_a_name(&r.expr),
        Expr::MethodCall(m) if m.args.is_empty() => {
            ident_in(
                &m.method,
                &["clone", "to_string", "to_owned", "into", "as_str", "as_ref"],
            ) && gives_a_name(&m.receiver)
        }
        _ => false,
    }
}

/// Whether a body has a `return` of its own (not one of a closure or `async` block in it).
fn returns_early(block: &syn::Block) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder(false);
    finder.visit_block(block);
    finder.0
}

/// The type parameter of `generics` that a parameter's type is, seen through references and
/// the pointers a reconcile's object comes in (`&T`, `Arc<T>`, `&Arc<T>`, `Box<T>`, `Rc<T>`).
fn generic_object(ty: &syn::Type, generics: &[String]) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => generic_object(&r.elem, generics),
        syn::Type::Paren(p) => generic_object(&p.elem, generics),
        syn::Type::Group(g) => generic_object(&g.elem, generics),
        syn::Type::Path(p) if p.qself.is_none() => {
            if let Some(ident) = p.path.get_ident() {
                let name = ident.to_string();
                return generics.contains(&name).then_some(name);
            }
            let last = p.path.segments.last()?;
            if !matches!(last.ident.to_string().as_str(), "Arc" | "Rc" | "Box") {
                return None;
            }
            match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
                    syn::GenericArgument::Type(inner) if a.args.len() == 1 => {
                        generic_object(inner, generics)
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}
