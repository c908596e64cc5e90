//! Rewriting a `join_all`/`try_join_all` over an iterator (or any collection of futures) into a
//! `for` loop that awaits each future before the next one is made.
//!
//! `join_all(names.iter().map(|n| api.get(n))).await` becomes, by where its value goes:
//! - a statement of its own: `for n in names.iter() { api.get(n).await; }` (with `?` after the
//!   await when the site had one);
//! - a value: a block collecting the results in order,
//!   `{ let mut results = Vec::new(); for n in names.iter() { results.push(api.get(n).await); } results }`;
//! - a `try_join_all` whose `Result` is kept (no `?`): an `async` block awaited in place that
//!   returns the first error, written with `match` so that the error type needs no annotation.
//!
//! A collection the tool does not take apart (`join_all(futs)`) is iterated as it is:
//! `for fut in futs { fut.await; }`. Futures written out (`vec![a, b]`) are the sequential
//! rewrite's ([`super::sequential`]).

use std::collections::HashSet;

use super::apply::LineEnding;
use super::text::{
    comment_outside, fresh_names, has_comment, has_multiline_literal, has_token, identifiers,
    indent_at, indent_unit, reindent,
};
use super::Edit;
use crate::model::{Collection, FutureExpr, OperandForm, Site};
use crate::source::{SourceFile, Span};

/// The edit of a loop rewrite and what a caller needs to judge it.
#[derive(Clone, Debug)]
pub struct Rewrite {
    pub edit: Edit,
    /// The replaced text holds a comment outside the code kept, which the rewrite drops.
    pub drops_comments: bool,
}

/// Rewrite a `join_all` site awaited in place into a `for` loop. None when its collection is
/// not one this rewrite takes (futures written out, `collect` into `JoinAll`), when its future
/// is kept for later, or when the mapped closure's body uses `?`, `return`, `break` or
/// `continue` (they would leave the loop's function instead of the closure).
pub fn await_each(source: &SourceFile, site: &Site) -> Option<Rewrite> {
    let usage = &site.usage;
    if !usage.awaited || !matches!(site.kind, crate::model::SiteKind::JoinAll { .. }) {
        return None;
    }
    let text = source.text.as_str();
    let snippet = |span: Span| text.get(span.range()).unwrap_or("");
    // The iterated expression, the future made per element, and the spans of code kept.
    let (iterated, item, kept) = iterated_item(text, site.collection.as_ref()?)?;
    let code_kept: Vec<&str> = kept.iter().map(|&s| snippet(s)).collect();
    let names = Names::new(&identifiers(&code_kept.join(" "))?);

    let fallible = site.kind.is_fallible();
    let q = if fallible && usage.question_mark {
        "?"
    } else {
        ""
    };
    // The results are discarded (a statement, with its `?` if it can fail): one loop statement.
    let statement = usage.statement.filter(|_| !fallible || usage.question_mark);
    let region = statement.unwrap_or(usage.span);
    if statement.is_none() && text[region.end..].trim_start().starts_with(['.', '[']) {
        // `join_all(..).await.len()`: a block there would need parentheses; left alone.
        return None;
    }
    let indent = indent_at(text, region.start);
    let unit = indent_unit(indent);
    let eol = LineEnding::of(text).as_str();
    let inner = format!("{indent}{unit}");
    let inner2 = format!("{inner}{unit}");

    // `for pattern in iterated {`, on a line indented by `at`.
    let head = |at: &str| {
        let pattern = item
            .pattern
            .map_or(names.future.clone(), |p| snippet(p).to_string());
        let code = reindent(
            snippet(iterated.span),
            indent_at(text, iterated.span.start),
            at,
        );
        let iterated = match code {
            t if iterated.needs_parens => format!("({t})"),
            t => t,
        };
        format!("for {pattern} in {iterated} {{")
    };
    // The loop's body at `at`: the statements before the future, and the future awaited.
    let body = |at: &str| -> (Vec<String>, String) {
        let awaited = |e: FutureExpr| {
            let code = reindent(snippet(e.span), indent_at(text, e.span.start), at);
            if e.needs_parens {
                format!("({code}).await")
            } else {
                format!("{code}.await")
            }
        };
        match item.future {
            Future::Expr(e) => (Vec::new(), awaited(e)),
            Future::AfterStatements { block, tail } => {
                let statements = text.get(block.start + 1..tail.span.start).unwrap_or("");
                // Lines of their own at `at`, relative indentation kept; what follows the `{`
                // on its line becomes a line too.
                let shifted = reindent(statements, indent_at(text, tail.span.start), at);
                let lines = shifted
                    .split('\n')
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(i, l)| match i {
                        0 => format!("{at}{}", l.trim()),
                        _ => l.trim_end().to_string(),
                    })
                    .collect();
                (lines, awaited(tail))
            }
            Future::EachOfCollection => (Vec::new(), format!("{}.await", names.future)),
        }
    };

    let mut lines = Vec::new();
    if statement.is_some() {
        let (before, awaited) = body(&inner);
        lines.push(head(indent));
        lines.extend(before);
        lines.push(format!("{inner}{awaited}{q};"));
        lines.push(format!("{indent}}}"));
    } else if !fallible || usage.question_mark {
        // The results, in order.
        let r = &names.results;
        let (before, awaited) = body(&inner2);
        lines.push("{".to_string());
        lines.push(format!("{inner}let mut {r} = Vec::new();"));
        lines.push(format!("{inner}{}", head(&inner)));
        lines.extend(before);
        lines.push(format!("{inner2}{r}.push({awaited}{q});"));
        lines.push(format!("{inner}}}"));
        lines.push(format!("{inner}{r}"));
        lines.push(format!("{indent}}}"));
    } else {
        // `try_join_all(..).await` kept as a `Result`: the first error, or every value.
        let (r, v, e) = (&names.results, &names.value, &names.error);
        let inner3 = format!("{inner2}{unit}");
        let (before, awaited) = body(&inner2);
        lines.push("async {".to_string());
        lines.push(format!("{inner}let mut {r} = Vec::new();"));
        lines.push(format!("{inner}{}", head(&inner)));
        lines.extend(before);
        lines.push(format!("{inner2}match {awaited} {{"));
        lines.push(format!("{inner3}Ok({v}) => {r}.push({v}),"));
        lines.push(format!("{inner3}Err({e}) => return Err({e}),"));
        lines.push(format!("{inner2}}}"));
        lines.push(format!("{inner}}}"));
        lines.push(format!("{inner}Ok({r})"));
        lines.push(format!("{indent}}}"));
        lines.push(format!("{indent}.await"));
    }
    // A comment after a block body's tail expression is not moved into the loop.
    let after_tail = match item.future {
        Future::AfterStatements { block, tail } => text.get(tail.span.end..block.end),
        _ => None,
    };
    Some(Rewrite {
        edit: Edit::replace(region, lines.join(eol)),
        drops_comments: comment_outside(text, region.range(), sorted(kept))
            || after_tail.is_some_and(has_comment),
    })
}

