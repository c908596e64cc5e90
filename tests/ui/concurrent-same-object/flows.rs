// How request futures reach a concurrency site.
use either::Either;
use futures::future::{self, FutureExt, TryFutureExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};

// Closures returning request futures, called as operands: the arguments name the objects.
async fn closures(cms: Api<ConfigMap>, dp: DeleteParams) -> kube::Result<()> {
    let delete = |name: &str| cms.delete(name, &dp);
    let read = |name: &'static str| async move { cms.get(name).await };
    tokio::try_join!(delete("settings"), read("settings"))?; //~ concurrent-same-object
    tokio::try_join!(delete("a"), delete("b"))?; // different arguments: fine
    tokio::try_join!(delete("a"), read("b"))?; // different arguments: fine
    Ok(())
}

// FutureExt adapters, `Either` and boxing keep the requests of the inner future.
async fn adapters(cms: Api<ConfigMap>, pp: PatchParams, p: Patch<()>, fast: bool) -> kube::Result<()> {
    let patch = cms.patch("settings", &pp, &p).map_ok(|_| ());
    let read = cms.get("settings").map(|r| r.map(|_| ()));
    future::try_join(patch, read).await?; //~ concurrent-same-object
    let write = if fast {
        Either::Left(cms.delete("settings", &Default::default()).map_ok(|_| ()))
    } else {
        Either::Right(cms.patch("settings", &pp, &p).map_ok(|_| ()))
    };
    tokio::try_join!(write, cms.get("settings").boxed())?; //~ concurrent-same-object
    let chained = cms.get("settings").then(|_| cms.delete("settings", &Default::default()));
    tokio::join!(chained, cms.get_opt("settings")); //~ concurrent-same-object
    Ok(())
}

// Arrays, `vec!` and iterator chains (`into_iter`, `filter`, `chain`, `flat_map`, `zip`).
async fn collections(cms: Api<ConfigMap>, pp: PostParams, cm: ConfigMap, names: Vec<String>, dp: DeleteParams) -> kube::Result<()> {
    future::join_all([cms.get("settings").boxed(), cms.delete("settings", &dp).map(|_| Ok(cm.clone())).boxed()]).await; //~ concurrent-same-object
    let reads = names.iter().filter(|n| !n.is_empty()).map(|n| cms.get(n).boxed());
    let writes = vec![cms.replace("settings", &pp, &cm).boxed()];
    future::join_all(reads.chain(writes)).await; // element names and a literal: nothing relates them (shown at --min-confidence unknown)
    let pairs = names.iter().flat_map(|_| vec![cms.get("shared").boxed(), cms.replace("shared", &pp, &cm).boxed()]);
    future::join_all(pairs).await; //~ concurrent-same-object
    let zipped = names.iter().zip(names.iter().skip(1)).map(|(_, _)| cms.delete("shared", &dp));
    future::join_all(zipped).await; //~ concurrent-same-object
    let owned = names.clone().into_iter().map(|_| cms.delete("owned", &dp));
    future::join_all(owned).await; //~ concurrent-same-object
    Ok(())
}

// `Option` and `Result` wrappers taken apart with `?` before the join.
async fn wrappers(cms: Api<ConfigMap>, dp: DeleteParams, name: Option<String>) -> anyhow::Result<()> {
    let name = name.unwrap_or_default();
    let delete = Some(cms.delete(&name, &dp));
    let read: Result<_, anyhow::Error> = Ok(cms.get(&name));
    let (delete, read) = (delete.ok_or_else(|| anyhow::anyhow!("none"))?, read?);
    tokio::join!(delete, read); //~ concurrent-same-object
    let delete = Some(cms.delete(&name, &dp));
    tokio::join!(delete.unwrap(), cms.get(&name)); //~ concurrent-same-object
    Ok(())
}
