//! Which crate functions a call may run: candidates by name and call shape, `cfg`, test-only
//! functions, trait impls and provided methods; how surely a call resolved.

use std::borrow::Borrow;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::call_shape::{CallShape, ShapeKey};
use super::{FunctionRef, Linker};
use crate::model::{Callee, Cfg, FunctionFacts, HelperCall, RawRequest, Resolution};

/// What [`Linker::candidates`] depends on: the callee's name, the call's shape (the receiver's
/// type found) and the caller's `cfg`. The cache owns its keys; a lookup borrows the call's
/// ([`KeyView`]), so that a hit copies nothing.
pub(super) struct CandidatesKey {
    name: String,
    shape: ShapeKey,
    cfg: Cfg,
}

/// A [`CandidatesKey`] borrowed: what both hash and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct KeyParts<'k> {
    name: &'k str,
    shape: CallShape<'k>,
    cfg: &'k Cfg,
}

/// A key owned or borrowed, to look the cache up with a borrowed one (`HashMap::get` takes
/// what the stored key borrows as).
trait KeyView {
    fn parts(&self) -> KeyParts<'_>;
}

impl KeyView for CandidatesKey {
    fn parts(&self) -> KeyParts<'_> {
        KeyParts {
            name: &self.name,
            shape: self.shape.as_shape(),
            cfg: &self.cfg,
        }
    }
}

impl KeyView for KeyParts<'_> {
    fn parts(&self) -> KeyParts<'_> {
        *self
    }
}

impl<'k> Borrow<dyn KeyView + 'k> for CandidatesKey {
    fn borrow(&self) -> &(dyn KeyView + 'k) {
        self
    }
}

impl Hash for dyn KeyView + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state);
    }
}

impl PartialEq for dyn KeyView + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn KeyView + '_ {}

// The stored key hashes and compares as its borrowed view, as `Borrow` requires.
impl Hash for CandidatesKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state);
    }
}

impl PartialEq for CandidatesKey {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for CandidatesKey {}

/// How surely a call that resolved is the function it resolved to (see [`Resolution`]).
pub(super) fn resolution_of(call: &HelperCall, typed: bool) -> Resolution {
    match &call.callee {
        Callee::Method {
            self_type: None,
            name,
            ..
        } if !typed && is_library_method_name(name) => Resolution::AmbiguousName,
        Callee::Method {
            self_type: None, ..
        } if !typed => Resolution::ByName,
        _ => Resolution::Typed,
    }
}

/// Method names of common library types (tokio's channels and tasks, web servers, streams)
/// that crates also give their own methods: on a receiver of unknown type, the name says
/// nothing about which one is called (`rx.changed()` on a `watch::Receiver` and
/// `LeaseManager::changed`; actix's `HttpServer::run` and a controller's `run`).
fn is_library_method_name(name: &str) -> bool {
    #[rustfmt::skip]
    const NAMES: &[&str] = &[
        "changed", "run", "start", "stop", "wait", "notified", "tick", "closed", "cancelled",
        "call", "ready", "shutdown", "close", "flush", "reset", "acquire", "wait_for", "listen",
        "serve", "poll", "handle", "process", "execute", "exec", "connect", "accept", "bind",
        "join_next", "recv_many", "send_timeout", "reserve", "update", "refresh", "sync",
    ];
    NAMES.contains(&name)
}

impl<'a> Linker<'a> {
    /// The crate function a call refers to, when it can be told syntactically: the only
    /// function of the name that fits the call's shape, else the only one of the caller's file.
    /// Only functions compiled with the call count (see [`visible_from`]); test code prefers
    /// functions compiled for tests only (an in-memory impl of a trait in a `#[cfg(test)] mod`).
    pub(super) fn resolve_callee(
        &self,
        caller: usize,
        raw: &RawRequest,
        call: &HelperCall,
    ) -> Option<FunctionRef> {
        self.resolve_callee_at(caller, &raw.cfg, call, 0)
    }

    pub(super) fn resolve_callee_at(
        &self,
        caller: usize,
        cfg: &Cfg,
        call: &HelperCall,
        depth: usize,
    ) -> Option<FunctionRef> {
        pick(caller, &self.candidates(caller, cfg, call, depth))
    }

