// `FuturesUnordered` and `FuturesOrdered` poll every future they hold once they are polled
// themselves; `FuturesOrdered` orders the results, not the requests.
use futures::stream::{FuturesOrdered, FuturesUnordered, StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, DeleteParams, PostParams};

async fn new_and_push(svcs: Api<Service>, pp: PostParams, svc: Service, dp: DeleteParams) -> kube::Result<()> {
    let mut set = FuturesUnordered::new();
    set.push(svcs.create(&pp, &svc));
    set.push(svcs.create(&pp, &svc));
    while let Some(r) = set.next().await { //~ concurrent-same-object
        r?;
    }
    let mut ordered = FuturesOrdered::new();
    ordered.push_back(svcs.delete("web", &dp).boxed());
    ordered.push_front(svcs.get("web").map(|_| Ok(())).boxed());
    let _: Vec<_> = ordered.collect().await; //~ concurrent-same-object
    Ok(())
}

async fn from_iter_and_collect(svcs: Api<Service>, dp: DeleteParams, names: Vec<String>) -> kube::Result<()> {
    let set = FuturesUnordered::from_iter([svcs.get("web").boxed(), svcs.delete("web", &dp).map(|_| ()).boxed()]);
    let _: Vec<_> = set.collect().await; //~ concurrent-same-object
    let set = names.iter().map(|_| svcs.delete("web", &dp)).collect::<FuturesUnordered<_>>();
    set.try_collect::<Vec<_>>().await?; //~ concurrent-same-object
    let set: FuturesOrdered<_> = names.iter().map(|_| svcs.delete("db", &dp)).collect();
    set.try_collect::<Vec<_>>().await?; //~ concurrent-same-object
    let mut set = FuturesUnordered::new();
    set.extend([svcs.delete("cache", &dp), svcs.delete("cache", &dp)]);
    set.next().await; //~ concurrent-same-object
    Ok(())
}

// Not reported: different names, reads only, futures that are not kube requests, and one request
// per element named after the element.
async fn negatives(svcs: Api<Service>, dp: DeleteParams, names: Vec<String>, http: reqwest::Client) {
    let mut set = FuturesUnordered::new();
    set.push(svcs.delete("a", &dp));
    set.push(svcs.delete("b", &dp));
    while set.next().await.is_some() {}
    let reads: FuturesUnordered<_> = names.iter().map(|n| svcs.get(n)).collect();
    let _: Vec<_> = reads.collect().await;
    let mut pings = FuturesUnordered::new();
    for url in ["http://a", "http://b"] {
        pings.push(http.delete(url).send());
    }
    while pings.next().await.is_some() {}
    let mut deletes = FuturesUnordered::new();
    for n in &names {
        deletes.push(svcs.delete(n, &dp));
    }
    while deletes.next().await.is_some() {}
}
