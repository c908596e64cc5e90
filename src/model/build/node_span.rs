//! Spans of syntax nodes without printing them. `syn::spanned::Spanned` turns the whole node
//! into tokens to find its first and last token: on a chain `a.b().c().d()` whose every link is
//! asked for its span, that is quadratic, and it was the largest cost of building the model. For
//! the common expressions, `let` statements and blocks the two ends are found by walking down the
//! tree instead; the result is the same span (the first token's joined with the last token
//! tree's).

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::Expr;

/// A syntax node whose span [`super::Builder::span`] can take.
pub(super) trait NodeSpan {
    fn node_span(&self) -> Span;
}

impl NodeSpan for Expr {
    fn node_span(&self) -> Span {
        match (first(self), last(self)) {
            (Some(a), Some(b)) => a.join(b).unwrap_or(a),
            _ => self.span(),
        }
    }
}

impl NodeSpan for Box<Expr> {
    fn node_span(&self) -> Span {
        (**self).node_span()
    }
}

macro_rules! as_expr {
    ($($ty:ident),*) => {$(
        impl NodeSpan for syn::$ty {
            fn node_span(&self) -> Span {
                node_ends(self.first(), self.last()).unwrap_or_else(|| self.span())
            }
        }
    )*};
}

macro_rules! via_tokens {
    ($($ty:ty),*) => {$(
        impl NodeSpan for $ty {
            fn node_span(&self) -> Span {
                self.span()
            }
        }
    )*};
}

via_tokens!(
    syn::Ident,
    syn::Pat,
    syn::Macro,
    syn::StmtMacro,
    syn::ExprMacro,
    syn::Type,
    syn::Member,
    syn::Stmt,
    syn::Arm,
    syn::token::Semi,
    syn::token::Or,
    syn::token::Async
);

fn node_ends(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    let (a, b) = (a?, b?);
    Some(a.join(b).unwrap_or(a))
}

/// The first and last token of an expression struct.
trait Ends {
    fn first(&self) -> Option<Span>;
    fn last(&self) -> Option<Span>;
}

as_expr!(
    ExprMethodCall,
    ExprCall,
    ExprAwait,
    ExprClosure,
    ExprAsync,
    ExprTry,
    ExprPath,
    Local
);

/// One token tree: its braces.
impl NodeSpan for syn::Block {
    fn node_span(&self) -> Span {
        self.brace_token.span.join()
    }
}

impl Ends for syn::ExprTry {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs).or_else(|| first(&self.expr))
    }
    fn last(&self) -> Option<Span> {
        Some(self.question_token.span)
    }
}

impl Ends for syn::ExprPath {
    fn first(&self) -> Option<Span> {
        let path = self.qself.is_none().then_some(&self.path)?;
        attrs_first(&self.attrs).or_else(|| path_first(path))
    }
    fn last(&self) -> Option<Span> {
        path_last(self.qself.is_none().then_some(&self.path)?)
    }
}

impl Ends for syn::Local {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs).or(Some(self.let_token.span))
    }
    fn last(&self) -> Option<Span> {
        Some(self.semi_token.span)
    }
}

impl Ends for syn::ExprBlock {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs)
            .or_else(|| self.label.as_ref().map(|l| l.name.apostrophe))
            .or(Some(self.block.brace_token.span.join()))
    }
    fn last(&self) -> Option<Span> {
        Some(self.block.brace_token.span.join())
    }
}

impl Ends for syn::ExprMethodCall {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs).or_else(|| first(&self.receiver))
    }
    fn last(&self) -> Option<Span> {
        Some(self.paren_token.span.join())
    }
}

impl Ends for syn::ExprCall {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs).or_else(|| first(&self.func))
    }
    fn last(&self) -> Option<Span> {
        Some(self.paren_token.span.join())
    }
}

impl Ends for syn::ExprAwait {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs).or_else(|| first(&self.base))
    }
    fn last(&self) -> Option<Span> {
        Some(self.await_token.span)
    }
}

impl Ends for syn::ExprClosure {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs)
            .or_else(|| self.lifetimes.as_ref().map(|l| l.for_token.span))
            .or_else(|| self.constness.map(|t| t.span))
            .or_else(|| self.movability.map(|t| t.span))
            .or_else(|| self.asyncness.map(|t| t.span))
            .or_else(|| self.capture.map(|t| t.span))
            .or(Some(self.or1_token.spans[0]))
    }
    fn last(&self) -> Option<Span> {
        last(&self.body)
    }
}

impl Ends for syn::ExprAsync {
    fn first(&self) -> Option<Span> {
        attrs_first(&self.attrs).or(Some(self.async_token.span))
    }
    fn last(&self) -> Option<Span> {
        Some(self.block.brace_token.span.join())
    }
}

fn attrs_first(attrs: &[syn::Attribute]) -> Option<Span> {
    attrs.first().map(|a| a.pound_token.spans[0])
}

