// A copy of a value is the same value, fields included: a lock cloned into a renew task
// (`.clone()`, `Arc::clone(&x)`, `Clone::clone(&x)`, `to_owned()`) renews the Lease the caller
// then deletes. Look-alike: a second lock built from another constant names another Lease.
use std::sync::Arc;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::Client;

const LEASE: &str = "controller-lease";
const OTHER: &str = "metrics-lease";

struct LeaseParams {
    lease_name: String,
    holder_id: String,
}

#[derive(Clone)]
struct LeaseLock {
    api: Api<Lease>,
    params: LeaseParams,
}

impl LeaseLock {
    fn new(client: Client, ns: &str, params: LeaseParams) -> Self {
        LeaseLock { api: Api::namespaced(client, ns), params }
    }

    async fn try_acquire_or_renew(&self) -> kube::Result<()> {
        let patch = Patch::Merge(serde_json::json!({ "spec": { "holderIdentity": self.params.holder_id } }));
        self.api.patch(&self.params.lease_name, &PatchParams::default(), &patch).await?;
        Ok(())
    }

    async fn step_down(&self) -> kube::Result<()> {
        self.api.delete(&self.params.lease_name, &DeleteParams::default()).await?;
        Ok(())
    }
}

async fn cloned(client: Client, ns: String, id: String) -> kube::Result<()> {
    let lock = LeaseLock::new(client, &ns, LeaseParams { lease_name: LEASE.into(), holder_id: id });
    let renewer = lock.clone();
    tokio::spawn(async move { loop { renewer.try_acquire_or_renew().await.ok(); } }); //~ spawned-request-race
    lock.step_down().await?;
    Ok(())
}

async fn arc_cloned(client: Client, ns: String, id: String) -> kube::Result<()> {
    let params = LeaseParams { lease_name: LEASE.into(), holder_id: id };
    let lock = Arc::new(LeaseLock::new(client, &ns, params));
    let renewer = Arc::clone(&lock);
    tokio::spawn(async move { renewer.try_acquire_or_renew().await.ok() }); //~ spawned-request-race
    lock.step_down().await?;
    Ok(())
}

async fn clone_called(client: Client, ns: String, id: String) -> kube::Result<()> {
    let lock = LeaseLock { api: Api::namespaced(client, &ns), params: LeaseParams { lease_name: LEASE.into(), holder_id: id } };
    let renewer = Clone::clone(&lock);
    tokio::spawn(async move { renewer.try_acquire_or_renew().await.ok() }); //~ spawned-request-race
    lock.step_down().await?;
    Ok(())
}

async fn to_owned(client: Client, ns: String, id: String) -> kube::Result<()> {
    let lock = LeaseLock::new(client, &ns, LeaseParams { lease_name: LEASE.into(), holder_id: id });
    let renewer = lock.to_owned();
    tokio::spawn(async move { renewer.try_acquire_or_renew().await.ok() }); //~ spawned-request-race
    lock.step_down().await?;
    Ok(())
}

// Look-alike: the task renews another Lease than the one the caller steps down from.
async fn other_lease(client: Client, ns: String, id: String) -> kube::Result<()> {
    let lock = LeaseLock::new(client.clone(), &ns, LeaseParams { lease_name: LEASE.into(), holder_id: id.clone() });
    let metrics = LeaseLock::new(client, &ns, LeaseParams { lease_name: OTHER.into(), holder_id: id });
    tokio::spawn(async move { metrics.try_acquire_or_renew().await.ok() });
    lock.step_down().await?;
    Ok(())
}

// Look-alike: a `mut` copy can be pointed elsewhere before it is used.
async fn retargeted(client: Client, ns: String, id: String) -> kube::Result<()> {
    let lock = LeaseLock::new(client, &ns, LeaseParams { lease_name: LEASE.into(), holder_id: id });
    let mut renewer = lock.clone();
    renewer.params.lease_name = OTHER.into();
    tokio::spawn(async move { renewer.try_acquire_or_renew().await.ok() });
    lock.step_down().await?;
    Ok(())
}
