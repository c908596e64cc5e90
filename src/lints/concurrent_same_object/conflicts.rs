//! The pairs of requests of a site that may touch the same object, and the operands they tie
//! together.

use std::collections::HashMap;
use std::rc::Rc;

use super::LintContext;
use crate::model::object_index::ObjectIndex;
use crate::model::{Batch, Confidence, ObjectName, Request, Site};

/// Two requests of one site that may touch the same object, or, for requests written several
/// times alike ([`Copies`]), the pairs of their copies, shown by the first one written.
pub(super) struct Conflict<'s> {
    /// Shared with the other pairs of the site: a `join!` of thousands of operands on a few
    /// objects has tens of thousands of pairs.
    pub(super) first: Rc<Request>,
    pub(super) second: Rc<Request>,
    pub(super) confidence: Confidence,
    /// The operands making the two requests (the same one for a batch with itself).
    pub(super) operands: (usize, usize),
    /// Which requests they are: (operand, position among its requests) of each, the same for
    /// a request that conflicts with itself across the elements of a batch or with its copies;
    /// for copies, the key of the first copy.
    pub(super) requests: (RequestKey, RequestKey),
    /// Both come from one batch operand, for different elements.
    pub(super) batch: Option<BatchPair<'s>>,
    /// How many pairs of requests it stands for: 1, or every pair of the copies.
    pub(super) pairs: usize,
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

/// The conflicts of a site, and the copies of the requests they name.
pub(super) struct Conflicts<'s> {
    pub(super) list: Vec<Conflict<'s>>,
    /// The operands of the copies of each request written more than once, by its key.
    copies: HashMap<RequestKey, Vec<usize>>,
}

impl Conflicts<'_> {
    /// How many requests `key` stands for.
    fn copies_of(&self, key: RequestKey) -> usize {
        self.copies.get(&key).map_or(1, Vec::len)
    }
}

/// Requests written several times alike, each the only request of its operand (`join!(get,
/// delete, get, delete, ..)` of one object): compared once, their pairs counted. Each conflicts
/// with another request as every other copy does, so a generated `join!` of 20,000 operands on
/// one object is three comparisons, not 150 million.
struct Copies {
    /// The key of the first copy, and the request.
    key: RequestKey,
    request: Rc<Request>,
    /// The operand of each copy and the copy, in written order.
    at: Vec<(usize, Rc<Request>)>,
}

impl Copies {
    fn operands(&self) -> impl Iterator<Item = usize> + '_ {
        self.at.iter().map(|(o, _)| *o)
    }
}

pub(super) fn conflicts<'s>(cx: &LintContext<'_>, site: &'s Site) -> Conflicts<'s> {
    let operands: Vec<Vec<(usize, Rc<Request>)>> = site
        .operands
        .iter()
        .map(|op| {
            let reqs = cx.model.operand_requests(op).into_iter();
            reqs.map(|(i, r)| (i, Rc::new(r))).collect()
        })
        .collect();
    let copies = copies(site, &operands);
    let mut found = Vec::new();
    // Requests of different operands run concurrently. Each request is compared only with the
    // later ones that may touch its object: a `join!` of thousands of operands on different
    // objects would be millions of pairs.
    let mut by_object = ObjectIndex::default();
    copies
        .iter()
        .enumerate()
        .for_each(|(i, c)| by_object.add(i, &c.request));
    for (i, a) in copies.iter().enumerate() {
        for j in by_object.candidates([&*a.request]).iter().copied() {
            let b = &copies[j];
            let apart = i < j && a.key.0 != b.key.0;
            if !(apart || (i == j && a.at.len() > 1)) {
                continue;
            }
            if !a.request.may_race_at_once(&b.request) {
                continue;
            }
            if let Some(confidence) = a.request.same_object_at_once(&b.request) {
                found.push(copies_conflict((a, b), confidence));
            }
        }
    }
    // In the order of their first pair written, as when each pair was compared.
    found.sort_by_key(|(order, _)| *order);
    let mut found: Vec<Conflict<'s>> = found.into_iter().map(|(_, c)| c).collect();
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
    Conflicts {
        list: found,
        copies: copies
            .into_iter()
            .filter(|c| c.at.len() > 1)
            .map(|c| (c.key, c.operands().collect()))
            .collect(),
    }
}

