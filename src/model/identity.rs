//! Which Kubernetes object a request touches, and whether two requests may touch the same one.
//!
//! Everything here is syntactic: a name is the normalised expression that produced it. Two names
//! are the same object when they are provably equal (`definite`), different when provably
//! different (distinct literals, `format!` results with different literal parts). In between,
//! the evidence rule of RacerD: `possible` needs positive evidence that the two can meet on one
//! object (the same origin through different paths, the same `format!` template, a literal that
//! fits a template); two names of unrelated, unknown origin are `unknown`, which is not reported
//! by default (`--min-confidence unknown` shows them).

use std::fmt;

/// How sure the tool is that two requests touch the same object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Nothing says the two requests touch different objects, and nothing says they can touch
    /// the same one (two names of unrelated origin). Not reported by default.
    Unknown,
    /// Positive evidence that they can touch the same object, without proof.
    Possible,
    /// Proved: the same kind, namespace and name.
    Definite,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Unknown => "unknown",
            Confidence::Possible => "possible",
            Confidence::Definite => "definite",
        }
    }
}

/// Whether two things (names, namespaces, kinds) denote the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sameness {
    Same,
    /// Not proved, but with positive evidence that the two can be equal.
    Related,
    /// Nothing is known either way.
    Maybe,
    Different,
}

impl Sameness {
    /// Both must hold: the weaker of the two.
    pub fn and(self, other: Sameness) -> Sameness {
        use Sameness::*;
        match (self, other) {
            (Different, _) | (_, Different) => Different,
            (Maybe, _) | (_, Maybe) => Maybe,
            (Related, _) | (_, Related) => Related,
            (Same, Same) => Same,
        }
    }

    /// How sure a finding resting on this is; None when provably different.
    pub fn confidence(self) -> Option<Confidence> {
        match self {
            Sameness::Same => Some(Confidence::Definite),
            Sameness::Related => Some(Confidence::Possible),
            Sameness::Maybe => Some(Confidence::Unknown),
            Sameness::Different => None,
        }
    }
}

/// Where a value comes from, normalised so that equal roots mean the same value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// A local binding (each `let`, parameter or reassignment gets a fresh id, unique in the
    /// crate: the file id is in the high bits).
    Binding(u64),
    /// `self` in a method, with the `impl` type when it is known: `self` of two types is two
    /// values.
    SelfValue(Option<String>),
    /// A `const` or `static` item, by name.
    Const(String),
    /// The object a controller hands its reconcile (`Controller::new(api, ..).run(reconcile,
    /// ..)`), by the controller's kind when known. Two controllers of one kind reconcile the same
    /// objects, unless their watchers select different ones.
    Reconciled(Option<String>),
    /// What a web handler is handed by the server for each HTTP request it serves
    /// (`Json(event): Json<PrEvent>`, `State(state): State<AppState>`), by the parameter's type
    /// as written. Seen from where the handler is registered (see
    /// [`HandlerRoute`](super::HandlerRoute)): every invocation has its own value, and two
    /// requests may carry the same one.
    Handled(String),
}

/// Where a computed value is computed: the file and byte range of the initialiser, and which
/// binding of its pattern (`let (name, ns) = ..`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Computation {
    pub file: u32,
    pub start: u32,
    pub end: u32,
    pub element: u32,
}

/// The field of a [`NameExpr::Path`] that stands for some element of a collection
/// (`managers[0]`, or `m` in `managers.iter().map(|m| ..)`): two paths through it may be the
/// same element or two different ones.
pub const ANY_ELEMENT: &str = "[*]";

/// The fields of a [`NameExpr::Path`] as the code reads them, for messages: a map's key
/// after its map (`annotations["dest"]`), an object's annotations and labels without the
/// `metadata` they are kept in (kube's `annotations()`, `labels()`).
pub fn fields_text(fields: &[String]) -> String {
    let shown = match fields {
        [m, map, ..] if m == "metadata" && (map == "annotations" || map == "labels") => {
            &fields[1..]
        }
        _ => fields,
    };
    let mut out = String::new();
    for field in shown {
        if !out.is_empty() && !field.starts_with('[') {
            out.push('.');
        }
        out.push_str(field);
    }
    out
}

