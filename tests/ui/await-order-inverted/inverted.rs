// Request futures created in one order and awaited in another: the requests take effect in await
// order.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

async fn issue_example(api: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let create = api.create(&pp, &pod);
    let delete = api.delete("blog", &dp);
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
