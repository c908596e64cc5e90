//! Item facts of every file by name (`Api`-typed fields and functions, consts, traits, aliases,
//! trait implementors), and the part of them one link unit's scope sees.

// foldhash, seeded per run, as the rest of the model (see `model::build`).
use foldhash::HashMap;

use crate::model::units::UnitScopes;
use crate::model::{Handle, HandleSource, ItemIndex, NameExpr, Namespace, ObjectName, Root};

/// Item facts of every file of a run, by name, each with its file's link unit: a unit's code
/// sees those of its scope ([`IndexView`]).
#[derive(Debug, Default)]
pub struct CrateIndex {
    /// Field name → kinds declared for fields of that name with an `Api<K>` type.
    api_fields: HashMap<String, Vec<(usize, Option<String>)>>,
    /// Function or method name → kinds of the `Api<K>` it returns.
    api_fns: HashMap<String, Vec<(usize, Option<String>)>>,
    /// `const` name → its string values (several when different items share the name).
    consts: HashMap<String, Vec<(usize, String)>>,
    /// Traits declared, with the units declaring them.
    traits: HashMap<String, Vec<usize>>,
    /// `type Leases = Api<Lease>;`: alias → kinds declared for it.
    aliases: HashMap<String, Vec<(usize, Option<String>)>>,
    /// Field name → the types, maybe aliases of `Api<K>`, of fields of that name.
    alias_fields: HashMap<String, Vec<(usize, String)>>,
    /// Trait → the types implementing it (`impl Trait for Type`), with repeats.
    implementors: HashMap<String, Vec<(usize, String)>>,
}

impl CrateIndex {
    /// The items of a file of link unit `unit`.
    pub fn add(&mut self, unit: usize, items: &ItemIndex) {
        group_into(&mut self.api_fields, unit, &items.api_fields);
        group_into(&mut self.api_fns, unit, &items.api_returning_fns);
        group_into(&mut self.consts, unit, &items.consts);
        for t in &items.traits {
            self.traits.entry(t.clone()).or_default().push(unit);
        }
        group_into(&mut self.aliases, unit, &items.api_aliases);
        group_into(&mut self.alias_fields, unit, &items.alias_fields);
        group_into(&mut self.implementors, unit, &items.trait_impls);
    }

    /// The items `scope` sees.
    pub fn view<'i>(&'i self, scope: Scope<'i>) -> IndexView<'i> {
        IndexView {
            index: self,
            top: None,
            hidden: None,
            scope,
        }
    }
}

/// Which link units' facts a linker sees: all (one crate, or files linked together), or a
/// unit's scope.
#[derive(Clone, Copy, Debug)]
pub enum Scope<'s> {
    All,
    Of { unit: usize, scopes: &'s UnitScopes },
}

impl Scope<'_> {
    pub(super) fn sees(&self, unit: usize) -> bool {
        match self {
            Scope::All => true,
            Scope::Of { unit: own, scopes } => scopes.contains(*own, unit),
        }
    }
}

/// The items of a [`CrateIndex`] one scope sees.
#[derive(Clone, Copy)]
pub struct IndexView<'i> {
    pub(super) index: &'i CrateIndex,
    /// The items of a file laid on top of the run's (see [`LinkIndex::with_file`]).
    pub(super) top: Option<&'i CrateIndex>,
    /// The items of a file of `index` that the top replaces: not seen. Each of its
    /// declarations is also one of `index`'s, taken off once (callers count declarations).
    pub(super) hidden: Option<&'i CrateIndex>,
    pub(super) scope: Scope<'i>,
}

