//! `select!` (tokio's and futures'): the arm futures are polled together until one finishes; the
//! handler of that arm runs afterwards, and the other futures are dropped.
//!
//! ```text
//! select! { biased; pattern = future, if precondition => handler, ..., else => handler }
//! ```

use super::ident_in;
use syn::parse::{Parse, ParseStream};
use syn::visit::Visit;
use syn::{Expr, Pat, Token};

use super::{path_text, Builder, Value};
use crate::model::{SelectArm, SiteKind};
use crate::source::Span;

struct SelectBody {
    biased: bool,
    arms: Vec<ArmSyntax>,
}

struct ArmSyntax {
    /// None for `else`, `default` and `complete`.
    pattern: Option<Pat>,
    /// `default => ..`.
    is_default: bool,
    future: Option<Expr>,
    precondition: Option<Expr>,
    handler: Expr,
}

impl Parse for SelectBody {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut biased = false;
        if input.peek(syn::Ident) && input.peek2(Token![;]) {
            let kw: syn::Ident = input.parse()?;
            if kw != "biased" {
                return Err(syn::Error::new(kw.span(), "expected `biased`"));
            }
            input.parse::<Token![;]>()?;
            biased = true;
        }
        let mut arms = Vec::new();
        while !input.is_empty() {
            let fallback = input.peek(Token![else])
                || (input.peek(syn::Ident) && input.peek2(Token![=>]) && {
                    let fork = input.fork();
                    let kw: syn::Ident = fork.parse()?;
                    kw == "default" || kw == "complete"
                });
            let mut is_default = false;
            let (pattern, future, precondition) = if fallback {
                if input.peek(Token![else]) {
                    input.parse::<Token![else]>()?;
                } else {
                    is_default = input.parse::<syn::Ident>()? == "default";
                }
                (None, None, None)
            } else {
                let pattern = Pat::parse_multi_with_leading_vert(input)?;
                input.parse::<Token![=]>()?;
                let future: Expr = input.parse()?;
                let precondition = if input.peek(Token![,]) && input.peek2(Token![if]) {
                    input.parse::<Token![,]>()?;
                    input.parse::<Token![if]>()?;
                    Some(input.parse::<Expr>()?)
                } else {
                    None
                };
                (Some(pattern), Some(future), precondition)
            };
            input.parse::<Token![=>]>()?;
            let handler = if input.peek(syn::token::Brace) {
                let block: syn::Block = input.parse()?;
                Expr::Block(syn::ExprBlock {
                    attrs: Vec::new(),
                    label: None,
                    block,
                })
            } else {
                input.parse::<Expr>()?
            };
            // A comma ends every arm but the last, optional after a block.
            let needs_comma = !input.is_empty() && !matches!(handler, Expr::Block(_));
            if needs_comma || input.peek(Token![,]) {
                input.parse::<Token![,]>()?;
            }
            arms.push(ArmSyntax {
                pattern,
                is_default,
                future,
                precondition,
                handler,
            });
        }
        Ok(SelectBody { biased, arms })
    }
}

impl Builder<'_> {
    /// Record a `select!` site; false when the body does not parse as one.
    pub(super) fn visit_select(&mut self, mac: &syn::Macro, whole: Span, biased: bool) -> bool {
        let Ok(body) = mac.parse_body::<SelectBody>() else {
            return false;
        };
        let biased = biased || body.biased;
        // Preconditions are evaluated first, then every arm's future is made and polled.
        for arm in &body.arms {
            if let Some(p) = &arm.precondition {
                self.visit_expr(p);
            }
        }
        let mut operands = Vec::new();
        let mut arms = Vec::new();
        for arm in &body.arms {
            let future = arm.future.as_ref().map(|f| {
                operands.push(self.operand_fut(f));
                operands.len() - 1
            });
            arms.push(SelectArm {
                pattern: arm.pattern.as_ref().map(|p| self.span(p)),
                future,
                precondition: arm.precondition.as_ref().map(|p| self.span(p)),
                handler: self.span(&arm.handler),
                handler_requests: Vec::new(),
                exits: exits(&arm.handler),
                is_default: arm.is_default,
                never_finishes: arm.future.as_ref().is_some_and(never_finishes),
            });
        }
        // Only the handler of the arm that finished runs, after the futures were dropped.
        let id = self.next_branch();
        for (k, (arm, facts)) in body.arms.iter().zip(arms.iter_mut()).enumerate() {
            self.branches.push((id, k as u32));
            let first = self.facts.requests.len();
            self.with_scope(|b| {
                if let Some(p) = &arm.pattern {
                    b.bind_pattern(p, Value::Unknown);
                }
                b.visit_expr(&arm.handler);
            });
            facts.handler_requests = (first..self.facts.requests.len()).collect();
            self.branches.pop();
        }
        let spelling = format!("`{}!`", path_text(&mac.path));
        self.record_site(
            SiteKind::SelectMacro { biased },
            whole,
            spelling,
            operands,
            arms,
        );
        true
    }
}

