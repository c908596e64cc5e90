// Request futures created in one order and awaited in another: the requests take effect in await
// order.
use futures::future::BoxFuture;
use futures::FutureExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};
use kube::ResourceExt;

async fn issue_example(api: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let create = api.create(&pp, &pod);
    let delete = api.delete(&pod.name_any(), &dp);
    delete.await?; //~ await-order-inverted
    create.await?;
    Ok(())
}

async fn literal_names(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let read = api.get("blog");
    let delete = api.delete("blog", &dp);
    delete.await?; //~ await-order-inverted
    let _ = read.await?;
    Ok(())
}


// `async` blocks are futures too, and a join polls them.
async fn blocks(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let check = async { api.get_opt("blog").await };
    let remove = async { api.delete("blog", &dp).await };
    remove.await?; //~ await-order-inverted
    let _ = tokio::join!(check, api.get_opt("other"));
    Ok(())
}

// The fix awaits the earlier future where it is created; the later await becomes its value.
async fn awaited_in_expressions(api: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let create = api.create(&pp, &pod);
    let delete = api.delete(&pod.name_any(), &dp);
    let _ = delete.await; //~ await-order-inverted
    let name = create.await?.name_any();
    let read = api.get("blog");
    api.delete("other", &dp).await?;
    let replace = api.replace("blog", &pp, &pod);
    replace.await?; //~ await-order-inverted
    println!("{name} {:?}", read.await);
    Ok(())
}

// Shown, not applied: awaited in a branch or a loop of its own (awaiting it where it is created
// would send it also when that code does not run), or bound with the future's type.
async fn shown(api: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams, fast: bool) -> kube::Result<()> {
    let read = api.get("blog");
    let delete = api.delete("blog", &dp);
    delete.await?; //~ await-order-inverted
    if fast {
        read.await?;
    }
    let create = api.create(&pp, &pod);
    let remove = api.delete(&pod.name_any(), &dp);
    remove.await?; //~ await-order-inverted
    loop {
        create.await?;
        break;
    }
    let typed: BoxFuture<'_, kube::Result<Pod>> = api.get("blog").boxed();
    let evict = api.delete("blog", &dp);
    evict.await?; //~ await-order-inverted
    typed.await?;
    Ok(())
}

// A read made before a write and awaited after it: the write, awaited where it is made, is sent
// first, and the read sees the state after it.
async fn read_made_before_a_write(api: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let read = api.get("blog");
    api.delete("blog", &dp).await?; //~ await-order-inverted
    let _ = read.await?;
    Ok(())
}