/// The requests of a site, copies together: a request that is the only one of its operand
/// (not a batch) joins an earlier one alike. In the order of their first copy.
fn copies(site: &Site, operands: &[Vec<(usize, Rc<Request>)>]) -> Vec<Copies> {
    let mut out: Vec<Copies> = Vec::new();
    // The copies of each object key, verb and receiver: a cheap first sorting.
    let mut alike: HashMap<(Option<&str>, &str, &str), Vec<usize>> = HashMap::new();
    for (o, (op, reqs)) in site.operands.iter().zip(operands).enumerate() {
        for (x, (_, r)) in reqs.iter().enumerate() {
            if reqs.len() == 1 && op.batch.is_none() {
                let bucket = alike
                    .entry((r.object_key(), r.verb.method, r.receiver.as_str()))
                    .or_default();
                if let Some(&c) = bucket.iter().find(|&&c| out[c].request.alike(r)) {
                    out[c].at.push((o, r.clone()));
                    continue;
                }
                bucket.push(out.len());
            }
            out.push(Copies {
                key: (o, x),
                request: r.clone(),
                at: vec![(o, r.clone())],
            });
        }
    }
    out
}

/// The conflict of two requests with their copies (`a` written first), or of a request with its
/// own copies, shown by the pair written first; with where its first pair was written.
fn copies_conflict<'s>(
    (a, b): (&Copies, &Copies),
    confidence: Confidence,
) -> ((usize, usize, usize, usize), Conflict<'s>) {
    let same = std::ptr::eq(a, b);
    let pairs = if same {
        a.at.len() * (a.at.len() - 1) / 2
    } else {
        a.at.len() * b.at.len()
    };
    // The pair shown: the smallest (first span, second span), the first in an earlier operand.
    let mut shown: Option<(CopyAt<'_>, CopyAt<'_>)> = None;
    let sides: &[(&Copies, &Copies)] = if same { &[(a, a)] } else { &[(a, b), (b, a)] };
    for &(x, y) in sides {
        let later = suffix_min(&y.at);
        for (o, first) in &x.at {
            let k = y.at.partition_point(|(p, _)| p <= o);
            if let Some(&(p, second)) = later.get(k) {
                let spans = (first.span, second.span);
                if shown.map_or(true, |(s, t)| (s.1.span, t.1.span) > spans) {
                    shown = Some(((*o, first), (p, second)));
                }
            }
        }
    }
    let ((i, first), (j, second)) = shown.expect("copies in different operands make a pair");
    let keys = if a.at.iter().any(|(o, _)| *o == i) {
        (a.key, b.key)
    } else {
        (b.key, a.key)
    };
    // The first pair written: the earliest copy and the earliest one of the other side after it.
    let order = if same {
        (a.key.0, a.at[1].0, a.key.1, a.key.1)
    } else {
        (a.key.0, b.key.0, a.key.1, b.key.1)
    };
    let conflict = Conflict {
        first: first.clone(),
        second: second.clone(),
        confidence,
        operands: (i, j),
        requests: keys,
        batch: None,
        pairs,
    };
    (order, conflict)
}

/// A copy of a request, with its operand.
type CopyAt<'c> = (usize, &'c Rc<Request>);

/// For each position, the copy with the smallest span from there on, with its operand.
fn suffix_min(at: &[(usize, Rc<Request>)]) -> Vec<CopyAt<'_>> {
    let mut out: Vec<CopyAt<'_>> = at.iter().map(|(o, r)| (*o, r)).collect();
    for k in (0..out.len().saturating_sub(1)).rev() {
        if out[k + 1].1.span < out[k].1.span {
            out[k] = out[k + 1];
        }
    }
    out
}