/// Whether a future never finishes: an `async` block whose last statement is a `loop` that no
/// `break`, `return`, `?` or panic leaves, or a kube watch stream driven by `for_each` (kube's
/// watchers retry with backoff and end only when dropped).
pub(super) fn never_finishes(future: &Expr) -> bool {
    match super::strip(future) {
        Expr::Async(a) => match a.block.stmts.last() {
            Some(syn::Stmt::Expr(Expr::Loop(l), _)) => {
                !exits(&Expr::Loop(l.clone())) && !breaks_out(&l.body)
            }
            _ => false,
        },
        Expr::MethodCall(m) if ident_in(&m.method, &["for_each"]) => is_watch_stream(&m.receiver),
        _ => false,
    }
}

/// A `break` that leaves this loop: unlabeled and outside inner loops, or labeled (it may name
/// this loop or one outside it).
fn breaks_out(body: &syn::Block) -> bool {
    struct Breaks {
        depth: usize,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Breaks {
        fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
            self.found |= self.depth == 0 || b.label.is_some();
        }
        fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
            self.depth += 1;
            syn::visit::visit_expr_loop(self, l);
            self.depth -= 1;
        }
        fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
            self.depth += 1;
            syn::visit::visit_expr_while(self, w);
            self.depth -= 1;
        }
        fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
            self.depth += 1;
            syn::visit::visit_expr_for_loop(self, f);
            self.depth -= 1;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    }
    let mut b = Breaks {
        depth: 0,
        found: false,
    };
    b.visit_block(body);
    b.found
}

/// A stream of kube-runtime's watchers: `watcher(..)`, `metadata_watcher(..)`, `reflector(..)`,
/// or a controller's `run(..)`, through stream adapters.
fn is_watch_stream(expr: &Expr) -> bool {
    match super::strip(expr) {
        Expr::MethodCall(m) => {
            (m.method == "run" && super::controllers::is_controller_chain(&m.receiver))
                || is_watch_stream(&m.receiver)
        }
        Expr::Call(c) => {
            let Expr::Path(p) = super::strip(&c.func) else {
                return false;
            };
            p.path.segments.last().is_some_and(|s| {
                ident_in(
                    &s.ident,
                    &["watcher", "metadata_watcher", "reflector", "watch_object"],
                )
            })
        }
        _ => false,
    }
}

/// Whether code leaves the function in some path: `return`, `?`, a panicking macro (closures
/// and `async` blocks are other bodies).
pub(super) fn exits(expr: &Expr) -> bool {
    struct Exits(bool);
    impl<'ast> Visit<'ast> for Exits {
        fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
            self.0 = true;
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            self.0 |= super::arms::is_panic_macro(m);
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    }
    let mut e = Exits(false);
    e.visit_expr(expr);
    e.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> SelectBody {
        syn::parse_str::<SelectBody>(s).expect("parses")
    }

    #[test]
    fn arms_with_preconditions_and_fallbacks() {
        let b = parse(
            "biased; r = a.get(x), if ready => { r? } Some(v) = rx.recv() => v, else => break,",
        );
        assert!(b.biased);
        assert_eq!(b.arms.len(), 3);
        assert!(b.arms[0].precondition.is_some());
        assert!(b.arms[1].pattern.is_some() && b.arms[1].precondition.is_none());
        assert!(b.arms[2].future.is_none());
    }

    #[test]
    fn futures_select_fallbacks() {
        let b = parse("x = f => {}, default => {}, complete => break");
        assert!(!b.biased);
        assert_eq!(b.arms.len(), 3);
        assert!(b.arms[1].future.is_none() && b.arms[2].future.is_none());
        assert!(b.arms[1].is_default && !b.arms[2].is_default);
    }
}
