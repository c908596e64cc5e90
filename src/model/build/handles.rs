//! Kubernetes `Api` handles: the constructors (`Api::namespaced`, …), the receiver of a request as a
//! [`HandleSource`], and the kind and origin a handle carries.

use syn::punctuated::Punctuated;
use syn::{Expr, Token, Type};

use super::{ident_in, strip, Builder, Value};
use crate::model::identity::is_untyped_kind;
use crate::model::{known, Handle, HandleOrigin, HandleSource, Namespace};

impl Builder<'_> {
    /// `Api::<K>::namespaced(client, ns)` and the other constructors.
    pub(super) fn api_constructor(
        &self,
        path: &syn::Path,
        args: &Punctuated<Expr, Token![,]>,
    ) -> Option<Handle> {
        let n = path.segments.len();
        if n < 2 {
            return None;
        }
        let api = &path.segments[n - 2];
        if api.ident != known::API {
            return None;
        }
        let ctor = path.segments[n - 1].ident.to_string();
        let namespace = match ctor.as_str() {
            "namespaced" | "namespaced_with" => args
                .iter()
                .nth(1)
                .map(|ns| Namespace::Named(self.name_of(ns)))
                .unwrap_or(Namespace::Unknown),
            "default_namespaced" | "default_namespaced_with" => Namespace::Default,
            "all" | "all_with" => Namespace::All,
            "dynamic" => Namespace::Unknown,
            _ => return None,
        };
        let kind_type = match &api.arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            }),
            _ => None,
        };
        let kind = kind_type.and_then(|t| kind_of_type(t, &self.generics));
        let kind_param = kind_type.and_then(|t| generic_param(t, &self.generics));
        // Dynamic handles carry their kind in an `ApiResource` value we cannot compare.
        let kind = if ctor.ends_with("_with") || ctor == "dynamic" {
            None
        } else {
            kind
        };
        Some(Handle {
            kind,
            namespace,
            origin: None,
            kind_param,
        })
    }

    /// The namespace (and, when the declared type does not say, the kind) of the handle a
    /// function returns, from its tail (see [`FunctionFacts::returned_handle`]).
    ///
    /// [`FunctionFacts::returned_handle`]: crate::model::FunctionFacts::returned_handle
    pub(super) fn note_returned_namespace(&mut self, function: usize, tail: &Expr) {
        if self.facts.functions[function].returned_handle.is_none() {
            return;
        }
        let Some(made) = self.tail_handle(tail, 0) else {
            return;
        };
        if let Some(h) = self.facts.functions[function].returned_handle.as_mut() {
            h.namespace = made.namespace;
            if h.kind.is_none() && h.kind_param.is_none() {
                h.kind = made.kind;
                h.kind_param = made.kind_param;
            }
        }
    }

    /// The handle a tail builds: `Api::namespaced(client, ns)`, a binding holding one, through
    /// `Ok(..)`/`Some(..)`, `.await`, `?`, `.unwrap()`, and `.map(Api::all)` or
    /// `.map(|client| Api::namespaced(client, ns))` of a client.
    fn tail_handle(&self, expr: &Expr, depth: usize) -> Option<Handle> {
        if depth > 8 {
            return None;
        }
        match strip(expr) {
            Expr::Await(a) => self.tail_handle(&a.base, depth + 1),
            Expr::Try(t) => self.tail_handle(&t.expr, depth + 1),
            Expr::MethodCall(m) if ident_in(&m.method, &["map", "map_ok"]) && m.args.len() == 1 => {
                self.mapped_handle(&m.args[0])
            }
            Expr::MethodCall(m)
                if ident_in(
                    &m.method,
                    &[
                        "unwrap",
                        "expect",
                        "context",
                        "with_context",
                        "map_err",
                        "clone",
                    ],
                ) =>
            {
                self.tail_handle(&m.receiver, depth + 1)
            }
            Expr::Call(c) => {
                let Expr::Path(p) = strip(&c.func) else {
                    return None;
                };
                let wrapper = p
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Ok" || s.ident == "Some");
                match (wrapper, c.args.first()) {
                    (true, Some(inner)) if c.args.len() == 1 => self.tail_handle(inner, depth + 1),
                    _ => self.api_constructor(&p.path, &c.args),
                }
            }
            e @ Expr::Path(_) => match self.eval(e, usize::MAX) {
                Value::Handle(HandleSource::Known(h)) => Some(Handle { origin: None, ..h }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The handle a function given to `.map(..)` makes of the client: `Api::all`,
    /// `Api::default_namespaced`, or a closure whose body is a constructor. A namespace that
    /// reads one of the closure's own parameters is unknown (they are not in scope here).
    fn mapped_handle(&self, f: &Expr) -> Option<Handle> {
        match strip(f) {
            Expr::Path(p) => self.api_constructor(&p.path, &Punctuated::new()),
            Expr::Closure(c) => {
                let body = match strip(&c.body) {
                    Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                        syn::Stmt::Expr(e, None) => e,
                        _ => return None,
                    },
                    e => e,
                };
                let Expr::Call(call) = strip(body) else {
                    return None;
                };
                let Expr::Path(p) = strip(&call.func) else {
                    return None;
                };
                let mut handle = self.api_constructor(&p.path, &call.args)?;
                let mut params = Vec::new();
                for input in &c.inputs {
                    pattern_idents(input, &mut params);
                }
                let reads_param = call
                    .args
                    .iter()
                    .nth(1)
                    .is_some_and(|ns| mentions_any(ns, &params));
                if reads_param {
                    handle.namespace = Namespace::Unknown;
                }
                Some(handle)
            }
            _ => None,
        }
    }

    /// The receiver of a request call, if it may be an `Api` handle.
    pub(super) fn handle_source(&self, receiver: &Expr) -> Option<HandleSource> {
        match strip(receiver) {
            Expr::Path(p) => {
                let ident = p.path.get_ident()?;
                let binding = self.lookup(&ident.to_string())?;
                match &binding.value {
                    // `let leases: Leases = self.leases().await?`: maybe the crate's alias of
                    // `Api<K>`, as for a value of unknown origin.
                    Value::Handle(HandleSource::Unwrapped { origin, .. })
                        if binding.ty_of.name.as_ref().is_some_and(|t| {
                            t.starts_with(char::is_uppercase) && *t != known::API
                        }) =>
                    {
                        Some(HandleSource::Aliased {
                            alias: binding.ty_of.name.clone()?,
                            origin: origin.clone(),
                        })
                    }
                    Value::Handle(h) => Some(h.clone()),
                    Value::Call { returned, .. } => Some(returned.clone()),
                    // `leases: Leases`: maybe the crate's alias of `Api<K>` (the linker knows).
                    Value::Unknown => binding
                        .ty_of
                        .name
                        .as_ref()
                        .filter(|t| t.starts_with(char::is_uppercase) && *t != known::API)
                        .map(|alias| HandleSource::Aliased {
                            alias: alias.clone(),
                            origin: Some(HandleOrigin::Binding(binding.id)),
                        }),
                    _ => None,
                }
            }
            e @ Expr::Field(f) => {
                let syn::Member::Named(field) = &f.member else {
                    return None;
                };
                // `x.api` where `x` is a local whose value is known not to be a struct with
                // fields (a name, a future) cannot be a handle.
                Some(HandleSource::Field {
                    field: field.to_string(),
                    origin: Some(HandleOrigin::Place(self.text(e))),
                })
            }
            // `self.api::<Pod>().await?.get(..)`: the handle inside what a crate call gives.
            e @ (Expr::Await(_) | Expr::Try(_)) => match self.eval(e, 0) {
                Value::Handle(h @ HandleSource::Unwrapped { .. }) => Some(h),
                _ => None,
            },
            Expr::MethodCall(m)
                if ident_in(&m.method, &["unwrap", "expect", "context", "with_context"])
                    && self.unwrapped(&m.receiver, 0).is_some() =>
            {
                match self.unwrapped(&m.receiver, 0) {
                    Some(Value::Handle(h)) => Some(h),
                    _ => None,
                }
            }
            Expr::MethodCall(m) => match m.method.to_string().as_str() {
                "clone" | "to_owned" | "as_ref" | "borrow" => self.handle_source(&m.receiver),
                "constrain" | "unconstrain" | "constrain_default" => {
                    match self.eval(strip(receiver), usize::MAX) {
                        Value::Handle(h) => Some(h),
                        _ => self.handle_source(&m.receiver).map(without_origin),
                    }
                }
                name => Some(HandleSource::Returned {
                    name: name.to_string(),
                    origin: m
                        .args
                        .is_empty()
                        .then(|| HandleOrigin::Place(self.text(strip(receiver)))),
                    kind_arg: turbofish_kind(m.turbofish.as_ref(), &self.generics),
                }),
            },
            Expr::Call(c) => {
                let Expr::Path(p) = strip(&c.func) else {
                    return None;
                };
                if let Some(h) = self.api_constructor(&p.path, &c.args) {
                    return Some(HandleSource::Known(h));
                }
                let last = p.path.segments.last()?;
                let turbofish = match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => Some(a),
                    _ => None,
                };
                Some(HandleSource::Returned {
                    name: last.ident.to_string(),
                    origin: None,
                    kind_arg: turbofish_kind(turbofish, &self.generics),
                })
            }
            _ => None,
        }
    }
}

pub(super) fn has_origin(source: &HandleSource) -> bool {
    match source {
        HandleSource::Known(h) => h.origin.is_some(),
        HandleSource::Field { origin, .. }
        | HandleSource::Returned { origin, .. }
        | HandleSource::Unwrapped { origin, .. }
        | HandleSource::Aliased { origin, .. } => origin.is_some(),
    }
}

/// A type that may be a crate's alias of `Api<K>` (`Leases`, `&Leases`): a path of one
/// capitalised segment without generic arguments, or such a type behind a reference.
pub(super) fn alias_candidate(ty: &Type) -> Option<String> {
    match ty {
        Type::Reference(r) => alias_candidate(&r.elem),
        Type::Paren(p) => alias_candidate(&p.elem),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            // A bare `Api` too: `Api<K>` needs its argument, so without one it can only be a
            // crate's alias (`type Api = kube_client::Api<Lease>;`).
            (last.arguments.is_empty() && name.starts_with(char::is_uppercase)).then_some(name)
        }
        _ => None,
    }
}