/// A normalised expression that produces a name or namespace string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NameExpr {
    /// A string literal.
    Literal(String),
    /// A place: a binding followed by fields (`obj.metadata.name`). `name_any()` and friends are
    /// normalised to the `metadata.name` field.
    Path { root: Root, fields: Vec<String> },
    /// `format!` with literal pieces (None where an argument goes) and, for each argument in
    /// order, its name (unknown where a format spec changes it). Built by [`NameExpr::format`]:
    /// literal arguments are folded into the pieces, nested templates spliced in.
    Format {
        pieces: Box<[Option<String>]>,
        parts: Box<[NameExpr]>,
    },
    /// A value a function computes from its inputs in a way this pass does not follow
    /// (`let name = manifest.latest().name();`), seen from a caller: the computation (`how`,
    /// the place in the code), what it was computed from, in the caller's terms, and the
    /// fields taken of the result. The same code on the same inputs is evidence of the same
    /// value, not proof (it may read a clock or a counter).
    Computed {
        how: Computation,
        // Boxed slices: names are kept for every request of the run, and this variant is rare.
        inputs: Box<[NameExpr]>,
        fields: Box<[String]>,
    },
    /// Anything else; the text is kept for messages only and never compared.
    Unknown,
}

impl NameExpr {
    /// The name with binding `param` replaced by `arg` (a closure called with an argument).
    /// Names computed from `param` in ways this pass does not follow become unknown.
    pub fn substitute(&self, param: u64, arg: &NameExpr) -> NameExpr {
        match self {
            NameExpr::Path {
                root: Root::Binding(b),
                fields,
            } if *b == param => match arg {
                NameExpr::Path {
                    root,
                    fields: prefix,
                } => NameExpr::Path {
                    root: root.clone(),
                    fields: prefix.iter().chain(fields).cloned().collect(),
                },
                NameExpr::Literal(_) | NameExpr::Format { .. } if fields.is_empty() => arg.clone(),
                _ => NameExpr::Unknown,
            },
            NameExpr::Format { pieces, parts } => NameExpr::format(
                pieces.to_vec(),
                parts.iter().map(|p| p.substitute(param, arg)).collect(),
            ),
            NameExpr::Computed {
                how,
                inputs,
                fields,
            } => NameExpr::computed(
                *how,
                inputs.iter().map(|i| i.substitute(param, arg)).collect(),
                fields.to_vec(),
            ),
            other => other.clone(),
        }
    }

    /// A `format!` result: literal parts folded into the pieces, templates among the parts
    /// spliced in, so that one string has one form (`format!("{}-lease", "a")` is `"a-lease"`).
    pub fn format(pieces: Vec<Option<String>>, parts: Vec<NameExpr>) -> NameExpr {
        let mut folded = Template::default();
        let mut parts = parts.into_iter();
        for piece in pieces {
            match piece {
                Some(text) => folded.text(&text),
                None => folded.part(parts.next().unwrap_or(NameExpr::Unknown)),
            }
        }
        folded.finish()
    }

    /// How many names this one is made of: bounds what following helpers may build.
    pub fn size(&self) -> usize {
        match self {
            NameExpr::Format { parts, .. } => 1 + parts.iter().map(NameExpr::size).sum::<usize>(),
            NameExpr::Computed { inputs, .. } => {
                1 + inputs.iter().map(NameExpr::size).sum::<usize>()
            }
            _ => 1,
        }
    }

    /// A computed value; unknown when one of its inputs is (nothing then relates two of them).
    pub fn computed(how: Computation, inputs: Vec<NameExpr>, fields: Vec<String>) -> NameExpr {
        if inputs.iter().any(|i| matches!(i, NameExpr::Unknown)) {
            return NameExpr::Unknown;
        }
        NameExpr::Computed {
            how,
            inputs: inputs.into(),
            fields: fields.into(),
        }
    }

