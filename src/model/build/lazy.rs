//! Helpers that return a request future without being `async fn` (`fn f(..) -> impl Future`,
//! `BoxFuture`, `Pin<Box<dyn Future>>`) are as lazy as an `async fn`: nothing is sent until the
//! future is polled. A call of a crate function dropped unpolled (`let _ = f(..);`, `f(..);`) is
//! recorded here; `link` keeps it when the callee is such a function or an `async fn`.

use syn::{Expr, Type};

use super::{strip, Builder, Value};
use crate::model::{FutureExpr, RawKind, Unpolled, UnpolledFuture};
use crate::source::Span;

impl Builder<'_> {
    /// `let _ = helper(..);` or `helper(..);`: the call of a crate function, dropped at once.
    /// Kept by `link` only if the callee returns a lazy future (see
    /// [`UnpolledFuture::lazy_callee`]).
    pub(super) fn helper_call_dropped(
        &mut self,
        value: &Value,
        init: &Expr,
        stmt: Span,
        how: Unpolled,
    ) {
        let Value::Call { entry, .. } = value else {
            return;
        };
        let expr = strip(init);
        if !matches!(expr, Expr::Call(_) | Expr::MethodCall(_)) {
            return;
        }
        let span = self.span(expr);
        let raw = &self.facts.requests[*entry];
        // The value is the call itself, not something made from its result.
        if raw.span != span || !matches!(raw.kind, RawKind::Helper(_)) {
            return;
        }
        let expr = FutureExpr {
            span,
            needs_parens: false,
        };
        self.facts.unpolled.push(UnpolledFuture {
            span,
            stmt,
            requests: vec![*entry],
            how,
            expr,
            typed: false,
            in_async: self.is_async_body(self.body),
            lazy_callee: true,
            async_block: false,
        });
    }

    /// A function declared to return a future (see [`returns_future`]) whose body is a lazy
    /// future as its tail (an `async` block, `Box::pin(async ..)`, `fut.boxed()`) with every
    /// request it makes inside: calling it sends nothing.
    pub(super) fn note_lazy_tail(&mut self, function: usize, block: &syn::Block) {
        if !self.facts.functions[function].lazy_future {
            return;
        }
        let lazy = match block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) if self.is_lazy_future(tail) => {
                let tail = self.span(tail);
                self.facts
                    .requests
                    .iter()
                    .filter(|r| r.function == Some(function))
                    .all(|r| tail.start <= r.span.start && r.span.end <= tail.end)
            }
            _ => false,
        };
        self.facts.functions[function].lazy_future = lazy;
    }

    fn is_lazy_future(&self, expr: &Expr) -> bool {
        match strip(expr) {
            Expr::Async(_) => true,
            Expr::Call(c) if c.args.len() == 1 => match strip(&c.func) {
                Expr::Path(p)
                    if matches!(
                        crate::model::sites::segments(&p.path).as_slice(),
                        [b, pin] if b == "Box" && pin == "pin"
                    ) =>
                {
                    self.is_lazy_future(&c.args[0])
                }
                _ => false,
            },
            Expr::MethodCall(m)
                if m.args.is_empty() && (m.method == "boxed" || m.method == "boxed_local") =>
            {
                // An `async` block, or a request future of `Api` (sent when polled).
                self.is_lazy_future(&m.receiver)
                    || self
                        .request_at(self.span(&m.receiver), 0)
                        .is_some_and(|i| matches!(self.facts.requests[i].kind, RawKind::Api(_)))
            }
            _ => false,
        }
    }
}

/// `impl Future<..>`, `BoxFuture<..>`, `LocalBoxFuture<..>`, `Pin<Box<dyn Future<..>>>`.
pub(super) fn returns_future(output: &syn::ReturnType) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    future_type(ty)
}

fn future_type(ty: &Type) -> bool {
    let has_future_bound = |bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, _>| {
        bounds.iter().any(|b| match b {
            syn::TypeParamBound::Trait(t) => {
                t.path.segments.last().is_some_and(|s| s.ident == "Future")
            }
            _ => false,
        })
    };
    match ty {
        Type::ImplTrait(i) => has_future_bound(&i.bounds),
        Type::TraitObject(o) => has_future_bound(&o.bounds),
        Type::Paren(p) => future_type(&p.elem),
        Type::Path(p) => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            match last.ident.to_string().as_str() {
                "BoxFuture" | "LocalBoxFuture" => true,
                "Pin" | "Box" => match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .any(|arg| matches!(arg, syn::GenericArgument::Type(t) if future_type(t))),
                    _ => false,
                },
                _ => false,
            }
        }
        _ => false,
    }
}
