//! Reconciles of different objects in flight at once: kube's `Controller` keeps the reconciles
//! of one object apart, but runs those of different objects concurrently (no limit by default).
//! A write whose object does not depend on the object reconciled is made by every reconcile in
//! flight, on one object.

use super::{
    verbs, Concurrency, Confidence, ControllerRun, FileModel, NameExpr, Namespace, ObjectName,
    Request, Root, Sameness,
};

impl Request {
    /// Whether the reconciles of different objects that this controller runs at once all make
    /// this write on one object, and how surely: `definite` when its name is a literal or a
    /// constant (in a namespace that is too, or the handle's own), `possible` when it is a value
    /// handed to every reconcile (the context given to `run`) or its namespace is the reconciled
    /// object's (objects of one namespace share it). None when the object is named after the
    /// object reconciled, for a read, for a create (two creates of one name cannot both succeed:
    /// the second fails with AlreadyExists), an Event, a write carrying a `resourceVersion` (it
    /// fails with 409 Conflict instead of overwriting), and for a controller that runs one
    /// reconcile at a time.
    pub fn shared_across_reconciles(&self) -> Option<Confidence> {
        let run = self.controller.as_deref()?;
        if run.concurrency == Concurrency::One
            || !self.is_write()
            || matches!(self.verb.target, verbs::Target::DataArg(_))
            || verbs::is_event(self.verb)
            || self.is_guarded()
        {
            return None;
        }
        let ObjectName::One { name, .. } = &self.object else {
            return None;
        };
        let name_across = self.listed_across().unwrap_or_else(|| across(name));
        let mut confidence = name_across
            .and(namespace_across(&self.handle.namespace))
            .confidence()?
            .min(self.resolution.cap());
        if self.name_from_get {
            confidence = confidence.min(Confidence::Possible);
        }
        // A limit set from elsewhere may be one.
        if run.concurrency == Concurrency::NotVisible {
            confidence = Confidence::Unknown;
        }
        Some(confidence)
    }

    /// For a write of an element of a listing of its kind (see [`Request::listed`]), how the
    /// listings of two reconciles compare: `Related` when it is selected by nothing that tells
    /// one reconciled object from another (the context, constants, the reconciled object's
    /// namespace): two reconciles in flight list the same objects and can pick the same one.
    /// `Different` when selected by the reconciled object's identity (its name, its labels, the
    /// object itself), `Maybe` when a selector is not known. None without such a listing.
    fn listed_across(&self) -> Option<Sameness> {
        let listed = self.listed.as_deref()?;
        if listed.names_of_param.is_some()
            || (listed.kind.is_some() && listed.kind != self.handle.kind)
        {
            return None;
        }
        let selection = listed
            .selected_by
            .iter()
            .map(selection_across)
            .fold(Sameness::Same, Sameness::and);
        // Some element of a listing: never proved to be the one another reconcile picks.
        Some(match selection {
            Sameness::Same => Sameness::Related,
            other => other,
        })
    }

    /// Whether its object is the same whatever the values it is made from: a literal or
    /// constant name (or a template of them) in such a namespace or the handle's own.
    pub fn names_fixed_object(&self) -> bool {
        match &self.object {
            ObjectName::One { name, .. } => {
                across(name) == Sameness::Same
                    && namespace_across(&self.handle.namespace) == Sameness::Same
            }
            ObjectName::All => false,
        }
    }

    /// Why a shared write short of `definite` is not proved to touch one object, for messages.
    pub fn across_reconciles_note(&self) -> Option<String> {
        let run = self.controller.as_deref()?;
        if run.concurrency == Concurrency::NotVisible {
            return Some(
                "the controller is given its `Config` from elsewhere: its concurrency limit is not seen, and may be one".to_string(),
            );
        }
        let ObjectName::One { name, text } = &self.object else {
            return None;
        };
        if let Some(listed) = self.listed.as_deref() {
            if self.listed_across() == Some(Sameness::Related) {
                return Some(format!(
                    "the object is an element of `{}`, a listing selected by nothing that tells one reconciled object from another (the context, constants, its namespace): two reconciles in flight list the same objects and can write the same one",
                    listed.text
                ));
            }
        }
        if across(name) == Sameness::Related {
            return Some(format!(
                "the name `{text}` is a value every reconcile is handed (the context given to `run`): the same for all of them unless it changes in between"
            ));
        }
        if let Namespace::Named(ns) = &self.handle.namespace {
            if across(ns) == Sameness::Different {
                return Some(
                    "the name is fixed, and the namespace is the reconciled object's: the reconciles of objects of one namespace meet on it".to_string(),
                );
            }
        }
        if namespace_across(&self.handle.namespace) != Sameness::Same {
            return Some(
                "the name is fixed, but the namespace is not visible here: reconciles meet on the object when they use one namespace".to_string(),
            );
        }
        None
    }

