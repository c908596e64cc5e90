// Constructors and struct literals carry the names passed to them into their fields: two locks
// built (`with_name`, a builder's `build()`, a literal) from one constant name one Lease. Only
// the name is followed into the constructor, not the namespace of the `Api` it makes, so two
// values built apart are `possible`; one value, or a copy of it, is `definite`.
// Look-alike: locks built from different constants name different Leases.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::Client;

const LEASE: &str = "controller-lease";
const OTHER: &str = "metrics-lease";

struct Lock {
    api: Api<Lease>,
    name: String,
}

struct LockBuilder {
    client: Client,
    name: String,
}

impl LockBuilder {
    fn with_name(client: Client, name: &str) -> Self {
        LockBuilder { client, name: name.to_string() }
    }

    fn build(self) -> Lock {
        Lock { api: Api::default_namespaced(self.client), name: self.name }
    }
}

impl Lock {
    async fn renew(&self) -> kube::Result<()> {
        self.api.patch(&self.name, &PatchParams::default(), &Patch::Merge(serde_json::json!({}))).await?;
        Ok(())
    }

    async fn release(&self) -> kube::Result<()> {
        self.api.delete(&self.name, &DeleteParams::default()).await?;
        Ok(())
    }
}

async fn one_constant(client: Client) -> kube::Result<()> {
    let leader = LockBuilder::with_name(client.clone(), LEASE).build();
    let standby = LockBuilder::with_name(client, LEASE).build();
    tokio::try_join!(leader.renew(), standby.release())?; //~ concurrent-same-object
    Ok(())
}

async fn one_literal(client: Client) -> kube::Result<()> {
    let leader = Lock { api: Api::default_namespaced(client.clone()), name: "shard-0".to_string() };
    let standby = LockBuilder { client, name: "shard-0".into() }.build();
    tokio::try_join!(leader.renew(), standby.release())?; //~ concurrent-same-object
    Ok(())
}

async fn one_value(client: Client) -> kube::Result<()> {
    let lock = LockBuilder::with_name(client, LEASE).build();
    tokio::try_join!(lock.renew(), lock.release())?; //~ concurrent-same-object
    Ok(())
}

// Look-alike: two constants, two Leases.
async fn two_constants(client: Client) -> kube::Result<()> {
    let controller = LockBuilder::with_name(client.clone(), LEASE).build();
    let metrics = LockBuilder::with_name(client, OTHER).build();
    tokio::try_join!(controller.renew(), metrics.release())?;
    Ok(())
}

// Look-alike: two literals, two Leases.
async fn two_literals(client: Client) -> kube::Result<()> {
    let a = Lock { api: Api::default_namespaced(client.clone()), name: "shard-0".to_string() };
    let b = Lock { api: Api::default_namespaced(client), name: "shard-1".to_string() };
    tokio::try_join!(a.renew(), b.release())?;
    Ok(())
}