/// What the loop iterates, the future it makes per element, and the spans of code it keeps;
/// None for futures written out, or a mapped closure whose body cannot move into a loop.
fn iterated_item(text: &str, collection: &Collection) -> Option<(FutureExpr, Item, Vec<Span>)> {
    let snippet = |span: Span| text.get(span.range()).unwrap_or("");
    Some(match collection {
        Collection::Listed(_) => return None,
        Collection::Mapped(m) => {
            let body = snippet(m.body);
            if m.body_form != OperandForm::AsyncBlock
                && has_token(body, &["?", "return", "break", "continue"]) != Some(false)
            {
                return None;
            }
            if m.tail.is_some() && has_multiline_literal(body) {
                // Its statements are moved between lines; a literal spanning lines would change.
                return None;
            }
            let future = match m.tail {
                // `|n| { let x = ..; api.get(&x) }`: the statements go into the loop.
                Some(tail) => Future::AfterStatements {
                    block: m.body,
                    tail,
                },
                None => Future::Expr(FutureExpr {
                    span: m.body,
                    needs_parens: matches!(m.body_form, OperandForm::Other { needs_parens: true }),
                }),
            };
            let item = Item {
                pattern: Some(m.pattern),
                future,
            };
            (
                FutureExpr {
                    span: m.iter,
                    needs_parens: m.iter_needs_parens,
                },
                item,
                vec![m.pattern, m.body, m.iter],
            )
        }
        Collection::Iterable(e) => (
            *e,
            Item {
                pattern: None,
                future: Future::EachOfCollection,
            },
            vec![e.span],
        ),
    })
}

/// Ranges in the order written.
fn sorted(spans: Vec<Span>) -> impl Iterator<Item = std::ops::Range<usize>> {
    let mut ranges: Vec<std::ops::Range<usize>> = spans.iter().map(|s| s.range()).collect();
    ranges.sort_by_key(|r| r.start);
    ranges.into_iter()
}

/// One element of the loop.
struct Item {
    /// The loop's pattern: the closure's parameter, or a fresh name for each future.
    pattern: Option<Span>,
    future: Future,
}

#[derive(Clone, Copy)]
enum Future {
    /// The closure's body.
    Expr(FutureExpr),
    /// The closure's body is a block: its statements, then its tail expression.
    AfterStatements { block: Span, tail: FutureExpr },
    /// The loop's pattern: the collection's futures themselves.
    EachOfCollection,
}

/// Names the loop introduces, colliding with no identifier of the code it keeps.
struct Names {
    results: String,
    future: String,
    value: String,
    error: String,
}

