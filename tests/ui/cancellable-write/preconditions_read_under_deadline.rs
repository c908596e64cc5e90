// A replace under a deadline of the object read by a `get` that has a deadline of its own
// (reduced from cf-chat-engine's k8s_lease.rs). The object read carries its resourceVersion,
// through `.clone()` and a `mut` copy changed field by field: landing late, the replace or the
// write after it fails with 409 Conflict. A freshly built object carries none.
use std::time::Duration;

use anyhow::Context;
use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, PostParams};
use tokio::time::timeout;

const API_TIMEOUT: Duration = Duration::from_secs(5);

// Hazard: the body is a Lease built here, with no resourceVersion.
async fn take_over(api: &Api<Lease>, lease_name: &str, me: &str) -> anyhow::Result<()> {
    let lease = Lease {
        metadata: ObjectMeta {
            name: Some(lease_name.to_owned()),
            ..ObjectMeta::default()
        },
        spec: Some(LeaseSpec {
            holder_identity: Some(me.to_owned()),
            ..LeaseSpec::default()
        }),
    };
    timeout(API_TIMEOUT, api.replace(lease_name, &PostParams::default(), &lease)) //~ cancellable-write
        .await
        .context("timeout")?
        .context("replace")?;
    Ok(())
}

// Taken over twice: a timed-out replace may land after the second one.
async fn take_over_twice(api: &Api<Lease>, lease_name: &str, me: &str) {
    let _ = take_over(api, lease_name, me).await;
    let _ = take_over(api, lease_name, me).await;
}

// Look-alike: the body is a changed copy of the Lease just read (under its own deadline).
async fn renew(api: &Api<Lease>, lease_name: &str, me: &str) -> anyhow::Result<()> {
    let lease = timeout(API_TIMEOUT, api.get(lease_name))
        .await
        .context("timeout getting")?
        .context("get")?;
    let mut new_lease = lease.clone();
    new_lease.spec.get_or_insert_default().holder_identity = Some(me.to_owned());
    match timeout(API_TIMEOUT, api.replace(lease_name, &PostParams::default(), &new_lease)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(kube::Error::Api(resp))) if resp.code == 409 => Ok(()),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => Err(anyhow::anyhow!("timeout replacing")),
    }
}

// Look-alike: the copy of the Lease read has its resourceVersion taken away before it is sent,
// but the API server refuses an unconditional update of a Lease (422 once it exists): the PUT
// only creates the Lease when it is absent, and a late one cannot overwrite a newer write.
// (`lease_create_put.rs` has the same PUT of a ConfigMap, a hazard.)
async fn force(api: &Api<Lease>, lease_name: &str, me: &str) -> anyhow::Result<()> {
    let lease = api.get(lease_name).await?;
    let mut new_lease = lease.clone();
    new_lease.metadata.resource_version = None;
    new_lease.spec.get_or_insert_default().holder_identity = Some(me.to_owned());
    timeout(API_TIMEOUT, api.replace(lease_name, &PostParams::default(), &new_lease)).await??;
    Ok(())
}

// Forced until it succeeds: a timed-out create-only PUT sent again is refused, not a lost update.
async fn force_until_done(api: &Api<Lease>, lease_name: &str, me: &str) {
    loop {
        if force(api, lease_name, me).await.is_ok() {
            break;
        }
    }
}
