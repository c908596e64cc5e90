//! One concurrency site as recorded: the future each operand is (and its form, for rewrites), the
//! site itself, and how its value is used (`.await`, `?`, a statement of its own).

use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{Expr, Token};

use super::flow::Fut;
use super::{
    ident_in, is_wrapper_path, path_text, strip, strip_parens, takes_postfix, Builder, Value,
};
use crate::model::{sites, OperandForm, Site, SiteKind, SiteUsage};
use crate::source::Span;

impl Builder<'_> {
    /// `expr` is a site followed by `.await` and/or `?`: where the site is and what follows.
    pub(super) fn site_usage(&self, expr: &Expr) -> Option<FoundUsage> {
        match strip_parens(expr) {
            Expr::Try(t) => self.usage_under_try(t),
            Expr::Await(a) => self.usage_under_await(a, || self.span(expr), false),
            e => self.usage_of(e, || self.span(expr), false, false),
        }
    }

    pub(super) fn usage_under_try(&self, t: &syn::ExprTry) -> Option<FoundUsage> {
        let span = || self.span(t);
        match strip_parens(&t.expr) {
            Expr::Await(a) => self.usage_under_await(a, span, true),
            e => self.usage_of(e, span, false, true),
        }
    }

    pub(super) fn usage_under_await(
        &self,
        a: &syn::ExprAwait,
        span: impl FnOnce() -> Span,
        question_mark: bool,
    ) -> Option<FoundUsage> {
        self.usage_of(strip_parens(&a.base), span, true, question_mark)
    }

    fn usage_of(
        &self,
        site: &Expr,
        span: impl FnOnce() -> Span,
        awaited: bool,
        question_mark: bool,
    ) -> Option<FoundUsage> {
        if !is_join(site) {
            return None;
        }
        let site = self.span(site);
        Some(FoundUsage {
            site: (site.start, site.end),
            span: span(),
            awaited,
            question_mark,
        })
    }

    /// Remember a usage; the outermost one (seen first, when the statement is visited) wins.
    pub(super) fn note_usage(&mut self, usage: FoundUsage, statement: Option<Span>) {
        self.site_usages.entry(usage.site).or_insert(SiteUsage {
            span: usage.span,
            awaited: usage.awaited,
            question_mark: usage.question_mark,
            statement,
        });
    }

    /// Visit `expr`, an operand of a site, while collecting the futures it references by name;
    /// returns the future it is (its own calls and those of referenced futures) and its form.
    pub(super) fn operand_fut(&mut self, expr: &Expr) -> Fut {
        let first = self.facts.requests.len();
        self.note_site_use(expr);
        self.collectors.push(Vec::new());
        self.visit_expr(expr);
        let refs = self.collectors.pop().unwrap_or_default();
        let span = self.span(expr);
        let mut fut = match self.eval(expr, first) {
            Value::Future(f) => f,
            v @ (Value::Futures(_) | Value::Call { .. }) => Fut::union(span, self.futs(v)),
            _ => Fut::new(span, self.requests_within(span, first)),
        };
        fut.span = span;
        fut.add_requests(refs);
        fut.form = self.operand_form(expr, first);
        fut
    }

    /// What a future expression is, for rewrites (requests from `first` on are its own).
    pub(super) fn operand_form(&self, expr: &Expr, first: usize) -> OperandForm {
        if matches!(strip_parens(expr), Expr::Async(_)) {
            OperandForm::AsyncBlock
        } else if self.is_request_future(expr, first) {
            OperandForm::Request
        } else {
            OperandForm::Other {
                needs_parens: !takes_postfix(expr),
            }
        }
    }

    /// A request call or a binding of one, possibly pinned, boxed or with its output mapped.
    pub(super) fn is_request_future(&self, expr: &Expr, first: usize) -> bool {
        match strip_parens(expr) {
            e @ Expr::MethodCall(m) => {
                if self.request_at(self.span(e), first).is_some() {
                    return true;
                }
                // Adapters that run no code of the user's before the inner future completes.
                ident_in(
                    &m.method,
                    &[
                        "boxed",
                        "boxed_local",
                        "fuse",
                        "into_future",
                        "map_err",
                        "err_into",
                        "instrument",
                        "in_current_span",
                    ],
                ) && self.is_request_future(&m.receiver, first)
            }
            Expr::Call(c) => match strip_parens(&c.func) {
                Expr::Path(p) if c.args.len() == 1 && is_wrapper_path(&p.path) => {
                    self.is_request_future(&c.args[0], first)
                }
                _ => false,
            },
            // `std::pin::pin!(fut)`, like `Box::pin(fut)`.
            Expr::Macro(m) => self
                .macro_value(&m.mac)
                .is_some_and(|e| self.is_request_future(e, first)),
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.lookup(&i.to_string()))
                .is_some_and(|b| self.request_futures.contains(&b.id)),
            _ => false,
        }
    }

    /// Record a site; returns its index in `facts.sites`.
    pub(super) fn record_site(
        &mut self,
        kind: SiteKind,
        node_span: Span,
        spelling: String,
        operands: Vec<Fut>,
        arms: Vec<crate::model::SelectArm>,
    ) -> usize {
        for f in &operands {
            self.mark_joined(&f.tasks, node_span);
        }
        let key = (node_span.start, node_span.end);
        let binding = self.site_bindings.remove(&key);
        let usage = self.site_usages.remove(&key).unwrap_or(SiteUsage {
            span: node_span,
            awaited: false,
            question_mark: false,
            statement: None,
        });
        self.facts.sites.push(Site {
            kind,
            span: node_span,
            spelling,
            operands: operands.iter().map(Fut::operand).collect(),
            binding,
            usage,
            arms,
            collection: None,
            limit: None,
            body: self.body,
            branches: self.branches.clone(),
            loops: self.loops.clone(),
            in_loop: self.is_in_loop(),
            propagated: self.is_propagated(node_span),
        });
        self.facts.sites.len() - 1
    }

    /// Macros arrive as token streams: parse the bodies we understand and visit them.
    pub(super) fn visit_macro_body(&mut self, mac: &syn::Macro, whole: Span) {
        if let Some(kind) = sites::join_macro(&mac.path) {
            let parsed = mac.parse_body_with(|input: syn::parse::ParseStream| {
                // tokio's `join!(biased; a, b)`.
                if input.peek(syn::Ident) && input.peek2(Token![;]) {
                    let kw: syn::Ident = input.parse()?;
                    if kw == "biased" {
                        input.parse::<Token![;]>()?;
                    }
                }
                Punctuated::<Expr, Token![,]>::parse_terminated(input)
            });
            if let Ok(exprs) = parsed {
                let spelling = format!("`{}!`", path_text(&mac.path));
                let operands = exprs.iter().map(|e| self.operand_fut(e)).collect();
                self.record_site(kind, whole, spelling, operands, Vec::new());
            }
            return;
        }
        if let Some(biased) = sites::select_macro(&mac.path) {
            if self.visit_select(mac, whole, biased) {
                return;
            }
        }
        // Other macros: comma-separated expressions (`vec![..]`, `println!(..)`, a crate's
        // `with_backoff!(.., attempts = 4)`) or statements.
        self.visit_other_macro(mac);
    }
}

/// A site found under `.await` / `?`, keyed by the site's span.
pub(super) struct FoundUsage {
    pub(super) site: (usize, usize),
    span: Span,
    awaited: bool,
    pub(super) question_mark: bool,
}

/// A join whose value rewrites need to know the usage of: `join!`, the join functions,
/// `join_all`.
/// A site whose value's use is recorded ([`SiteUsage`], [`SiteBinding`]): the joins, and the
/// select functions (whether the futures they hand back are thrown away).
fn is_join(expr: &Expr) -> bool {
    match expr {
        Expr::Macro(m) => sites::join_macro(&m.mac.path).is_some(),
        Expr::Call(c) => matches!(strip(&c.func), Expr::Path(p)
            if sites::join_fn(&p.path).is_some()
                || (c.args.len() == 1 && sites::join_all_fn(&p.path).is_some())
                || sites::select_fn(&p.path).is_some()),
        _ => false,
    }
}
