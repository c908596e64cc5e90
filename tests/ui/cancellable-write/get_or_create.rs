// The get-or-create idiom: a create of an object built elsewhere, after a `get` of a name through
// the same handle, creates the object it did not find. Cancelled, that create can land after the
// cleanup that follows it.
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, PostParams};

fn template() -> ConfigMap {
    ConfigMap::default()
}

async fn ensure(api: &Api<ConfigMap>, name: &str) -> kube::Result<()> {
    if api.get_opt(name).await?.is_none() {
        api.create(&PostParams::default(), &template()).await?;
    }
    Ok(())
}

// The create may land after the delete that cleans up after the deadline.
async fn ensure_or_clean_up(api: &Api<ConfigMap>, dp: &DeleteParams) -> kube::Result<()> {
    if tokio::time::timeout(Duration::from_secs(5), ensure(api, "settings")).await.is_err() { //~ cancellable-write
        api.delete("settings", dp).await?;
    }
    Ok(())
}

// Look-alike: the cleanup deletes another object.
async fn ensure_or_reset(api: &Api<ConfigMap>, dp: &DeleteParams) -> kube::Result<()> {
    if tokio::time::timeout(Duration::from_secs(5), ensure(api, "settings")).await.is_err() {
        api.delete("defaults", dp).await?;
    }
    Ok(())
}
