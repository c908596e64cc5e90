// A read-modify-write of one ConfigMap, in a helper of its own module: every reconcile in flight
// makes it, so updates are lost.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};

use crate::controller::Error;

const INDEX: &str = "secret-index";

pub async fn record(cms: &Api<ConfigMap>, entry: &str) -> Result<(), Error> {
    let mut index = cms.get(INDEX).await.map_err(|_| Error)?;
    index.data.get_or_insert_with(Default::default).insert(entry.to_string(), String::new());
    index.metadata.resource_version = None;
    cms.replace(INDEX, &PostParams::default(), &index).await.map_err(|_| Error)?; //~ concurrent-same-object
    Ok(())
}
