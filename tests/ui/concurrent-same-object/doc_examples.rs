//! Examples in doc comments are checked as rustdoc compiles them (hidden `# ` lines included,
//! wrapped in a `main` when they are not items), and their findings point into the comment.
//!
//! ```no_run
//! # use k8s_openapi::api::core::v1::Pod;
//! # use kube::api::{Api, PostParams, ResourceExt};
//! # async fn doc(pods: Api<Pod>, pod: Pod) {
//! let _ = tokio::join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any())); //~ concurrent-same-object
//! # }
//! ```

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

/// Creates the Pod. An example without a function is wrapped in an `async fn main` (it awaits):
///
/// ```
/// # use k8s_openapi::api::core::v1::Pod;
/// # use kube::api::{Api, DeleteParams};
/// # let pods: Api<Pod> = todo!();
///     let (got, deleted) = tokio::join!( //~ concurrent-same-object
///         pods.get("web"),
///         pods.delete("web", &DeleteParams::default()),
///     );
/// # let _ = (got, deleted);
/// # let _ = async { 0 }.await;
/// ```
///
/// A `rust` block with other words is still Rust, and an example may be a list of items:
///
/// ```rust,ignore
/// use k8s_openapi::api::core::v1::Pod;
/// use kube::api::{Api, DeleteParams, PostParams};
///
/// async fn recreate(pods: Api<Pod>, pod: Pod) {
///     let _ = futures::join!(pods.delete("web", &DeleteParams::default()), pods.get("web")); //~ concurrent-same-object
/// }
/// ```
pub async fn create(pods: &Api<Pod>, pod: &Pod) -> kube::Result<Pod> {
    pods.create(&PostParams::default(), pod).await
}

/// Deletes the Pod named `name`. The code of the crate is checked as before.
pub async fn delete(pods: &Api<Pod>, name: &str) -> kube::Result<()> {
    let _ = tokio::join!(pods.get(name), pods.delete(name, &DeleteParams::default())); //~ concurrent-same-object
    Ok(())
}
