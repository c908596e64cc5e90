//! Rewriting a join site (`join!`, `try_join!`, `futures::future::join*`) so that some or all of
//! its operands are awaited one after another, in the order written.
//!
//! The forms, most readable first:
//! - a `let` with a tuple pattern: one `let` per element (`let a = fa.await?;`);
//! - a statement of its own: one statement per operand (`fa.await?;`);
//! - anywhere else: a tuple of awaits (`(fa.await?, fb.await?)`), or, for a `try_join` whose
//!   `Result` is kept, an `async` block awaited in place that returns the same `Result`;
//! - a join function whose future is not awaited in place: an `async` block (the caller decides
//!   whether that may be applied: the future's type changes).
//!
//! A `join_all`/`try_join_all` over futures written out (`vec![fa, fb]`, `[fa, fb]`), given as a
//! site whose operands are those elements, is rewritten the same ways with a `vec![..]` of
//! awaits in place of the tuple (its value is a `Vec`).
//!
//! A partial rewrite keeps the site and serialises groups of operands inside it: each group
//! becomes one `async` block that awaits its members in order. Only `join!`/`try_join!` macros
//! are rewritten partially: the join functions have a fixed arity, and the one of the new arity
//! may not be imported.

use super::apply::LineEnding;
use super::text::{
    comment_outside, comments, fresh_names, has_comment, has_token, identifiers, indent_at,
    indent_unit, reindent, starts_line,
};
use super::Edit;
use crate::model::{OperandForm, Site, SiteKind};
use crate::source::{SourceFile, Span};

/// The edits of a rewrite and what a caller needs to judge them.
#[derive(Clone, Debug)]
pub struct Rewrite {
    pub edits: Vec<Edit>,
    /// Operands that did not need it stay concurrent.
    pub partial: bool,
    /// The indices of the operands now awaited one after another.
    pub serialised: Vec<usize>,
    /// The site's value was a future (a join function not awaited in place): it becomes an
    /// `async` block, a different type (not `Unpin`).
    pub becomes_async_block: bool,
    /// The replaced text holds a comment outside the operands, which the rewrite drops.
    pub drops_comments: bool,
}

/// Rewrite `site` so that the operands of each group are awaited in order (groups hold operand
/// indices). Operands in no group, or alone in theirs, stay concurrent when a partial rewrite
/// is possible; otherwise every operand is awaited in order. None when the site's form is not
/// understood (then no fix is offered).
pub fn rewrite(source: &SourceFile, site: &Site, groups: &[Vec<usize>]) -> Option<Rewrite> {
    let n = site.operands.len();
    if n < 2 {
        return None;
    }
    let mut groups: Vec<Vec<usize>> = groups
        .iter()
        .map(|g| {
            let mut g: Vec<usize> = g.iter().copied().filter(|&i| i < n).collect();
            g.sort_unstable();
            g.dedup();
            g
        })
        .filter(|g| g.len() >= 2)
        .collect();
    groups.sort();
    if groups.is_empty() {
        return None;
    }
    let fallible = matches!(
        site.kind,
        SiteKind::JoinMacro { fallible: true }
            | SiteKind::JoinFn { fallible: true }
            | SiteKind::JoinAll { fallible: true }
    );
    let (open, close) = match site.kind {
        SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => ("(", ")"),
        SiteKind::JoinAll { .. } => ("vec![", "]"),
        _ => return None,
    };
    let usage = &site.usage;
    if usage.question_mark && !fallible {
        // `?` on a tuple: not code we understand.
        return None;
    }
    let b = Builder {
        text: &source.text,
        file: source.id,
        site,
        eol: LineEnding::of(&source.text).as_str(),
        fallible,
        open,
        close,
    };
    let serialises_all = groups.len() == 1 && groups[0].len() == n;
    if !serialises_all {
        if let Some(r) = b.partial(&groups) {
            return Some(r);
        }
    }
    b.sequential()
}

/// Lines longer than this are broken, the way rustfmt's default would.
const MAX_WIDTH: usize = 100;

struct Builder<'a> {
    text: &'a str,
    file: crate::source::FileId,
    site: &'a Site,
    eol: &'static str,
    fallible: bool,
    /// What holds the results: a tuple `(`…`)`, or for `join_all` a `vec![`…`]`.
    open: &'static str,
    close: &'static str,
}

