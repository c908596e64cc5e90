use futures::future::{join, join3, try_join};
use futures::join;
use futures::try_join;
use k8s_openapi::api::core::v1::Secret;
use kube::api::{Api, DeleteParams, PostParams};

async fn spellings(s: Api<Secret>, pp: PostParams, dp: DeleteParams, secret: Secret) -> kube::Result<()> {
    tokio::join!(s.delete("tls", &dp), s.get("tls")); //~ concurrent-same-object
    tokio::try_join!(s.delete("tls", &dp), s.get("tls"))?; //~ concurrent-same-object
    futures::join!(s.delete("tls", &dp), s.get("tls")); //~ concurrent-same-object
    futures::try_join!(s.delete("tls", &dp), s.get("tls"))?; //~ concurrent-same-object
    join!(s.delete("tls", &dp), s.get("tls")); //~ concurrent-same-object
    try_join!(s.delete("tls", &dp), s.get("tls"))?; //~ concurrent-same-object
    tokio::join!(biased; s.delete("tls", &dp), s.get("tls")); //~ concurrent-same-object
    futures::future::join(s.delete("tls", &dp), s.get("tls")).await; //~ concurrent-same-object
    futures::future::try_join(s.delete("tls", &dp), s.get("tls")).await?; //~ concurrent-same-object
    join(s.delete("tls", &dp), s.get("tls")).await; //~ concurrent-same-object
    try_join(s.delete("tls", &dp), s.get("tls")).await?; //~ concurrent-same-object
    join3(s.get("a"), s.get("b"), s.delete("tls", &dp)).await; // different names: fine
    futures::future::join3(s.get("a"), s.get("tls"), s.delete("tls", &dp)).await; //~ concurrent-same-object
    futures::future::join4(s.get("a"), s.get("b"), s.get("c"), s.delete("c", &dp)).await; //~ concurrent-same-object
    futures::future::join5(s.get("a"), s.get("b"), s.get("c"), s.get("d"), s.delete("d", &dp)).await; //~ concurrent-same-object
    futures::future::try_join3(s.create(&pp, &secret), s.get(&secret.name_any()), s.delete("b", &dp)).await?; //~ concurrent-same-object
    futures::future::try_join4(s.get("a"), s.get("b"), s.get("c"), s.delete("a", &dp)).await?; //~ concurrent-same-object
    futures::future::try_join5(s.get("a"), s.get("b"), s.get("c"), s.get("d"), s.delete("b", &dp)).await?; //~ concurrent-same-object
    Ok(())
}
