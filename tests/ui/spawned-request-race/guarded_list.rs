// Reduced from garage_rpc's discovery loop: a spawned task gets this node's own object and
// replaces it with the resourceVersion it read, while the loop's next pass lists every node to
// find its peers. The replace is guarded: it applies only atop the version it read, and the
// list sees the object whole at one version or the other; a guarded write racing a read of the
// whole collection is no evidence of a same-object hazard. Not reported.
// The hazard next to it: the same replace without the guard (a blind replace) racing with the
// list: reported.
use kube::api::{Api, ListParams, PostParams};
use kube::core::DynamicObject;

async fn publish(nodes: Api<DynamicObject>, name: String, mut node: DynamicObject) -> kube::Result<()> {
    if let Ok(old) = nodes.get(&name).await {
        node.metadata.resource_version = old.metadata.resource_version;
        nodes.replace(&name, &PostParams::default(), &node).await?;
    }
    Ok(())
}

async fn discovery_loop(nodes: Api<DynamicObject>, name: String, node: DynamicObject) {
    loop {
        let _peers = nodes.list(&ListParams::default()).await;
        tokio::spawn(publish(nodes.clone(), name.clone(), node.clone()));
        tokio::select! {
            _ = tokio::time::sleep(std::time::Duration::from_secs(60)) => {},
            _ = tokio::signal::ctrl_c() => {},
        }
    }
}

async fn publish_blind(nodes: Api<DynamicObject>, name: String, node: DynamicObject) -> kube::Result<()> {
    nodes.replace(&name, &PostParams::default(), &node).await?;
    Ok(())
}

async fn discovery_loop_blind(nodes: Api<DynamicObject>, name: String, node: DynamicObject) {
    loop {
        let _peers = nodes.list(&ListParams::default()).await;
        tokio::spawn(publish_blind(nodes.clone(), name.clone(), node.clone())); //~ spawned-request-race
        tokio::select! {
            _ = tokio::time::sleep(std::time::Duration::from_secs(60)) => {},
            _ = tokio::signal::ctrl_c() => {},
        }
    }
}
