//! Functions and bodies: what the syntax pass records of each function of a file, and what
//! each function, closure or `async` block is (async or not).

use super::{
    order, Cfg, Computation, Handle, NameExpr, ObjectName, PassedController, Precondition, Request,
    Root, TypeShape,
};
use crate::source::Span;

/// A function or method body of the file.
#[derive(Clone, Debug)]
pub struct FunctionFacts {
    pub name: String,
    /// The `impl` type for methods (last path segment).
    pub self_type: Option<String>,
    /// Module path of the function, from the file path and inline modules (`status`, `a::b`).
    pub module: Vec<String>,
    pub has_self: bool,
    /// The binding id of each positional parameter that is a plain identifier.
    pub params: Vec<Option<u64>>,
    /// Type parameter names, for turbofish substitution of generic kinds.
    pub generics: Vec<String>,
    /// For each positional parameter (as `params`), the type parameter of `generics` its type
    /// is (`obj: &T`, `Arc<T>`, `Box<T>`): a call's argument for it gives `T` its kind, as a
    /// turbofish would (`patch_status(&client, &app, ..)` with `app: App` runs `Api<T>` as
    /// `Api<App>`).
    pub typed_by_generic: Vec<Option<String>>,
    pub line: usize,
    /// Declared `async fn`.
    pub is_async: bool,
    /// What it returns (what its future gives, for an `async fn`); `Self` is the `impl` type.
    pub returns: TypeShape,
    /// The id of its body (see [`BoundFuture::body`](super::BoundFuture::body)).
    pub body: u32,
    /// The trait of the `impl` block it is in (`Drop` for `impl Drop for Guard`), last segment.
    pub trait_name: Option<String>,
    /// It asks whether a runtime is running, or leaves it (`Handle::try_current()`,
    /// `block_in_place`): its blocking calls are made knowing where they run.
    pub checks_runtime: bool,
    /// A test, benchmark or `main`: run by the harness, not called by name (see
    /// [`is_entry_point`]).
    pub entry_point: bool,
    /// The `cfg` it is compiled under: its own, its `impl`'s, its modules' (see [`cfg`]).
    ///
    /// [`cfg`]: super::cfg
    pub cfg: Cfg,
    /// It has a kube-runtime reconciler's signature (`async fn(Arc<K>, Arc<Ctx>) ->
    /// Result<Action, E>`): the controller calls it again for the same object, while what it
    /// left running may still write.
    pub reconciler: bool,
    /// For a reconcile, the kind of the objects it is handed (`K` of `Arc<K>`), when written.
    pub reconciled_kind: Option<String>,
    /// Locals bound by `let` from an initialiser, with the bindings it reads: a caller sees a
    /// name rooted at one as computed from its own arguments (see [`NameExpr::Computed`]).
    pub computed_locals: Vec<(u64, ComputedLocal)>,
    /// Struct literals it writes (`Worker { pod: name.to_string(), .. }`): the type (last
    /// segment) and the names of its fields, in the function's terms. When it returns that
    /// type, a caller's binding of the result has those fields (see [`FileFacts::returned_values`]).
    ///
    /// [`FileFacts::returned_values`]: super::FileFacts::returned_values
    pub struct_literals: Vec<(String, Vec<(String, NameExpr)>)>,
    /// The name its tail expression gives, in its own terms (`format!("{app}-lease")` of
    /// `fn lease_name(app: &str) -> String`): a caller's name built by calling it is that
    /// template with the caller's arguments (see [`FileFacts::returned_values`]).
    ///
    /// [`FileFacts::returned_values`]: super::FileFacts::returned_values
    pub returned_name: Option<NameExpr>,
    /// For a function whose declared return type is or wraps `Api<K>` (`Result`, `Option`, an
    /// `async fn`'s future): the handle it gives, in its own terms: the kind or the type
    /// parameter standing for it, and the namespace its tail scopes the handle to (`Api::all`,
    /// `Api::namespaced(client, namespace)` of a parameter, through `.map(..)`, `.await`, `?`,
    /// `Ok(..)`); the namespace is unknown when the function has a `return` of its own.
    pub returned_handle: Option<Handle>,
    /// What the value its tail returns carries as a write's body (`json!({"metadata":
    /// {"resourceVersion": v}, ..})` of `fn lease_patch(..) -> Value`): `ResourceVersion`, or
    /// `Returned` when the tail is itself a crate call; `None` otherwise (a parameter's body is
    /// not followed).
    pub returned_body: Precondition,
    /// A trait's provided method (its default body): `trait_name` is that trait, and it runs
    /// for the implementors that do not override it, with `self` of the implementor's type.
    pub provided: bool,
    /// Callable from outside the crate (`pub`, or a trait's method): its callers are not all
    /// known.
    pub exported: bool,
    /// Not an `async fn`, but returns a future that sends nothing until polled (`-> impl
    /// Future`, `BoxFuture`, `Pin<Box<dyn Future>>` with an `async` block as its tail and every
    /// request inside it): as lazy as an `async fn`.
    pub lazy_future: bool,
    /// What each typed parameter binds, with its type as written, when it is a name or a name
    /// inside a one-field tuple-struct pattern (`event: Json<PrEvent>`, `Json(event):
    /// Json<PrEvent>`): by parameter position. A web server hands its handlers one value per
    /// HTTP request (see [`HandlerRoute`](super::HandlerRoute)).
    pub extracted: Vec<Extracted>,
    /// It takes a kube-runtime `Controller<K>` and returns a `Controller<K>` (the same type as
    /// written): a `run` on its result is a run of the controller handed in, with the limit
    /// its body leaves (see [`ControllerRun::through`](super::ControllerRun::through)).
    pub passes_controller: Option<PassedController>,
}