    /// The functions of the call's name that fit its shape and are compiled with it (see
    /// [`visible_from`]); in test code, the test-only ones when there are some.
    pub(super) fn candidates(
        &self,
        caller: usize,
        cfg: &Cfg,
        call: &HelperCall,
        depth: usize,
    ) -> Rc<[FunctionRef]> {
        let typed = self.receiver_type(caller, call, depth);
        if typed.is_none() && returned_receiver(call) {
            return Rc::new([]);
        }
        let Some((name, shape)) = CallShape::of(call, typed.as_deref()) else {
            return Rc::new([]);
        };
        let parts = KeyParts { name, shape, cfg };
        if let Some(found) = self.candidates.borrow().get(&parts as &dyn KeyView) {
            return found.clone();
        }
        let found: Rc<[FunctionRef]> = self.scan_candidates(name, shape, cfg).into();
        let key = CandidatesKey {
            name: name.to_string(),
            shape: shape.key(),
            cfg: cfg.clone(),
        };
        self.candidates.borrow_mut().insert(key, found.clone());
        found
    }

    /// [`Linker::candidates`], found by scanning the functions that may fit.
    fn scan_candidates(&self, name: &str, shape: CallShape<'_>, cfg: &Cfg) -> Vec<FunctionRef> {
        if let CallShape::Method {
            self_type: Some(ty),
            arity,
        } = shape
        {
            if let Some(traits) = crate::model::bound_traits(ty) {
                return self.bound_candidates(name, traits.collect(), arity, cfg);
            }
        }
        let mut fits: Vec<FunctionRef> = Vec::new();
        for (p, k) in self.shared.overloads(name, shape) {
            let f = &self.shared.facts(p).functions[k];
            if self.fits(shape, f) && self.sees(p) && visible_from(cfg, f) {
                fits.push((p, k));
            }
        }
        self.with_provided_methods(name, shape, cfg, &mut fits);
        if fits.len() > 1 && cfg.is_test() {
            let tests: Vec<FunctionRef> = fits
                .iter()
                .copied()
                .filter(|&(p, k)| self.shared.facts(p).functions[k].cfg.is_test())
                .collect();
            if !tests.is_empty() {
                fits = tests;
            }
        }
        fits
    }

    /// The methods a call on a value known by its traits may run (`task.run(..)` with
    /// `task: Arc<T>`, `T: Task`): the methods of the name of those traits the crate declares,
    /// in every implementor of the scope, and their provided ones. A bound the crate does not
    /// declare (`Send`, `kube::Resource`) gives none: no function of the crate is called
    /// through it, whatever its name.
    fn bound_candidates(
        &self,
        name: &str,
        traits: Vec<&str>,
        arity: usize,
        cfg: &Cfg,
    ) -> Vec<FunctionRef> {
        let traits: Vec<&str> = traits
            .into_iter()
            .filter(|t| self.index().has_trait(t))
            .collect();
        if traits.is_empty() {
            return Vec::new();
        }
        let shape = CallShape::Method {
            self_type: None,
            arity,
        };
        let mut fits = self.scan_candidates(name, shape, cfg);
        fits.retain(|&(p, k)| {
            let f = &self.shared.facts(p).functions[k];
            f.trait_name.as_deref().is_some_and(|t| traits.contains(&t))
        });
        fits
    }

    /// Trait's provided methods among the functions a method call may run: for a receiver of
    /// a known type without a method of the name, those of the crate traits it implements; for
    /// one of unknown type, those some implementor does not override (with the overrides).
    /// `Type::f(..)` (`Trait::f(..)`) without a function of `impl Type` of the name: the
    /// provided function of a crate trait `Type` implements (of that trait).
    fn with_provided_methods(
        &self,
        name: &str,
        shape: CallShape<'_>,
        cfg: &Cfg,
        fits: &mut Vec<FunctionRef>,
    ) {
        let function = |&(p, k): &FunctionRef| &self.shared.facts(p).functions[k];
        let provided = |f: &FunctionFacts| f.provided && f.trait_name.is_some();
        let (self_type, arity) = match shape {
            CallShape::Method { self_type, arity } => (self_type, arity),
            CallShape::Qualified { qualifier, arity }
                if qualifier.starts_with(char::is_uppercase) && fits.is_empty() =>
            {
                fits.extend(self.shared.functions_named(name).filter(|r| {
                    let f = function(r);
                    provided(f)
                        && f.params.len() + usize::from(f.has_self) == arity
                        && visible_from(cfg, f)
                        && f.trait_name.as_deref().is_some_and(|t| {
                            self.index().has_trait(t)
                                && (t == qualifier || self.index().implements(qualifier, t))
                        })
                }));
                return;
            }
            CallShape::Bare { .. } | CallShape::Qualified { .. } => return,
        };
        match self_type {
            Some(ty) if fits.is_empty() => {
                fits.extend(self.shared.functions_named(name).filter(|r| {
                    let f = function(r);
                    provided(f)
                        && f.params.len() == arity
                        && visible_from(cfg, f)
                        && f.trait_name.as_deref().is_some_and(|t| {
                            self.index().has_trait(t) && self.index().implements(ty, t)
                        })
                }));
            }
            Some(_) => {}
            None => fits.retain(|r| {
                let f = function(r);
                !provided(f) || !self.overridden_everywhere(name, f)
            }),
        }
    }

