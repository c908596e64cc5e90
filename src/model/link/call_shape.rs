//! How a call names the function it calls (`CallShape`), and which functions of a name one kind
//! of call can mean (`Overload`).

use crate::model::{Callee, FunctionFacts, HelperCall};

/// A [`CallShape`] that owns its strings.
pub(super) enum ShapeKey {
    Bare(usize),
    Qualified(String, usize),
    Method(Option<String>, usize),
}

impl ShapeKey {
    /// The shape this key was made of ([`CallShape::key`]).
    pub(super) fn as_shape(&self) -> CallShape<'_> {
        match self {
            ShapeKey::Bare(arity) => CallShape::Bare { arity: *arity },
            ShapeKey::Qualified(qualifier, arity) => CallShape::Qualified {
                qualifier,
                arity: *arity,
            },
            ShapeKey::Method(self_type, arity) => CallShape::Method {
                self_type: self_type.as_deref(),
                arity: *arity,
            },
        }
    }
}

/// The functions of a name that one kind of call can mean: a superset of those a
/// [`CallShape`] fits (see [`Overload::of_call`]), so that `fits` runs over few.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Overload<'c> {
    /// Functions outside `impl` blocks, by the arguments a path call gives (`self` counted).
    Free { name: &'c str, arity: usize },
    /// Functions of `impl Type` blocks: `Type::f(..)`, or `x.f(..)` with `x: Type`.
    Of { name: &'c str, self_type: &'c str },
    /// Methods, by their arguments besides `self`: `x.f(..)` on a receiver of unknown type.
    Method { name: &'c str, arity: usize },
}

impl<'c> Overload<'c> {
    pub(super) fn of_function(f: &'c FunctionFacts) -> impl Iterator<Item = Overload<'c>> {
        let name = f.name.as_str();
        let owner = match f.self_type.as_deref() {
            Some(self_type) => Overload::Of { name, self_type },
            None => Overload::Free {
                name,
                arity: f.params.len() + usize::from(f.has_self),
            },
        };
        let method = f.has_self.then_some(Overload::Method {
            name,
            arity: f.params.len(),
        });
        std::iter::once(owner).chain(method)
    }

    pub(super) fn of_call(name: &'c str, shape: CallShape<'c>) -> Overload<'c> {
        match shape {
            CallShape::Bare { arity } => Overload::Free { name, arity },
            CallShape::Qualified { qualifier, arity } => {
                if qualifier.starts_with(char::is_uppercase) {
                    Overload::Of {
                        name,
                        self_type: qualifier,
                    }
                } else {
                    Overload::Free { name, arity }
                }
            }
            CallShape::Method {
                self_type: Some(self_type),
                ..
            } => Overload::Of { name, self_type },
            CallShape::Method {
                self_type: None,
                arity,
            } => Overload::Method { name, arity },
        }
    }
}

/// How a call names the function it calls, for matching it against the crate's functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum CallShape<'c> {
    /// `f(..)`, `crate::f(..)`, `self::f(..)`.
    Bare { arity: usize },
    /// `module::f(..)`, or `Type::f(..)` when the qualifier starts with a capital.
    Qualified { qualifier: &'c str, arity: usize },
    /// `x.f(..)`, with the receiver's type when it is known.
    Method {
        self_type: Option<&'c str>,
        arity: usize,
    },
}

impl<'c> CallShape<'c> {
    /// The callee's name and the call's shape; `typed` is the receiver's type when the linker
    /// found it (see [`Linker::receiver_type`]).
    pub(super) fn of(
        call: &'c HelperCall,
        typed: Option<&'c str>,
    ) -> Option<(&'c str, CallShape<'c>)> {
        match &call.callee {
            Callee::Path(segments) => {
                let (name, qualifiers) = segments.split_last()?;
                let arity = call.args.len();
                let shape = match qualifiers
                    .iter()
                    .rfind(|s| !matches!(s.as_str(), "crate" | "self" | "super"))
                {
                    Some(q) => CallShape::Qualified {
                        qualifier: q,
                        arity,
                    },
                    None => CallShape::Bare { arity },
                };
                Some((name, shape))
            }
            // A function value: which one is the field's (see `Linker::callback`).
            Callee::Field(_) => None,
            Callee::Method {
                name, self_type, ..
            } => Some((
                name,
                CallShape::Method {
                    self_type: self_type.as_deref().or(typed),
                    arity: call.args.len(),
                },
            )),
        }
    }

    pub(super) fn key(&self) -> ShapeKey {
        match *self {
            CallShape::Bare { arity } => ShapeKey::Bare(arity),
            CallShape::Qualified { qualifier, arity } => {
                ShapeKey::Qualified(qualifier.to_string(), arity)
            }
            CallShape::Method { self_type, arity } => {
                ShapeKey::Method(self_type.map(str::to_string), arity)
            }
        }
    }

    /// The same shape with another number of arguments.
    pub(super) fn with_arity(self, arity: usize) -> Self {
        match self {
            CallShape::Bare { .. } => CallShape::Bare { arity },
            CallShape::Qualified { qualifier, .. } => CallShape::Qualified { qualifier, arity },
            CallShape::Method { self_type, .. } => CallShape::Method { self_type, arity },
        }
    }

    /// Could a call of this shape call `f` (of the right name)?
    pub(super) fn fits(&self, f: &FunctionFacts) -> bool {
        match *self {
            // A trait's functions are called through a type or the trait (`T::f(..)`,
            // `Trait::f(..)`) or as methods, never by their bare name or a module's path.
            CallShape::Bare { arity } => {
                arity == f.params.len() + usize::from(f.has_self)
                    && f.self_type.is_none()
                    && !f.has_self
                    && f.trait_name.is_none()
            }
            CallShape::Qualified { qualifier, arity } => {
                arity == f.params.len() + usize::from(f.has_self)
                    && if qualifier.starts_with(char::is_uppercase) {
                        f.self_type.as_deref() == Some(qualifier)
                    } else {
                        f.self_type.is_none()
                            && f.trait_name.is_none()
                            && f.module.last().map(String::as_str) == Some(qualifier)
                    }
            }
            CallShape::Method { self_type, arity } => {
                f.has_self
                    && f.params.len() == arity
                    && (self_type.is_none() || f.self_type.as_deref() == self_type)
            }
        }
    }
}
