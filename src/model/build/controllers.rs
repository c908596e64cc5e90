//! What a controller's builder chain says about how it runs its reconciles.

use syn::{Expr, Pat};

use super::{path_text, strip, strip_pat, Builder};
use crate::model::{sites, Argument, Callee, Concurrency, ControllerRun, HelperCall, RawKind};

/// How many reconciles the controller `run` is called on runs at once, from its builder chain
/// (`Controller::new(..).with_config(Config::default().concurrency(1)).run(..)`).
#[cfg(test)]
fn concurrency(receiver: &Expr) -> Concurrency {
    chain_concurrency(receiver).0.unwrap_or(Concurrency::Many)
}

/// The limit a builder chain sets (None when it sets none), and the expression the chain
/// starts from (`Controller::new(..)`, or a local holding a builder).
fn chain_concurrency(receiver: &Expr) -> (Option<Concurrency>, &Expr) {
    let mut expr = strip(receiver);
    // The chain is short; the bound keeps a pathological one linear.
    for _ in 0..64 {
        let Expr::MethodCall(m) = expr else {
            return (None, expr);
        };
        match m.method.to_string().as_str() {
            "with_config" => {
                let set = m.args.first().map_or(Concurrency::NotVisible, config);
                return (Some(set), expr);
            }
            "concurrency" => return (Some(limit(m)), expr),
            _ => expr = strip(&m.receiver),
        }
    }
    (Some(Concurrency::NotVisible), expr)
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
        if call.method != "run" || call.args.len() != 3 || !self.is_controller(&call.receiver) {
            return false;
        }
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
        let concurrency = self.run_concurrency(&call.receiver);
        let selects = self.watcher_selects(chain_concurrency(&call.receiver).1);
        self.push_entry(span, RawKind::Helper(helper), Vec::new());
        if let Some(entry) = self.facts.requests.last_mut() {
            entry.controller = Some(Box::new(ControllerRun {
                span,
                line: entry.line,
                reconcile: text,
                concurrency,
                selects,
            }));
        }
        true
    }

    /// A kube-runtime `Controller`, or a builder call on one (`.owns(..)`, `.shutdown_on_signal()`),
    /// also on a local bound to a builder chain.
    fn is_controller(&self, expr: &Expr) -> bool {
        match strip(expr) {
            Expr::MethodCall(m) => self.is_controller(&m.receiver),
            e => {
                is_controller_chain(e)
                    || self.expr_type(e).name.as_deref() == Some("Controller")
                    || self.controller_binding(e).is_some()
            }
        }
    }

    /// How many reconciles a `run` on `receiver` runs at once: the limit its chain sets, else
    /// the one set where the local it starts from was bound (`let b = Controller::new(..)
    /// .with_config(..); b.run(..)`), else no limit.
    fn run_concurrency(&self, receiver: &Expr) -> Concurrency {
        let (set, root) = chain_concurrency(receiver);
        set.or_else(|| self.controller_binding(root).flatten())
            .unwrap_or(Concurrency::Many)
    }

    /// The limit recorded for a local bound to a controller's builder chain.
    fn controller_binding(&self, expr: &Expr) -> Option<Option<Concurrency>> {
        let Expr::Path(p) = strip(expr) else {
            return None;
        };
        let binding = self.lookup(&p.path.get_ident()?.to_string())?;
        self.controller_bindings.get(&binding.id).copied()
    }

    /// Whether the chain root `Controller::new(api, wc)` (builder calls on it allowed) watches a
    /// visible subset of its kind: `api` namespaced, or `wc` with a label or field selector.
    fn watcher_selects(&self, root: &Expr) -> bool {
        let mut expr = strip(root);
        for _ in 0..64 {
            match expr {
                Expr::MethodCall(m) => expr = strip(&m.receiver),
                Expr::Call(c) if c.args.len() == 2 => {
                    let api = called_function_name(&c.args[0]);
                    let namespaced = api.as_deref().is_some_and(|f| f.ends_with("namespaced"));
                    return namespaced || self.has_selector(&c.args[1]);
                }
                _ => return false,
            }
        }
        false
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

    /// `let builder = Controller::new(..)..;`: remember the local as a controller's builder;
    /// `let wc = watcher::Config::default().labels(..);`: as a selecting watcher config.
    pub(super) fn note_controller_binding(&mut self, local: &syn::Local) {
        let (Pat::Ident(p), Some(init)) = (strip_pat(&local.pat), &local.init) else {
            return;
        };
        if p.subpat.is_none() && self.has_selector(&init.expr) {
            if let Some(b) = self.lookup(&p.ident.to_string()) {
                let id = b.id;
                self.selector_bindings.insert(id);
            }
        }
        if p.subpat.is_some() || !self.is_controller(&init.expr) {
            return;
        }
        let (set, root) = chain_concurrency(&init.expr);
        let set = set.or_else(|| self.controller_binding(root).flatten());
        if let Some(b) = self.lookup(&p.ident.to_string()) {
            let id = b.id;
            self.controller_bindings.insert(id, set);
        }
    }
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

    fn of(src: &str) -> Concurrency {
        concurrency(&syn::parse_str::<Expr>(src).unwrap())
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
