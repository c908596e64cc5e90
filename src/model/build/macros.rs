//! Macro invocations the model sees into. A macro arrives as a token stream; a crate's own
//! `with_backoff!(api.patch_status(..).await, attempts = 4)` makes requests that must be seen.
//!
//! - Arguments are read as comma-separated expressions, a `name = expr` argument standing for its
//!   expression. An argument that does not parse (`name = %x` in `tracing` style) is skipped to
//!   the next comma, its identifiers noted as uses: one unreadable argument no longer hides the
//!   others. Each token is parsed at most once, so this stays linear in the body.
//! - The value of an invocation is one of its arguments when the macro says so: `std::pin::pin!`,
//!   and the file's simple `macro_rules!` with a single rule whose body is one `$x:expr`
//!   fragment. The argument is kept (re-parsed, with the tokens' spans) so that
//!   [`Builder::eval`] follows the future through the invocation as through `Box::pin(fut)`.

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::discouraged::Speculative;
use syn::parse::ParseStream;
use syn::{Expr, Token};

use super::Builder;

/// One argument of a macro invocation.
pub(super) enum Arg {
    Expr(Box<Expr>),
    /// Tokens that do not parse as an expression, up to the next comma.
    Tokens(TokenStream),
}

impl Arg {
    fn expr(&self) -> Option<&Expr> {
        match self {
            Arg::Expr(e) => Some(e),
            Arg::Tokens(_) => None,
        }
    }
}

/// Comma-separated arguments; never fails on what is between the commas.
pub(super) fn parse_args(input: ParseStream) -> syn::Result<Vec<Arg>> {
    let mut args = Vec::new();
    while !input.is_empty() {
        args.push(match parse_expr_arg(input) {
            Some(e) => Arg::Expr(Box::new(e)),
            None => Arg::Tokens(skip_arg(input)?),
        });
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
    }
    Ok(args)
}

/// `expr` or `name = expr`, when followed by a comma or the end; nothing consumed otherwise.
fn parse_expr_arg(input: ParseStream) -> Option<Expr> {
    let fork = input.fork();
    let named = fork.peek(syn::Ident)
        && fork.peek2(Token![=])
        && !fork.peek2(Token![==])
        && !fork.peek2(Token![=>]);
    if named {
        fork.parse::<syn::Ident>().ok()?;
        fork.parse::<Token![=]>().ok()?;
    }
    let e: Expr = fork.parse().ok()?;
    if !fork.is_empty() && !fork.peek(Token![,]) {
        return None;
    }
    input.advance_to(&fork);
    Some(e)
}

/// The tokens up to the next comma at this level (or the end).
fn skip_arg(input: ParseStream) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut out = TokenStream::new();
        while let Some((tt, next)) = rest.token_tree() {
            if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            out.extend([tt]);
            rest = next;
        }
        Ok((out, rest))
    })
}

/// `pin!`, `std::pin::pin!`, `core::pin::pin!`: the pinned future is the argument. (`tokio::pin!`
/// and `futures::pin_mut!` pin a binding in place and have no value.)
fn is_pin_macro(path: &syn::Path) -> bool {
    if !crate::model::sites::last_is(path, &["pin"]) {
        return false;
    }
    let segs = crate::model::sites::segments(path);
    match segs.as_slice() {
        [one] => one == "pin",
        [root, module, name] => {
            (root == "std" || root == "core") && module == "pin" && name == "pin"
        }
        _ => false,
    }
}

/// The name a crate macro is invoked by: `name!` or `crate::name!`.
fn crate_macro_name(path: &syn::Path) -> Option<String> {
    let segs = crate::model::sites::segments(path);
    match segs.as_slice() {
        [one] => Some(one.clone()),
        [root, one] if root == "crate" || root == "$crate" => Some(one.clone()),
        _ => None,
    }
}

