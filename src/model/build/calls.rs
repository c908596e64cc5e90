//! Calls that may be of the crate's own functions and methods (helpers, declared wrappers): recorded
//! with their arguments for `link` to resolve.

use syn::Expr;

use super::handles::kind_of_type;
use super::{ident_in, path_text, strip, Builder};
use crate::model::{sites, Argument, Callee, HelperCall, RawKind};

impl Builder<'_> {
    /// What a helper call is keyed by: everything its arguments are computed from.
    pub(super) fn call_keys<'e>(&self, exprs: impl IntoIterator<Item = &'e Expr>) -> Vec<u64> {
        exprs
            .into_iter()
            .flat_map(|e| self.deps_of_expr(e))
            .collect()
    }

    pub(super) fn argument(&self, expr: &Expr) -> Argument {
        let handle = match strip(expr) {
            e @ (Expr::Path(_) | Expr::Field(_)) => self.handle_source(e),
            Expr::MethodCall(m) if ident_in(&m.method, &["clone", "as_ref"]) => {
                self.handle_source(&m.receiver)
            }
            _ => None,
        };
        Argument {
            handle: handle.map(Box::new),
            name: self.name_of(expr),
            text: self
                .copied_text(expr)
                .unwrap_or_else(|| self.text(strip(expr))),
            precondition: self.precondition_of(expr),
            literal: super::conditions::literal_of(expr),
            listed_names: self.listed_names_of(expr).map(Box::new),
            kind: self.object_kind(expr),
        }
    }

    /// The kind of the object `expr` is, by its written type (see [`Argument::kind`]): not a
    /// type parameter of the enclosing function, a value known only by its traits, nor a
    /// dynamic object.
    fn object_kind(&self, expr: &Expr) -> Option<String> {
        let name = self.expr_type(expr).name?;
        let kind_like = name.chars().next().is_some_and(char::is_uppercase)
            && !name.contains(' ')
            && !matches!(name.as_str(), "Api" | "Client" | "String")
            && !self.generics.contains(&name)
            && !crate::model::identity::is_untyped_kind(&name);
        kind_like.then_some(name)
    }

    /// `helper(&pods, name)` / `module::helper(..)` / `Type::helper(..)`: maybe a function of
    /// the crate; `link` decides.
    pub(super) fn record_path_call(&mut self, call: &syn::ExprCall) {
        let Expr::Path(p) = strip(&call.func) else {
            return;
        };
        let mut segments = sites::segments(&p.path);
        if self.record_runtime_call(call, &segments) {
            return;
        }
        // `Self::helper(..)` in an `impl`: that type's function.
        if let ([first, _], Some(Some(ty))) = (segments.as_mut_slice(), self.self_types.last()) {
            if first == "Self" {
                *first = ty.clone();
            }
        }
        let is_wrapper = segments
            .last()
            .is_some_and(|l| self.wrapper_names.contains(l));
        if !is_wrapper && !could_be_crate_function(&segments) {
            return;
        }
        let type_args = p
            .path
            .segments
            .last()
            .map(|s| self.type_args(&s.arguments))
            .unwrap_or_default();
        let kind = RawKind::Helper(HelperCall {
            callee: Callee::Path(segments),
            text: path_text(&p.path),
            receiver: None,
            args: call.args.iter().map(|a| self.argument(a)).collect(),
            type_args,
        });
        let keyed_by = self.call_keys(&call.args);
        self.push_entry(self.span(call), kind, keyed_by);
    }

    /// `self.update_status(..)`, `ctx.helper(..)`: maybe a method of the crate.
    pub(super) fn record_method_call(&mut self, call: &syn::ExprMethodCall) {
        self.record_handler_routes(call);
        if self.record_controller_run(call) {
            return;
        }
        let name = call.method.to_string();
        if !self.wrapper_names.contains(&name) && !could_be_crate_method(&name, call.args.len()) {
            return;
        }
        let helper = self.helper_method_call(call);
        let keyed_by = self.call_keys(std::iter::once(&*call.receiver).chain(&call.args));
        self.push_entry(self.span(call), RawKind::Helper(helper), keyed_by);
    }

    /// A method call as a call of a method of the crate.
    pub(super) fn helper_method_call(&self, call: &syn::ExprMethodCall) -> HelperCall {
        let name = call.method.to_string();
        let receiver_type = self.expr_type(&call.receiver);
        let type_args = call
            .turbofish
            .as_ref()
            .map(|t| {
                t.args
                    .iter()
                    .map(|a| match a {
                        syn::GenericArgument::Type(ty) => kind_of_type(ty, &self.generics),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let receiver = self.argument(&call.receiver);
        HelperCall {
            text: format!("{}.{name}", receiver.text),
            callee: Callee::Method {
                name,
                receiver_from: receiver_type
                    .returned
                    .filter(|_| receiver_type.name.is_none()),
                self_type: receiver_type.name,
            },
            receiver: Some(receiver),
            args: call.args.iter().map(|a| self.argument(a)).collect(),
            type_args,
        }
    }

    pub(super) fn type_args(&self, args: &syn::PathArguments) -> Vec<Option<String>> {
        match args {
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .filter_map(|arg| match arg {
                    syn::GenericArgument::Type(t) => Some(kind_of_type(t, &self.generics)),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Names of paths that are never functions of the user's crate (std, common crates, kube's
/// own types): not recorded as helper calls.
fn could_be_crate_function(segments: &[String]) -> bool {
    #[rustfmt::skip]
    const EXTERNAL: &[&str] = &[
        "std", "core", "alloc", "tokio", "futures", "futures_util", "serde", "serde_json",
        "serde_yaml", "kube", "kube_runtime", "kube_client", "k8s_openapi", "anyhow", "thiserror",
        "tracing", "log", "chrono", "Some", "Ok", "Err", "Box", "Vec", "String", "Arc", "Rc",
        "Mutex", "RwLock", "Default", "HashMap", "HashSet", "BTreeMap", "BTreeSet", "Option",
        "Result", "Duration", "Instant", "PathBuf", "Path", "Api", "Client", "ListParams",
        "PatchParams", "PostParams", "DeleteParams", "Patch", "ObjectMeta", "Cow", "Pin", "drop",
        "Either",
    ];
    match segments.first() {
        Some(first) => !EXTERNAL.contains(&first.as_str()),
        None => false,
    }
}

/// Method names of std and common types: calls of these are not taken for crate methods.
fn could_be_crate_method(name: &str, args: usize) -> bool {
    // `Mutex::lock()`, `RwLock::read()`/`write()` take no argument and `io::Read::read(buf)`
    // one; a crate's `state.lock(&params, opts)` takes more.
    if matches!(name, "lock" | "read" | "write") && args >= 2 {
        return true;
    }
    #[rustfmt::skip]
    const COMMON: &[&str] = &[
        "clone", "to_string", "to_owned", "as_str", "as_ref", "as_mut", "into", "unwrap", "expect",
        "unwrap_or", "unwrap_or_default", "unwrap_or_else", "map", "map_err", "and_then",
        "or_else", "ok", "err", "ok_or", "ok_or_else", "iter", "iter_mut", "into_iter", "collect",
        "push", "push_str", "pop", "insert", "remove", "len", "is_empty", "contains",
        "contains_key", "lock", "send", "recv", "try_recv", "is_some", "is_none", "is_ok",
        "is_err", "as_deref", "borrow", "borrow_mut", "filter", "filter_map", "next", "extend",
        "to_vec", "cloned", "copied", "first", "last", "keys", "values", "or_insert", "or_default",
        "trim", "split", "starts_with", "ends_with", "parse", "name_any", "name_unchecked",
        "namespace", "labels", "annotations", "resource_version", "uid", "boxed", "fuse", "then",
        "for_each", "count", "any", "all", "find", "position", "chars", "bytes", "take",
        "to_lowercase", "to_uppercase", "eq", "ne", "cmp", "fmt", "as_bytes", "await", "join",
        "spawn", "abort", "flatten", "zip", "chain", "enumerate", "rev", "sort", "sort_by",
        "dedup", "retain", "drain", "truncate", "with_context", "context", "inspect", "instrument",
        "in_current_span", "min", "max", "sum", "get_or_insert_with", "entry", "set", "write",
        "read",
        // kube `Api` methods that are not requests.
        "constrain", "unconstrain", "constrain_default", "resource_url", "into_client",
    ];
    !COMMON.contains(&name)
}