    /// Whether this request and `other`, made concurrently, can race as the requests of two
    /// controllers' reconciles: only two writes that can overwrite each other. A reconcile that reads what another
    /// controller writes is how level-triggered controllers work (the write's watch event
    /// queues it again); the hazard is two writes overwriting each other, read-modify-writes
    /// included (each side's write is then one of the two). Requests not both of controllers
    /// race as soon as one writes.
    /// A write of the status subresource and one of the main resource change disjoint fields
    /// (each endpoint ignores the other's part), so neither undoes the other.
    pub fn may_race_at_once(&self, other: &Request) -> bool {
        match (&self.controller, &other.controller) {
            (Some(_), Some(_)) => {
                self.is_write() && other.is_write() && !self.writes_other_part_than(other)
            }
            _ => self.is_write() || other.is_write(),
        }
    }

    /// Whether this write, made by a controller's reconcile on the object reconciled (its own
    /// name, the reconciled kind), meets `other`, a write of that kind made elsewhere (by a
    /// controller reconciling another kind, or a task running beside the controller): every
    /// object of the kind that exists is reconciled, and
    /// written, by this controller, so whichever one `other` writes is written by both. Not for
    /// a create, a delete (a write after it fails with NotFound: both orders end alike), an
    /// Event, a write carrying a `resourceVersion`, or a status write and a main-resource write.
    pub fn writes_any_reconciled_of(&self, other: &Request) -> bool {
        let Some(run) = &self.controller else {
            return false;
        };
        // A watcher selecting some objects of the kind reconciles, and writes, only those.
        if run.selects {
            return false;
        }
        // Within one controller, kube keeps the reconciles of one object apart.
        if other
            .controller
            .as_ref()
            .is_some_and(|o| o.span == run.span)
        {
            return false;
        }
        let ObjectName::One {
            name:
                NameExpr::Path {
                    root: Root::Reconciled(Some(kind)),
                    fields,
                },
            ..
        } = &self.object
        else {
            return false;
        };
        let own = |fields: &[String], field: &str| {
            fields.len() == 2 && fields[0] == "metadata" && fields[1] == field
        };
        // In the reconciled object's namespace (or every one): each object, wherever it is.
        let every_namespace = match &self.handle.namespace {
            Namespace::All | Namespace::Unknown => true,
            Namespace::Named(NameExpr::Path {
                root: Root::Reconciled(Some(k)),
                fields,
            }) => k == kind && own(fields, "namespace"),
            _ => false,
        };
        let plain_write = |r: &Request| {
            r.is_write()
                && !r.verb.creates()
                && r.verb.method != "delete"
                && !verbs::is_event(r.verb)
                && !r.is_guarded()
                && matches!(r.object, ObjectName::One { .. })
        };
        let other_reconciles_another_kind = !matches!(
            &other.object,
            ObjectName::One { name: NameExpr::Path { root: Root::Reconciled(k), .. }, .. }
                if k.as_ref() == Some(kind)
        );
        // A status write and a main-resource write change disjoint fields.
        let disjoint = self.writes_other_part_than(other);
        own(fields, "name")
            && !disjoint
            && every_namespace
            && self.handle.kind.as_ref() == Some(kind)
            && other.handle.kind.as_ref() == Some(kind)
            && plain_write(self)
            && plain_write(other)
            && other_reconciles_another_kind
    }

