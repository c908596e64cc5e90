//! Loops: which code runs again (a write retried after it was cancelled), and which loops drain
//! a channel receiver, making their body the single consumer of the messages sent to it.

use super::ident_in;
use proc_macro2::TokenTree;
use syn::visit::Visit;
use syn::{Expr, Pat};

use super::{strip, strip_pat, Builder};

/// Methods that take the next message of a channel receiver.
const RECV: &[&str] = &[
    "recv",
    "recv_async",
    "recv_many",
    "blocking_recv",
    "recv_timeout",
];

/// Functions that make a channel: `(sender, receiver)`.
const CHANNEL_FNS: &[&str] = &[
    "channel",
    "unbounded_channel",
    "unbounded",
    "bounded",
    "sync_channel",
];

/// Types of channel receivers (and streams over them).
const RECEIVER_TYPES: &[&str] = &[
    "Receiver",
    "UnboundedReceiver",
    "ReceiverStream",
    "UnboundedReceiverStream",
];

/// A loop as its visit records it (see [`crate::model::order::Loop`]).
pub(super) struct LoopHead<'a> {
    pub(super) span: crate::source::Span,
    pub(super) label: Option<&'a syn::Label>,
    /// `for` and `while` may run no pass; `loop` runs at least one.
    pub(super) may_skip: bool,
}

