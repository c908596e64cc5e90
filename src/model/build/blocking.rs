//! Calls that block the thread until a future completes (`futures::executor::block_on`,
//! `Handle::block_on`, `Runtime::block_on`), and the functions that check where they run
//! (`Handle::try_current`, `block_in_place`).

use super::ident_in;
use syn::Expr;

use super::{path_text, strip, strip_parens, takes_postfix, Builder};
use crate::model::BlockingCall;

/// First segments of paths whose `block_on` is an executor's (`futures::executor::block_on`,
/// `pollster::block_on`, `tokio_test::block_on`).
const EXECUTOR_CRATES: &[&str] = &[
    "futures",
    "futures_executor",
    "futures_lite",
    "executor",
    "pollster",
    "async_std",
    "smol",
    "tokio_test",
    "tokio",
    "async_global_executor",
    "extreme",
];

/// Calls that make or name a runtime without other effects: dropping them from a receiver
/// changes nothing but that no runtime is made.
const RUNTIME_CONSTRUCTORS: &[&str] = &[
    "current",
    "new",
    "new_current_thread",
    "new_multi_thread",
    "enable_all",
    "enable_io",
    "enable_time",
    "worker_threads",
    "thread_name",
    "build",
    "unwrap",
    "expect",
    "handle",
    "clone",
    "as_ref",
    "borrow",
];

impl Builder<'_> {
    /// `block_on(fut)` as a path call: `futures::executor::block_on(fut)`, bare `block_on(fut)`
    /// (maybe a crate function: `entry` is its recorded call), `Handle::block_on(&h, fut)`.
    pub(super) fn blocking_path_call(&mut self, call: &syn::ExprCall, first: usize) {
        let Expr::Path(p) = strip(&call.func) else {
            return;
        };
        let segments = crate::model::sites::segments(&p.path);
        self.note_runtime_check(segments.last().map(String::as_str));
        let Some((last, prefix)) = segments.split_last() else {
            return;
        };
        if last != crate::model::known::BLOCK_ON {
            return;
        }
        // `Handle::block_on(&handle, fut)`: the future is the second argument.
        let on_type = prefix
            .last()
            .is_some_and(|t| t == "Handle" || t == "Runtime");
        let future = match (on_type, call.args.len()) {
            (true, 2) => &call.args[1],
            (false, 1) => &call.args[0],
            _ => return,
        };
        let known = on_type
            || prefix.is_empty()
            || prefix
                .first()
                .is_some_and(|f| EXECUTOR_CRATES.contains(&f.as_str()));
        if !known {
            // `util::block_on(..)`: a function of the crate, followed as a helper call.
            return;
        }
        let span = self.span(call);
        let entry = if prefix.is_empty() {
            (first..self.facts.requests.len()).find(|&i| self.facts.requests[i].span == span)
        } else {
            None
        };
        let spelling = format!("`{}`", path_text(&p.path));
        self.push_blocking(span, spelling, future, true, entry, first);
    }

    /// `receiver.block_on(fut)`: a tokio `Runtime` or `Handle`, or another executor.
    pub(super) fn blocking_method_call(&mut self, call: &syn::ExprMethodCall, first: usize) {
        let method = call.method.to_string();
        self.note_runtime_check(Some(&method));
        if method != crate::model::known::BLOCK_ON || call.args.len() != 1 {
            return;
        }
        let receiver = self.text(strip_parens(&call.receiver));
        let spelling = if receiver.len() <= 40 && !receiver.contains('\n') {
            format!("`{receiver}.block_on`")
        } else {
            "`block_on`".to_string()
        };
        let plain = is_plain_receiver(&call.receiver);
        let span = self.span(call);
        self.push_blocking(span, spelling, &call.args[0], plain, None, first);
    }

    fn push_blocking(
        &mut self,
        span: crate::source::Span,
        spelling: String,
        future: &Expr,
        receiver_is_plain: bool,
        entry: Option<usize>,
        first: usize,
    ) {
        let future_span = self.span(future);
        let mut requests: Vec<usize> = self
            .requests_within(future_span, first)
            .into_iter()
            .chain(
                self.futs(self.eval(future, first))
                    .into_iter()
                    .flat_map(|f| f.requests),
            )
            .collect();
        requests.sort_unstable();
        requests.dedup();
        let line = self.source.line_col(span.start).0;
        self.facts.blocking.push(BlockingCall {
            span,
            line,
            spelling,
            future: future_span,
            future_needs_parens: !takes_postfix(strip_parens(future)),
            receiver_is_plain,
            entry,
            requests,
            body: self.body,
            branches: self.branches.clone(),
            exits_before: self.exits_before(),
        });
    }

    /// The arms of the body being built, met before the code visited now and not exclusive
    /// with it, that leave the body: their paths of branches.
    fn exits_before(&self) -> Vec<Vec<(u32, u32)>> {
        let exclusive = |path: &[(u32, u32)]| {
            path.iter().any(|(id, arm)| {
                self.branches
                    .iter()
                    .any(|(own, own_arm)| own == id && own_arm != arm)
            })
        };
        self.exits
            .iter()
            .filter(|(body, path)| *body == self.body && !exclusive(path))
            .map(|(_, path)| path.clone())
            .collect()
    }

    /// `Handle::try_current()`, `block_in_place(..)`, `runtime_flavor()`: the function knows
    /// whether it runs inside a runtime.
    fn note_runtime_check(&mut self, name: Option<&str>) {
        if !matches!(
            name,
            Some("try_current" | "block_in_place" | "runtime_flavor")
        ) {
            return;
        }
        if let Some(&k) = self.functions.last() {
            if let Some(f) = self.facts.functions.get_mut(k) {
                f.checks_runtime = true;
            }
        }
    }
}

/// A path, a field, or a chain of runtime constructors (`Handle::current()`,
/// `Runtime::new().unwrap()`, `Builder::new_current_thread().enable_all().build()?` is not:
/// its `?` returns early).
fn is_plain_receiver(expr: &Expr) -> bool {
    match strip_parens(expr) {
        Expr::Path(_) => true,
        Expr::Field(f) => is_plain_receiver(&f.base),
        Expr::Reference(r) => is_plain_receiver(&r.expr),
        Expr::MethodCall(m) => {
            ident_in(&m.method, RUNTIME_CONSTRUCTORS)
                && m.args.iter().all(is_literal_or_path)
                && is_plain_receiver(&m.receiver)
        }
        Expr::Call(c) => {
            c.args.iter().all(is_literal_or_path)
                && matches!(strip_parens(&c.func), Expr::Path(p)
                    if p.path.segments.last().is_some_and(|s| ident_in(&s.ident, RUNTIME_CONSTRUCTORS)))
        }
        _ => false,
    }
}

fn is_literal_or_path(expr: &Expr) -> bool {
    matches!(strip_parens(expr), Expr::Lit(_) | Expr::Path(_))
}
