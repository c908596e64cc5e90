//! What a controller's builder chain says about how it runs its reconciles.

use syn::punctuated::Punctuated;
use syn::{Expr, Pat, Token};

use super::node_span::NodeSpan;
use super::{path_text, strip, strip_pat, Builder};
use crate::model::{
    sites, Argument, Callee, Concurrency, ControllerRun, HandedTo, HelperCall, PassedController,
    RawKind,
};

/// What a controller is made of, read from the expression `run` is called on: where it starts
/// (a builder chain, a local bound to one, a value typed `Controller`), the limits builder
/// calls set on it, and the functions it was handed to on the way (see [`HandedTo`]).
#[derive(Clone, Debug, Default)]
pub(super) struct ControllerChain {
    /// The limit set before the first function it was handed to (None: none set).
    set: Option<Concurrency>,
    through: Vec<HandedTo>,
    /// Its watcher visibly selects some objects (see [`ControllerRun::selects`]).
    selects: bool,
    /// The local or parameter it starts from, when it starts from one typed `Controller`.
    from: Option<u64>,
}

impl ControllerChain {
    /// A builder call on the controller sets `limit`: the last one set wins.
    fn set(&mut self, limit: Concurrency) {
        match self.through.last_mut() {
            Some(last) => last.set_after = Some(limit),
            None => self.set = Some(limit),
        }
    }

    /// The limit, taking every function it was handed to to pass it on (kube's default, no
    /// limit, when none is set).
    fn limit(&self) -> Concurrency {
        self.through
            .iter()
            .rev()
            .find_map(|t| t.set_after)
            .or(self.set)
            .unwrap_or(Concurrency::Many)
    }
}

/// A `Config` as written: `Config::default().concurrency(n)` (any builder calls around it).
fn config(expr: &Expr) -> Concurrency {
    let mut expr = strip(expr);
    for _ in 0..64 {
        match expr {
            Expr::MethodCall(m) if m.method == "concurrency" => return limit(m),
            Expr::MethodCall(m) => expr = strip(&m.receiver),
            // `Config::default()`: no limit.
            Expr::Call(c) if is_config_default(&c.func) => return Concurrency::Many,
            _ => return Concurrency::NotVisible,
        }
    }
    Concurrency::NotVisible
}

/// `.concurrency(n)` with a literal `n`: 1 is one at a time, anything else several (0 is kube's
/// "no limit").
fn limit(call: &syn::ExprMethodCall) -> Concurrency {
    match call.args.first().map(strip) {
        Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        })) => match n.base10_parse::<u64>() {
            Ok(1) => Concurrency::One,
            Ok(_) => Concurrency::Many,
            Err(_) => Concurrency::NotVisible,
        },
        _ => Concurrency::NotVisible,
    }
}

/// `Config::default`, `controller::Config::default`, `Default::default`.
fn is_config_default(func: &Expr) -> bool {
    let Expr::Path(p) = strip(func) else {
        return false;
    };
    let segments: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(segments.as_slice(), [.., ty, f] if f == "default" && (ty == "Config" || ty == "Default"))
}

