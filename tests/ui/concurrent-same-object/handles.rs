use k8s_openapi::api::core::v1::{Pod, Service};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use std::sync::Arc;

struct Context {
    pods: Api<Pod>,
    services: Api<Service>,
    client: kube::Client,
}

impl Context {
    // A struct field declared `Api<Pod>`, reached through `self`.
    async fn restart(&self, name: &str) -> kube::Result<()> {
        tokio::try_join!( //~ concurrent-same-object
            self.pods.delete(name, &DeleteParams::default()),
            self.pods.get(name)
        )?;
        Ok(())
    }
}

// The same field reached through a context parameter.
async fn reconcile(ctx: Arc<Context>, name: String, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    tokio::try_join!(ctx.pods.patch_status(&name, &pp, &p), ctx.pods.get_status(&name))?; //~ concurrent-same-object
    // different kinds behind different fields: fine
    tokio::try_join!(ctx.pods.delete(&name, &Default::default()), ctx.services.get(&name))?;
    Ok(())
}

// A parameter typed `&Api<Pod>`.
async fn by_ref(pods: &Api<Pod>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    futures::join!(pods.patch("web", &pp, &p), pods.get("web")); //~ concurrent-same-object
    Ok(())
}

// A turbofish constructor, and a `.clone()` of the handle.
async fn turbofish(client: kube::Client, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let pods = Api::<Pod>::namespaced(client, "prod");
    let again = pods.clone();
    tokio::join!(pods.patch("web", &pp, &p), again.get("web")); //~ concurrent-same-object
    tokio::join!(Api::<Pod>::all(client.clone()).delete("web", &Default::default()), pods.get("web")); //~ concurrent-same-object
    Ok(())
}