/// For `macro_rules!` with a single rule whose body is one of its `$x:expr` fragments
/// (`($fut:expr, $what:literal) => { $fut }`): the argument that fragment is. Every matcher
/// item must be one fragment, possibly named (`attempts = $n:expr`), so that invocation
/// arguments and matcher items correspond by position.
fn simple_rule(tokens: TokenStream) -> Option<usize> {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    let [TokenTree::Group(matcher), TokenTree::Punct(eq), TokenTree::Punct(gt), TokenTree::Group(body), rest @ ..] =
        tts.as_slice()
    else {
        return None;
    };
    let rest_ok = match rest {
        [] => true,
        [TokenTree::Punct(p)] => p.as_char() == ';',
        _ => false,
    };
    if eq.as_char() != '=' || gt.as_char() != '>' || !rest_ok {
        return None;
    }
    let fragments = matcher_fragments(matcher.stream())?;
    let name = body_fragment(body.stream())?;
    fragments
        .iter()
        .position(|(n, kind)| *n == name && kind == "expr")
}

/// The fragments (name, kind) of a matcher made only of comma-separated fragments.
fn matcher_fragments(matcher: TokenStream) -> Option<Vec<(String, String)>> {
    let mut items: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for tt in matcher {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => items.push(Vec::new()),
            _ => items.last_mut()?.push(tt),
        }
    }
    let last = items.len() - 1;
    let mut fragments = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let item = if i == last {
            // A trailing `,` or `$(,)?`.
            match item.as_slice() {
                [] if i > 0 => break,
                [head @ .., TokenTree::Punct(d), TokenTree::Group(_), TokenTree::Punct(q)]
                    if d.as_char() == '$' && matches!(q.as_char(), '?' | '*') =>
                {
                    head
                }
                all => all,
            }
        } else {
            item.as_slice()
        };
        fragments.push(fragment(item)?);
    }
    Some(fragments)
}

/// `$x:kind` or `name = $x:kind`.
fn fragment(item: &[TokenTree]) -> Option<(String, String)> {
    let item = match item {
        [TokenTree::Ident(_), TokenTree::Punct(eq), rest @ ..] if eq.as_char() == '=' => rest,
        all => all,
    };
    match item {
        [TokenTree::Punct(d), TokenTree::Ident(name), TokenTree::Punct(c), TokenTree::Ident(kind)]
            if d.as_char() == '$' && c.as_char() == ':' =>
        {
            Some((name.to_string(), kind.to_string()))
        }
        _ => None,
    }
}

/// `$x`, possibly in delimiters: `{ $x }`, `{{ $x }}`.
fn body_fragment(body: TokenStream) -> Option<String> {
    let tts: Vec<TokenTree> = body.into_iter().collect();
    match tts.as_slice() {
        [TokenTree::Group(g)] => body_fragment(g.stream()),
        [TokenTree::Punct(d), TokenTree::Ident(name)] if d.as_char() == '$' => {
            Some(name.to_string())
        }
        _ => None,
    }
}

