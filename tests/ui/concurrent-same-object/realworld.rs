// Reduced from real operators: concurrent requests that are safe and must stay silent.
use futures::future::{join_all, try_join_all};
use futures::stream::{self, StreamExt};
use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::{Namespace, Pod, Secret};
use kube::api::{Api, ListParams};
use kube::ResourceExt;

// kubelet secret/mod.rs: a `join_all` of gets for the image pull secrets (read-only).
async fn resolve_registry_auth(client: kube::Client, ns: &str, image_pull_secret_names: &[String]) {
    let secrets_api: Api<Secret> = Api::namespaced(client, ns);
    let secret_futures: Vec<_> = image_pull_secret_names
        .iter()
        .map(|name| secrets_api.get(name))
        .collect();
    let _ = futures::future::join_all(secret_futures).await;
}

// kubectl-view-allocations collect.rs: a list per namespace, through a `Vec<Api<Pod>>`.
async fn collect_from_pods(client: kube::Client, namespace: &[String]) -> kube::Result<()> {
    let mut apis: Vec<Api<Pod>> = vec![];
    for ns in namespace {
        apis.push(Api::namespaced(client.clone(), ns))
    }
    let _pods = try_join_all(apis.iter().map(|api| async { api.list(&ListParams::default()).await })).await?;
    Ok(())
}

// kubetui httproute.rs: an unbounded fan-out of lists, one handle per namespace.
async fn discover_httproute(client: kube::Client) -> kube::Result<()> {
    let api = Api::<Namespace>::all(client.clone());
    let namespaces = api.list(&ListParams::default()).await?;
    let _routes = try_join_all(namespaces.iter().map(|ns| async {
        let api = Api::<Pod>::namespaced(client.clone(), &ns.name_any());
        api.list(&ListParams::default()).await
    }))
    .await?;
    Ok(())
}

// kaniop reconcile/mod.rs: restarts of different StatefulSets, one per name (reported only with
// batch checking); the sequential variant next to it is never reported.
async fn restart_statefulsets(sts_api: &Api<StatefulSet>, statefulset_names: &[String], sequential: bool) {
    let restart_futures = statefulset_names
        .iter()
        .map(|sts_name| sts_api.restart(sts_name));
    if sequential {
        let _: Vec<_> = stream::iter(restart_futures).then(|f| f).collect().await;
    } else {
        let _: Vec<_> = join_all(restart_futures).await;
    }
}

// kuberator lib.rs: `for_each_concurrent` over the results of `Controller::run` only runs the
// result handler.
async fn start_concurrent(results: impl futures::Stream<Item = kube::Result<()>>, limit: Option<usize>) {
    results.for_each_concurrent(limit, handle_reconciliation_result).await;
}

async fn handle_reconciliation_result(_r: kube::Result<()>) {}
