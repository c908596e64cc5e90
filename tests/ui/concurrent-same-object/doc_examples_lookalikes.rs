//! Not examples: blocks of another language, regular comments, `compile_fail` blocks, examples
//! that do not parse (skipped, not errors), and code in string literals.
//!
//! ```text
//! # use k8s_openapi::api::core::v1::Pod;
//! # use kube::api::{Api, PostParams, ResourceExt};
//! # async fn doc(pods: Api<Pod>, pod: Pod) {
//! let _ = tokio::join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any()));
//! # }
//! ```

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, PostParams};

// A regular comment is not documentation:
//
// ```
// # use k8s_openapi::api::core::v1::Pod;
// # use kube::api::{Api, PostParams, ResourceExt};
// # async fn doc(pods: Api<Pod>, pod: Pod) {
// let _ = tokio::join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any()));
// # }
// ```

//// Nor is a comment of four slashes:
////
//// ```
//// # use k8s_openapi::api::core::v1::Pod;
//// # use kube::api::{Api, PostParams, ResourceExt};
//// # async fn doc(pods: Api<Pod>, pod: Pod) {
//// let _ = tokio::join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any()));
//// # }
//// ```

/// A `compile_fail` block shows code that must not compile; a `sh` block is not Rust:
///
/// ```compile_fail
/// # use k8s_openapi::api::core::v1::Pod;
/// # use kube::api::{Api, PostParams, ResourceExt};
/// # async fn doc(pods: Api<Pod>, pod: Pod) {
/// let _ = tokio::join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any()));
/// # }
/// ```
///
/// ```sh
/// kubectl get pod web
/// ```
///
/// A partial example does not parse, and is skipped:
///
/// ```
/// let _ = tokio::join!(pods.create(&PostParams::default(), &pod), pods.get(&pod.name_any()))
///     ...
/// ```
///
/// The requests of an example made in order are not reported:
///
/// ```
/// # use k8s_openapi::api::core::v1::Pod;
/// # use kube::api::{Api, PostParams, ResourceExt};
/// # async fn doc(pods: Api<Pod>, pod: Pod) {
/// let _ = pods.create(&PostParams::default(), &pod).await;
/// let _ = pods.get(&pod.name_any()).await;
/// # }
/// ```
pub async fn create(pods: &Api<Pod>, pod: &Pod) -> kube::Result<Pod> {
    let _example = "/// ```\n/// tokio::join!(pods.create(&pp, &pod), pods.get(&pod.name_any()));\n/// ```";
    pods.create(&PostParams::default(), pod).await
}