impl Builder<'_> {
    /// `Controller::new(docs, cfg).owns(..).run(reconcile, error_policy, ctx)`: a call of the
    /// reconcile, for every object the controller watches (see [`ControllerRun`]). The object
    /// it is handed is filled in by `link`, from the reconcile's signature.
    pub(super) fn record_controller_run(&mut self, call: &syn::ExprMethodCall) -> bool {
        if call.method != "run" || call.args.len() != 3 {
            return false;
        }
        let Some(chain) = self.controller_chain(&call.receiver, 0) else {
            return false;
        };
        // The reconcile by path, or the function a closure hands the object to.
        let (reconcile, rest) = match strip(&call.args[0]) {
            Expr::Path(reconcile) => (reconcile.path.clone(), vec![self.argument(&call.args[2])]),
            Expr::Closure(c) => match self.closure_reconcile(c, &call.args[2]) {
                Some(found) => found,
                None => return false,
            },
            _ => return false,
        };
        let object = Argument::unknown();
        let text = path_text(&reconcile);
        // `reconcile::<Deployment>`: a generic reconcile, for that kind.
        let type_args = reconcile
            .segments
            .last()
            .map(|s| self.type_args(&s.arguments))
            .unwrap_or_default();
        // `Self::reconcile` in an `impl`: that type's function.
        let mut segments = sites::segments(&reconcile);
        if let ([first, _], Some(Some(ty))) = (segments.as_mut_slice(), self.self_types.last()) {
            if first == "Self" {
                *first = ty.clone();
            }
        }
        let helper = HelperCall {
            callee: Callee::Path(segments),
            text: text.clone(),
            receiver: None,
            args: std::iter::once(object).chain(rest).collect(),
            type_args,
        };
        let span = self.span(call);
        // Handed to functions first: the limit handed to the first of them (linking follows
        // them, see `ControllerRun::through`).
        let concurrency = match chain.through.is_empty() {
            true => chain.limit(),
            false => chain.set.unwrap_or(Concurrency::Many),
        };
        self.push_entry(span, RawKind::Helper(helper), Vec::new());
        if let Some(entry) = self.facts.requests.last_mut() {
            entry.controller = Some(Box::new(ControllerRun {
                span,
                line: entry.line,
                reconcile: text,
                concurrency,
                selects: chain.selects,
                through: chain.through,
            }));
        }
        true
    }

    /// A kube-runtime `Controller`, read from an expression (None when it is not one):
    /// `Controller::new(..)` (or `for_stream`, …), builder calls on one (`.owns(..)`,
    /// `.shutdown_on_signal()`, `.with_config(..)`), a local bound to one, a value typed
    /// `Controller`, or a call it is handed to (`setup_watches(Controller::new(..), client)`,
    /// followed by `link`). Not the stream its `run` gives.
    pub(super) fn controller_chain(&self, expr: &Expr, depth: usize) -> Option<ControllerChain> {
        // The chain is short; the bound keeps a pathological one linear.
        if depth > 64 {
            return None;
        }
        match strip(expr) {
            Expr::MethodCall(m) if m.method == "run" && m.args.len() == 3 => None,
            Expr::MethodCall(m) => match self.controller_chain(&m.receiver, depth + 1) {
                Some(mut chain) => {
                    if m.method == "with_config" {
                        chain.set(m.args.first().map_or(Concurrency::NotVisible, config));
                    } else if m.method == "concurrency" {
                        chain.set(limit(m));
                    }
                    Some(chain)
                }
                None => self.handed_to(m, &m.args, depth),
            },
            e @ Expr::Call(c) if is_controller_chain(e) => Some(ControllerChain {
                selects: self.watcher_selects(c),
                ..ControllerChain::default()
            }),
            Expr::Call(c) => self.handed_to(c, &c.args, depth),
            e => {
                let binding = self.path_binding(e);
                if let Some(chain) = binding.and_then(|b| self.controller_bindings.get(&b)) {
                    return Some(chain.clone());
                }
                (self.expr_type(e).name.as_deref() == Some("Controller")).then(|| ControllerChain {
                    from: binding,
                    ..ControllerChain::default()
                })
            }
        }
    }

    /// A call one of whose arguments is a controller: a function that may pass it on, which
    /// `link` decides.
    fn handed_to(
        &self,
        call: &impl NodeSpan,
        args: &Punctuated<Expr, Token![,]>,
        depth: usize,
    ) -> Option<ControllerChain> {
        let (arg, mut chain) = args
            .iter()
            .enumerate()
            .find_map(|(arg, a)| Some((arg, self.controller_chain(a, depth + 1)?)))?;
        chain.through.push(HandedTo {
            call: self.span(call),
            arg,
            set_after: None,
        });
        Some(chain)
    }

    /// Whether the chain root `Controller::new(api, wc)` watches a visible subset of its kind:
    /// `api` namespaced, or `wc` with a label or field selector.
    fn watcher_selects(&self, root: &syn::ExprCall) -> bool {
        if root.args.len() != 2 {
            return false;
        }
        let api = called_function_name(&root.args[0]);
        let namespaced = api.as_deref().is_some_and(|f| f.ends_with("namespaced"));
        namespaced || self.has_selector(&root.args[1])
    }

    /// `watcher::Config::default().labels("app=x")`, `.fields(..)`, or a local bound to one: a
    /// selector in a config chain.
    fn has_selector(&self, expr: &Expr) -> bool {
        let mut expr = strip(expr);
        for _ in 0..64 {
            match expr {
                Expr::MethodCall(m) if m.method == "labels" || m.method == "fields" => return true,
                Expr::MethodCall(m) => expr = strip(&m.receiver),
                e @ Expr::Path(_) => {
                    let binding = self.path_binding(e);
                    return binding.is_some_and(|b| self.selector_bindings.contains(&b));
                }
                _ => return false,
            }
        }
        false
    }

    /// `let builder = Controller::new(..)..;`: remember the local as a controller (`chain`, read
    /// from the initialiser before the local was bound); `let wc =
    /// watcher::Config::default().labels(..);`: as a selecting watcher config.
    pub(super) fn note_controller_binding(
        &mut self,
        local: &syn::Local,
        chain: Option<ControllerChain>,
    ) {
        let (Pat::Ident(p), Some(init)) = (strip_pat(&local.pat), &local.init) else {
            return;
        };
        if p.subpat.is_none() && self.has_selector(&init.expr) {
            if let Some(b) = self.lookup(&p.ident.to_string()) {
                let id = b.id;
                self.selector_bindings.insert(id);
            }
        }
        let Some(mut chain) = chain.filter(|_| p.subpat.is_none()) else {
            return;
        };
        // A `run` on the local does not see the watcher the chain was built with.
        chain.selects = false;
        if let Some(b) = self.lookup(&p.ident.to_string()) {
            let id = b.id;
            self.controller_bindings.insert(id, chain);
        }
    }

    /// For a function that takes a `Controller` and returns one (see
    /// [`FunctionFacts::passes_controller`]), what its tail does to the limit of the controller
    /// handed in: it is returned through builder calls, or something else is.
    ///
    /// [`FunctionFacts::passes_controller`]: crate::model::FunctionFacts::passes_controller
    pub(super) fn note_passed_controller(&mut self, function: usize, tail: Option<&Expr>) {
        let Some(passed) = self.facts.functions[function].passes_controller else {
            return;
        };
        let param = self.facts.functions[function]
            .params
            .get(passed.param)
            .copied()
            .flatten();
        let chain = tail.and_then(|t| self.controller_chain(t, 0));
        let sets = match chain {
            Some(c) if c.from.is_some() && c.from == param && c.through.is_empty() => c.set,
            _ => Some(Concurrency::NotVisible),
        };
        if let Some(p) = &mut self.facts.functions[function].passes_controller {
            p.sets = sets;
        }
    }
}

