//! The fix of a site: a rewrite that awaits the conflicting requests in order where one is
//! mechanically right, judged for what it may change, else the advice.

use super::conflicts::{conflict_groups, Conflict, Conflicts};
use super::message::{advice, group_advice};
use super::LintContext;
use crate::edit::{self, Applicability, Fix};
use crate::model::{Collection, OperandForm, Site, SiteKind};

/// The fix of a site, with its applicability and, unless safe, why: a rewrite where one is
/// mechanically right, else advice naming the requests (display-only, no edits).
pub(super) fn site_fix(
    cx: &LintContext<'_>,
    site: &Site,
    best: &Conflict<'_>,
    all: &Conflicts<'_>,
) -> (Fix, Option<String>) {
    let advice = || {
        (
            Fix::new(Applicability::DisplayOnly, advice(site, best), Vec::new()),
            None,
        )
    };
    match site.kind {
        SiteKind::JoinMacro { .. } | SiteKind::JoinFn { .. } => sequential_fix(cx, site, all),
        // Different elements normally name different objects: serialising them all would be
        // the wrong fix for most of them.
        _ if all
            .list
            .iter()
            .all(|c| c.batch.as_ref().is_some_and(|p| p.keyed)) =>
        {
            (
                Fix::new(Applicability::DisplayOnly, group_advice(best), Vec::new()),
                None,
            )
        }
        SiteKind::JoinAll { .. } => join_all_fix(cx, site).unwrap_or_else(advice),
        SiteKind::Buffered { .. } | SiteKind::ForEachConcurrent => {
            limit_fix(site).unwrap_or_else(advice)
        }
        _ => advice(),
    }
}

/// The fix of a join: the conflicting operands awaited in order (the others kept concurrent
/// when the site allows it).
fn sequential_fix(
    cx: &LintContext<'_>,
    site: &Site,
    conflicts: &Conflicts<'_>,
) -> (Fix, Option<String>) {
    let groups = conflict_groups(site.operands.len(), conflicts);
    let Some(rewrite) = edit::sequential::rewrite(cx.source, site, &groups) else {
        let fix = Fix::new(
            Applicability::DisplayOnly,
            "await the requests one after another, in the order written",
            Vec::new(),
        );
        return (
            fix,
            Some("the tool cannot rewrite this form of join".into()),
        );
    };
    let message = if rewrite.partial {
        "await the conflicting requests one after another and keep the others concurrent"
    } else {
        "await the requests one after another, in the order written"
    };
    let forms = rewrite.serialised.iter().map(|&i| site.operands[i].form);
    let (applicability, why) = judge(site, forms, &(&rewrite).into());
    (Fix::new(applicability, message, rewrite.edits), why)
}

/// The fix of a `join_all`/`try_join_all`: its futures awaited one after another — written
/// out as a `vec![..]` of awaits when they are listed, else in a `for` loop. None when the
/// tool cannot rewrite its form.
fn join_all_fix(cx: &LintContext<'_>, site: &Site) -> Option<(Fix, Option<String>)> {
    let message = "await the futures one after another, in the order of the collection";
    match site.collection.as_ref()? {
        Collection::Listed(elements) => {
            let listed = Site {
                operands: elements.clone(),
                ..site.clone()
            };
            let all: Vec<usize> = (0..elements.len()).collect();
            let rewrite = edit::sequential::rewrite(cx.source, &listed, &[all])?;
            let forms = rewrite.serialised.iter().map(|&i| elements[i].form);
            let (applicability, why) = judge(site, forms, &(&rewrite).into());
            Some((Fix::new(applicability, message, rewrite.edits), why))
        }
        collection => {
            let rewrite = edit::batch::await_each(cx.source, site)?;
            let forms: Vec<OperandForm> = match collection {
                Collection::Mapped(m) => vec![m.body_form],
                _ => site.operands.iter().map(|o| o.form).collect(),
            };
            let loss = Loss {
                drops_comments: rewrite.drops_comments,
                ..Loss::default()
            };
            let (applicability, why) = judge(site, forms.into_iter(), &loss);
            Some((Fix::new(applicability, message, vec![rewrite.edit]), why))
        }
    }
}

/// The fix of a stream that polls several futures at once: a limit of one.
fn limit_fix(site: &Site) -> Option<(Fix, Option<String>)> {
    let limit = site.limit?;
    let method = site.spelling.trim_matches('`');
    let forms = site.operands.iter().map(|o| o.form);
    let (applicability, why) = judge(site, forms, &Loss::default());
    let call = match site.kind {
        SiteKind::ForEachConcurrent => format!("{method}(1, ..)"),
        _ => format!("{method}(1)"),
    };
    let message = format!("run one future at a time, in the order of the stream: `{call}`");
    let edits = vec![edit::Edit::replace(limit, "1")];
    Some((Fix::new(applicability, message, edits), why))
}

/// What a rewrite loses besides the concurrency.
#[derive(Default)]
struct Loss {
    /// The site's future is kept for later and becomes an `async` block.
    becomes_async_block: bool,
    drops_comments: bool,
}

impl From<&edit::sequential::Rewrite> for Loss {
    fn from(r: &edit::sequential::Rewrite) -> Loss {
        Loss {
            becomes_async_block: r.becomes_async_block,
            drops_comments: r.drops_comments,
        }
    }
}

/// How far a rewrite that awaits futures of these forms one after another can be trusted,
/// and why not more.
fn judge(
    site: &Site,
    mut forms: impl Iterator<Item = OperandForm>,
    rewrite: &Loss,
) -> (Applicability, Option<String>) {
    let opaque = forms.any(|f| f != OperandForm::Request);
    let mut unsafe_because = Vec::new();
    if matches!(site.kind, SiteKind::Buffered { .. }) && stops_at_first_error(site) {
        unsafe_because.push(format!(
            "after an error, a consumer that stops at it (`try_collect`, `?`) never sends the requests after the failing one, where {} may have sent them",
            site.spelling
        ));
    } else if stops_at_first_error(site) {
        unsafe_because.push(format!(
            "after an error, the requests after the failing one are never sent, where {} may have sent them",
            site.spelling
        ));
    }
    if opaque {
        unsafe_because.push(
            "a future that is not a plain request may wait for another one (a channel, a lock) and then never finish when they are awaited in order"
                .to_string(),
        );
    }
    if rewrite.becomes_async_block {
        (
            Applicability::DisplayOnly,
            Some(format!(
                "the future of {} is kept for later, and an `async` block has another type (it is not `Unpin`)",
                site.spelling
            )),
        )
    } else if rewrite.drops_comments {
        (
            Applicability::DisplayOnly,
            Some(format!(
                "it would drop the comments written inside {}",
                site.spelling
            )),
        )
    } else if !unsafe_because.is_empty() {
        (Applicability::Unsafe, Some(unsafe_because.join("; ")))
    } else {
        (Applicability::Safe, None)
    }
}

/// `try_join!`, `try_join_all`, and the `try_` streams: they stop at the first error (the
/// stream methods are spelled as written, `try_buffered`, `try_for_each_concurrent`).
fn stops_at_first_error(site: &Site) -> bool {
    site.kind.is_fallible()
        || (matches!(
            site.kind,
            SiteKind::Buffered { .. } | SiteKind::ForEachConcurrent
        ) && site.spelling.starts_with("`try_"))
}
