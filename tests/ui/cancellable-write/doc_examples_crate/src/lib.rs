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
//! Look-alikes, not found: the write that follows patches another object (the manager's
//! status ConfigMap), and a `renew` of another crate, not this one's method:
//!
//! ```no_run
//! # use lease_docs_case::LeaseManager;
//! # async fn doc(manager: LeaseManager, client: kube::Client) {
//! tokio::select! {
//!     _ = manager.renew() => {}
//!     _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
//!         manager.report("done").await;
//!     }
//! }
//! tokio::select! {
//!     _ = lease_tools::renew(&client) => {}
//!     _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
//!         lease_tools::release(&client).await;
//!     }
//! }
//! # }
//! ```

pub mod guide;
mod manager;

pub use manager::LeaseManager;
