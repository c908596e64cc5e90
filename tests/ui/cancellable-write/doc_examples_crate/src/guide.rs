//! A guide with no code of its own: its file is not parsed, and its example is still linted,
//! through the names the crate links (`renew` and `release` make requests).
//!
//! A renew given up on by a timeout may still patch the Lease after the release:
//!
//! ```no_run
//! # async fn doc(manager: lease_docs_case::LeaseManager) {
//! let limit = std::time::Duration::from_secs(2);
//! let _ = tokio::time::timeout(limit, manager.renew()).await; //~ cancellable-write
//! manager.release().await;
//! # }
//! ```
