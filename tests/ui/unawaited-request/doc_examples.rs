//! Doc examples are illustrations first. A module example whose body sits in a bare `async`
//! block compiles without running, and a request bound to a name the example never uses again
//! shows what the call returns: neither is code anyone runs (`unknown`, not reported by default).
//!
//! ```
//! # use k8s_openapi::api::core::v1::ConfigMap;
//! # use kube::api::Api;
//! # fn doc(client: kube::Client) {
//! async {
//!     let cms: Api<ConfigMap> = Api::default_namespaced(client);
//!     let cm = cms.get("settings").await;
//! };
//! # }
//! ```
//!
//! ```
//! # use k8s_openapi::api::core::v1::ConfigMap;
//! # use kube::api::Api;
//! # async fn doc(api: Api<ConfigMap>) {
//! let config_map = api.get("with-field");
//! # }
//! ```
//!
//! An example that drops a write with `let _ =` teaches the mistake: reported as in code.
//!
//! ```
//! # use k8s_openapi::api::core::v1::ConfigMap;
//! # use kube::api::{Api, DeleteParams};
//! # async fn doc(api: Api<ConfigMap>) {
//! let _ = api.delete("settings", &DeleteParams::default()); //~ unawaited-request
//! # }
//! ```

fn main() {}
