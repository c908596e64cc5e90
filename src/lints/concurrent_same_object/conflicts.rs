//! The pairs of requests of a site that may touch the same object, and the operands they tie
//! together.

use std::collections::HashMap;
use std::rc::Rc;

use super::LintContext;
use crate::model::object_index::ObjectIndex;
use crate::model::{Batch, Confidence, ObjectName, Request, Site};

/// Two requests of one site that may touch the same object.
pub(super) struct Conflict<'s> {
    /// Shared with the other pairs of the site: a `join!` of thousands of operands on a few
    /// objects has tens of thousands of pairs.
    pub(super) first: Rc<Request>,
    pub(super) second: Rc<Request>,
    pub(super) confidence: Confidence,
    /// The operands making the two requests (the same one for a batch with itself).
    pub(super) operands: (usize, usize),
    /// Which requests they are: (operand, position among its requests) of each, the same for
    /// a request that conflicts with itself across the elements of a batch.
    pub(super) requests: (RequestKey, RequestKey),
    /// Both come from one batch operand, for different elements.
    pub(super) batch: Option<BatchPair<'s>>,
}

/// A request of a site: its operand, and its position among the operand's requests.
pub(super) type RequestKey = (usize, usize);

pub(super) struct BatchPair<'s> {
    pub(super) batch: &'s Batch,
    /// The same request, made once per element.
    pub(super) same_request: bool,
    /// Both objects are computed from the element (reported only with batch checking).
    pub(super) keyed: bool,
    /// Both are named by a field many elements share (their owner, node or namespace): keyed,
    /// but reported (see [`Batch::shared_field`]).
    pub(super) shared: Option<&'static str>,
}

pub(super) fn conflicts<'s>(cx: &LintContext<'_>, site: &'s Site) -> Vec<Conflict<'s>> {
    let operands: Vec<Vec<(usize, Rc<Request>)>> = site
        .operands
        .iter()
        .map(|op| {
            let reqs = cx.model.operand_requests(op).into_iter();
            reqs.map(|(i, r)| (i, Rc::new(r))).collect()
        })
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
        let candidates = by_object.candidates(a_reqs.iter().map(|(_, r)| &**r));
        for j in candidates.into_iter().filter(|&j| j > i) {
            let b_reqs = &operands[j];
            for (x, (_, a)) in a_reqs.iter().enumerate() {
                for (y, (_, b)) in b_reqs.iter().enumerate() {
                    if !a.is_write() && !b.is_write() {
                        continue;
                    }
                    if let Some(confidence) = a.same_object_at_once(b) {
                        found.push(Conflict {
                            first: a.clone(),
                            second: b.clone(),
                            confidence,
                            operands: (i, j),
                            requests: ((i, x), (j, y)),
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
            for (y, (ib, b)) in reqs.iter().enumerate().skip(x) {
                if let Some(mut c) = batch_conflict(cx, batch, (*ia, a), (*ib, b)) {
                    c.operands = (i, i);
                    c.requests = ((i, x), (i, y));
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
    (ia, a): (usize, &Rc<Request>),
    (ib, b): (usize, &Rc<Request>),
) -> Option<Conflict<'s>> {
    if !a.is_write() && !b.is_write() {
        return None;
    }
    let mut confidence = a.same_object(b)?;
    let keyed = batch.keys(a) && batch.keys(b);
    let shared = batch
        .shared_field(a)
        .filter(|&f| batch.shared_field(b) == Some(f));
    if keyed {
        // Different elements normally name different objects, unless they share the field
        // naming it.
        if !cx.batch_checking && shared.is_none() {
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
        requests: ((0, 0), (0, 0)),
        batch: Some(BatchPair {
            batch,
            same_request: ia == ib && a.span == b.span,
            keyed,
            shared,
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

/// The conflicts of a site that touch one object, and how many requests they involve.
pub(super) struct ObjectGroup<'c, 's> {
    pub(super) conflicts: Vec<&'c Conflict<'s>>,
    pub(super) requests: usize,
}

/// The conflicts of a site grouped by the object they touch, each group reported once. Proved
/// sameness is an identity: requests connected by `definite` conflicts touch one object. A
/// weaker conflict joins a request to such a group, or weaker ones together, but never ties two
/// groups already formed by stronger conflicts (a delete of an unknown name that may touch
/// both Pod "a" and Pod "b" does not make them one object). In the order of their first
/// conflict.
pub(super) fn by_object<'c, 's>(conflicts: &'c [Conflict<'s>]) -> Vec<ObjectGroup<'c, 's>> {
    let mut ids: HashMap<RequestKey, usize> = HashMap::new();
    let mut id = |key: RequestKey| {
        let next = ids.len();
        *ids.entry(key).or_insert(next)
    };
    let pairs: Vec<(usize, usize)> = conflicts
        .iter()
        .map(|c| (id(c.requests.0), id(c.requests.1)))
        .collect();
    let mut parent: Vec<usize> = (0..ids.len()).collect();
    // The confidence of the strongest conflict inside each group, by its root.
    let mut formed_by: Vec<Option<Confidence>> = vec![None; ids.len()];
    let mut strongest_first: Vec<usize> = (0..conflicts.len()).collect();
    strongest_first.sort_by_key(|&i| std::cmp::Reverse(conflicts[i].confidence));
    for i in strongest_first {
        let confidence = conflicts[i].confidence;
        let (a, b) = (root(&mut parent, pairs[i].0), root(&mut parent, pairs[i].1));
        let stronger = |g: usize| formed_by[g].is_some_and(|f| f > confidence);
        if a == b || (stronger(a) && stronger(b)) {
            continue;
        }
        let (keep, other) = (a.min(b), a.max(b));
        parent[other] = keep;
        formed_by[keep] = formed_by[keep].max(formed_by[other]).max(Some(confidence));
    }
    let mut group_of_root: HashMap<usize, usize> = HashMap::new();
    let mut groups: Vec<ObjectGroup<'c, 's>> = Vec::new();
    for (c, &(a, b)) in conflicts.iter().zip(&pairs) {
        let r = root(&mut parent, a);
        // A weak conflict between two groups: each of its requests is reported in its own.
        if r != root(&mut parent, b) {
            continue;
        }
        let g = *group_of_root.entry(r).or_insert_with(|| {
            groups.push(ObjectGroup {
                conflicts: Vec::new(),
                requests: 0,
            });
            groups.len() - 1
        });
        groups[g].conflicts.push(c);
    }
    for request in 0..parent.len() {
        let r = root(&mut parent, request);
        if let Some(&g) = group_of_root.get(&r) {
            groups[g].requests += 1;
        }
    }
    groups
}

/// The root of `i` in a union-find forest, halving the path on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Operands that must run in order: connected by conflicts, each group in written order.
pub(super) fn conflict_groups(operands: usize, conflicts: &[Conflict<'_>]) -> Vec<Vec<usize>> {
    // Union-find over operand indices.
    let mut parent: Vec<usize> = (0..operands).collect();
    for c in conflicts {
        let (a, b) = (
            root(&mut parent, c.operands.0),
            root(&mut parent, c.operands.1),
        );
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    // Each root is the smallest operand of its group, so groups come in written order.
    let mut group_of_root: HashMap<usize, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..operands {
        let r = root(&mut parent, i);
        let g = *group_of_root.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    groups.retain(|g| g.len() > 1);
    groups
}