pub(super) fn without_origin(source: HandleSource) -> HandleSource {
    set_origin(source, None)
}

/// The kind a turbofish of one concrete type names (`ctx.api::<Job>()`); None for a generic
/// parameter of the enclosing function or several types.
pub(super) fn turbofish_kind(
    turbofish: Option<&syn::AngleBracketedGenericArguments>,
    generics: &[String],
) -> Option<String> {
    let mut args = turbofish?.args.iter();
    let (Some(syn::GenericArgument::Type(ty)), None) = (args.next(), args.next()) else {
        return None;
    };
    kind_of_type(ty, generics)
}

pub(super) fn with_origin(source: HandleSource, origin: HandleOrigin) -> HandleSource {
    set_origin(source, Some(origin))
}

fn set_origin(source: HandleSource, origin: Option<HandleOrigin>) -> HandleSource {
    match source {
        HandleSource::Known(mut h) => {
            h.origin = origin;
            HandleSource::Known(h)
        }
        HandleSource::Field { field, .. } => HandleSource::Field { field, origin },
        HandleSource::Returned { name, kind_arg, .. } => HandleSource::Returned {
            name,
            origin,
            kind_arg,
        },
        HandleSource::Unwrapped { entry, kind, .. } => HandleSource::Unwrapped {
            entry,
            kind,
            origin,
        },
        HandleSource::Aliased { alias, .. } => HandleSource::Aliased { alias, origin },
    }
}