impl Names {
    fn new(taken: &HashSet<String>) -> Names {
        let one = |base: &str| {
            if taken.contains(base) {
                fresh_names(base, 1, taken).remove(0)
            } else {
                base.to_string()
            }
        };
        Names {
            results: one("results"),
            future: one("fut"),
            value: one("value"),
            error: one("error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::apply::apply_edits;

    /// The code after rewriting the first site of `body` (written inside an `async fn`), or
    /// None when it is not rewritten; and whether comments are dropped.
    fn rewrite(body: &str) -> Option<(String, bool)> {
        let text = format!("async fn f(api: Api<Pod>, names: Vec<String>) {{\n{body}\n}}\n");
        let source = SourceFile::new(0, "t.rs".into(), text.clone());
        let file = syn::parse_file(&text).expect("parses");
        let facts = crate::model::build::build(&source, &file);
        let r = await_each(&source, facts.sites.first().expect("a site"))?;
        let fixed = apply_edits(&text, &[&r.edit]).expect("applies");
        syn::parse_file(&fixed).expect("the rewrite parses");
        let inner = fixed
            .strip_prefix("async fn f(api: Api<Pod>, names: Vec<String>) {\n")
            .and_then(|t| t.strip_suffix("\n}\n"))
            .expect("the function")
            .to_string();
        Some((inner, r.drops_comments))
    }

    #[test]
    fn a_statement_becomes_a_loop_with_the_question_mark() {
        let (code, drops) =
            rewrite("    try_join_all(names.iter().map(|n| api.delete(n, &dp))).await?; // after")
                .expect("rewritten");
        assert_eq!(
            code,
            "    for n in names.iter() {\n        api.delete(n, &dp).await?;\n    } // after"
        );
        assert!(!drops);
    }

    #[test]
    fn a_value_is_collected_in_order_with_names_that_collide_with_nothing() {
        let (code, _) = rewrite(
            "    let all = join_all(names.iter().map(|results| api.delete(results, &dp))).await;",
        )
        .expect("rewritten");
        assert_eq!(
            code,
            "    let all = {
        let mut results0 = Vec::new();
        for results in names.iter() {
            results0.push(api.delete(results, &dp).await);
        }
        results0
    };"
        );
    }

    #[test]
    fn a_kept_result_returns_the_first_error_from_an_async_block() {
        let (code, _) = rewrite("    let r = try_join_all(futs).await;").expect("rewritten");
        assert_eq!(
            code,
            "    let r = async {
        let mut results = Vec::new();
        for fut in futs {
            match fut.await {
                Ok(value) => results.push(value),
                Err(error) => return Err(error),
            }
        }
        Ok(results)
    }
    .await;"
        );
    }

    #[test]
    fn a_block_body_moves_its_statements_into_the_loop() {
        let (code, drops) = rewrite(
            "    join_all(names
        .iter()
        .map(|n| { // one per name
            let name = format!(\"{n}-x\");
            api.delete(&name, &dp)
        }))
    .await;",
        )
        .expect("rewritten");
        assert_eq!(
            code,
            "    for n in names
        .iter() {
        // one per name
        let name = format!(\"{n}-x\");
        api.delete(&name, &dp).await;
    }"
        );
        assert!(!drops);
        let (_, drops) = rewrite(
            "    join_all(names.iter().map(|n| {\n        api.delete(n, &dp) // gone\n    })).await;",
        )
        .expect("rewritten");
        assert!(drops, "the comment after the tail is not kept");
    }

    #[test]
    fn line_endings_of_the_file_are_kept() {
        let text = "async fn f(api: Api<Pod>, names: Vec<String>) {\r\n    join_all(names.iter().map(|n| api.delete(n, &dp))).await;\r\n}\r\n";
        let source = SourceFile::new(0, "t.rs".into(), text.to_string());
        let facts = crate::model::build::build(&source, &syn::parse_file(text).unwrap());
        let r = await_each(&source, &facts.sites[0]).expect("rewritten");
        assert_eq!(
            r.edit.replacement,
            "for n in names.iter() {\r\n        api.delete(n, &dp).await;\r\n    }"
        );
    }

    #[test]
    fn forms_left_alone() {
        // Kept for later, used on the spot, a closure that leaves with `?` or `return`, futures
        // written out (the sequential rewrite's).
        for body in [
            "    let later = join_all(names.iter().map(|n| api.delete(n, &dp)));",
            "    let n = join_all(names.iter().map(|n| api.delete(n, &dp))).await.len();",
            "    join_all(names.iter().map(|n| api.delete(n.get(1)?, &dp))).await;",
            "    join_all(vec![api.delete(\"a\", &dp), api.delete(\"a\", &dp)]).await;",
        ] {
            assert!(rewrite(body).is_none(), "{body}");
        }
    }
}
