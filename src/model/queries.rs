//! The questions lints ask of the model: of two requests (the same object? an Event about it?
//! their descriptions for messages) and of a file's model (program order, bodies, operands).

use std::collections::HashMap;

use super::order::ArmIndex;
use super::{
    verbs, Access, Body, Cfg, ClosureArgument, Confidence, FileModel, FunctionFacts, NameExpr,
    Namespace, ObjectName, Operand, Order, Point, Precondition, RawKind, Request, Root, Sameness,
};

impl Request {
    /// May these two requests touch the same object? None when provably not.
    /// Requests that are never compiled together (`cfg(unix)` and `cfg(windows)`) never are.
    pub fn same_object(&self, other: &Request) -> Option<Confidence> {
        if !self.can_coexist(other) {
            return None;
        }
        if Request::covering_pair(self, other).is_some() {
            return Some(Confidence::Possible.min(self.pair_cap(other)));
        }
        match (&self.controller, &other.controller) {
            (None, None) => {}
            (Some(a), Some(b)) if a.span != b.span => {}
            (Some(_), None) | (None, Some(_)) if Request::listed_meets_reconcile(self, other) => {}
            _ => return None,
        }
        let handle = self.handle.compare(&other.handle);
        let name = match (&self.object, &other.object) {
            // The same field of the object one controller reconciles and of one of its kind the
            // other fetched: evidence that the names can be equal.
            (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. })
                if a.compare(b) == Sameness::Maybe
                    && Request::reconciled_fetched_pair(self, other).is_some() =>
            {
                Sameness::Related
            }
            (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) => a.compare(b),
            // A list or watch does not touch one object; it sees some state of all of them,
            // this one included when the collection is the same.
            _ => Sameness::Related,
        };
        let mut confidence = handle.and(name).confidence()?;
        if self.name_from_get || other.name_from_get {
            confidence = confidence.min(Confidence::Possible);
        }
        // A callee found by its name alone may not be the one called.
        Some(confidence.min(self.pair_cap(other)))
    }

    /// A write outside any controller of each element of a list of its kind (a reload loop
    /// patching every listed webhook configuration) and a write by a controller's reconcile:
    /// the list holds whichever object the reconcile writes, so the two may meet, whatever the
    /// reconcile is handed. Other requests of a controller are compared only with another
    /// controller's, since a controller's stream is not a future the code awaits.
    fn listed_meets_reconcile(a: &Request, b: &Request) -> bool {
        let (listed, reconcile) = if a.is_controllers() { (b, a) } else { (a, b) };
        listed.name_from_list
            && !listed.is_controllers()
            && reconcile.is_controllers()
            && listed.is_write()
            && reconcile.is_write()
    }

    /// [`Request::same_object`] for two requests made at once by one concurrency site, with
    /// the create-then-read-back idiom as evidence (see [`Request::reads_back_create`]).
    pub fn same_object_at_once(&self, other: &Request) -> Option<Confidence> {
        let confidence = self.same_object(other)?;
        // A create joined with a list of its collection: the list shows the new object or not,
        // but nothing says the code reads it back there (a fan-out listing what exists).
        let creates = |r: &Request| r.verb.creates();
        let lists = |r: &Request| matches!(r.object, ObjectName::All) && !r.is_write();
        if (creates(self) && lists(other)) || (creates(other) && lists(self)) {
            return Some(Confidence::Unknown);
        }
        if confidence == Confidence::Unknown && self.reads_back_create(other) {
            return Some(Confidence::Possible.min(self.pair_cap(other)));
        }
        Some(confidence)
    }

    /// One of the two creates an object whose name the tool cannot tell apart from the name
    /// the other request uses, and both go through one handle (the same kind and namespace):
    /// `join!(pods.create(&pp, &pod), pods.get("blog"))`. That is the create-then-read-back
    /// idiom; creating one object while reading or writing an unrelated one of the same kind
    /// at the same moment is rare. Evidence, not proof. Two creates (a fan-out) or a create
    /// with a `list` are not it.
    pub fn reads_back_create(&self, other: &Request) -> bool {
        let creates = |r: &Request| matches!(r.verb.target, verbs::Target::DataArg(_));
        let (create, by_name) = match (creates(self), creates(other)) {
            (true, false) => (self, other),
            (false, true) => (other, self),
            _ => return false,
        };
        let named = |r: &Request| {
            matches!(r.object, ObjectName::One { .. })
                && matches!(r.verb.target, verbs::Target::NameArg(_))
                && !verbs::is_event(r.verb)
        };
        create.controller.is_none()
            && by_name.controller.is_none()
            && named(by_name)
            && !verbs::is_event(create.verb)
            && create.handle.compare(&by_name.handle) == Sameness::Same
    }

    /// Whether this request publishes an Event about the object `other` writes: the Event's
    /// reference and the object's name come from the same place (`pod.object_ref(..)` and
    /// `pod.name_any()`). The reference's kind is not compared: at most `possible`.
    pub fn event_about(&self, other: &Request) -> Option<Confidence> {
        if !verbs::is_event(self.verb) || verbs::is_event(other.verb) || !other.is_write() {
            return None;
        }
        if !self.can_coexist(other) || self.is_controllers() != other.is_controllers() {
            return None;
        }
        let (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) =
            (&self.object, &other.object)
        else {
            return None;
        };
        match a.compare(b) {
            Sameness::Same | Sameness::Related => {
                Some(Confidence::Possible.min(self.pair_cap(other)))
            }
            Sameness::Maybe | Sameness::Different => None,
        }
    }

    /// The most a finding on this request and `other` can claim: a callee found by its name
    /// alone, on either side, may not be the one called.
    pub fn pair_cap(&self, other: &Request) -> Confidence {
        self.resolution.cap().min(other.resolution.cap())
    }

    /// Can both requests be compiled into one program (see [`Cfg::can_coexist`])?
    pub fn can_coexist(&self, other: &Request) -> bool {
        self.cfg.can_coexist(&other.cfg)
    }

    /// The request as made by a call of its closure: parameters replaced by the arguments.
    pub fn with_arguments(&self, arguments: &[ClosureArgument]) -> Request {
        let mut r = self.clone();
        for arg in arguments {
            if !r.keyed_by.contains(&arg.param) {
                continue;
            }
            if let ObjectName::One { name, .. } = &mut r.object {
                *name = name.substitute(arg.param, &arg.name);
            }
            if let Namespace::Named(ns) = &mut r.handle.namespace {
                *ns = ns.substitute(arg.param, &arg.name);
            }
            r.keyed_by.retain(|k| *k != arg.param);
            r.keyed_by.extend(arg.keyed_by.iter().copied());
        }
        r
    }

    /// A write whose body carries a `resourceVersion` precondition, written at the call or
    /// passed by every caller: if it lands late, it fails with 409 Conflict and the caller finds
    /// out (see [`Precondition`]).
    /// Not when the version was copied from a fresh read into an older body
    /// ([`Precondition::Refreshed`]): a write made before that read is still overwritten.
    pub fn is_guarded(&self) -> bool {
        self.precondition == Precondition::ResourceVersion
    }

    /// Its body carries some `resourceVersion`, its own or one copied from a fresh read: landing
    /// late, after another write of the object, it fails with 409 Conflict (what a cancelled
    /// write needs; for a lost update of an earlier write, see [`Request::is_guarded`]).
    pub fn carries_resource_version(&self) -> bool {
        self.is_guarded() || self.version_refreshed()
    }

    /// Its body's `resourceVersion` was copied from a fresh read of the object into an older
    /// copy of it (see [`Precondition::Refreshed`]): no guard against earlier writes.
    pub fn version_refreshed(&self) -> bool {
        matches!(self.precondition, Precondition::Refreshed(_))
    }

    /// Its body is an object kept in a field (see [`Precondition::Stored`]): whether it
    /// carries a `resourceVersion` is not known.
    pub fn body_is_stored(&self) -> bool {
        self.precondition == Precondition::Stored
    }

    /// A PUT (`replace`) of a Lease whose body's `resourceVersion` the code cleared: the API
    /// server refuses an unconditional update of a Lease (coordination.k8s.io's strategy:
    /// `AllowUnconditionalUpdate` false, `AllowCreateOnUpdate` true), so this PUT creates the
    /// Lease when it is absent and is refused with 422 when it exists: landing late, it cannot
    /// overwrite a newer write. (Kinds whose PUT may be unconditional are not told apart by
    /// kind, so only the Lease is.)
    pub fn is_lease_create_put(&self) -> bool {
        self.verb.method == "replace"
            && self.handle.kind.as_deref() == Some("Lease")
            && self.precondition == Precondition::Cleared
    }

    pub fn is_write(&self) -> bool {
        self.verb.access == Access::Write
    }

    /// Made by a controller's reconciles (see [`Request::controller`]): not a request of a
    /// future that can be awaited, dropped or cancelled like one.
    pub fn is_controllers(&self) -> bool {
        self.controller.is_some()
    }

    /// "Pod \"blog\"", "Pod `name`", "Pods", "object `name`".
    pub fn object_description(&self) -> String {
        let kind = self.handle.kind_or_object();
        // An Event is identified by the object it is about (and the reason): "Event about `r`".
        if verbs::is_event(self.verb) {
            return match &self.object {
                ObjectName::One { text, .. } if !text.is_empty() => {
                    format!("Event about `{text}`")
                }
                _ => "Event".to_string(),
            };
        }
        match &self.object {
            ObjectName::One {
                name: NameExpr::Literal(s),
                ..
            } => format!("{kind} {s:?}"),
            ObjectName::One {
                name:
                    NameExpr::Path {
                        root: Root::Reconciled(reconciled),
                        fields,
                    },
                ..
            } => match (fields.as_slice(), reconciled.as_deref()) {
                ([m, n], Some(r)) if m == "metadata" && n == "name" && r == kind => {
                    format!("each {kind} reconciled")
                }
                // The object another kind's reconcile writes, named after what it is handed.
                ([m, n], Some(r)) if m == "metadata" && n == "name" => {
                    format!("the {kind} named after each {r} reconciled")
                }
                _ => format!(
                    "{kind} `{}` of each object reconciled",
                    super::fields_text(fields)
                ),
            },
            ObjectName::One { text, .. } if !text.is_empty() => format!("{kind} `{text}`"),
            // Seen from a caller of the function that fetched the object: by that object (the
            // fetched object itself, by its own name, is described by its kind alone).
            ObjectName::One { .. } => match self.fetched.as_deref() {
                Some(f) if f.fields == ["metadata", "name"] && f.kind != kind => {
                    format!("the {kind} named after a {} fetched by `{}`", f.kind, f.by)
                }
                Some(f) if f.fields != ["metadata", "name"] => format!(
                    "{kind} `{}` of a {} fetched by `{}`",
                    super::fields_text(&f.fields),
                    f.kind,
                    f.by
                ),
                _ => kind.to_string(),
            },
            ObjectName::All => match &self.handle.kind {
                Some(k) => format!("every {k}"),
                None => "every object".to_string(),
            },
        }
    }

    /// The note of a finding short of proof: which two objects the tool cannot tell apart,
    /// named so that they can be told apart ("Lease through `self.leases` and Lease through
    /// `api`", not "Lease and Lease"), and why when it knows.
    pub fn unproved_note(&self, other: &Request) -> String {
        if self.same_object(other) == Some(Confidence::Unknown) && self.reads_back_create(other) {
            let by_name = if matches!(self.verb.target, verbs::Target::DataArg(_)) {
                other
            } else {
                self
            };
            return format!(
                "taken to be one object: a create and a {} by name through the same handle `{}` (same kind and namespace), made at once, is the create-then-read-back idiom; the tool cannot see whether the created body is {}",
                by_name.verb.noun,
                by_name.receiver,
                by_name.object_description()
            );
        }
        if let Some(create) = [self, other].into_iter().find(|r| r.name_from_get) {
            return format!(
                "the object of the create is built elsewhere: it is taken to be {}, which the get before it looks for (get-or-create), not proved",
                create.object_description()
            );
        }
        if let (
            ObjectName::One {
                name: a @ NameExpr::Computed { .. },
                ..
            },
            ObjectName::One { name: b, .. },
        ) = (&self.object, &other.object)
        {
            if a.compare(b) == Sameness::Related {
                return format!(
                    "both names are computed by the same code from the same arguments{}: likely one object, but the tool cannot prove that the computation gives the same name twice",
                    match self.via.first() {
                        Some(f) => format!(" (in `{f}`)"),
                        None => String::new(),
                    }
                );
            }
        }
        let (a, b) = (self.object_description(), other.object_description());
        let (a, b) = if a == b {
            (
                format!("{a} through `{}`", self.receiver),
                format!("{b} through `{}`", other.receiver),
            )
        } else {
            (a, b)
        };
        let why = match self.same_object(other) {
            Some(Confidence::Unknown) => {
                " (nothing relates them either: shown because of `--min-confidence unknown`)"
            }
            _ => "",
        };
        if a == b {
            format!(
                "the tool cannot prove that the two requests on {a} touch different objects{why}"
            )
        } else {
            format!("the tool cannot prove that {a} and {b} are different objects{why}")
        }
    }

    /// "creates Pod \"blog\"", for labels; through helpers:
    /// "`status::mark` patches the status of Pod `name` (src/status.rs:7)".
    pub fn describe(&self) -> String {
        let what = format!("{} {}", self.verb.does, self.object_description());
        if self.via.is_empty() {
            return what;
        }
        let chain = self
            .via
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(" → ");
        match &self.defined_at {
            Some((file, line)) => format!("{chain} {what} ({file}:{line})"),
            None => format!("{chain} {what}"),
        }
    }
}