/// Request `a` for one element and `b` for another.
fn batch_conflict<'s>(
    cx: &LintContext<'_>,
    batch: &'s Batch,
    (ia, a): (usize, &Rc<Request>),
    (ib, b): (usize, &Rc<Request>),
) -> Option<Conflict<'s>> {
    if !a.may_race_at_once(b) {
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
        pairs: 1,
    })
}

/// The object name is rooted at a binding made anew for each element: not provably the same.
fn varies(batch: &Batch, r: &Request) -> bool {
    match &r.object {
        ObjectName::One { name, .. } => batch.is_local(name),
        ObjectName::All => false,
    }
}

/// The conflicts of a site that touch one object, how many requests and pairs they involve.
pub(super) struct ObjectGroup<'c, 's> {
    pub(super) conflicts: Vec<&'c Conflict<'s>>,
    pub(super) requests: usize,
    pub(super) pairs: usize,
}

/// The conflicts of a site grouped by the object they touch, each group reported once. Proved
/// sameness is an identity: requests connected by `definite` conflicts touch one object. A
/// weaker conflict joins a request to such a group, or weaker ones together, but never ties two
/// groups already formed by stronger conflicts (a delete of an unknown name that may touch
/// both Pod "a" and Pod "b" does not make them one object). Copies of a request are one. In the
/// order of their first conflict.
pub(super) fn by_object<'c, 's>(conflicts: &'c Conflicts<'s>) -> Vec<ObjectGroup<'c, 's>> {
    let list = &conflicts.list;
    let mut ids: HashMap<RequestKey, usize> = HashMap::new();
    let mut keys: Vec<RequestKey> = Vec::new();
    let mut id = |key: RequestKey| {
        let next = ids.len();
        *ids.entry(key).or_insert_with(|| {
            keys.push(key);
            next
        })
    };
    let pairs: Vec<(usize, usize)> = list
        .iter()
        .map(|c| (id(c.requests.0), id(c.requests.1)))
        .collect();
    let mut parent: Vec<usize> = (0..ids.len()).collect();
    // The confidence of the strongest conflict inside each group, by its root.
    let mut formed_by: Vec<Option<Confidence>> = vec![None; ids.len()];
    let mut strongest_first: Vec<usize> = (0..list.len()).collect();
    strongest_first.sort_by_key(|&i| std::cmp::Reverse(list[i].confidence));
    for i in strongest_first {
        let confidence = list[i].confidence;
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
    for (c, &(a, b)) in list.iter().zip(&pairs) {
        let r = root(&mut parent, a);
        // A weak conflict between two groups: each of its requests is reported in its own.
        if r != root(&mut parent, b) {
            continue;
        }
        let g = *group_of_root.entry(r).or_insert_with(|| {
            groups.push(ObjectGroup {
                conflicts: Vec::new(),
                requests: 0,
                pairs: 0,
            });
            groups.len() - 1
        });
        groups[g].conflicts.push(c);
        groups[g].pairs += c.pairs;
    }
    for (request, &key) in keys.iter().enumerate() {
        let r = root(&mut parent, request);
        if let Some(&g) = group_of_root.get(&r) {
            groups[g].requests += conflicts.copies_of(key);
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
pub(super) fn conflict_groups(operands: usize, conflicts: &Conflicts<'_>) -> Vec<Vec<usize>> {
    // Union-find over operand indices.
    let mut parent: Vec<usize> = (0..operands).collect();
    let mut union = |a: usize, b: usize| {
        let (a, b) = (root(&mut parent, a), root(&mut parent, b));
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    };
    for c in &conflicts.list {
        union(c.operands.0, c.operands.1);
        // Every copy conflicts as the one shown does.
        for key in [c.requests.0, c.requests.1] {
            for &o in conflicts.copies.get(&key).into_iter().flatten() {
                union(key.0, o);
            }
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
