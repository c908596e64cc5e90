//! Lint-agnostic facts about kube requests and concurrency, built by one syntax pass per file
//! ([`build`]) and linked across the crate ([`link`]). Lints read only this model.

pub mod build;
pub mod debug;
pub mod identity;
pub mod link;
pub mod scopes;
pub mod sites;
pub mod verbs;
pub mod wrappers;

use crate::source::Span;
pub use identity::{Confidence, Handle, HandleOrigin, NameExpr, Namespace, Root, Sameness};
pub use verbs::{Access, Target, Verb};

/// How the receiver of a request call was obtained; resolved to a [`Handle`] by [`link`], which
/// drops calls whose receiver turns out not to be a kube `Api` (`HashMap::get`, `reqwest`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandleSource {
    /// The type is visible locally (`let pods: Api<Pod>`, `Api::<Pod>::namespaced(..)`, a
    /// parameter typed `&Api<Pod>`).
    Known(Handle),
    /// A field (`self.pods`, `ctx.api`): an `Api` when some struct of the crate declares a field of
    /// that name with type `Api<K>`.
    Field {
        field: String,
        origin: Option<HandleOrigin>,
    },
    /// The value returned by a function or method of the crate (`fn pods(&self) -> Api<Pod>`).
    Returned {
        name: String,
        origin: Option<HandleOrigin>,
    },
}

/// Something in a function body that may issue kube requests when its future is polled: a
/// request method call on something that may be an `Api` handle, or a call of a function or
/// method of the crate (resolved against the crate's summaries by [`link`]).
#[derive(Clone, Debug)]
pub struct RawRequest {
    /// The whole call expression, `pods.get("blog")` or `status::mark(&pods, name)`.
    pub span: Span,
    /// 1-based line of `span.start`, kept so that other files can cite it without this file's text.
    pub line: usize,
    /// Index into [`FileFacts::functions`] of the enclosing function, if any.
    pub function: Option<usize>,
    pub kind: RawKind,
}

#[derive(Clone, Debug)]
pub enum RawKind {
    /// `recv.get(..)`, `recv.patch(..)`, …
    Api(ApiCall),
    /// `helper(&pods, name)`, `self.update_status(..)`: requests made inside the callee.
    Helper(HelperCall),
}

#[derive(Clone, Debug)]
pub struct ApiCall {
    pub verb: &'static Verb,
    pub source: HandleSource,
    /// Source text of the receiver, for messages (`pods`, `self.api`).
    pub receiver: String,
    pub object: ObjectName,
}

/// A call of something that may be a function or method of the crate.
#[derive(Clone, Debug)]
pub struct HelperCall {
    pub callee: Callee,
    /// As written, for messages: `status::mark_terminating`, `self.update_status`.
    pub text: String,
    /// The receiver of a method call, as an argument.
    pub receiver: Option<Argument>,
    pub args: Vec<Argument>,
    /// Kinds given by turbofish (`helper::<Pod>(..)`), in order; None where not a plain type.
    pub type_args: Vec<Option<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// `f(..)`, `module::f(..)`, `Type::f(..)`.
    Path(Vec<String>),
    /// `recv.f(..)`; `self_type` is the enclosing impl's type when the receiver is `self`.
    Method {
        name: String,
        self_type: Option<String>,
    },
}

/// What the caller passes: possibly a handle, possibly a name.
#[derive(Clone, Debug)]
pub struct Argument {
    pub handle: Option<HandleSource>,
    pub name: NameExpr,
    pub text: String,
}

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
    pub line: usize,
}

/// A request whose receiver is known to be a kube `Api`.
#[derive(Clone, Debug)]
pub struct Request {
    /// Where to point in this file: the request call, or the outermost helper call leading to it.
    pub span: Span,
    pub verb: &'static Verb,
    pub handle: Handle,
    pub receiver: String,
    pub object: ObjectName,
    /// The helper calls through which this request is made, outermost first
    /// (`status::mark_terminating`), empty for a direct request.
    pub via: Vec<String>,
    /// For requests made inside helpers: where the request call is (display path, line).
    pub defined_at: Option<(String, usize)>,
}

/// Which object of its collection a request touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectName {
    /// One object, with its name expression and the source text of that expression.
    One { name: NameExpr, text: String },
    /// Every object of the collection (`list`, `watch`, `delete_collection`).
    All,
}

impl Request {
    /// May these two requests touch the same object? None when provably not.
    pub fn same_object(&self, other: &Request) -> Option<Confidence> {
        let handle = self.handle.compare(&other.handle);
        let name = match (&self.object, &other.object) {
            (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) => a.compare(b),
            // A list or watch does not touch one object; it sees some state of all of them.
            _ => Sameness::Maybe,
        };
        match handle.and(name) {
            Sameness::Different => None,
            Sameness::Same => Some(Confidence::Definite),
            Sameness::Maybe => Some(Confidence::Possible),
        }
    }

    pub fn is_write(&self) -> bool {
        self.verb.access == Access::Write
    }

