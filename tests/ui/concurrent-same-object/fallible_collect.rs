// A fallible collect builds the collection of futures inside its `Result` or `Option`: after `?`,
// awaiting it polls every future at once, as `collect::<TryJoinAll<_>>()` does.
use futures::future::{JoinAll, TryJoinAll};
use futures::stream::{FuturesUnordered, StreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams};

async fn result_of_try_join_all(pods: Api<Pod>, dp: DeleteParams, names: Vec<String>) -> kube::Result<()> {
    let all = names.iter().map(|_| Ok::<_, kube::Error>(pods.delete("same", &dp))).collect::<Result<TryJoinAll<_>, _>>()?; //~ concurrent-same-object
    all.await?;
    Ok(())
}

async fn annotated(pods: Api<Pod>, dp: DeleteParams, names: Vec<String>) -> kube::Result<()> {
    let all: Result<JoinAll<_>, kube::Error> = names.iter().map(|_| Ok(pods.delete("same", &dp))).collect(); //~ concurrent-same-object
    all?.await;
    Ok(())
}

async fn option_of_futures_unordered(pods: Api<Pod>, dp: DeleteParams, names: Vec<String>) -> Option<()> {
    let mut all = names.iter().map(|_| Some(pods.delete("same", &dp))).collect::<Option<FuturesUnordered<_>>>()?;
    while let Some(_) = all.next().await {} //~ concurrent-same-object
    Some(())
}

// Look-alikes: one object per element, or a fallible collect into a `Vec` awaited in turn.
async fn keyed(pods: Api<Pod>, dp: DeleteParams, names: Vec<String>) -> kube::Result<()> {
    let all = names.iter().map(|n| Ok::<_, kube::Error>(pods.delete(n, &dp))).collect::<Result<TryJoinAll<_>, _>>()?;
    all.await?;
    Ok(())
}

async fn in_turn(pods: Api<Pod>, dp: DeleteParams, names: Vec<String>) -> kube::Result<()> {
    let all = names.iter().map(|_| Ok::<_, kube::Error>(pods.delete("same", &dp))).collect::<Result<Vec<_>, _>>()?;
    for f in all {
        f.await?;
    }
    Ok(())
}