    /// Every implementor of a provided method's trait overrides it: its default never runs.
    fn overridden_everywhere(&self, name: &str, provided: &FunctionFacts) -> bool {
        let Some(t) = provided.trait_name.as_deref() else {
            return false;
        };
        let implementors = self.index().implementors_of(t);
        let overrides = |ty: &&String| {
            self.shared
                .defines_trait_method(&(t.to_string(), ty.to_string(), name.to_string()))
        };
        !implementors.is_empty() && implementors.iter().all(overrides)
    }

    /// The functions a call may run: the one it resolves to, or one function per platform
    /// (`platform::cleanup` in a `#[cfg(unix)] mod platform` and a `#[cfg(windows)]` one),
    /// when every function that fits is under a `cfg` excluding the others'.
    pub(super) fn callees(
        &self,
        caller: usize,
        raw: &RawRequest,
        call: &HelperCall,
    ) -> Vec<FunctionRef> {
        if let Callee::Field(field) = &call.callee {
            return self
                .callback_function(field, &raw.cfg)
                .into_iter()
                .collect();
        }
        let fits = self.candidates(caller, &raw.cfg, call, 0);
        let function = |&(p, k): &FunctionRef| &self.shared.facts(p).functions[k];
        let variants = fits.len() > 1
            && fits.iter().enumerate().all(|(i, a)| {
                fits[i + 1..]
                    .iter()
                    .all(|b| !function(a).cfg.can_coexist(&function(b).cfg))
            });
        if variants || self.dispatches_to_every_impl(call, &fits) {
            return fits.to_vec();
        }
        pick(caller, &fits).into_iter().collect()
    }

    /// A method call whose candidates are all impls of one trait the crate declares, for a
    /// receiver whose type is not known (`store: &S` with `S: Store`, `&dyn Store`): it may
    /// run any of them, so it makes the requests of each.
    fn dispatches_to_every_impl(&self, call: &HelperCall, fits: &[FunctionRef]) -> bool {
        if fits.len() < 2 || !matches!(call.callee, Callee::Method { .. }) {
            return false;
        }
        let trait_of =
            |&(p, k): &FunctionRef| self.shared.facts(p).functions[k].trait_name.as_deref();
        let Some(t) = trait_of(&fits[0]) else {
            return false;
        };
        self.index().has_trait(t) && fits.iter().all(|f| trait_of(f) == Some(t))
    }

    /// Could a call of this shape call `f`? A method of a trait declared elsewhere
    /// (`std::io::Read::read_to_end`) is not taken for a call whose receiver's type is unknown:
    /// every type implementing that trait, in the crate or not, has a method of that name.
    pub(super) fn fits(&self, shape: CallShape<'_>, f: &FunctionFacts) -> bool {
        if let (
            CallShape::Method {
                self_type: None, ..
            },
            Some(t),
        ) = (shape, &f.trait_name)
        {
            if !self.index().has_trait(t) {
                return false;
            }
        }
        shape.fits(f)
    }
}

/// A method call on what another call returned (`Builder::new().build()?.block_on(..)`): when
/// the linker cannot type that (no crate function returns it, or its type is not written),
/// the receiver is most likely of a library's type, and the method is not guessed by its name.
fn returned_receiver(call: &HelperCall) -> bool {
    matches!(
        call.callee,
        Callee::Method {
            self_type: None,
            receiver_from: Some(_),
            ..
        }
    )
}

/// The crate function a call of these candidates refers to: the only one, else the only one of
/// the caller's file (several functions of that name elsewhere leave it unresolved).
fn pick(caller: usize, candidates: &[FunctionRef]) -> Option<FunctionRef> {
    match candidates {
        [] => None,
        [one] => Some(*one),
        several => {
            let mut local = several.iter().filter(|(p, _)| *p == caller);
            match (local.next(), local.next()) {
                (Some(one), None) => Some(*one),
                _ => None,
            }
        }
    }
}

/// Whether code under `cfg` can call `f`: both are compiled together, and `f` is not compiled
/// for tests only unless the caller is (a fake impl under `#[cfg(test)]` does not hide the real
/// one from the code that ships).
pub(super) fn visible_from(cfg: &Cfg, f: &FunctionFacts) -> bool {
    f.cfg.can_coexist(cfg) && (!f.cfg.is_test() || cfg.is_test())
}