/// `let x: Api<Pod> = ..`: the annotation gives the kind (or, in a generic function, the type
/// parameter standing for it: `let api: Api<K> = ..`); the constructor may give the namespace.
pub(super) fn annotated_handle(
    value: Value,
    kind: Option<String>,
    kind_param: Option<String>,
) -> HandleSource {
    match value {
        Value::Handle(HandleSource::Known(mut h)) => {
            if h.kind.is_none() {
                h.kind = kind;
            }
            if h.kind_param.is_none() {
                h.kind_param = kind_param;
            }
            HandleSource::Known(h)
        }
        // `let pods: Api<Pod> = self.api().await?`: the wrapper gives the namespace.
        Value::Handle(HandleSource::Unwrapped {
            entry,
            kind: given,
            origin,
        }) => HandleSource::Unwrapped {
            entry,
            kind: given.or(kind),
            origin,
        },
        _ => HandleSource::Known(Handle {
            kind,
            namespace: Namespace::Unknown,
            origin: None,
            kind_param,
        }),
    }
}

/// `K` when `ty` is (or wraps: `&`, `Arc`, `Option`, `Result`, `impl Future<Output = ..>`,
/// `Box<dyn Future<Output = ..>>`) `Api<K>`.
fn api_type_arg(ty: &Type) -> Option<&Type> {
    match ty {
        Type::ImplTrait(t) => future_output(&t.bounds).and_then(api_type_arg),
        Type::TraitObject(t) => future_output(&t.bounds).and_then(api_type_arg),
        Type::Reference(r) => api_type_arg(&r.elem),
        Type::Paren(p) => api_type_arg(&p.elem),
        Type::Group(g) => api_type_arg(&g.elem),
        Type::Path(p) => {
            let last = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            let mut types = args.args.iter().filter_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            });
            if last.ident == known::API {
                types.next()
            } else {
                types.find_map(api_type_arg)
            }
        }
        _ => None,
    }
}

