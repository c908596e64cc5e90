use std::sync::Arc;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::Api;

use crate::{children, status, App};

pub struct Context {
    pub apps: Api<App>,
    pub deployments: Api<Deployment>,
    pub configs: Api<ConfigMap>,
}

pub async fn reconcile(ctx: Arc<Context>, name: String) -> kube::Result<()> {
    // Safe: a status patch of the App, an apply of a Deployment, a ConfigMap read — different kinds.
    tokio::try_join!(
        status::mark_progressing(&ctx.apps, &name),
        children::apply_deployment(&ctx.deployments, &name),
        ctx.configs.get(&name),
    )?;

    // The status patch is three helper calls deep; the status read is direct: the same App.
    status::mark_ready(&ctx.apps, &name).await?;
    ctx.apps.get_status(&name).await?; //~ concurrent-same-object

    // Two helpers on the same App object race each other.
    status::mark_ready(&ctx.apps, &name).await?;
    status::mark_progressing(&ctx.apps, &name).await?; //~ concurrent-same-object

    // Different literal names through the same helper: different objects.
    tokio::try_join!(status::mark_ready(&ctx.apps, "a"), status::mark_ready(&ctx.apps, "b"))?;
    Ok(())
}

impl Context {
    /// Writes the App's phase: a method of the context, resolved through the parameter's type.
    pub async fn set_phase(&self, name: &str, phase: &str) -> kube::Result<()> {
        let status = serde_json::json!({ "status": { "phase": phase } });
        crate::util::patch::apply_status(&self.apps, name, status).await?;
        Ok(())
    }
}

/// Another type with a method of the same name and arity that makes no request.
pub struct Metrics;
impl Metrics {
    pub async fn set_phase(&self, _name: &str, _phase: &str) -> kube::Result<()> {
        Ok(())
    }
}

pub async fn phases(ctx: Arc<Context>, metrics: &Metrics, name: String) -> kube::Result<()> {
    ctx.set_phase(&name, "Ready").await?;
    ctx.apps.get_status(&name).await?; //~ concurrent-same-object
    tokio::try_join!(metrics.set_phase(&name, "Ready"), ctx.apps.get_status(&name))?;
    Ok(())
}
