// Batches whose object repeats: one request per element, named by a field many elements share
// (their owner, their node, their namespace): two elements that share it name one object.
use futures::future::{join_all, try_join_all};
use futures::{stream, StreamExt};
use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::{Namespace, Node, Pod};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::ResourceExt;

// The StatefulSet of each pod: pods of one StatefulSet restart it concurrently.
async fn restart_owners(pods: Vec<Pod>, sts: Api<StatefulSet>) -> kube::Result<()> {
    try_join_all(pods.iter().map(|p| sts.restart(&p.owner_references()[0].name))).await?; //~ concurrent-same-object
    Ok(())
}

// The node of each pod: pods of one node patch it concurrently.
async fn cordon_nodes(pods: Vec<Pod>, nodes: Api<Node>, pp: PatchParams) {
    let patch = Patch::Merge(serde_json::json!({ "spec": { "unschedulable": true } }));
    stream::iter(pods.iter()) //~ concurrent-same-object
        .for_each_concurrent(4, |p| {
            let (nodes, pp, patch) = (&nodes, &pp, &patch);
            async move {
                let node = p.spec.as_ref().unwrap().node_name.as_ref().unwrap();
                let _ = nodes.patch(node, pp, patch).await;
            }
        })
        .await;
}

// The namespace of each item: items of one namespace delete it concurrently.
async fn delete_namespaces(pods: Vec<Pod>, namespaces: Api<Namespace>) {
    join_all(pods.iter().map(|p| namespaces.delete(&p.namespace().unwrap(), &DeleteParams::default()))).await; //~ concurrent-same-object
}

// Look-alike: each element's own name (in its own namespace): different objects.
async fn own_names(pods: Vec<Pod>, client: kube::Client, namespaces: Api<Namespace>) {
    join_all(pods.iter().map(|p| {
        let api: Api<Pod> = Api::namespaced(client.clone(), &p.namespace().unwrap());
        async move { api.delete(&p.name_any(), &DeleteParams::default()).await }
    }))
    .await;
    let listed: Vec<Namespace> = Vec::new();
    join_all(listed.iter().map(|n| namespaces.delete(&n.name_any(), &DeleteParams::default()))).await;
}
