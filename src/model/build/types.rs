//! Receiver types, the way rustc users write them: annotations and parameters, `self`, struct
//! literals, `T::new(..)`-style constructors, and the values crate functions return (typed by
//! the linker from the callee's declared return type, see [`ReturnedType`]). Method calls are
//! resolved by these types; only a receiver whose type none of them gives is resolved by name.

use syn::{Expr, Pat, Type};

use super::{strip, Builder};
use crate::model::{ReturnedType, TypeShape};
use crate::source::Span;

/// What the builder knows of an expression's type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ExprType {
    /// Written in the code.
    pub name: Option<String>,
    /// The item type of the collection it is, when written (`Vec<LeaseManager>`,
    /// `Vec<Vec<Arc<T>>>`).
    pub item: Option<Box<ExprType>>,
    /// Returned by a call of the file, typed at link time.
    pub returned: Option<ReturnedType>,
}

impl ExprType {
    fn named(name: String) -> ExprType {
        ExprType {
            name: Some(name),
            ..ExprType::default()
        }
    }

    /// The type of an item of this collection (`xs[0]`, `xs.pop()`, `for x in &xs`).
    pub fn item(&self) -> ExprType {
        match (&self.item, self.returned) {
            (Some(item), _) => (**item).clone(),
            (None, Some(r)) if !r.item => ExprType {
                returned: Some(ReturnedType { item: true, ..r }),
                ..ExprType::default()
            },
            _ => ExprType::default(),
        }
    }

    /// Element `i` of the tuple this is.
    fn element(&self, i: usize) -> ExprType {
        match self.returned {
            Some(r) if r.element.is_none() && !r.item => ExprType {
                returned: Some(ReturnedType {
                    element: Some(i),
                    ..r
                }),
                ..ExprType::default()
            },
            _ => ExprType::default(),
        }
    }
}

/// The collection an iteration's items come from, through `iter()`, `iter_mut()`,
/// `into_iter()`, `drain(..)` and the adapters that keep items (`filter`, `skip`, `rev`, …), and
/// whether one of those methods was seen; else the iterated expression itself (`&managers`).
fn iterated_collection(iterated: &Expr) -> (&Expr, bool) {
    match strip(iterated) {
        Expr::Reference(r) => iterated_collection(&r.expr),
        Expr::MethodCall(m) => match m.method.to_string().as_str() {
            "iter" | "iter_mut" | "into_iter" | "drain" => (&m.receiver, true),
            "filter" | "skip" | "take" | "rev" | "skip_while" | "take_while" | "peekable"
            | "fuse" | "cycle" | "step_by" => iterated_collection(&m.receiver),
            _ => (iterated, false),
        },
        e => (e, false),
    }
}

/// Wrappers whose methods reach the value they hold, for resolving methods on it.
fn is_transparent(name: &str) -> bool {
    matches!(
        name,
        "Arc" | "Rc" | "Box" | "Result" | "Option" | "Pin" | "Cow" | "Mutex" | "RwLock"
    )
}

/// `Arc::new(x)`, `Arc::clone(&x)`, `Clone::clone(&x)`: a value whose methods are `x`'s.
fn shares_its_argument(segments: &[String]) -> bool {
    match segments {
        [ty, f] => matches!(
            (ty.as_str(), f.as_str()),
            ("Arc" | "Rc" | "Box", "new" | "clone" | "from") | ("Clone", "clone")
        ),
        _ => false,
    }
}

fn is_collection(name: &str) -> bool {
    matches!(
        name,
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "BinaryHeap" | "LinkedList"
    )
}

