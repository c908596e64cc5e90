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
//! # kind = "Pod"                     # optional: a fixed kind instead
//! ```

use super::Access;

#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
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
}