/// For a function's signature, the typed parameter of type `Controller<K>` when it returns
/// `Controller<K>`, the same type as written (`Controller<Self>`, a type parameter).
pub(super) fn passed_controller(sig: &syn::Signature) -> Option<PassedController> {
    let syn::ReturnType::Type(_, returned) = &sig.output else {
        return None;
    };
    let returned = controller_args(returned)?;
    let param = sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Typed(p) => Some(p),
            syn::FnArg::Receiver(_) => None,
        })
        .position(|p| controller_args(&p.ty).as_ref() == Some(&returned))?;
    Some(PassedController {
        param,
        // Until its tail is read.
        sets: Some(Concurrency::NotVisible),
    })
}

/// The type arguments of `Controller<..>` (any path to it), as written without spaces.
fn controller_args(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let last = p.path.segments.last()?;
    if last.ident != "Controller" {
        return None;
    }
    let args = &last.arguments;
    Some(
        quote::quote!(#args)
            .to_string()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect(),
    )
}

/// The last segment of the function a call expression calls (`Api::namespaced` → "namespaced").
fn called_function_name(expr: &Expr) -> Option<String> {
    let Expr::Call(c) = strip(expr) else {
        return None;
    };
    let Expr::Path(p) = strip(&c.func) else {
        return None;
    };
    p.path.segments.last().map(|s| s.ident.to_string())
}

/// `Controller::new(..)` (or `for_stream`, …) and builder calls on it, as written.
pub(super) fn is_controller_chain(expr: &Expr) -> bool {
    match strip(expr) {
        Expr::MethodCall(m) => is_controller_chain(&m.receiver),
        Expr::Call(c) => matches!(strip(&c.func), Expr::Path(p)
            if p.path.segments.iter().any(|s| s.ident == "Controller")),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit of the controller `src` is, as built: `run` on it.
    fn of(src: &str) -> Concurrency {
        let text = format!("fn f() {{ {src}.run(reconcile, error_policy, ctx); }}");
        let source = crate::source::SourceFile::new(0, "lib.rs".into(), text.clone());
        let facts = crate::model::build::build(&source, &syn::parse_file(&text).unwrap());
        let run = facts.requests.iter().find_map(|r| r.controller.as_deref());
        run.expect("a controller's run").concurrency
    }

    #[test]
    fn reads_the_limit_in_the_chain() {
        assert_eq!(
            of("Controller::new(api, wc).owns(x, wc)"),
            Concurrency::Many
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default().concurrency(1))"),
            Concurrency::One
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(controller::Config::default().debounce(d).concurrency(1)).shutdown_on_signal()"),
            Concurrency::One
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default().concurrency(4))"),
            Concurrency::Many
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default())"),
            Concurrency::Many
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(config)"),
            Concurrency::NotVisible
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default().concurrency(n))"),
            Concurrency::NotVisible
        );
    }
}