impl Builder<'_> {
    /// A macro whose body is not a join or a `select!`: visit the arguments that parse as
    /// expressions, or the statements of a body that is a block of them.
    pub(super) fn visit_other_macro(&mut self, mac: &syn::Macro) {
        let args = mac.parse_body_with(parse_args).ok();
        let all_exprs = args
            .as_ref()
            .is_some_and(|a| a.iter().all(|a| a.expr().is_some()));
        if !all_exprs {
            if let Ok(stmts) = mac.parse_body_with(syn::Block::parse_within) {
                self.with_scope(|b| {
                    for s in &stmts {
                        syn::visit::Visit::visit_stmt(b, s);
                    }
                });
                return;
            }
        }
        match args {
            Some(args) => self.visit_args(mac, args),
            // Unreachable in practice (arguments never fail to parse); uses are still noted.
            None => self.note_token_uses(mac.tokens.clone()),
        }
    }

    fn visit_args(&mut self, mac: &syn::Macro, args: Vec<Arg>) {
        self.note_macro_value(mac, &args);
        for arg in args {
            match arg {
                Arg::Expr(e) => syn::visit::Visit::visit_expr(self, &e),
                // `tracing::info!(name = %x, ..)` still uses the bindings it names.
                Arg::Tokens(t) => self.note_token_uses(t),
            }
        }
    }

    /// `macro_rules! name { .. }` of this file: remember it when its value is an argument. A
    /// later definition of the name replaces an earlier one, as in Rust's textual scoping.
    pub(super) fn note_macro_rules(&mut self, m: &syn::ItemMacro) {
        let Some(name) = m
            .ident
            .as_ref()
            .filter(|_| m.mac.path.is_ident("macro_rules"))
        else {
            return;
        };
        match simple_rule(m.mac.tokens.clone()) {
            Some(i) => self.value_macros.insert(name.to_string(), i),
            None => self.value_macros.remove(&name.to_string()),
        };
    }

    /// Which argument of `mac` is its value, when one is.
    fn value_arg_index(&self, mac: &syn::Macro) -> Option<usize> {
        if self.value_macros.is_empty() {
            return is_pin_macro(&mac.path).then_some(0);
        }
        let own = crate_macro_name(&mac.path).and_then(|n| self.value_macros.get(&n).copied());
        own.or_else(|| is_pin_macro(&mac.path).then_some(0))
    }

    /// Remember the argument that is `mac`'s value.
    fn note_macro_value(&mut self, mac: &syn::Macro, args: &[Arg]) {
        let Some(arg) = self
            .value_arg_index(mac)
            .and_then(|i| args.get(i))
            .and_then(Arg::expr)
        else {
            return;
        };
        let span = self.span(mac);
        self.macro_values
            .insert((span.start, span.end), arg.clone());
    }

    /// The argument that is `mac`'s value, when it was noted while visiting it.
    pub(super) fn macro_value(&self, mac: &syn::Macro) -> Option<&Expr> {
        let span = self.span(mac);
        self.macro_values.get(&(span.start, span.end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<Option<String>> {
        let tokens: TokenStream = text.parse().unwrap();
        syn::parse::Parser::parse2(parse_args, tokens)
            .unwrap()
            .iter()
            .map(|a| {
                a.expr()
                    .map(|e| quote::ToTokens::to_token_stream(e).to_string())
            })
            .collect()
    }

    #[test]
    fn arguments_are_expressions_named_or_not_and_the_rest_is_skipped() {
        assert_eq!(
            args("api.patch(n).await, attempts = 4, a == b, x: 4, name = %x, , f(1, 2)"),
            vec![
                Some("api . patch (n) . await".into()),
                Some("4".into()),
                Some("a == b".into()),
                None,
                None,
                None,
                Some("f (1 , 2)".into()),
            ]
        );
        assert!(args("").is_empty());
        assert_eq!(args("a,"), vec![Some("a".into())]);
    }

    #[test]
    fn ten_thousand_arguments_parse_in_linear_time() {
        let body: Vec<String> = (0..10_000)
            .map(|i| match i % 3 {
                0 => format!("api.get(\"p{i}\")"),
                1 => format!("n{i} = %x"),
                _ => format!("k{i}: {i}"),
            })
            .collect();
        let start = std::time::Instant::now();
        let parsed = args(&body.join(", "));
        assert_eq!(parsed.len(), 10_000);
        assert_eq!(parsed.iter().flatten().count(), 3_334);
        // Generous for debug builds on a loaded machine; quadratic parsing takes minutes.
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    fn rule(text: &str) -> Option<usize> {
        simple_rule(text.parse().unwrap())
    }

    #[test]
    fn a_single_rule_returning_one_expr_fragment_is_simple() {
        assert_eq!(rule("($e:expr) => { $e };"), Some(0));
        assert_eq!(
            rule("($what:literal, $fut:expr $(,)?) => {{ $fut }}"),
            Some(1)
        );
        assert_eq!(rule("($e:expr, attempts = $n:expr) => ( $e )"), Some(0));
        assert_eq!(rule("($e:expr,) => { $e }"), Some(0));
    }

    #[test]
    fn other_rules_are_not_simple() {
        // Two rules, a body doing more, a fragment that is no expression, a matcher with
        // literal tokens between the fragments.
        assert_eq!(rule("($e:expr) => { $e }; () => { 0 };"), None);
        assert_eq!(rule("($e:expr) => { $e.await }"), None);
        assert_eq!(rule("($e:ident) => { $e }"), None);
        assert_eq!(rule("($e:expr; $n:expr) => { $e }"), None);
        assert_eq!(rule("($e:expr) => { $n }"), None);
        assert_eq!(rule("($($e:expr),*) => { $e }"), None);
    }
}
