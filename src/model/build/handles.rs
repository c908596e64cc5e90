//! Kubernetes `Api` handles: the constructors (`Api::namespaced`, …), the receiver of a request as a
//! [`HandleSource`], and the kind and origin a handle carries.

use syn::punctuated::Punctuated;
use syn::{Expr, Token, Type};

use super::{strip, Builder, Value};
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

    /// The receiver of a request call, if it may be an `Api` handle.
    pub(super) fn handle_source(&self, receiver: &Expr) -> Option<HandleSource> {
        match strip(receiver) {
            Expr::Path(p) => {
                let ident = p.path.get_ident()?;
                let binding = self.lookup(&ident.to_string())?;
                match &binding.value {
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
        _ => HandleSource::Known(Handle {
            kind,
            namespace: Namespace::Unknown,
            origin: None,
            kind_param,
        }),
    }
}

/// `K` when `ty` is (or wraps: `&`, `Arc`, `Option`, `Result`) `Api<K>`.
fn api_type_arg(ty: &Type) -> Option<&Type> {
    match ty {
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
