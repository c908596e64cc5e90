// Not reported: awaited in the order created, different objects, reads only, awaits in exclusive
// branches, a request on another object awaited where it is made, and awaits inside another
// `async` block.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

async fn in_order(api: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let create = api.create(&pp, &pod);
    let delete = api.delete("blog", &dp);
    create.await?;
    delete.await?;
    Ok(())
}

async fn different_objects(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let read = api.get("a");
    let delete = api.delete("b", &dp);
    delete.await?;
    let _ = read.await?;
    Ok(())
}

async fn reads_only(api: Api<Pod>) -> kube::Result<()> {
    let first = api.get("a");
    let second = api.get("a");
    second.await?;
    first.await?;
    Ok(())
}

async fn exclusive(api: Api<Pod>, dp: DeleteParams, fast: bool) -> kube::Result<()> {
    let read = api.get("a");
    let delete = api.delete("a", &dp);
    if fast {
        delete.await?;
    } else {
        let _ = read.await?;
    }
    Ok(())
}

// A request awaited where it is made, between: another object, or a read with a read.
async fn direct_await_between(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let read = api.get("blog");
    api.delete("other", &dp).await?;
    api.get("blog").await?;
    let _ = read.await?;
    Ok(())
}

async fn elsewhere(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let read = api.get("a");
    let later = async {
        api.delete("a", &dp).await?;
        read.await
    };
    later.await?;
    Ok(())
}
