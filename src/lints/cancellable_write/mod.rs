//! `cancellable-write`: a write whose future can be dropped after its request was sent.
//!
//! What it does: finds writes in the futures of `select!` arms (not their handlers), of
//! `futures::future::select`/`select_all`/`select_ok`, under `tokio::time::timeout`, in aborted
//! tasks and in `Abortable` futures; reported when the code then writes the same object again,
//! or retries, as if the first write had not happened (a function making it called again by a
//! caller in the file counts too). One that nothing follows is `unknown`: no second request.
//! A write whose body carries the `resourceVersion` the code read (`Request::is_guarded`) is
//! `unknown`: landing late, it fails with 409 Conflict, so the code finds out.
//! Why is this bad: a request future dropped after the request reached the API server does not
//! undo it: the caller cannot know whether the write took effect.
//!
//! The declaration and the check here; the futures that can be dropped and what follows them
//! are found in [`cancellables`], the finding of each write is worded in [`message`].

mod cancellables;
mod message;

use super::{Check, Level, Lint, LintContext, Reads};
use crate::diagnostic::Diagnostic;
use crate::edit::Applicability;
use cancellables::cancellables;
use message::report_write;

pub const LINT: Lint = Lint {
    name: "cancellable-write",
    default_level: Level::Warn,
    fixes: &[Applicability::DisplayOnly],
    summary: "a write's future can be dropped after its request was sent (select, timeout, abort)",
    doc: include_str!("../../../lints/cancellable-write.md"),
    reads: &[Reads::Sites, Reads::Timeouts],
    check: Check::Model(check),
};

fn check(cx: &LintContext<'_>, out: &mut Vec<Diagnostic>) {
    let mut found: Vec<Diagnostic> = Vec::new();
    for c in cancellables(cx) {
        for (index, write) in cx
            .model
            .operand_requests(c.future)
            .into_iter()
            .filter(|(_, r)| r.is_write() && !r.is_controllers())
        {
            let Some(d) = report_write(cx, &c, index, &write) else {
                continue;
            };
            // One finding per write (a write under a timeout in a `select!` arm): the most
            // certain, the first found on ties.
            match found.iter_mut().find(|f| f.primary.span == d.primary.span) {
                Some(f) if d.confidence > f.confidence => *f = d,
                Some(_) => {}
                None => found.push(d),
            }
        }
    }
    out.extend(found);
}
