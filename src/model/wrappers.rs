//! Request wrappers declared by users: functions or methods of other crates (or of their own)
//! that issue kube requests, described in the configuration so the analysis treats their calls as
//! requests.
//!
//! ```toml
//! [[wrappers]]
//! function = "Client::apply_patch"   # `method`, `Type::method` or `path::to::function`
//! access = "write"                   # read | write
//! name_arg = 0                       # 0-based argument holding the object name (receiver not counted)
//! namespace_arg = 1                  # optional: argument holding the namespace
//! kind_param = 0                     # optional: turbofish type parameter giving the kind
//! # kind_arg = 1                     # optional: without a turbofish, the argument holding an
//! #                                  #   object of the kind (`obj: &T`): its type gives the kind
//! # kind = "Pod"                     # optional: a fixed kind instead
//! # object_arg = 1                   # optional: instead of name_arg, the argument holding the
//! #                                  #   object itself (its `metadata.name` is the name)
//! # api_arg = 0                      # optional: the argument holding the `Api` (its kind and
//! #                                  #   namespace are the request's)
//! # verb = "create"                  # optional: the request method it makes, for messages
//! ```
//!
//! Helpers of dependencies are found without configuration ([`crate::deps`]): they become
//! wrappers marked [`WrapperSpec::from_dependency`].

use super::Access;

#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrapperSpec {
    pub function: String,
    pub access: Access,
    /// Argument holding the object name; absent for collection-wide calls.
    #[serde(default)]
    pub name_arg: Option<usize>,
    #[serde(default)]
    pub namespace_arg: Option<usize>,
    #[serde(default)]
    pub kind_param: Option<usize>,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_arg: Option<usize>,
    /// Argument holding an object of the kind (`obj: &T` with `T` the kind's type parameter):
    /// when no turbofish gives the kind, the type of the object the call passes does (see
    /// [`Argument::kind`](super::Argument::kind)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind_arg: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_arg: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verb: Option<String>,
    /// Found in this dependency ("oplib 0.3.1"), not declared: it answers a call only when no
    /// function of the checked crates does.
    #[serde(skip)]
    pub from_dependency: Option<String>,
    /// For a dependency's method, the type it is a method of (last segment, `OpClient`): it
    /// answers only a call on a receiver known to be of that type, never a bare method name.
    #[serde(skip)]
    pub method_of: Option<String>,
    /// For a dependency's helper whose object is a literal inside it (a fixed ConfigMap): that
    /// name, whatever the call's arguments.
    #[serde(skip)]
    pub fixed_name: Option<String>,
}