/// For a finding on these requests, when some is under a `cfg` other than `test`: "this holds
/// only when compiled with `cfg(unix)`" (their `cfg`s together).
pub fn cfg_note(requests: &[&Request]) -> Option<String> {
    let cfg = requests
        .iter()
        .fold(Cfg::always(), |all, r| all.and(&r.cfg))
        .platform()?;
    Some(format!("this holds only when compiled with `{cfg}`"))
}

impl FileModel {
    /// The queries of program order (see [`order`](super::order)).
    pub fn order(&self) -> Order<'_> {
        Order { flow: &self.flow }
    }

    /// Whether the code waits for a timer on every way from `a` to `b` (around a loop too): a
    /// request in flight at `a` has then most likely been answered when `b` is made.
    pub fn waits_on_every_way(&self, a: Point<'_>, b: Point<'_>) -> bool {
        let wait = |i: usize| self.timer_waits[i].point();
        self.order().any_on_every_way(a, b, &self.timer_index, wait)
    }

    pub fn requests_of(&self, index: usize) -> &[Request] {
        self.requests.get(index).map(Vec::as_slice).unwrap_or(&[])
    }

    /// What a body is; None for an id this file does not have.
    pub fn body(&self, id: u32) -> Option<&Body> {
        self.bodies.get(id as usize)
    }

    /// The function a body belongs to, for messages ("the async fn `reconcile`").
    pub fn function_of(&self, index: Option<usize>) -> Option<&FunctionFacts> {
        index.and_then(|i| self.functions.get(i))
    }

    /// A call, in this file, of the function making the request at `index` that sends that
    /// request again after an earlier run of the function: one in a loop that names the same
    /// object on every pass, or one that may follow another such call (both in one function,
    /// calling it directly or through other helpers); the call's raw index is returned.
    pub fn called_again(&self, index: usize) -> Option<usize> {
        let raw = self.raw.get(index)?;
        let RawKind::Api(call) = &raw.kind else {
            return None;
        };
        let function = self.function_of(raw.function)?;
        let via = super::link::display_name(function);
        // The calls of the function, with the request each sends in the caller's terms.
        let calls: Vec<(usize, &Request)> = self
            .raw
            .iter()
            .enumerate()
            .filter(|(_, caller)| caller.function.is_some() && caller.function != raw.function)
            .filter_map(|(i, _)| {
                let sent = self.requests_of(i).iter().find(|r| {
                    r.via.last() == Some(&via)
                        && std::ptr::eq(r.verb, call.verb)
                        && r.defined_at
                            .as_ref()
                            .is_some_and(|(_, line)| *line == raw.line)
                })?;
                Some((i, sent))
            })
            .collect();
        let order = self.order();
        let index = CallIndex::new(self, &calls);
        calls.iter().find_map(|&(j, second)| {
            let b = self.raw[j].point();
            index.candidates(second, b).into_iter().find_map(|k| {
                let (i, first) = calls[k];
                let a = self.raw[i].point();
                if self.raw[i].function != self.raw[j].function
                    || !order.may_follow(a, b)
                    || order.exclusive(a, b)
                    || first.same_object(second).is_none()
                {
                    return None;
                }
                // On a later pass only: the same object when its name is not made anew.
                let anew = |r: &Request| order.object_varies_round_the_loop(a, b, r);
                let later_pass = !order.follows_in_pass(a, b);
                (!(later_pass && (anew(first) || anew(second)))).then_some(j)
            })
        })
    }

    /// The kube requests an operand makes (with their indices), closure parameters replaced by
    /// the call's arguments.
    pub fn operand_requests(&self, operand: &Operand) -> Vec<(usize, Request)> {
        operand
            .requests
            .iter()
            .flat_map(|&i| {
                self.requests_of(i)
                    .iter()
                    .map(move |r| (i, r.with_arguments(&operand.arguments)))
            })
            .collect()
    }
}