    /// "Pod \"blog\"", "Pod `name`", "Pods", "object `name`".
    pub fn object_description(&self) -> String {
        let kind = self.handle.kind_or_object();
        match &self.object {
            ObjectName::One {
                name: NameExpr::Literal(s),
                ..
            } => format!("{kind} {s:?}"),
            ObjectName::One { text, .. } if !text.is_empty() => format!("{kind} `{text}`"),
            ObjectName::One { .. } => kind.to_string(),
            ObjectName::All => match &self.handle.kind {
                Some(k) => format!("every {k}"),
                None => "every object".to_string(),
            },
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

/// A place where futures are polled concurrently.
#[derive(Clone, Debug)]
pub struct Site {
    pub kind: SiteKind,
    /// The whole combinator expression.
    pub span: Span,
    /// As written, for messages: "`tokio::try_join!`", "`futures::future::join`".
    pub spelling: String,
    pub operands: Vec<Operand>,
    /// `let (a, b) = join!(..)?;` when the site is the initialiser of a `let`.
    pub binding: Option<SiteBinding>,
    /// The `.await` and `?` written right after the site, and the statement it is all of.
    pub usage: SiteUsage,
}

/// How the value of a site is used, as far as rewrites need it.
#[derive(Clone, Debug)]
pub struct SiteUsage {
    /// The site with the `.await` and `?` written right after it (`try_join(a, b).await?`); the
    /// site alone when neither follows.
    pub span: Span,
    /// `.await` follows the site (the join functions return a future).
    pub awaited: bool,
    /// `?` follows the site (after its `.await`, if any).
    pub question_mark: bool,
    /// The expression statement (`;` included) made of [`SiteUsage::span`] alone, without
    /// attributes: `tokio::try_join!(a, b)?;`.
    pub statement: Option<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// `join!`, `try_join!`.
    JoinMacro { fallible: bool },
    /// `futures::future::join`, `join3`, `try_join`, …
    JoinFn { fallible: bool },
}

/// One future polled at a site, with the requests it makes when polled.
#[derive(Clone, Debug)]
pub struct Operand {
    pub span: Span,
    /// Indices into the file's requests.
    pub requests: Vec<usize>,
    /// What the operand expression is, for rewrites.
    pub form: OperandForm,
}

/// The shape of an operand expression, as rewrites need to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandForm {
    /// A request call or a binding of one, possibly pinned, boxed or with its output mapped
    /// (`pods.get(n)`, `Box::pin(pods.get(n))`, `f1`): polling it only sends its request.
    Request,
    /// An `async` block: any code may run when it is polled.
    AsyncBlock,
    /// Anything else; `needs_parens` when `.await` cannot directly follow it (`&mut fut`, a
    /// block at the start of a statement).
    Other { needs_parens: bool },
}

/// The `let` whose initialiser is a site (possibly followed by `.await` and `?`).
#[derive(Clone, Debug)]
pub struct SiteBinding {
    /// The whole `let` statement.
    pub stmt: Span,
    /// The texts of the tuple pattern's elements, when the pattern is a tuple.
    pub elements: Option<Vec<String>>,
    /// The site is followed by `?`.
    pub question_mark: bool,
    /// The pattern, type annotation excluded.
    pub pattern: Span,
    /// One `let` per tuple element means the same as this `let`: it has no attributes, type
    /// annotation, `else` branch or `..` in its tuple pattern.
    pub splittable: bool,
}

/// Item-level facts of one file, merged across the crate by [`link`].
#[derive(Clone, Debug, Default)]
pub struct ItemIndex {
    /// Fields declared with a type containing `Api<K>`: (field name, kind).
    pub api_fields: Vec<(String, Option<String>)>,
    /// Functions and methods whose return type contains `Api<K>`: (name, kind).
    pub api_returning_fns: Vec<(String, Option<String>)>,
    /// `const`/`static` string items: (name, value).
    pub consts: Vec<(String, String)>,
}

/// Everything one file contributes to the model.
#[derive(Clone, Debug, Default)]
pub struct FileFacts {
    pub requests: Vec<RawRequest>,
    pub sites: Vec<Site>,
    pub items: ItemIndex,
    pub functions: Vec<FunctionFacts>,
}

impl FileFacts {
    /// Whether the file has anything lints or other files' summaries could use.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.sites.is_empty()
    }
}

/// One file's facts after linking: requests resolved against the crate.
#[derive(Clone, Debug, Default)]
pub struct FileModel {
    pub file: crate::source::FileId,
    /// Same indices as the raw requests: what each makes when polled — one request, the
    /// requests of a helper, or none (the receiver was not a kube `Api`, or the callee not a
    /// function of the crate).
    pub requests: Vec<Vec<Request>>,
    pub sites: Vec<Site>,
}

impl FileModel {
    pub fn requests_of(&self, index: usize) -> &[Request] {
        self.requests.get(index).map(Vec::as_slice).unwrap_or(&[])
    }
}