    /// Compare two names syntactically.
    pub fn compare(&self, other: &NameExpr) -> Sameness {
        use NameExpr::*;
        match (self, other) {
            (Literal(a), Literal(b)) => {
                if a == b {
                    Sameness::Same
                } else {
                    Sameness::Different
                }
            }
            (
                Path {
                    root: Root::Reconciled(a),
                    ..
                },
                Path {
                    root: Root::Reconciled(b),
                    ..
                },
            ) => {
                match (a, b) {
                    (Some(_), Some(_)) if a != b => Sameness::Different,
                    // The objects two controllers are handed: the same ones when both watch all
                    // of the kind, which the tool does not check.
                    (Some(_), Some(_)) if self == other => Sameness::Related,
                    _ => Sameness::Maybe,
                }
            }
            (Path { fields, .. }, Path { .. }) if self == other => {
                if fields.iter().any(|f| f == ANY_ELEMENT) {
                    // Elements of one collection, maybe not the same one.
                    Sameness::Related
                } else {
                    Sameness::Same
                }
            }
            // The same value, reached through different fields (`obj.metadata.name` and
            // `obj.spec.target`): related, not proved.
            (Path { root: a, .. }, Path { root: b, .. }) if a == b => Sameness::Related,
            (
                Format {
                    pieces: a,
                    parts: pa,
                },
                Format {
                    pieces: b,
                    parts: pb,
                },
            ) => compare_templates((a, pa), (b, pb)),
            (
                Computed {
                    how: a,
                    inputs: ia,
                    fields: fa,
                },
                Computed {
                    how: b,
                    inputs: ib,
                    fields: fb,
                },
            ) if a == b && fa == fb && ia.len() == ib.len() => {
                let inputs_alike = ia
                    .iter()
                    .zip(ib)
                    .all(|(x, y)| matches!(x.compare(y), Sameness::Same | Sameness::Related));
                if inputs_alike {
                    Sameness::Related
                } else {
                    Sameness::Maybe
                }
            }
            (Literal(l), Format { pieces: f, .. }) | (Format { pieces: f, .. }, Literal(l)) => {
                if format_can_equal(f, l) {
                    Sameness::Related
                } else {
                    Sameness::Different
                }
            }
            _ => Sameness::Maybe,
        }
    }
}

/// A `format!` being folded (see [`NameExpr::format`]).
#[derive(Default)]
struct Template {
    pieces: Vec<Option<String>>,
    parts: Vec<NameExpr>,
}

impl Template {
    fn text(&mut self, text: &str) {
        match self.pieces.last_mut() {
            Some(Some(last)) => last.push_str(text),
            _ => self.pieces.push(Some(text.to_string())),
        }
    }

    fn part(&mut self, part: NameExpr) {
        match part {
            NameExpr::Literal(text) => self.text(&text),
            NameExpr::Format { pieces, parts } => {
                let mut parts = parts.into_vec().into_iter();
                for piece in pieces.into_vec() {
                    match piece {
                        Some(text) => self.text(&text),
                        None => self.part(parts.next().unwrap_or(NameExpr::Unknown)),
                    }
                }
            }
            other => {
                self.pieces.push(None);
                self.parts.push(other);
            }
        }
    }

    fn finish(self) -> NameExpr {
        if self.parts.is_empty() {
            return NameExpr::Literal(self.pieces.into_iter().flatten().collect());
        }
        // `format!("{}", name)` is `name`.
        if self.pieces.len() == 1 {
            return self.parts.into_iter().next().unwrap_or(NameExpr::Unknown);
        }
        NameExpr::Format {
            pieces: self.pieces.into(),
            parts: self.parts.into(),
        }
    }
}

/// Two `format!` results: different when their fixed prefixes or suffixes disagree; the same
/// string when the templates and every part are the same; related when the templates are the
/// same naming scheme (a literal piece), or the parts are related.
fn compare_templates(
    (a, parts_a): (&[Option<String>], &[NameExpr]),
    (b, parts_b): (&[Option<String>], &[NameExpr]),
) -> Sameness {
    if !literal_parts_compatible(a, b) {
        return Sameness::Different;
    }
    if a != b || parts_a.len() != parts_b.len() {
        return Sameness::Maybe;
    }
    let parts = parts_a
        .iter()
        .zip(parts_b)
        .map(|(x, y)| match x.compare(y) {
            // Different parts of one template may still give one string (`{}{}`).
            Sameness::Different => Sameness::Maybe,
            other => other,
        })
        .fold(Sameness::Same, Sameness::and);
    match parts {
        Sameness::Same => Sameness::Same,
        _ if a.iter().any(Option::is_some) => Sameness::Related,
        related => related,
    }
}