/// The calls of [`FileModel::called_again`] by the literal name of the object each sends a
/// request on, then by arms: a call is compared only with those that may name its object and
/// may run with it (10,000 calls of one helper on 10,000 names, or in 10,000 arms of a `match`,
/// are not compared pair by pair).
struct CallIndex<'r> {
    /// Per literal name (None: not a literal, a candidate for every call), the calls' indices
    /// into the list given and their arms.
    groups: HashMap<Option<&'r str>, (Vec<usize>, ArmIndex)>,
}

impl<'r> CallIndex<'r> {
    fn new(model: &FileModel, calls: &[(usize, &'r Request)]) -> CallIndex<'r> {
        let mut members: HashMap<Option<&'r str>, Vec<usize>> = HashMap::new();
        for (k, (_, sent)) in calls.iter().enumerate() {
            members.entry(sent.object_key()).or_default().push(k);
        }
        let groups = members.into_iter().map(|(key, ks)| {
            let arms = ArmIndex::new(ks.iter().map(|&k| model.raw[calls[k].0].point()));
            (key, (ks, arms))
        });
        CallIndex {
            groups: groups.collect(),
        }
    }

    /// The calls (indices into the list given) that may send a request on `sent`'s object and
    /// may run with a call at `at`.
    fn candidates(&self, sent: &Request, at: Point<'_>) -> Vec<usize> {
        let of = |(ks, arms): &(Vec<usize>, ArmIndex)| -> Vec<usize> {
            arms.maybe_together(at).into_iter().map(|a| ks[a]).collect()
        };
        match sent.object_key() {
            Some(key) => [Some(key), None]
                .iter()
                .filter_map(|k| self.groups.get(k))
                .flat_map(of)
                .collect(),
            None => self.groups.values().flat_map(of).collect(),
        }
    }
}