/// The span of the first token of `e`, when it can be found without printing `e`.
fn first(e: &Expr) -> Option<Span> {
    match e {
        Expr::MethodCall(m) => m.first(),
        Expr::Call(c) => c.first(),
        Expr::Await(a) => a.first(),
        Expr::Closure(c) => c.first(),
        Expr::Async(a) => a.first(),
        Expr::Field(f) => attrs_first(&f.attrs).or_else(|| first(&f.base)),
        Expr::Try(t) => t.first(),
        Expr::Block(b) => b.first(),
        Expr::Index(i) => attrs_first(&i.attrs).or_else(|| first(&i.expr)),
        Expr::Reference(r) => attrs_first(&r.attrs).or(Some(r.and_token.spans[0])),
        Expr::Paren(p) => attrs_first(&p.attrs).or(Some(p.paren_token.span.join())),
        Expr::Lit(l) => attrs_first(&l.attrs).or(Some(l.lit.span())),
        Expr::Path(p) => p.first(),
        Expr::Macro(m) => attrs_first(&m.attrs).or_else(|| path_first(&m.mac.path)),
        _ => None,
    }
}

/// The span of the last token tree of `e`, when it can be found without printing `e`.
fn last(e: &Expr) -> Option<Span> {
    match e {
        Expr::MethodCall(m) => m.last(),
        Expr::Call(c) => c.last(),
        Expr::Await(a) => a.last(),
        Expr::Closure(c) => c.last(),
        Expr::Async(a) => a.last(),
        Expr::Field(f) => Some(match &f.member {
            syn::Member::Named(i) => i.span(),
            syn::Member::Unnamed(i) => i.span,
        }),
        Expr::Try(t) => t.last(),
        Expr::Block(b) => b.last(),
        Expr::Index(i) => Some(i.bracket_token.span.join()),
        Expr::Reference(r) => last(&r.expr),
        Expr::Paren(p) => Some(p.paren_token.span.join()),
        Expr::Lit(l) => Some(l.lit.span()),
        Expr::Path(p) => p.last(),
        Expr::Macro(m) => Some(m.mac.delimiter.span().join()),
        _ => None,
    }
}

fn path_first(path: &syn::Path) -> Option<Span> {
    match &path.leading_colon {
        Some(colons) => Some(colons.spans[0]),
        None => path.segments.first().map(|s| s.ident.span()),
    }
}

fn path_last(path: &syn::Path) -> Option<Span> {
    let segment = path.segments.last()?;
    match &segment.arguments {
        syn::PathArguments::None => Some(segment.ident.span()),
        syn::PathArguments::AngleBracketed(a) => Some(a.gt_token.span),
        syn::PathArguments::Parenthesized(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same (start, end) as `Spanned::span` for every expression of a sample.
    #[test]
    fn spans_agree_with_printing() {
        let text = r#"
            fn f() {
                let x = a.b(1).c::<T>(d).await?.e[0].f;
                let y = #[attr] ::std::mem::take(&mut self.z);
                let z = async move { pods.get("a").await };
                let w = move |n: u32| api.delete(n, &dp);
                let v = (1 + 2).max(vec![1, 2].len()) + 'c' as usize;
                let u = Vec::<u8>::new;
                let t = foo.0.bar()?;
                #[allow(unused)] let s = 'outer: { break 'outer 1; };
                let Some(r) = q.next() else { return };
                let p = || { pods.get("a") };
                for o in api.list(&lp).await?.items { let _ = o; }
                let n = <T as Tr>::f;
                #[attr] { m(); }
            }
        "#;
        let file = syn::parse_file(text).unwrap();
        struct All(Vec<Expr>);
        impl<'ast> syn::visit::Visit<'ast> for All {
            fn visit_expr(&mut self, e: &'ast Expr) {
                self.0.push(e.clone());
                syn::visit::visit_expr(self, e);
            }
        }
        let mut all = All(Vec::new());
        syn::visit::Visit::visit_file(&mut all, &file);
        assert!(all.0.len() > 30);
        let ends = |s: Span| (s.start(), s.end());
        for e in &all.0 {
            assert_eq!(ends(e.node_span()), ends(e.span()), "{}", quote::quote!(#e));
            match e {
                Expr::MethodCall(m) => assert_eq!(ends(m.node_span()), ends(m.span())),
                Expr::Closure(c) => assert_eq!(ends(c.node_span()), ends(c.span())),
                Expr::Try(t) => assert_eq!(ends(t.node_span()), ends(t.span())),
                Expr::Path(p) => assert_eq!(ends(p.node_span()), ends(p.span())),
                Expr::Block(b) => {
                    assert_eq!(ends(b.block.node_span()), ends(b.block.span()))
                }
                _ => {}
            }
        }
        let syn::Item::Fn(f) = &file.items[0] else {
            unreachable!()
        };
        let mut locals = 0;
        for stmt in &f.block.stmts {
            if let syn::Stmt::Local(l) = stmt {
                locals += 1;
                assert_eq!(ends(l.node_span()), ends(l.span()), "{}", quote::quote!(#l));
            }
        }
        assert_eq!(locals, 11);
        assert_eq!(ends(f.block.node_span()), ends(f.block.span()));
    }
}