/// A typed parameter's binding and type as written (see [`FunctionFacts::extracted`]).
#[derive(Clone, Debug)]
pub struct Extracted {
    /// Its position among the typed parameters.
    pub param: usize,
    pub binding: u64,
    /// The binding's name (`event`).
    pub name: String,
    /// The parameter's type as written, without spaces (`Json<PrEvent>`).
    pub ty: String,
}

/// A local computed by a `let`: where, and from which bindings (parameters, other locals).
#[derive(Clone, Debug)]
pub struct ComputedLocal {
    pub how: Computation,
    pub inputs: Vec<u64>,
}

impl FunctionFacts {
    /// Whether every call of the function computes the request's object alike: its name is a
    /// literal, a constant, or a place reached from the parameters (the reconciled object, the
    /// context). A name from a `format!` or a call may differ per call. Namespaces are few and
    /// shared, and a call's namespace is taken to be its object's (see [`Namespace::compare`]).
    ///
    /// [`Namespace::compare`]: super::Namespace::compare
    pub fn computes_alike_in_every_run(&self, request: &Request) -> bool {
        let from_params = |name: &NameExpr| match name {
            NameExpr::Literal(_) => true,
            NameExpr::Path { root, .. } => match root {
                Root::Binding(b) => self.params.contains(&Some(*b)),
                Root::SelfValue(_) => self.has_self,
                Root::Const(_) => true,
                Root::Reconciled(_) | Root::Handled(_) => false,
            },
            NameExpr::Format { .. } | NameExpr::Computed { .. } | NameExpr::Unknown => false,
        };
        match &request.object {
            ObjectName::One { name, .. } => from_params(name),
            ObjectName::All => true,
        }
    }
}

/// Functions that the test harness or the runtime calls, never other code: `#[test]`,
/// `#[tokio::test]`, `#[bench]`, `#[rstest]`, `#[test_case(..)]`, and `fn main`.
pub fn is_entry_point(name: &str, attrs: &[syn::Attribute]) -> bool {
    name == "main"
        || attrs.iter().any(|a| {
            a.path().segments.last().is_some_and(|s| {
                matches!(
                    s.ident.to_string().as_str(),
                    "test" | "bench" | "rstest" | "test_case" | "main"
                )
            })
        })
}

/// What a function, closure or `async` block is: whether code in it runs in async context.
#[derive(Clone, Debug)]
pub struct Body {
    pub kind: BodyKind,
    /// Where it starts (the `fn` name, the `async` keyword, the closure's parameters).
    pub span: Span,
    /// Index into [`FileFacts::functions`] of the function it is (or is inside of).
    ///
    /// [`FileFacts::functions`]: super::FileFacts::functions
    pub function: Option<usize>,
    /// For closures and `async` blocks: where they are made in the body around them.
    pub made: Option<order::Made>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Code outside any function (constants, statics).
    Item,
    Fn,
    AsyncFn,
    /// A closure that is not `async`: it runs where it is called, sync or async.
    Closure,
    AsyncClosure,
    AsyncBlock,
}

impl BodyKind {
    /// Code written directly in it runs when a future is polled.
    pub fn is_async(self) -> bool {
        matches!(
            self,
            BodyKind::AsyncFn | BodyKind::AsyncClosure | BodyKind::AsyncBlock
        )
    }
}