    /// Of two writes, the one whose reconcile writes every object of the kind the other writes
    /// (see [`Request::writes_any_reconciled_of`]), and the other: at most one of them does.
    pub fn covering_pair<'r>(a: &'r Request, b: &'r Request) -> Option<(&'r Request, &'r Request)> {
        if a.writes_any_reconciled_of(b) {
            Some((a, b))
        } else if b.writes_any_reconciled_of(a) {
            Some((b, a))
        } else {
            None
        }
    }

    /// Of two writes by the reconciles of two controllers, the one named by a field of the
    /// object reconciled (`cms.delete(&obj.annotations()["dest"], ..)`, `obj` a Service) and the
    /// one named by the same field of an object of that kind the other reconcile fetched
    /// (`svcs.get(..)`, or an element of `svcs.list(..)`: see [`Request::fetched`]), in that
    /// order. The fetched object is named by other data and can be the one reconciled, so the
    /// two writes can be on one object: evidence, not proof. Not when the reconciling
    /// controller's watcher visibly selects some objects (the fetched one may not be among
    /// them), for two creates (the second fails with AlreadyExists), two deletes (both orders
    /// end alike), an Event, a write carrying a `resourceVersion`, or a status write and a
    /// main-resource write.
    pub fn reconciled_fetched_pair<'r>(
        a: &'r Request,
        b: &'r Request,
    ) -> Option<(&'r Request, &'r Request)> {
        if a.field_of_reconciled_fetched_by(b) {
            Some((a, b))
        } else if b.field_of_reconciled_fetched_by(a) {
            Some((b, a))
        } else {
            None
        }
    }

    /// See [`Request::reconciled_fetched_pair`]: `self` named by a field of the object
    /// reconciled, `other` by that field of a fetched object of the reconciled kind.
    fn field_of_reconciled_fetched_by(&self, other: &Request) -> bool {
        let (Some(run), Some(other_run)) = (&self.controller, &other.controller) else {
            return false;
        };
        let ObjectName::One {
            name:
                NameExpr::Path {
                    root: Root::Reconciled(Some(kind)),
                    fields,
                },
            ..
        } = &self.object
        else {
            return false;
        };
        let Some(fetched) = other.fetched.as_deref() else {
            return false;
        };
        let plain_write = |r: &Request| r.is_write() && !verbs::is_event(r.verb) && !r.is_guarded();
        let both = |p: fn(&Request) -> bool| p(self) && p(other);
        let disjoint = self.writes_other_part_than(other);
        run.span != other_run.span
            && !run.selects
            && !fields.is_empty()
            && fetched.kind == *kind
            && fetched.fields == *fields
            && self.handle.kind.is_some()
            && self.handle.kind == other.handle.kind
            && plain_write(self)
            && plain_write(other)
            && !both(|r| r.verb.creates())
            && !both(|r| r.verb.method == "delete")
            && !disjoint
    }

    /// One writes the status subresource and the other the main resource: they change
    /// disjoint fields (each endpoint ignores the other's part), so neither undoes the other.
    pub fn writes_other_part_than(&self, other: &Request) -> bool {
        matches!(
            (self.verb.writes_part(), other.verb.writes_part()),
            (verbs::Part::Status, verbs::Part::Main) | (verbs::Part::Main, verbs::Part::Status)
        )
    }

    /// Whether two requests of one controller's reconcile name one object in the same words
    /// (kind, namespace and name): a read of the object a shared write writes (read-modify-write).
    pub fn same_words(&self, other: &Request) -> bool {
        self.handle.kind == other.handle.kind
            && self.handle.namespace == other.handle.namespace
            && match (&self.object, &other.object) {
                (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) => a == b,
                _ => false,
            }
    }
}

impl FileModel {
    /// The controllers this file runs (`Controller::new(..).run(reconcile, ..)`), each with the
    /// requests its reconcile makes.
    pub fn controller_runs(&self) -> impl Iterator<Item = (&ControllerRun, &[Request])> {
        self.raw.iter().enumerate().filter_map(|(i, raw)| {
            let run = raw.controller.as_deref()?;
            Some((run, self.requests_of(i)))
        })
    }
}

/// A name as made by the reconciles of two different objects: `Same` when it is fixed (a
/// literal, a constant), `Related` when it is a value every reconcile is handed (the context),
/// `Different` when it is named after the reconciled object, `Maybe` when not known.
fn across(name: &NameExpr) -> Sameness {
    match name {
        NameExpr::Literal(_) => Sameness::Same,
        NameExpr::Path { root, .. } => match root {
            Root::Const(_) => Sameness::Same,
            Root::Reconciled(_) => Sameness::Different,
            // Bindings left in a reconcile's requests are the caller's (the callee's own locals
            // are unknown once substituted): values given to `run`, the same for every reconcile.
            Root::Binding(_) | Root::SelfValue(_) => Sameness::Related,
            // A web handler's requests are never a reconcile's.
            Root::Handled(_) => Sameness::Maybe,
        },
        NameExpr::Format { parts, .. } => {
            parts.iter().map(across).fold(Sameness::Same, Sameness::and)
        }
        NameExpr::Computed { inputs, .. } => {
            if inputs.iter().any(|i| across(i) == Sameness::Different) {
                Sameness::Different
            } else {
                Sameness::Maybe
            }
        }
        NameExpr::Unknown => Sameness::Maybe,
    }
}