impl Builder<'_> {
    fn snippet(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span {
            file: self.file,
            start,
            end,
        }
    }

    /// Is the site's value produced where it is written (a macro, or a function awaited)?
    fn in_place(&self) -> bool {
        matches!(self.site.kind, SiteKind::JoinMacro { .. }) || self.site.usage.awaited
    }

    /// The text of `region` outside the operands holds a comment.
    fn glue_has_comment(&self, region: Span) -> bool {
        let operands = self.site.operands.iter().map(|op| op.span.range());
        comment_outside(self.text, region.range(), operands)
    }

    /// Operand `i` followed by `.await`, its lines moved from their indentation to `indent`.
    fn awaited(&self, i: usize, indent: &str) -> String {
        let op = &self.site.operands[i];
        let code = reindent(
            self.snippet(op.span),
            indent_at(self.text, op.span.start),
            indent,
        );
        match op.form {
            OperandForm::Other { needs_parens: true } => format!("({code}).await"),
            _ => format!("{code}.await"),
        }
    }

    fn is_multiline(&self, ops: &[usize]) -> bool {
        ops.iter()
            .any(|&i| self.snippet(self.site.operands[i].span).contains('\n'))
    }

    /// Names for the results of `ops` inside one block, colliding with no identifier of theirs.
    fn result_names(&self, ops: &[usize]) -> Vec<String> {
        let code: Vec<&str> = ops
            .iter()
            .map(|&i| self.snippet(self.site.operands[i].span))
            .collect();
        let taken = identifiers(&code.join(" ")).unwrap_or_default();
        fresh_names("r", ops.len(), &taken)
    }

    /// Statements of a block that awaits `ops` in order and ends with their results: a tuple,
    /// or for fallible sites `Ok` of that tuple with the last operand's error type (the block
    /// then needs no annotation). Each statement is laid out for `indent`.
    fn block_statements(&self, ops: &[usize], indent: &str) -> Vec<String> {
        if !self.fallible {
            let parts: Vec<String> = ops.iter().map(|&i| self.awaited(i, indent)).collect();
            return vec![format!("{}{}{}", self.open, parts.join(", "), self.close)];
        }
        let names = self.result_names(ops);
        let (last, init) = ops.split_last().expect("two operands or more");
        let mut out: Vec<String> = init
            .iter()
            .zip(&names)
            .map(|(&i, name)| format!("let {name} = {}?;", self.awaited(i, indent)))
            .collect();
        let last_name = &names[init.len()];
        out.push(format!(
            "{}.map(|{last_name}| {}{}{})",
            self.awaited(*last, indent),
            self.open,
            names.join(", "),
            self.close
        ));
        out
    }

    /// `async { … }` awaiting `ops` in order, on one line or laid out at `indent`.
    fn async_block(&self, ops: &[usize], indent: &str, multiline: bool) -> String {
        if !multiline {
            let stmts = self.block_statements(ops, indent);
            return format!("async {{ {} }}", stmts.join(" "));
        }
        let inner = format!("{indent}{}", indent_unit(indent));
        let stmts = self.block_statements(ops, &inner);
        let mut out = String::from("async {");
        for s in stmts {
            out.push_str(self.eol);
            out.push_str(&inner);
            out.push_str(&s);
        }
        out.push_str(self.eol);
        out.push_str(indent);
        out.push('}');
        out
    }

    // ----- every operand in order ---------------------------------------------------------

    fn sequential(&self) -> Option<Rewrite> {
        let site = self.site;
        let usage = &site.usage;
        let all: Vec<usize> = (0..site.operands.len()).collect();
        let done = |edit: Edit, region: Span, becomes_async_block: bool| Rewrite {
            edits: vec![edit],
            partial: false,
            serialised: all.clone(),
            becomes_async_block,
            drops_comments: self.glue_has_comment(region),
        };
        let split = |stmt: Span, lines: Vec<String>| {
            let (code, drops_comments) = self.statements(stmt, lines);
            Rewrite {
                edits: vec![Edit::replace(stmt, code)],
                partial: false,
                serialised: all.clone(),
                becomes_async_block: false,
                drops_comments,
            }
        };
        let q = if self.fallible { "?" } else { "" };
        let complete = self.in_place() && usage.question_mark == self.fallible;

        // `let (a, b) = try_join!(fa, fb)?;` → `let a = fa.await?;` `let b = fb.await?;`
        if let Some(binding) = site.binding.as_ref().filter(|b| b.splittable && complete) {
            if let Some(elements) = binding.elements.as_ref().filter(|e| e.len() == all.len()) {
                let indent = indent_at(self.text, binding.stmt.start);
                let lines: Vec<String> = all
                    .iter()
                    .map(|&i| format!("let {} = {}{q};", elements[i], self.awaited(i, indent)))
                    .collect();
                return Some(split(binding.stmt, lines));
            }
        }
        // `try_join!(fa, fb)?;` → `fa.await?;` `fb.await?;`
        if let Some(stmt) = usage.statement.filter(|_| complete) {
            let indent = indent_at(self.text, stmt.start);
            let lines: Vec<String> = all
                .iter()
                .map(|&i| format!("{}{q};", self.awaited(i, indent)))
                .collect();
            return Some(split(stmt, lines));
        }
        let indent = indent_at(self.text, usage.span.start);
        let multiline = self.is_multiline(&all);
        // On one line when it fits.
        let laid_out = |code: &dyn Fn(bool) -> String| {
            let one_line = code(multiline);
            if multiline || self.fits(usage.span, &one_line) {
                one_line
            } else {
                code(true)
            }
        };
        if !self.in_place() {
            // A join function's future kept for later: an `async` block doing the same work.
            let block = laid_out(&|m| self.async_block(&all, indent, m));
            return Some(done(Edit::replace(usage.span, block), usage.span, true));
        }
        if self.fallible && !usage.question_mark {
            // The `Result` is kept: an `async` block awaited in place returns the same one.
            let block = laid_out(&|m| format!("{}.await", self.async_block(&all, indent, m)));
            return Some(done(Edit::replace(usage.span, block), usage.span, false));
        }
        // Anywhere else: a tuple (or `Vec`) of awaits, evaluated left to right.
        let tuple = laid_out(&|m| self.tuple(&all, indent, m, q));
        Some(done(Edit::replace(usage.span, tuple), usage.span, false))
    }

    /// Would `code` replacing `span` keep its line within [`MAX_WIDTH`] characters?
    fn fits(&self, span: Span, code: &str) -> bool {
        let before = &self.text[super::text::line_start(self.text, span.start)..span.start];
        let after = self.text[span.end..].split('\n').next().unwrap_or("");
        before.chars().count() + code.chars().count() + after.trim_end().chars().count()
            <= MAX_WIDTH
    }

    /// `(a.await?, b.await?)` (or `vec![..]`), on one line or one operand per line.
    fn tuple(&self, all: &[usize], indent: &str, multiline: bool, q: &str) -> String {
        if multiline {
            let inner = format!("{indent}{}", indent_unit(indent));
            let mut out = String::from(self.open);
            for &i in all {
                out.push_str(self.eol);
                out.push_str(&inner);
                out.push_str(&self.awaited(i, &inner));
                out.push_str(q);
                out.push(',');
            }
            out.push_str(self.eol);
            out.push_str(indent);
            out.push_str(self.close);
            out
        } else {
            let parts: Vec<String> = all
                .iter()
                .map(|&i| format!("{}{q}", self.awaited(i, indent)))
                .collect();
            format!("{}{}{}", self.open, parts.join(", "), self.close)
        }
    }

    /// The code replacing `stmt`: one statement per operand (`lines[i]` for operand `i`), on
    /// lines of their own at the statement's indentation when it starts its line, else
    /// separated by spaces. The comments written in `stmt` outside the operands are kept: those
    /// on the line where an operand ends go after its statement, the others on lines of their
    /// own before the next statement. Also says whether comments are dropped (only when the
    /// statement shares its line with other code: a line comment would swallow what follows).
    fn statements(&self, stmt: Span, lines: Vec<String>) -> (String, bool) {
        let ops = &self.site.operands;
        let n = ops.len();
        let mut leading: Vec<Vec<&str>> = vec![Vec::new(); n];
        let mut trailing: Vec<Vec<&str>> = vec![Vec::new(); n];
        let mut after: Vec<&str> = Vec::new();
        for k in 0..=n {
            let from = if k == 0 {
                stmt.start
            } else {
                ops[k - 1].span.end
            };
            let to = if k == n { stmt.end } else { ops[k].span.start };
            let Some(glue) = self.text.get(from..to) else {
                continue;
            };
            for r in comments(glue) {
                let same_line = k > 0 && !glue[..r.start].contains('\n');
                let c = &glue[r];
                if same_line {
                    trailing[k - 1].push(c);
                } else if k == n {
                    after.push(c);
                } else {
                    leading[k].push(c);
                }
            }
        }
        let any_comment =
            !after.is_empty() || leading.iter().chain(&trailing).any(|c| !c.is_empty());
        if !starts_line(self.text, stmt.start) {
            return (lines.join(" "), any_comment);
        }
        let mut parts: Vec<String> = Vec::new();
        for (k, line) in lines.into_iter().enumerate() {
            parts.extend(leading[k].iter().map(|c| c.to_string()));
            let mut line = line;
            for c in &trailing[k] {
                line.push(' ');
                line.push_str(c);
            }
            parts.push(line);
        }
        parts.extend(after.iter().map(|c| c.to_string()));
        let indent = indent_at(self.text, stmt.start);
        (parts.join(&format!("{}{indent}", self.eol)), false)
    }

    // ----- only the groups in order ---------------------------------------------------------

    fn partial(&self, groups: &[Vec<usize>]) -> Option<Rewrite> {
        let site = self.site;
        if !matches!(site.kind, SiteKind::JoinMacro { .. }) {
            return None;
        }
        let usage = &site.usage;
        if usage.question_mark != self.fallible {
            return None;
        }
        // The site's value must keep its meaning: discarded by a statement, or destructured
        // by a `let` whose tuple pattern can be regrouped.
        let elements = match &site.binding {
            Some(b) if b.splittable => Some(
                b.elements
                    .as_ref()
                    .filter(|e| e.len() == site.operands.len())?,
            ),
            Some(_) => return None,
            None if usage.statement.is_some() => None,
            None => return None,
        };
        // Moving an operand into an `async` block changes what `?`, `return`, `break` and
        // `continue` written in it leave; an `async` block operand keeps its own.
        for g in groups {
            for &i in g {
                let op = &site.operands[i];
                if op.form == OperandForm::AsyncBlock {
                    continue;
                }
                let code = self.snippet(op.span);
                if has_token(code, &["?", "return", "break", "continue"]) != Some(false) {
                    return None;
                }
            }
        }
        // The new operands, in the order of their first member.
        let n = site.operands.len();
        let mut units: Vec<Vec<usize>> = groups.to_vec();
        for i in 0..n {
            if !groups.iter().any(|g| g.contains(&i)) {
                units.push(vec![i]);
            }
        }
        units.sort_by_key(|u| u[0]);

        let first = site.operands.first()?.span;
        let last = site.operands.last()?.span;
        let region = self.span(first.start, last.end);
        let operand_list = |indent: &str, multiline: bool| {
            let parts: Vec<String> = units
                .iter()
                .map(|u| match u.as_slice() {
                    [single] => reindent(
                        self.snippet(site.operands[*single].span),
                        indent_at(self.text, site.operands[*single].span.start),
                        indent,
                    ),
                    group => self.async_block(group, indent, multiline),
                })
                .collect();
            let separator = if multiline {
                format!(",{}{indent}", self.eol)
            } else {
                ", ".to_string()
            };
            parts.join(&separator)
        };
        let code = if self.snippet(region).contains('\n') {
            // Already one operand per line: keep that layout.
            operand_list(indent_at(self.text, first.start), true)
        } else {
            let one_line = operand_list(indent_at(self.text, first.start), false);
            let enclosed = self.text[..region.start].ends_with('(')
                && self.text[region.end..].starts_with(')');
            if self.fits(region, &one_line) || !enclosed {
                one_line
            } else {
                // `join!(` and `)` on lines of their own, one operand per line between.
                let outer = indent_at(self.text, region.start);
                let inner = format!("{outer}{}", indent_unit(outer));
                let list = operand_list(&inner, true);
                format!("{eol}{inner}{list},{eol}{outer}", eol = self.eol)
            }
        };
        let mut edits = vec![Edit::replace(region, code)];
        let mut drops_comments = self.glue_has_comment(region);
        if let (Some(elements), Some(binding)) = (elements, &site.binding) {
            let pattern: Vec<String> = units
                .iter()
                .map(|u| match u.as_slice() {
                    [single] => elements[*single].clone(),
                    group => format!(
                        "({})",
                        group
                            .iter()
                            .map(|&i| elements[i].as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })
                .collect();
            edits.push(Edit::replace(
                binding.pattern,
                format!("({})", pattern.join(", ")),
            ));
            drops_comments |= has_comment(self.snippet(binding.pattern));
        }
        Some(Rewrite {
            edits,
            partial: true,
            serialised: groups.iter().flatten().copied().collect(),
            becomes_async_block: false,
            drops_comments,
        })
    }
}
