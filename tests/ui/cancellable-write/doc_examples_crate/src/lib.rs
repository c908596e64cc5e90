//! A lease manager. Its users copy the examples of its documentation.
//!
//! The renew loop cancelled by the work arm may still patch the Lease after `release()`
//! patched it (found: `renew` and `release` are this crate's, and patch one Lease):
//!
//! ```no_run
//! # use lease_docs_case::LeaseManager;
//! # async fn doc(manager: LeaseManager) {
//! tokio::select! {
//!     _ = manager.renew() => {} //~ cancellable-write
//!     _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
//!         manager.release().await;
//!     }
//! }
//! # }
//! ```
//!
//! The crate's functions called by the crate's name, as an example calls them, are found too:
//!
//! ```no_run
//! # use k8s_openapi::api::coordination::v1::Lease;
//! # async fn doc(leases: kube::Api<Lease>) {
//! tokio::select! {
//!     _ = lease_docs_case::renew_lease(&leases, "app-lease") => {} //~ cancellable-write
//!     _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
//!         lease_docs_case::release_lease(&leases, "app-lease").await;
//!     }
//! }
//! # }
//! ```
//!
//! Look-alikes, not found: the write that follows patches another object (the manager's
//! status ConfigMap), and functions of the same names of another crate:
//!
//! ```no_run
//! # use k8s_openapi::api::coordination::v1::Lease;
//! # use lease_docs_case::LeaseManager;
//! # async fn doc(manager: LeaseManager, leases: kube::Api<Lease>) {
//! tokio::select! {
//!     _ = manager.renew() => {}
//!     _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
//!         manager.report("done").await;
//!     }
//! }
//! tokio::select! {
//!     _ = lease_tools::renew_lease(&leases, "app-lease") => {}
//!     _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
//!         lease_tools::release_lease(&leases, "app-lease").await;
//!     }
//! }
//! # }
//! ```

pub mod guide;
mod manager;

pub use manager::{release_lease, renew_lease, LeaseManager};
