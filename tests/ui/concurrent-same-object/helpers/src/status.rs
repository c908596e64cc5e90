use kube::api::Api;

use crate::util::patch;
use crate::App;

pub async fn mark_progressing(apps: &Api<App>, name: &str) -> kube::Result<()> {
    write_condition(apps, name, "Progressing").await
}

pub async fn mark_ready(apps: &Api<App>, name: &str) -> kube::Result<()> {
    write_condition(apps, name, "Ready").await
}

async fn write_condition(apps: &Api<App>, name: &str, condition: &str) -> kube::Result<()> {
    let status = serde_json::json!({ "status": { "condition": condition } });
    patch::apply_status(apps, name, status).await
}