impl Builder<'_> {
    /// Visit the body of a loop: code that runs any number of times.
    fn in_loop(&mut self, head: LoopHead<'_>, f: impl FnOnce(&mut Self)) {
        let id = self.next_branch();
        let body = self.body;
        let first_local = self.next_id + 1;
        let first_varying = self.varying.borrow().len();
        self.loops.push(id);
        self.loop_bodies.push(self.body);
        self.loop_labels
            .push(head.label.map(|l| l.name.ident.to_string()));
        f(self);
        self.loop_labels.pop();
        self.loop_bodies.pop();
        self.loops.pop();
        let locals = first_local..self.next_id + 1;
        // Bindings made in the loop are its locals already.
        let mut varying: Vec<u64> = self.varying.borrow()[first_varying..]
            .iter()
            .copied()
            .filter(|b| !(first_local..self.next_id + 1).contains(b))
            .collect();
        varying.sort_unstable();
        varying.dedup();
        self.facts.loops.push(crate::model::order::Loop {
            id,
            span: head.span,
            body,
            locals,
            varying,
            may_skip: head.may_skip,
        });
    }

    /// Visit a loop's body (and, for `while`, its condition) with the loop open; `drains` when
    /// the loop takes one message of a channel per iteration.
    pub(super) fn in_drain_loop(
        &mut self,
        drains: bool,
        head: LoopHead<'_>,
        f: impl FnOnce(&mut Self),
    ) {
        if drains {
            self.channel_loops.push(self.body);
        }
        self.in_loop(head, f);
        if drains {
            self.channel_loops.pop();
        }
    }

    /// Code at this point runs again on the next iteration of a loop of its own body.
    pub(super) fn is_in_loop(&self) -> bool {
        self.loop_bodies.contains(&self.body)
    }

    /// Code at `span` is (part of) the operand of a `?` of the same body.
    pub(super) fn is_propagated(&self, span: crate::source::Span) -> bool {
        self.try_operands
            .iter()
            .any(|(body, operand)| *body == self.body && operand.contains(&span))
    }

    /// `while let Some(m) = rx.recv().await`, `while let Some(m) = stream.next().await` on a
    /// receiver stream, `for m in rx`, `loop { .. rx.recv().await .. }`.
    pub(super) fn drains_channel(&self, head: &Expr) -> bool {
        let mut finder = RecvFinder {
            builder: self,
            found: false,
        };
        finder.visit_expr(head);
        finder.found || self.is_receiver(head)
    }

    /// A `loop` body that takes a message of a channel (at any depth of its own body, `select!`
    /// arms included).
    pub(super) fn block_drains_channel(&self, block: &syn::Block) -> bool {
        let mut finder = RecvFinder {
            builder: self,
            found: false,
        };
        finder.visit_block(block);
        finder.found
    }

    /// `rx`, `rx.iter()`, `rx.into_iter()` where `rx` is a known receiver.
    fn is_receiver(&self, expr: &Expr) -> bool {
        match strip(expr) {
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.lookup(&i.to_string()))
                .is_some_and(|b| self.receivers.contains(&b.id)),
            Expr::MethodCall(m) => {
                ident_in(&m.method, &["iter", "into_iter", "try_iter", "next"])
                    && self.is_receiver(&m.receiver)
            }
            Expr::Await(a) => self.is_receiver(&a.base),
            _ => false,
        }
    }

    /// After `let (tx, rx) = mpsc::channel(..)` or `let rx = ReceiverStream::new(rx)`: remember
    /// the receiver.
    pub(super) fn note_receivers(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            return;
        };
        let Expr::Call(call) = strip(&init.expr) else {
            return;
        };
        let Expr::Path(p) = strip(&call.func) else {
            return;
        };
        let segments = crate::model::sites::segments(&p.path);
        let receiver_name = match (segments.as_slice(), strip_pat(&local.pat)) {
            ([.., f], Pat::Tuple(t)) if CHANNEL_FNS.contains(&f.as_str()) && t.elems.len() == 2 => {
                match strip_pat(&t.elems[1]) {
                    Pat::Ident(i) => Some(i.ident.to_string()),
                    _ => None,
                }
            }
            ([.., ty, f], Pat::Ident(i)) if f == "new" && RECEIVER_TYPES.contains(&ty.as_str()) => {
                Some(i.ident.to_string())
            }
            _ => None,
        };
        if let Some(id) = receiver_name.and_then(|n| self.lookup(&n)).map(|b| b.id) {
            self.receivers.insert(id);
        }
    }

    /// `let c: Type = ..`, `let c = Type { .. }`, `let (rx, task) = manager.watch().await`:
    /// method calls on the bindings are resolved by these types (see [`super::types`]).
    /// `before` is the initialiser's type read before the `let` bound its names, for a
    /// binding that shadows the one it is made from.
    pub(super) fn note_local_type(&mut self, local: &syn::Local, before: super::types::ExprType) {
        if let (Pat::Tuple(t), Some(init)) = (&local.pat, &local.init) {
            if let Some(types) = self.join_element_types(&init.expr) {
                for (p, ty) in t.elems.iter().zip(types) {
                    self.type_pattern(p, ty);
                }
                return;
            }
        }
        let ty = local
            .init
            .as_ref()
            .map(|i| self.expr_type(&i.expr))
            .filter(|ty| *ty != super::types::ExprType::default())
            .unwrap_or(before);
        self.type_pattern(&local.pat, ty);
    }

    /// A parameter typed `Receiver<T>` (or `mpsc::UnboundedReceiver<T>`, …).
    pub(super) fn note_receiver_param(&mut self, name: &str, ty: &syn::Type) {
        let is_receiver = match ty {
            syn::Type::Path(p) => p
                .path
                .segments
                .last()
                .is_some_and(|s| ident_in(&s.ident, RECEIVER_TYPES)),
            syn::Type::Reference(r) => matches!(&*r.elem, syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| ident_in(&s.ident, RECEIVER_TYPES))),
            _ => false,
        };
        if is_receiver {
            if let Some(id) = self.lookup(name).map(|b| b.id) {
                self.receivers.insert(id);
            }
        }
    }
}

/// Finds a message taken from a channel: `x.recv()` and friends, or `next()` of a known
/// receiver; not inside closures or `async` blocks (other bodies).
struct RecvFinder<'b, 'a> {
    builder: &'b Builder<'a>,
    found: bool,
}

impl<'ast> Visit<'ast> for RecvFinder<'_, '_> {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        if RECV.contains(&name.as_str())
            || (name == "next" && self.builder.is_receiver(&m.receiver))
        {
            self.found = true;
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // `select! { Some(m) = rx.recv() => .. }`: `.recv(` in the tokens.
        fn walk(tokens: proc_macro2::TokenStream) -> bool {
            let tokens: Vec<TokenTree> = tokens.into_iter().collect();
            tokens.windows(3).any(|w| {
                matches!((&w[0], &w[1], &w[2]),
                    (TokenTree::Punct(p), TokenTree::Ident(i), TokenTree::Group(g))
                        if p.as_char() == '.'
                            && ident_in(i, RECV)
                            && g.delimiter() == proc_macro2::Delimiter::Parenthesis)
            }) || tokens.iter().any(|t| match t {
                TokenTree::Group(g) => walk(g.stream()),
                _ => false,
            })
        }
        if walk(m.tokens.clone()) {
            self.found = true;
        }
    }
}
