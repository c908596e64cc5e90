//! How the arms of `if`, `match` and `let .. else` end: leaving the body, breaking out of a loop
//! or continuing it (the arms the order of requests depends on).

use syn::visit::Visit;
use syn::Expr;

use super::{ident_in, Builder};
use crate::source::Span;

impl Builder<'_> {
    /// Record an arm (of an `if`/`match`, a `let`'s `else`; `id`: its construct and index)
    /// that leaves its body or a loop at its end. Leaving a loop by `break` or `continue` leaves
    /// the loops inside it too.
    pub(super) fn note_arm_end(&mut self, arm: Span, id: (u32, u32), end: ArmEnd) {
        let own = self.own_loops();
        let target = |label: &Option<String>| match label {
            None => own.len().checked_sub(1),
            // Not found: the label of a block, which no loop is left for.
            Some(name) => own
                .iter()
                .rposition(|(_, l)| l.as_deref() == Some(name.as_str())),
        };
        let (left, continued) = match &end {
            ArmEnd::Leaves => {
                self.facts.exiting_arms.push((arm, self.body));
                self.note_exit(id);
                return;
            }
            ArmEnd::Breaks(label) => (target(label), None),
            ArmEnd::Continues(label) => (target(label).map(|t| t + 1), target(label)),
            // Some diverging way not known (a call that never returns, a nested `if`): in a
            // loop, taken to skip only the rest of the pass, which keeps every later pass.
            ArmEnd::Diverges if own.is_empty() => {
                self.facts.exiting_arms.push((arm, self.body));
                self.note_exit(id);
                return;
            }
            ArmEnd::Diverges => (None, Some(own.len() - 1)),
            ArmEnd::Falls => return,
        };
        if let Some(c) = continued {
            self.facts.continuing_arms.push((arm, own[c].0));
        }
        if let Some(from) = left {
            for (l, _) in &own[from..] {
                self.facts.breaking_arms.push((arm, *l));
            }
        }
    }

    /// `let .. else { .. }`: the `else` block is an arm of its own, which always leaves.
    pub(super) fn visit_let_else(&mut self, diverge: &Expr) {
        let id = self.next_branch();
        self.branches.push((id, 1));
        self.visit_expr(diverge);
        self.branches.pop();
        let end = match ArmEnd::of(diverge) {
            ArmEnd::Falls => ArmEnd::Diverges,
            end => end,
        };
        self.note_arm_end(self.span(diverge), (id, 1), end);
    }

    /// An arm that leaves its body: the code of the body after it runs only when the arm (and
    /// the arms around it) is not taken (see [`crate::model::BlockingCall::exits_before`]).
    fn note_exit(&mut self, arm: (u32, u32)) {
        let mut path = self.branches.clone();
        path.push(arm);
        self.exits.push((self.body, path));
    }

    /// The loops open in this body with their labels, outermost first (closures and `async`
    /// blocks made in a loop do not leave it by `break` or `continue`).
    fn own_loops(&self) -> Vec<(u32, Option<String>)> {
        let open = self
            .loops
            .iter()
            .zip(&self.loop_bodies)
            .zip(&self.loop_labels);
        open.filter(|((_, b), _)| **b == self.body)
            .map(|((l, _), label)| (*l, label.clone()))
            .collect()
    }
}

/// How an arm ends, when it leaves (closures and `async` blocks are other bodies, and are not
/// looked into).
#[derive(Clone, PartialEq, Eq)]
pub(super) enum ArmEnd {
    /// `return`, a panic: the function, closure or `async` block is left.
    Leaves,
    /// `break`: the innermost loop, or the one labelled so, is left.
    Breaks(Option<String>),
    /// `continue`: the rest of the pass of the innermost loop, or the one labelled so, is
    /// skipped.
    Continues(Option<String>),
    /// A `let`'s `else` not ending in one of these: it diverges some other way.
    Diverges,
    Falls,
}

impl ArmEnd {
    pub(super) fn of(expr: &Expr) -> ArmEnd {
        let label = |l: &Option<syn::Lifetime>| l.as_ref().map(|l| l.ident.to_string());
        match expr {
            Expr::Return(_) => ArmEnd::Leaves,
            Expr::Break(b) => ArmEnd::Breaks(label(&b.label)),
            Expr::Continue(c) => ArmEnd::Continues(label(&c.label)),
            Expr::Block(b) => block_tail(&b.block),
            Expr::Macro(m) if is_panic_macro(&m.mac) => ArmEnd::Leaves,
            _ => ArmEnd::Falls,
        }
    }
}

pub(super) fn block_tail(block: &syn::Block) -> ArmEnd {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(e, _)) => ArmEnd::of(e),
        Some(syn::Stmt::Macro(m)) if is_panic_macro(&m.mac) => ArmEnd::Leaves,
        _ => ArmEnd::Falls,
    }
}

/// `panic!`, `unreachable!`, `todo!`, `unimplemented!`: code after them does not run.
pub(super) fn is_panic_macro(mac: &syn::Macro) -> bool {
    mac.path
        .segments
        .last()
        .is_some_and(|s| ident_in(&s.ident, &["panic", "unreachable", "todo", "unimplemented"]))
}
