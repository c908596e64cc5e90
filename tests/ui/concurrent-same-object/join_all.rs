// `join_all`, `try_join_all` and `JoinAll`/`TryJoinAll` built with `collect` poll every future
// of the collection at once.
use futures::future::{self, join_all, try_join_all, JoinAll, TryJoinAll};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, PostParams};

async fn spellings(cms: Api<ConfigMap>, pp: PostParams, dp: DeleteParams, cm: ConfigMap) -> kube::Result<()> {
    join_all(vec![cms.delete("app", &dp), cms.delete("app", &dp)]).await; //~ concurrent-same-object
    futures::future::join_all([cms.get("app"), cms.get("other")]).await; // reads only: fine
    future::try_join_all(vec![cms.get("app"), cms.get("app")]).await?; // reads only: fine
    try_join_all(vec![ //~ concurrent-same-object
        Box::pin(cms.replace("app", &pp, &cm)) as future::BoxFuture<'_, _>,
        Box::pin(cms.get("app")),
    ])
    .await?;
    Ok(())
}

// A `Vec` filled with `push` and joined later.
async fn pushed(cms: Api<ConfigMap>, pp: PostParams, cm: ConfigMap, dp: DeleteParams) -> kube::Result<()> {
    let mut futs = Vec::new();
    futs.push(cms.create(&pp, &cm).boxed());
    futs.push(cms.delete(&cm.name_any(), &dp).boxed());
    try_join_all(futs).await?; //~ concurrent-same-object
    Ok(())
}

// `collect` into the join types.
async fn collected(cms: Api<ConfigMap>, dp: DeleteParams, name: String) -> kube::Result<()> {
    let all = vec![cms.get_opt(&name).boxed(), cms.delete(&name, &dp).map_ok(|_| None).boxed()] //~ concurrent-same-object
        .into_iter()
        .collect::<TryJoinAll<_>>();
    all.await?;
    let joined: JoinAll<_> = [cms.get(&name).boxed(), cms.delete(&name, &dp).boxed()].into_iter().collect(); //~ concurrent-same-object
    joined.await;
    Ok(())
}

// Different names: fine.
async fn different_objects(cms: Api<ConfigMap>, dp: DeleteParams) -> kube::Result<()> {
    try_join_all(vec![cms.delete("a", &dp), cms.delete("b", &dp)]).await?;
    Ok(())
}
