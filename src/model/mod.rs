//! Lint-agnostic facts about kube requests and concurrency, built by one syntax pass per file
//! ([`build`]) and linked across the crate ([`link`]). Lints read only this model.

pub mod build;
pub mod debug;
pub mod identity;
pub mod link;
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

/// A call of a kube request method on something that may be an `Api` handle.
#[derive(Clone, Debug)]
pub struct RawRequest {
    /// The whole call expression, `pods.get("blog")`.
    pub span: Span,
    pub verb: &'static Verb,
    pub source: HandleSource,
    /// Source text of the receiver, for messages (`pods`, `self.api`).
    pub receiver: String,
    pub object: ObjectName,
}

/// A request whose receiver is known to be a kube `Api`.
#[derive(Clone, Debug)]
pub struct Request {
    pub span: Span,
    pub verb: &'static Verb,
    pub handle: Handle,
    pub receiver: String,
    pub object: ObjectName,
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

    /// "creates Pod \"blog\"", for labels.
    pub fn describe(&self) -> String {
        format!("{} {}", self.verb.does, self.object_description())
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
}

/// The `let` whose initialiser is a site.
#[derive(Clone, Debug)]
pub struct SiteBinding {
    /// The whole `let` statement.
    pub stmt: Span,
    /// The texts of the tuple pattern's elements, when the pattern is a tuple.
    pub elements: Option<Vec<String>>,
    /// The site is followed by `?`.
    pub question_mark: bool,
}

/// Item-level facts of one file, merged across the crate by [`link`].
#[derive(Clone, Debug, Default)]
pub struct ItemIndex {
    /// Fields declared with a type containing `Api<K>`: (field name, kind).
    pub api_fields: Vec<(String, Option<String>)>,
    /// Functions and methods whose return type contains `Api<K>`: (name, kind).
    pub api_returning_fns: Vec<(String, Option<String>)>,
}

/// Everything one file contributes to the model.
#[derive(Clone, Debug, Default)]
pub struct FileFacts {
    pub requests: Vec<RawRequest>,
    pub sites: Vec<Site>,
    pub items: ItemIndex,
}

/// One file's facts after linking: requests resolved against the crate.
#[derive(Clone, Debug, Default)]
pub struct FileModel {
    pub file: crate::source::FileId,
    /// Same indices as the raw requests; None where the receiver is not a kube `Api`.
    pub requests: Vec<Option<Request>>,
    pub sites: Vec<Site>,
}

impl FileModel {
    pub fn request(&self, index: usize) -> Option<&Request> {
        self.requests.get(index).and_then(Option::as_ref)
    }
}