/// What a listing is selected by, as made by the reconciles of two different objects: the
/// reconciled object's namespace is shared by the objects of that namespace (`Related`), any
/// other place of the reconciled object tells them apart (`Different`); the context and
/// constants are shared.
fn selection_across(selector: &NameExpr) -> Sameness {
    match selector {
        NameExpr::Path {
            root: Root::Reconciled(_),
            fields,
        } if fields == &["metadata", "namespace"] => Sameness::Related,
        NameExpr::Format { parts, .. } => parts
            .iter()
            .map(selection_across)
            .fold(Sameness::Same, Sameness::and),
        // Made by the same code from shared inputs: evidence of the same value.
        NameExpr::Computed { inputs, .. } if !inputs.is_empty() => inputs
            .iter()
            .map(selection_across)
            .fold(Sameness::Related, Sameness::and),
        other => across(other),
    }
}

/// A namespace as used by the reconciles of two different objects: the reconciled object's
/// namespace is shared by the objects of that namespace, and namespaces are few.
fn namespace_across(namespace: &Namespace) -> Sameness {
    match namespace {
        Namespace::All | Namespace::Default => Sameness::Same,
        Namespace::Named(name) => match across(name) {
            Sameness::Same => Sameness::Same,
            _ => Sameness::Related,
        },
        Namespace::Unknown => Sameness::Related,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(root: Root) -> NameExpr {
        NameExpr::Path {
            root,
            fields: vec!["metadata".into(), "name".into()],
        }
    }

    #[test]
    fn a_name_is_shared_when_it_does_not_depend_on_the_object() {
        assert_eq!(across(&NameExpr::Literal("cfg".into())), Sameness::Same);
        assert_eq!(across(&path(Root::Const("CFG".into()))), Sameness::Same);
        assert_eq!(across(&path(Root::Reconciled(None))), Sameness::Different);
        assert_eq!(across(&path(Root::Binding(3))), Sameness::Related);
        assert_eq!(across(&NameExpr::Unknown), Sameness::Maybe);
        let named_after = NameExpr::format(
            vec![None, Some("-cfg".into())],
            vec![path(Root::Reconciled(None))],
        );
        assert_eq!(across(&named_after), Sameness::Different);
        let fixed = NameExpr::format(
            vec![None, Some("-cfg".into())],
            vec![path(Root::Const("APP".into()))],
        );
        assert_eq!(across(&fixed), Sameness::Same);
    }

    #[test]
    fn a_listing_is_shared_unless_selected_by_the_reconciled_object() {
        let field = |root: Root, fields: &[&str]| NameExpr::Path {
            root,
            fields: fields.iter().map(|f| f.to_string()).collect(),
        };
        let namespace = field(Root::Reconciled(None), &["metadata", "namespace"]);
        assert_eq!(selection_across(&namespace), Sameness::Related);
        let context = field(Root::Binding(7), &["stores"]);
        assert_eq!(selection_across(&context), Sameness::Related);
        assert_eq!(
            selection_across(&NameExpr::Literal("app=db".into())),
            Sameness::Same
        );
        let name = field(Root::Reconciled(None), &["metadata", "name"]);
        assert_eq!(selection_across(&name), Sameness::Different);
        let how = crate::model::Computation {
            file: 0,
            start: 0,
            end: 1,
            element: 0,
        };
        let from_object = NameExpr::computed(how, vec![field(Root::Reconciled(None), &[])], vec![]);
        assert_eq!(selection_across(&from_object), Sameness::Different);
        let from_context = NameExpr::computed(how, vec![context.clone()], vec![]);
        assert_eq!(selection_across(&from_context), Sameness::Related);
        assert_eq!(selection_across(&NameExpr::Unknown), Sameness::Maybe);
    }

    #[test]
    fn the_reconciled_namespace_is_shared_by_its_objects() {
        let ns = Namespace::Named(path(Root::Reconciled(None)));
        assert_eq!(namespace_across(&ns), Sameness::Related);
        let ns = Namespace::Named(NameExpr::Literal("kube-system".into()));
        assert_eq!(namespace_across(&ns), Sameness::Same);
        assert_eq!(namespace_across(&Namespace::All), Sameness::Same);
    }
}
