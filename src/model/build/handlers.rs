//! Web handlers registered with an HTTP server (axum, actix-web): the server runs each once per
//! HTTP request, concurrently (see [`HandlerRoute`]). Recognised by paths resolved through the
//! file's `use` items, never by bare names: `post(h)` is axum's only when `post` is imported from
//! `axum::routing` (or written `axum::routing::post`), and `.route(..)` only on a chain that
//! starts at axum's `Router::new()` or actix-web's `App::new()`.

use syn::{Expr, Pat};

use super::{path_text, strip, strip_pat, Builder};
use crate::model::{sites, Callee, HandlerRoute, HelperCall, RawKind, RawRequest};

/// axum's method-routing functions (`axum::routing::post`) and the `MethodRouter` methods of
/// the same names (`get(a).post(b)`).
const AXUM_METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "trace", "any",
];

/// actix-web's route constructors in `actix_web::web` (`web::post()`), and `web::resource`.
const ACTIX_ROUTES: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "route", "method", "resource",
];

/// The axum and actix-web methods a route registration goes through, on the server's chain.
const REGISTRATIONS: &[&str] = &["route", "service", "default_service"];

impl Builder<'_> {
    /// The `use` items of the file (and of its inline modules), read before any body is walked:
    /// a `use` may come after the function that relies on it. A `use` inside a function is not
    /// read: it would stand for its name in the functions after it too.
    pub(super) fn note_uses(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Use(u) => self.note_use_item(u),
                syn::Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        self.note_uses(items);
                    }
                }
                _ => {}
            }
        }
    }

    /// `use axum::{routing::post, Router};`: each imported name with the path it stands for;
    /// `use axum::routing::*;` as a glob.
    fn note_use_item(&mut self, item: &syn::ItemUse) {
        let mut prefix = Vec::new();
        self.note_use_tree(&item.tree, &mut prefix);
    }

    fn note_use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.note_use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                let name = n.ident.to_string();
                if name != "self" {
                    full.push(name.clone());
                    self.imports.insert(name, full);
                } else if let Some(last) = prefix.last() {
                    self.imports.insert(last.clone(), full);
                }
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                full.push(r.ident.to_string());
                self.imports.insert(r.rename.to_string(), full);
            }
            syn::UseTree::Glob(_) => self.glob_imports.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.note_use_tree(t, prefix);
                }
            }
        }
    }

    /// Whether `path` stands for the item `full` (`["axum", "routing", "post"]`): written in
    /// full, or through an import of its first segment, or a glob import of its parent.
    fn resolves_to(&self, path: &syn::Path, full: &[&str]) -> bool {
        let segments = sites::segments(path);
        let Some(first) = segments.first() else {
            return false;
        };
        let same = |resolved: &[String]| {
            resolved.len() == full.len() && resolved.iter().zip(full).all(|(a, b)| a == b)
        };
        if same(&segments) && self.lookup(first).is_none() {
            return true;
        }
        if let Some(import) = self.imports.get(first) {
            let resolved: Vec<String> = import.iter().chain(&segments[1..]).cloned().collect();
            return same(&resolved);
        }
        // A glob brings in names not otherwise imported (nor local).
        segments.len() == 1
            && self.lookup(first).is_none()
            && self.glob_imports.iter().any(|g| {
                let resolved: Vec<String> = g.iter().chain(&segments).cloned().collect();
                same(&resolved)
            })
    }

    /// Whether `expr` is the call `full(..)` (a path resolved as in [`Builder::resolves_to`]).
    fn calls(&self, expr: &Expr, full: &[&str]) -> bool {
        matches!(strip(expr), Expr::Call(c) if matches!(strip(&c.func), Expr::Path(p) if self.resolves_to(&p.path, full)))
    }

    /// The framework whose server chain `expr` is: builder calls down to axum's
    /// `Router::new()` or actix-web's `App::new()` (or a `web::scope(..)` of actix-web).
    fn server_chain(&self, expr: &Expr) -> Option<&'static str> {
        let mut expr = strip(expr);
        // Chains are short; the bound keeps a pathological one linear.
        for _ in 0..256 {
            match expr {
                Expr::MethodCall(m) => expr = strip(&m.receiver),
                e if self.calls(e, &["axum", "Router", "new"]) => return Some("axum"),
                e if self.calls(e, &["actix_web", "App", "new"])
                    || self.calls(e, &["actix_web", "web", "scope"]) =>
                {
                    return Some("actix-web")
                }
                _ => return None,
            }
        }
        None
    }

    /// `.route(path, post(h))` on axum's `Router`, `.route(path, web::post().to(h))` and
    /// `.service(..)` on actix-web's `App`: record each handler registered (see
    /// [`HandlerRoute`]). The call is visited as usual afterwards.
    pub(super) fn record_handler_routes(&mut self, call: &syn::ExprMethodCall) {
        if !super::ident_in(&call.method, REGISTRATIONS) {
            return;
        }
        let Some(framework) = self.server_chain(&call.receiver) else {
            return;
        };
        let path = match call.args.first().map(strip) {
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) if call.args.len() == 2 => s.value(),
            _ => String::new(),
        };
        let mut found = Vec::new();
        match framework {
            "axum" if call.method == "route" && call.args.len() == 2 => {
                self.axum_handlers(&call.args[1], &mut found);
            }
            "actix-web" => {
                for arg in &call.args {
                    self.actix_handlers(arg, call.method == "service", &mut found);
                }
            }
            _ => {}
        }
        for (method, handler) in found {
            self.push_handler_route(framework, method, path.clone(), handler);
        }
    }

    /// The handlers of an axum `MethodRouter`: `post(h)`, `get(a).post(b)`, `post(h).layer(..)`;
    /// none unless the chain starts at one of `axum::routing`'s functions.
    fn axum_handlers<'e>(&self, expr: &'e Expr, out: &mut Vec<(String, &'e syn::ExprPath)>) {
        let mut found = Vec::new();
        let mut expr = strip(expr);
        for _ in 0..256 {
            match expr {
                Expr::MethodCall(m) => {
                    if super::ident_in(&m.method, AXUM_METHODS) && m.args.len() == 1 {
                        if let Expr::Path(h) = strip(&m.args[0]) {
                            found.push((m.method.to_string(), h));
                        }
                    }
                    expr = strip(&m.receiver);
                }
                Expr::Call(c) if c.args.len() == 1 => {
                    let Expr::Path(f) = strip(&c.func) else {
                        return;
                    };
                    let Some(method) = AXUM_METHODS.iter().find(|m| {
                        self.resolves_to(&f.path, &["axum", "routing", m])
                            || self.resolves_to(&f.path, &["axum", "routing", "method_routing", m])
                    }) else {
                        return;
                    };
                    if let Expr::Path(h) = strip(&c.args[0]) {
                        found.push((method.to_string(), h));
                    }
                    out.extend(found.into_iter().map(|(m, h)| (http_method(&m), h)));
                    return;
                }
                _ => return,
            }
        }
    }

    /// The handlers in an argument of actix-web's `App::route`/`service`: `web::post().to(h)`,
    /// `web::resource(p).route(..).to(h)`, `web::scope(p).service(..)`, and `h` itself given to
    /// `service` (an attribute handler, `#[post("/x")] async fn h`).
    fn actix_handlers<'e>(
        &self,
        expr: &'e Expr,
        of_service: bool,
        out: &mut Vec<(String, &'e syn::ExprPath)>,
    ) {
        match strip(expr) {
            // A local is a value (a `Resource` built before), not a handler.
            Expr::Path(p) if of_service && p.qself.is_none() => {
                let local = p
                    .path
                    .get_ident()
                    .is_some_and(|i| self.lookup(&i.to_string()).is_some());
                if !local {
                    out.push(("*".to_string(), p));
                }
            }
            Expr::MethodCall(m) => {
                if m.method == "to" && m.args.len() == 1 {
                    if let (Some(method), Expr::Path(h)) =
                        (self.actix_route_method(&m.receiver), strip(&m.args[0]))
                    {
                        out.push((method, h));
                    }
                }
                let nested_service = m.method == "service";
                for arg in &m.args {
                    self.actix_handlers(arg, nested_service, out);
                }
                self.actix_handlers(&m.receiver, false, out);
            }
            _ => {}
        }
    }

    /// The HTTP method of an actix-web route chain (`web::post()`, `web::resource(p)`,
    /// `web::route().guard(..)`): `*` unless it starts at a method's constructor.
    fn actix_route_method(&self, expr: &Expr) -> Option<String> {
        let mut expr = strip(expr);
        for _ in 0..256 {
            match expr {
                Expr::MethodCall(m) => expr = strip(&m.receiver),
                Expr::Call(c) => {
                    let Expr::Path(f) = strip(&c.func) else {
                        return None;
                    };
                    let route = ACTIX_ROUTES
                        .iter()
                        .find(|r| self.resolves_to(&f.path, &["actix_web", "web", r]))?;
                    return Some(match *route {
                        "route" | "method" | "resource" => "*".to_string(),
                        m => http_method(m),
                    });
                }
                _ => return None,
            }
        }
        None
    }

    fn push_handler_route(
        &mut self,
        framework: &'static str,
        method: String,
        path: String,
        handler: &syn::ExprPath,
    ) {
        let span = self.span(handler);
        let handler = &handler.path;
        let text = path_text(handler);
        let type_args = handler
            .segments
            .last()
            .map(|s| self.type_args(&s.arguments))
            .unwrap_or_default();
        let call = HelperCall {
            callee: Callee::Path(sites::segments(handler)),
            text: text.clone(),
            receiver: None,
            args: Vec::new(),
            type_args,
        };
        let raw = RawRequest {
            span,
            line: self.source.line_col(span.start).0,
            function: self.functions.last().copied(),
            kind: RawKind::Helper(call),
            keyed_by: Vec::new(),
            body: self.body,
            branches: self.branches.clone(),
            loops: self.loops.clone(),
            in_channel_loop: false,
            cfg: self.cfg.clone(),
            controller: None,
        };
        self.facts.handlers.push(HandlerRoute {
            raw,
            framework,
            method,
            path,
            handler: text,
        });
    }

    /// The binding a handler's parameter pattern gives a name to: `event` of `event:
    /// Json<E>` or of `Json(event): Json<E>` (any one-field tuple struct).
    pub(super) fn extracted_binding(&self, pat: &Pat) -> Option<(u64, String)> {
        let ident = match strip_pat(pat) {
            Pat::Ident(i) if i.subpat.is_none() => &i.ident,
            Pat::TupleStruct(t) if t.elems.len() == 1 => match strip_pat(&t.elems[0]) {
                Pat::Ident(i) if i.subpat.is_none() => &i.ident,
                _ => return None,
            },
            _ => return None,
        };
        let name = ident.to_string();
        self.lookup(&name).map(|b| (b.id, name))
    }
}

/// "post" → "POST"; axum's `any` → "*".
fn http_method(method: &str) -> String {
    match method {
        "any" => "*".to_string(),
        m => m.to_ascii_uppercase(),
    }
}

/// A parameter's type as written, without spaces (`Json<PrEvent>`).
pub(super) fn type_text(ty: &syn::Type) -> String {
    quote::quote!(#ty)
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}