/// Fixed prefixes and suffixes of two `format!` templates must agree for the results to be equal.
fn literal_parts_compatible(a: &[Option<String>], b: &[Option<String>]) -> bool {
    let prefix = |t: &[Option<String>]| t.first().and_then(|p| p.clone()).unwrap_or_default();
    let suffix = |t: &[Option<String>]| {
        if t.len() > 1 {
            t.last().and_then(|p| p.clone()).unwrap_or_default()
        } else {
            String::new()
        }
    };
    let (pa, pb) = (prefix(a), prefix(b));
    let (sa, sb) = (suffix(a), suffix(b));
    (pa.starts_with(&pb) || pb.starts_with(&pa)) && (sa.ends_with(&sb) || sb.ends_with(&sa))
}

fn format_can_equal(template: &[Option<String>], literal: &str) -> bool {
    let (first, rest) = match template.split_first() {
        Some(x) => x,
        None => return literal.is_empty(),
    };
    let prefix = first.clone().unwrap_or_default();
    let suffix = if rest.is_empty() {
        String::new()
    } else {
        rest.last().cloned().flatten().unwrap_or_default()
    };
    if template.iter().all(Option::is_some) {
        return template.iter().flatten().cloned().collect::<String>() == literal;
    }
    literal.starts_with(&prefix) && literal.ends_with(&suffix)
}

/// The namespace an `Api` handle is scoped to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Namespace {
    /// `Api::all`: every namespace (or a cluster-scoped kind).
    All,
    /// `Api::default_namespaced`: the client's default namespace.
    Default,
    /// `Api::namespaced(client, ns)`.
    Named(NameExpr),
    /// Not visible (a parameter, a field, a helper's return value).
    Unknown,
}

impl Namespace {
    pub fn compare(&self, other: &Namespace) -> Sameness {
        use Namespace::*;
        match (self, other) {
            (All, All) | (Default, Default) => Sameness::Same,
            (Named(a), Named(b)) => match a.compare(b) {
                // Namespaces are few and shared: two unknown ones do not make the objects
                // unrelated when the kind and the name say they are the same.
                Sameness::Maybe => Sameness::Related,
                other => other,
            },
            // A cluster-wide handle reaches every namespace; an unknown one may be any.
            _ => Sameness::Related,
        }
    }
}

/// Identity of the collection an `Api` handle addresses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Handle {
    /// The resource type, last path segment (`Pod`); None when generic, dynamic or not visible.
    pub kind: Option<String>,
    pub namespace: Namespace,
    /// Requests made through the same handle value share kind and namespace even when neither is
    /// visible; this identifies that value (a binding, or a field path text).
    pub origin: Option<HandleOrigin>,
    /// The type parameter standing for the kind in a generic function (`Api::<K>::all(..)`),
    /// resolved at call sites that name it (`helper::<Pod>(..)`).
    pub kind_param: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HandleOrigin {
    Binding(u64),
    Place(String),
    /// A handle a called function made from its inputs (see [`NameExpr::Computed`]): two
    /// calls of it with the same inputs likely make handles of one collection.
    Computed(NameExpr),
}

