//! A toy operator: it deploys a blog (a Pod and its ConfigMap) and keeps its status up to date.
mod reconcile;
mod status;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, PostParams};

/// Deploys the blog and reconciles it, with the cluster's client (`main`) or, in the `confirm`
/// tests, with one whose requests go through kube-order-test's layer to an in-memory server.
pub async fn deploy(client: kube::Client) -> anyhow::Result<()> {
    let pods: Api<Pod> = Api::default_namespaced(client.clone());
    let pp = PostParams::default();
    // The manifest ships with the operator: the code never spells the Pod's name.
    let pod: Pod = serde_json::from_str(include_str!("blog.json"))?;

    // Create the Pod and read it back "at the same time": the get usually answers NotFound.
    let (created, fetched) = tokio::join!(pods.create(&pp, &pod), pods.get("blog"));
    println!("created: {:?}, fetched: {:?}", created.is_ok(), fetched.is_ok());

    reconcile::reconcile(client, "blog").await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    deploy(kube::Client::try_default().await?).await
}