fn first_type_arg(segment: &syn::PathSegment) -> Option<&Type> {
    match &segment.arguments {
        syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|arg| match arg {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    }
}

/// The signature kube-runtime's `Controller::run` takes: the object as `Arc<K>` first, and a
/// `Result` of an `Action` returned. Some(the object's type `K`, when written) for a reconcile.
pub(super) fn reconciler_signature(sig: &syn::Signature) -> Option<Option<&Type>> {
    let last = |ty: &Type| match ty {
        Type::Path(p) => p.path.segments.last().cloned(),
        _ => None,
    };
    fn arc(ty: &Type) -> Option<&syn::PathSegment> {
        match ty {
            Type::Path(p) => p.path.segments.last().filter(|s| s.ident == "Arc"),
            _ => None,
        }
    }
    let object = match sig.inputs.iter().next()? {
        syn::FnArg::Typed(p) => arc(&p.ty).map(first_type_arg)?,
        syn::FnArg::Receiver(_) => return None,
    };
    let returns_action = match &sig.output {
        syn::ReturnType::Type(_, ty) => last(ty).is_some_and(|s| {
            s.ident.to_string().ends_with("Result")
                && first_type_arg(&s)
                    .and_then(last)
                    .is_some_and(|a| a.ident == "Action")
        }),
        syn::ReturnType::Default => false,
    };
    returns_action.then_some(object)
}

/// The shape of a written type; `Self` is `self_type`.
pub(super) fn type_shape(ty: &Type, self_type: Option<&str>) -> TypeShape {
    match ty {
        Type::Reference(r) => type_shape(&r.elem, self_type),
        Type::Paren(p) => type_shape(&p.elem, self_type),
        Type::Group(g) => type_shape(&g.elem, self_type),
        Type::Slice(s) => TypeShape {
            item: type_shape(&s.elem, self_type).name,
            ..TypeShape::default()
        },
        Type::Array(a) => TypeShape {
            item: type_shape(&a.elem, self_type).name,
            ..TypeShape::default()
        },
        Type::Tuple(t) => TypeShape {
            elements: t
                .elems
                .iter()
                .map(|e| type_shape(e, self_type).name)
                .collect(),
            ..TypeShape::default()
        },
        Type::ImplTrait(i) => {
            future_output(i).map_or_else(TypeShape::default, |t| type_shape(t, self_type))
        }
        Type::Path(p) => {
            let Some(last) = p.path.segments.last() else {
                return TypeShape::default();
            };
            let name = last.ident.to_string();
            match first_type_arg(last) {
                Some(inner) if is_transparent(&name) => type_shape(inner, self_type),
                Some(inner) if is_collection(&name) => TypeShape {
                    name: Some(name),
                    item: type_shape(inner, self_type).name,
                    ..TypeShape::default()
                },
                _ if name == "Self" => TypeShape {
                    name: self_type.map(str::to_string),
                    ..TypeShape::default()
                },
                _ => TypeShape {
                    name: Some(name),
                    ..TypeShape::default()
                },
            }
        }
        _ => TypeShape::default(),
    }
}

/// The type a declaration writes (a field's, a parameter's), with the items of collections to
/// any depth (`Vec<Vec<Arc<T>>>`), and a value known by its traits as a
/// [`bounded_type`](crate::model::bounded_type): a type parameter by its bounds (`bounds`, the
/// parameters in scope, innermost last), `dyn Trait` and `impl Trait` by theirs.
pub(super) fn declared_type(
    ty: &Type,
    self_type: Option<&str>,
    bounds: &[(String, Vec<String>)],
) -> ExprType {
    let item = |elem: &Type| ExprType {
        item: Some(Box::new(declared_type(elem, self_type, bounds))),
        ..ExprType::default()
    };
    match ty {
        Type::Reference(r) => declared_type(&r.elem, self_type, bounds),
        Type::Paren(p) => declared_type(&p.elem, self_type, bounds),
        Type::Group(g) => declared_type(&g.elem, self_type, bounds),
        Type::Slice(s) => item(&s.elem),
        Type::Array(a) => item(&a.elem),
        Type::TraitObject(t) => ExprType {
            name: crate::model::bounded_type(&trait_names(&t.bounds)),
            ..ExprType::default()
        },
        Type::ImplTrait(i) => match future_output(i) {
            Some(output) => declared_type(output, self_type, bounds),
            None => ExprType {
                name: crate::model::bounded_type(&trait_names(&i.bounds)),
                ..ExprType::default()
            },
        },
        Type::Path(p) if p.qself.is_none() => {
            if let Some(param) = p.path.get_ident() {
                if let Some((_, traits)) = bounds.iter().rev().find(|(g, _)| param == g) {
                    return ExprType {
                        name: crate::model::bounded_type(traits),
                        ..ExprType::default()
                    };
                }
            }
            let Some(last) = p.path.segments.last() else {
                return ExprType::default();
            };
            let name = last.ident.to_string();
            match first_type_arg(last) {
                Some(inner) if is_transparent(&name) => declared_type(inner, self_type, bounds),
                Some(inner) if is_collection(&name) => ExprType {
                    name: Some(name),
                    ..item(inner)
                },
                _ if name == "Self" => ExprType {
                    name: self_type.map(str::to_string),
                    ..ExprType::default()
                },
                _ => ExprType::named(name),
            }
        }
        _ => ExprType::default(),
    }
}

/// The traits of a list of bounds, by their last segments (`Task<C, E, K>` is `Task`).
pub(super) fn trait_names<'b>(
    bounds: impl IntoIterator<Item = &'b syn::TypeParamBound>,
) -> Vec<String> {
    bounds
        .into_iter()
        .filter_map(|b| match b {
            syn::TypeParamBound::Trait(t)
                if matches!(t.modifier, syn::TraitBoundModifier::None) =>
            {
                t.path.segments.last().map(|s| s.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

/// `T` of `impl Future<Output = T>`.
fn future_output(i: &syn::TypeImplTrait) -> Option<&Type> {
    i.bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Trait(t) => {
            let last = t.path.segments.last()?;
            if last.ident != "Future" {
                return None;
            }
            match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|arg| match arg {
                    syn::GenericArgument::AssocType(at) if at.ident == "Output" => Some(&at.ty),
                    _ => None,
                }),
                _ => None,
            }
        }
        _ => None,
    })
}

impl Builder<'_> {
    /// The type of an expression, as far as method resolution needs it.
    pub(super) fn expr_type(&self, expr: &Expr) -> ExprType {
        match strip(expr) {
            Expr::Await(a) => self.expr_type(&a.base),
            Expr::Try(t) => self.expr_type(&t.expr),
            Expr::Reference(r) => self.expr_type(&r.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => self.expr_type(&u.expr),
            Expr::Path(p) if p.path.is_ident("self") => self
                .self_types
                .last()
                .cloned()
                .flatten()
                .map(ExprType::named)
                .unwrap_or_default(),
            Expr::Path(p) => match p.path.get_ident().and_then(|i| self.lookup(&i.to_string())) {
                Some(b) => b.ty_of.clone(),
                None => ExprType::default(),
            },
            Expr::Struct(s) => s
                .path
                .segments
                .last()
                .map(|seg| ExprType::named(seg.ident.to_string()))
                .unwrap_or_default(),
            Expr::Index(i) => self.expr_type(&i.expr).item(),
            // `self.tasks`, `ctx.reconciler`: the field's declared type, for a struct of the file.
            Expr::Field(f) => match &f.member {
                syn::Member::Named(field) => self
                    .expr_type(&f.base)
                    .name
                    .and_then(|owner| self.field_types.get(&(owner, field.to_string())).cloned())
                    .flatten()
                    .unwrap_or_default(),
                syn::Member::Unnamed(_) => ExprType::default(),
            },
            Expr::MethodCall(m) => self.method_call_type(m),
            Expr::Call(c) => self.path_call_type(c),
            _ => ExprType::default(),
        }
    }

    fn method_call_type(&self, m: &syn::ExprMethodCall) -> ExprType {
        let method = m.method.to_string();
        match method.as_str() {
            "unwrap" | "expect" | "clone" | "to_owned" | "unwrap_or_default" | "as_ref"
            | "as_mut" | "borrow" | "borrow_mut" | "lock" | "read" | "write" => {
                self.expr_type(&m.receiver)
            }
            // `Result`/`Option` adapters that keep the success value, which `?` or `unwrap`
            // then takes out: the type is the receiver's (`Controller::new(..).context(..)?`
            // is a `Controller`; actix's `HttpServer::new(..).bind(..).map_err(..)?` what
            // `bind` returns). Not recorded as calls (`could_be_crate_method`), they would
            // otherwise leave the value untyped, and a method called on it guessed by name.
            "map_err" | "context" | "with_context" | "or_else" | "ok_or" | "ok_or_else" | "ok"
            | "unwrap_or" | "unwrap_or_else" => self.expr_type(&m.receiver),
            "pop" | "pop_front" | "pop_back" | "first" | "last" | "remove" | "swap_remove"
            | "get" | "get_mut" | "first_mut" | "last_mut"
                if m.args.len() <= 1 =>
            {
                let receiver = self.expr_type(&m.receiver);
                if receiver.item.is_some() || receiver.returned.is_some() {
                    return receiver.item();
                }
                self.returned_by(self.span(m))
            }
            _ => self.returned_by(self.span(m)),
        }
    }

    fn path_call_type(&self, c: &syn::ExprCall) -> ExprType {
        let Expr::Path(p) = strip(&c.func) else {
            return self.returned_by(self.span(c));
        };
        let segments = crate::model::sites::segments(&p.path);
        if c.args.len() == 1 && shares_its_argument(&segments) {
            return self.expr_type(&c.args[0]);
        }
        let from_entry = self.returned_by(self.span(c));
        if from_entry.returned.is_some() {
            return from_entry;
        }
        // `Type::new(..)` of a type whose functions are not the crate's: still that type.
        crate::model::sites::constructed_type(&segments)
            .map(|ty| ExprType::named(ty.to_string()))
            .unwrap_or_default()
    }

    /// The type of the items an iteration yields: `for m in &managers`,
    /// `managers.iter_mut().map(|m| ..)` (through adapters that keep the items).
    pub(super) fn item_type(&self, iterated: &Expr) -> ExprType {
        self.expr_type(iterated_collection(iterated).0).item()
    }

    /// An element of what is iterated, as a name: `m` in `managers.iter().map(|m| ..)` is
    /// some element of `managers`, as `managers[0]` is.
    pub(super) fn element_name(&self, iterated: &Expr) -> super::Value {
        let (collection, through_iter) = iterated_collection(iterated);
        match self.place(collection).filter(|_| through_iter) {
            Some(crate::model::NameExpr::Path { root, mut fields }) => {
                fields.push(crate::model::identity::ANY_ELEMENT.to_string());
                super::Value::Name(crate::model::NameExpr::Path { root, fields })
            }
            _ => super::Value::Unknown,
        }
    }

    /// The value of a call recorded as an entry of this file.
    fn returned_by(&self, span: Span) -> ExprType {
        ExprType {
            returned: self.request_at(span, 0).map(|entry| ReturnedType {
                entry,
                element: None,
                item: false,
            }),
            ..ExprType::default()
        }
    }

    /// The types of what `let (a, b) = tokio::join!(x, y)` binds: each operand's.
    pub(super) fn join_element_types(&self, init: &Expr) -> Option<Vec<ExprType>> {
        let mac = match strip(init) {
            Expr::Try(t) => match strip(&t.expr) {
                Expr::Macro(m) => m,
                _ => return None,
            },
            Expr::Macro(m) => m,
            _ => return None,
        };
        crate::model::sites::join_macro(&mac.mac.path)?;
        let operands = mac
            .mac
            .parse_body_with(syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated)
            .ok()?;
        Some(operands.iter().map(|e| self.expr_type(e)).collect())
    }

    /// The types a `let` gives its bindings: from the annotation, else from the initialiser
    /// (tuple patterns take the elements of what a call returns).
    pub(super) fn type_pattern(&mut self, pat: &Pat, ty: ExprType) {
        match pat {
            Pat::Type(t) => {
                let shape = type_shape(&t.ty, self.self_types.last().cloned().flatten().as_deref());
                let written = ExprType {
                    name: shape.name,
                    item: shape.item.map(|i| Box::new(ExprType::named(i))),
                    returned: None,
                };
                self.type_pattern(&t.pat, written);
            }
            Pat::Ident(i) if i.subpat.is_none() => {
                let generic =
                    |t: &Option<String>| t.as_ref().is_some_and(|t| self.generics.contains(t));
                let ty = ExprType {
                    name: ty.name.clone().filter(|_| !generic(&ty.name)),
                    item: ty.item.clone().filter(|i| !generic(&i.name)),
                    returned: ty.returned,
                };
                if let Some(b) = self.lookup_mut(&i.ident.to_string()) {
                    if b.ty_of == ExprType::default() {
                        let (id, returned) = (b.id, ty.returned);
                        b.ty_of = ty;
                        if let Some(r) = returned.filter(|r| !r.item) {
                            self.facts.returned_values.push((id, r));
                        }
                    }
                }
            }
            Pat::Tuple(t) => {
                for (i, p) in t.elems.iter().enumerate() {
                    if matches!(p, Pat::Rest(_)) {
                        break;
                    }
                    self.type_pattern(p, ty.element(i));
                }
            }
            Pat::Paren(p) => self.type_pattern(&p.pat, ty),
            Pat::Reference(r) => self.type_pattern(&r.pat, ty),
            // `if let Some(dag) = &self.dag`: `Option` and `Result` are seen through.
            Pat::TupleStruct(t)
                if t.elems.len() == 1
                    && t.path
                        .segments
                        .last()
                        .is_some_and(|s| s.ident == "Some" || s.ident == "Ok") =>
            {
                self.type_pattern(&t.elems[0], ty);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(ty: &str) -> TypeShape {
        type_shape(&syn::parse_str(ty).unwrap(), Some("Manager"))
    }

    #[test]
    fn shapes_look_through_wrappers_and_name_tuples_and_items() {
        assert_eq!(
            shape("Result<Arc<Manager>>").name.as_deref(),
            Some("Manager")
        );
        assert_eq!(shape("Self").name.as_deref(), Some("Manager"));
        assert_eq!(
            shape("impl Future<Output = Option<Lease>>").name.as_deref(),
            Some("Lease")
        );
        let tuple = shape("(tokio::sync::watch::Receiver<bool>, JoinHandle<Result<Self>>)");
        assert_eq!(
            tuple.elements,
            [Some("Receiver".to_string()), Some("JoinHandle".to_string())]
        );
        let v = shape("Vec<LeaseManager>");
        assert_eq!(
            (v.name.as_deref(), v.item.as_deref()),
            (Some("Vec"), Some("LeaseManager"))
        );
        assert_eq!(shape("&[Pod]").item.as_deref(), Some("Pod"));
    }
}