impl Handle {
    /// Whether two handles may address the same collection.
    pub fn compare(&self, other: &Handle) -> Sameness {
        if let (Some(HandleOrigin::Computed(a)), Some(HandleOrigin::Computed(b))) =
            (&self.origin, &other.origin)
        {
            if matches!(a.compare(b), Sameness::Same | Sameness::Related) {
                return match (&self.kind, &other.kind) {
                    (Some(x), Some(y)) if x != y => Sameness::Different,
                    // One kind in one namespace written out: the same collection, however
                    // each handle was made.
                    (Some(_), Some(_))
                        if self.namespace.compare(&other.namespace) == Sameness::Same =>
                    {
                        Sameness::Same
                    }
                    _ => Sameness::Related,
                };
            }
        }
        if self.origin.is_some() && self.origin == other.origin {
            return Sameness::Same;
        }
        let kind = match (&self.kind, &other.kind) {
            (Some(a), Some(b)) if a == b => Sameness::Same,
            (Some(_), Some(_)) => Sameness::Different,
            _ => Sameness::Maybe,
        };
        kind.and(self.namespace.compare(&other.namespace))
    }

    pub fn kind_or_object(&self) -> &str {
        self.kind.as_deref().unwrap_or("object")
    }
}

/// Kinds that say nothing about the resource type (dynamic APIs, generic objects).
pub fn is_untyped_kind(kind: &str) -> bool {
    matches!(kind, "DynamicObject" | "Object" | "PartialObjectMeta")
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use NameExpr::*;

    fn lit(s: &str) -> NameExpr {
        Literal(s.into())
    }

    /// A template whose arguments are not known.
    fn scheme(pieces: Vec<Option<String>>) -> NameExpr {
        let holes = pieces.iter().filter(|p| p.is_none()).count();
        NameExpr::format(pieces, vec![Unknown; holes])
    }

    fn binding(id: u64) -> NameExpr {
        Path {
            root: Root::Binding(id),
            fields: vec![],
        }
    }

    #[test]
    fn literals_compare_by_value() {
        assert_eq!(lit("a").compare(&lit("a")), Sameness::Same);
        assert_eq!(lit("a").compare(&lit("b")), Sameness::Different);
    }

    #[test]
    fn formats_with_different_fixed_parts_differ() {
        let a = scheme(vec![Some("web-".into()), None]);
        let b = scheme(vec![Some("db-".into()), None]);
        assert_eq!(a.compare(&b), Sameness::Different);
        let c = scheme(vec![None, Some("-config".into())]);
        let d = scheme(vec![None, Some("-secret".into())]);
        assert_eq!(c.compare(&d), Sameness::Different);
        assert_eq!(a.compare(&a.clone()), Sameness::Related);
        assert_eq!(a.compare(&lit("web-1")), Sameness::Related);
        assert_eq!(a.compare(&lit("db-1")), Sameness::Different);
    }

    #[test]
    fn formats_fold_literal_parts_and_compare_their_parts() {
        let lease = |part| NameExpr::format(vec![None, Some("-lease".into())], vec![part]);
        // Literal arguments are folded: different literals, different objects.
        assert_eq!(lease(lit("a")), lit("a-lease"));
        assert_eq!(
            lease(lit("a")).compare(&lease(lit("b"))),
            Sameness::Different
        );
        // The same template with the same parts is the same string; related parts, related.
        assert_eq!(
            lease(binding(1)).compare(&lease(binding(1))),
            Sameness::Same
        );
        let field = |f: &str| Path {
            root: Root::Binding(1),
            fields: vec![f.into()],
        };
        assert_eq!(
            lease(field("a")).compare(&lease(field("b"))),
            Sameness::Related
        );
        // Unrelated parts: the naming scheme alone.
        assert_eq!(
            lease(binding(1)).compare(&lease(binding(2))),
            Sameness::Related
        );
        assert_eq!(
            lease(lit("a")).compare(&lease(binding(2))),
            Sameness::Related
        );
        // A template among the parts is spliced in.
        let nested = NameExpr::format(vec![Some("x-".into()), None], vec![lease(binding(1))]);
        let flat = NameExpr::format(
            vec![Some("x-".into()), None, Some("-lease".into())],
            vec![binding(1)],
        );
        assert_eq!(nested, flat);
        // No literal piece: the parts alone relate them; `format!("{}", x)` is `x`.
        let bare = |a, b| NameExpr::format(vec![None, None], vec![a, b]);
        let (one, two) = (bare(binding(1), binding(2)), bare(binding(3), binding(4)));
        assert_eq!(one.compare(&two), Sameness::Maybe);
        assert_eq!(one.compare(&one.clone()), Sameness::Same);
        assert_eq!(one.size(), 3);
        assert_eq!(NameExpr::format(vec![None], vec![binding(1)]), binding(1));
    }

    #[test]
    fn unknown_names_are_maybe() {
        assert_eq!(Unknown.compare(&Unknown), Sameness::Maybe);
        let p = Path {
            root: Root::Binding(1),
            fields: vec![],
        };
        assert_eq!(p.compare(&p.clone()), Sameness::Same);
        assert_eq!(p.compare(&lit("x")), Sameness::Maybe);
        let other = Path {
            root: Root::Binding(2),
            fields: vec![],
        };
        assert_eq!(p.compare(&other), Sameness::Maybe);
    }

    #[test]
    fn evidence_makes_names_related() {
        let field = |root: u64, f: &str| Path {
            root: Root::Binding(root),
            fields: vec![f.into()],
        };
        assert_eq!(field(1, "a").compare(&field(1, "b")), Sameness::Related);
        assert_eq!(field(1, "a").compare(&field(2, "a")), Sameness::Maybe);
        let template = scheme(vec![Some("web-".into()), None]);
        assert_eq!(template.compare(&template.clone()), Sameness::Related);
        assert_eq!(template.compare(&lit("web-1")), Sameness::Related);
        let open = scheme(vec![None, Some("".into())]);
        assert_eq!(open.compare(&template), Sameness::Maybe);
        assert_eq!(Sameness::Same.and(Sameness::Related), Sameness::Related);
        assert_eq!(Sameness::Related.and(Sameness::Maybe), Sameness::Maybe);
        assert_eq!(Sameness::Maybe.confidence(), Some(Confidence::Unknown));
    }

    #[test]
    fn computed_names_relate_only_for_the_same_code_on_alike_inputs() {
        let at = |start| Computation {
            file: 0,
            start,
            end: start + 10,
            element: 0,
        };
        let of = |how, input: &str| NameExpr::computed(how, vec![lit(input)], Vec::new());
        assert_eq!(of(at(1), "m").compare(&of(at(1), "m")), Sameness::Related);
        assert_eq!(of(at(1), "m").compare(&of(at(1), "n")), Sameness::Maybe);
        assert_eq!(of(at(1), "m").compare(&of(at(2), "m")), Sameness::Maybe);
        // Computed from something unknown: nothing to relate.
        assert_eq!(
            NameExpr::computed(at(1), vec![Unknown], Vec::new()),
            Unknown
        );
    }

    #[test]
    fn substitution_replaces_the_parameter_root() {
        let param = Path {
            root: Root::Binding(7),
            fields: vec!["metadata".into(), "name".into()],
        };
        let arg = Path {
            root: Root::Binding(1),
            fields: vec!["obj".into()],
        };
        assert_eq!(
            param.substitute(7, &arg),
            Path {
                root: Root::Binding(1),
                fields: vec!["obj".into(), "metadata".into(), "name".into()],
            }
        );
        // A literal has no fields to reach into.
        assert_eq!(param.substitute(7, &lit("a")), Unknown);
        let bare = Path {
            root: Root::Binding(7),
            fields: vec![],
        };
        assert_eq!(bare.substitute(7, &lit("a")), lit("a"));
        assert_eq!(bare.substitute(8, &lit("a")), bare);
    }

    #[test]
    fn handles_of_different_kinds_or_namespaces_differ() {
        let h = |k: &str, ns: &str| Handle {
            kind: Some(k.into()),
            namespace: Namespace::Named(lit(ns)),
            origin: None,
            kind_param: None,
        };
        assert_eq!(h("Pod", "a").compare(&h("Pod", "a")), Sameness::Same);
        assert_eq!(h("Pod", "a").compare(&h("Pod", "b")), Sameness::Different);
        assert_eq!(
            h("Pod", "a").compare(&h("Secret", "a")),
            Sameness::Different
        );
        let all = Handle {
            namespace: Namespace::All,
            ..h("Pod", "a")
        };
        assert_eq!(all.compare(&h("Pod", "a")), Sameness::Related);
    }
}
