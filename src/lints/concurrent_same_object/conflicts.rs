//! The pairs of requests of a site that may touch the same object, and the operands they tie
//! together.

use super::LintContext;
use crate::model::object_index::ObjectIndex;
use crate::model::{Batch, Confidence, ObjectName, Request, Site};

/// Two requests of one site that may touch the same object.
pub(super) struct Conflict<'s> {
    pub(super) first: Request,
    pub(super) second: Request,
    pub(super) confidence: Confidence,
    /// The operands making the two requests (the same one for a batch with itself).
    pub(super) operands: (usize, usize),
    /// Both come from one batch operand, for different elements.
    pub(super) batch: Option<BatchPair<'s>>,
}

pub(super) struct BatchPair<'s> {
    pub(super) batch: &'s Batch,
    /// The same request, made once per element.
    pub(super) same_request: bool,
    /// Both objects are computed from the element (reported only with batch checking).
    pub(super) keyed: bool,
}

pub(super) fn conflicts<'s>(cx: &LintContext<'_>, site: &'s Site) -> Vec<Conflict<'s>> {
    let operands: Vec<Vec<(usize, Request)>> = site
        .operands
        .iter()
        .map(|op| cx.model.operand_requests(op))
        .collect();
    let mut found = Vec::new();
    // Requests of different operands run concurrently. Each operand is compared only with the
    // later ones that may touch one of its objects: a `join!` of thousands of operands on
    // different objects would be millions of pairs.
    let mut by_object = ObjectIndex::default();
    for (i, reqs) in operands.iter().enumerate() {
        reqs.iter().for_each(|(_, r)| by_object.add(i, r));
    }
    for (i, a_reqs) in operands.iter().enumerate() {
        let candidates = by_object.candidates(a_reqs.iter().map(|(_, r)| r));
        for j in candidates.into_iter().filter(|&j| j > i) {
            let b_reqs = &operands[j];
            for (_, a) in a_reqs {
                for (_, b) in b_reqs {
                    if !a.is_write() && !b.is_write() {
                        continue;
                    }
                    if let Some(confidence) = a.same_object(b) {
                        found.push(Conflict {
                            first: a.clone(),
                            second: b.clone(),
                            confidence,
                            operands: (i, j),
                            batch: None,
                        });
                    }
                }
            }
        }
    }
    // A batch runs its requests once per element, the elements concurrently.
    for (i, (op, reqs)) in site.operands.iter().zip(&operands).enumerate() {
        let Some(batch) = &op.batch else { continue };
        for (x, (ia, a)) in reqs.iter().enumerate() {
            for (ib, b) in &reqs[x..] {
                if let Some(mut c) = batch_conflict(cx, batch, (*ia, a), (*ib, b)) {
                    c.operands = (i, i);
                    found.push(c);
                }
            }
        }
    }
    found
}

/// Request `a` for one element and `b` for another.
fn batch_conflict<'s>(
    cx: &LintContext<'_>,
    batch: &'s Batch,
    (ia, a): (usize, &Request),
    (ib, b): (usize, &Request),
) -> Option<Conflict<'s>> {
    if !a.is_write() && !b.is_write() {
        return None;
    }
    let mut confidence = a.same_object(b)?;
    let keyed = batch.keys(a) && batch.keys(b);
    if keyed {
        // Different elements normally name different objects.
        if !cx.batch_checking {
            return None;
        }
        confidence = confidence.min(Confidence::Possible);
    } else if batch.keys(a) || batch.keys(b) || varies(batch, a) || varies(batch, b) {
        confidence = confidence.min(Confidence::Possible);
    }
    Some(Conflict {
        first: a.clone(),
        second: b.clone(),
        confidence,
        operands: (0, 0),
        batch: Some(BatchPair {
            batch,
            same_request: ia == ib && a.span == b.span,
            keyed,
        }),
    })
}

/// The object name is rooted at a binding made anew for each element: not provably the same.
fn varies(batch: &Batch, r: &Request) -> bool {
    match &r.object {
        ObjectName::One { name, .. } => batch.is_local(name),
        ObjectName::All => false,
    }
}

/// Operands that must run in order: connected by conflicts, each group in written order.
pub(super) fn conflict_groups(operands: usize, conflicts: &[Conflict<'_>]) -> Vec<Vec<usize>> {
    // Union-find over operand indices; tiny, so no ranks.
    let mut parent: Vec<usize> = (0..operands).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in conflicts {
        let (a, b) = (
            root(&mut parent, c.operands.0),
            root(&mut parent, c.operands.1),
        );
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..operands {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|g| g[0] == r) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.retain(|g| g.len() > 1);
    groups
}