/// If `ty` is (or wraps) `Api<K>`: Some(kind), the kind being None when generic or untyped.
pub(crate) fn api_kind(ty: &Type, generics: &[String]) -> Option<Option<String>> {
    api_type_arg(ty).map(|k| kind_of_type(k, generics))
}

/// `K` in `Api<K>` (or `&Api<K>`, …) when `K` is a generic parameter.
pub(super) fn api_kind_param(ty: &Type, generics: &[String]) -> Option<String> {
    api_type_arg(ty).and_then(|k| generic_param(k, generics))
}

/// `K` when the type is one of the enclosing generic parameters.
fn generic_param(ty: &Type, generics: &[String]) -> Option<String> {
    match ty {
        Type::Path(p) => {
            let ident = p.path.get_ident()?.to_string();
            generics.contains(&ident).then_some(ident)
        }
        _ => None,
    }
}

pub(super) fn kind_of_type(ty: &Type, generics: &[String]) -> Option<String> {
    match ty {
        Type::Path(p) => {
            let last = p.path.segments.last()?.ident.to_string();
            // `S::Manifest`, `<T as Trait>::Kind`: a type the generic parameter chooses.
            let associated = p.qself.is_some()
                || (p.path.segments.len() > 1
                    && generics.contains(&p.path.segments[0].ident.to_string()));
            if associated || generics.contains(&last) || is_untyped_kind(&last) {
                None
            } else {
                Some(last)
            }
        }
        _ => None,
    }
}

/// Whether an expression reads any of these identifiers.
fn mentions_any(expr: &Expr, idents: &[String]) -> bool {
    struct Finder<'i>(&'i [String], bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
            if self.0.iter().any(|n| i == n) {
                self.1 = true;
            }
        }
    }
    let mut finder = Finder(idents, false);
    syn::visit::Visit::visit_expr(&mut finder, expr);
    finder.1
}

/// `T` of a `Future<Output = T>` bound.
fn future_output(bounds: &Punctuated<syn::TypeParamBound, Token![+]>) -> Option<&Type> {
    bounds.iter().find_map(|b| {
        let syn::TypeParamBound::Trait(t) = b else {
            return None;
        };
        let last = t.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        if last.ident != "Future" {
            return None;
        }
        args.args.iter().find_map(|a| match a {
            syn::GenericArgument::AssocType(a) if a.ident == "Output" => Some(&a.ty),
            _ => None,
        })
    })
}

/// The identifiers a closure parameter's pattern binds.
fn pattern_idents(pat: &syn::Pat, out: &mut Vec<String>) {
    struct Idents<'o>(&'o mut Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Idents<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    syn::visit::Visit::visit_pat(&mut Idents(out), pat);
}