impl<'i> IndexView<'i> {
    /// The values declared for `name` in units of the scope, in the order they were added.
    fn seen<V: PartialEq + 'i>(
        &self,
        map: impl Fn(&'i CrateIndex) -> &'i HashMap<String, Vec<(usize, V)>>,
        name: &str,
    ) -> Vec<&'i V> {
        let declared = |index: &'i CrateIndex| {
            map(index)
                .get(name)
                .into_iter()
                .flatten()
                .filter(|(unit, _)| self.scope.sees(*unit))
        };
        let mut seen: Vec<&'i (usize, V)> = declared(self.index).collect();
        for hidden in self.hidden.into_iter().flat_map(declared) {
            if let Some(at) = seen.iter().position(|d| *d == hidden) {
                seen.remove(at);
            }
        }
        seen.extend(self.top.into_iter().flat_map(declared));
        seen.into_iter().map(|(_, v)| v).collect()
    }

    /// The type (last segment) the crate declares its fields of this name with, when every such
    /// field has the same plain type (`op: oplib::OpClient`, `&OpClient`); None otherwise.
    pub fn field_type(&self, field: &str) -> Option<&'i str> {
        let types = self.seen(|i| &i.alias_fields, field);
        let first = types.first()?;
        types.iter().all(|t| t == first).then_some(first.as_str())
    }

    pub(super) fn implements(&self, ty: &str, trait_name: &str) -> bool {
        self.implementors_of(trait_name).iter().any(|t| *t == ty)
    }

    /// The types implementing a trait (`impl Trait for Type`) in the scope, with repeats.
    pub(super) fn implementors_of(&self, trait_name: &str) -> Vec<&'i String> {
        self.seen(|i| &i.implementors, trait_name)
    }

    pub(super) fn has_trait(&self, name: &str) -> bool {
        let declared = |index: &CrateIndex| {
            let units = index.traits.get(name).map_or(&[][..], Vec::as_slice);
            units.iter().filter(|u| self.scope.sees(**u)).count()
        };
        let hidden = self.hidden.map_or(0, declared);
        declared(self.index) > hidden || self.top.is_some_and(|t| declared(t) > 0)
    }

    /// One kind when every declaration agrees, None (unknown) when they differ.
    fn kind(decls: &[&Option<String>]) -> Option<String> {
        let first = *decls.first()?;
        decls
            .iter()
            .all(|k| *k == first)
            .then(|| first.clone())
            .flatten()
    }

    pub fn resolve(&self, source: &HandleSource) -> Option<Handle> {
        let (decls, origin) = match source {
            HandleSource::Known(h) => {
                return Some(Handle {
                    namespace: self.resolve_namespace(&h.namespace),
                    ..h.clone()
                })
            }
            HandleSource::Field { field, origin } => {
                let mut decls = self.seen(|i| &i.api_fields, field);
                for alias in self.seen(|i| &i.alias_fields, field) {
                    decls.extend(self.seen(|i| &i.aliases, alias));
                }
                if decls.is_empty() {
                    return None;
                }
                (decls, origin)
            }
            HandleSource::Returned {
                name,
                origin,
                kind_arg,
            } => {
                let decls = self.non_empty(self.seen(|i| &i.api_fns, name))?;
                // Every function of the name generic over the kind: the turbofish names it.
                if let (Some(kind), true) = (kind_arg, decls.iter().all(|k| k.is_none())) {
                    return Some(Handle {
                        kind: Some(kind.clone()),
                        namespace: Namespace::Unknown,
                        origin: origin.clone(),
                        kind_param: None,
                    });
                }
                (decls, origin)
            }
            HandleSource::Aliased { alias, origin } => {
                (self.non_empty(self.seen(|i| &i.aliases, alias))?, origin)
            }
            // Its call, resolved by the linker (`Linker::resolve_handle`), says.
            HandleSource::Unwrapped { .. } => return None,
        };
        Some(Handle {
            kind: Self::kind(&decls),
            namespace: Namespace::Unknown,
            origin: origin.clone(),
            kind_param: None,
        })
    }

    /// A name without declarations is not indexed: as if it had no entry.
    fn non_empty<V>(&self, decls: Vec<V>) -> Option<Vec<V>> {
        (!decls.is_empty()).then_some(decls)
    }

    /// A `const` of another file, when the scope has exactly one value for its name.
    pub(super) fn resolve_name(&self, name: &NameExpr) -> NameExpr {
        if let NameExpr::Path {
            root: Root::Const(c),
            fields,
        } = name
        {
            if let ([value], true) = (self.seen(|i| &i.consts, c).as_slice(), fields.is_empty()) {
                return NameExpr::Literal((*value).clone());
            }
        }
        name.clone()
    }

    pub(super) fn resolve_namespace(&self, ns: &Namespace) -> Namespace {
        match ns {
            Namespace::Named(n) => Namespace::Named(self.resolve_name(n)),
            other => other.clone(),
        }
    }

    pub(super) fn resolve_object(&self, object: &ObjectName) -> ObjectName {
        match object {
            ObjectName::One { name, text } => ObjectName::One {
                name: self.resolve_name(name),
                text: text.clone(),
            },
            ObjectName::All => ObjectName::All,
        }
    }
}

/// Declarations by name: each `(name, value)` of `unit` added to the values declared for that
/// name.
fn group_into<V: Clone>(
    index: &mut HashMap<String, Vec<(usize, V)>>,
    unit: usize,
    declared: &[(String, V)],
) {
    for (name, value) in declared {
        index
            .entry(name.clone())
            .or_default()
            .push((unit, value.clone()));
    }
}
