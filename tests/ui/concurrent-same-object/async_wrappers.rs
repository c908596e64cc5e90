// Crate wrappers that hand out `Api<K>` from an `async fn`, wrapped in a `Result`: the handle is
// taken out with `.await?`, its kind from the turbofish or the caller's annotation, its namespace
// from the argument the wrapper passes to `Api::namespaced`. Look-alikes: other kinds or
// namespaces through the same wrapper, and a foreign type's `api()` method.
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::{Client, Resource};

struct Kubectl {
    config: kube::Config,
}

impl Kubectl {
    async fn get_client(&self) -> anyhow::Result<Client> {
        Ok(Client::try_from(self.config.clone())?)
    }

    async fn api<T>(&self) -> anyhow::Result<Api<T>>
    where
        T: Resource,
        <T as Resource>::DynamicType: Default,
    {
        self.get_client().await.map(Api::all)
    }

    async fn namespaced_api<T>(&self, namespace: &str) -> anyhow::Result<Api<T>>
    where
        T: Resource,
        <T as Resource>::DynamicType: Default,
    {
        self.get_client()
            .await
            .map(|client| Api::namespaced(client, namespace))
    }

    async fn delete_and_patch(&self, p: Patch<serde_json::Value>) -> anyhow::Result<()> {
        let dp = DeleteParams::default();
        let pp = PatchParams::default();
        tokio::try_join!(self.api::<Pod>().await?.delete("a", &dp), self.api::<Pod>().await?.patch("a", &pp, &p))?; //~ concurrent-same-object
        Ok(())
    }

    async fn two_handles(&self, ns: &str, p: Patch<serde_json::Value>) -> anyhow::Result<()> {
        let configs = self.namespaced_api::<ConfigMap>(ns).await?;
        let again: Api<ConfigMap> = self.namespaced_api(ns).await?;
        tokio::try_join!(configs.patch("cfg", &PatchParams::default(), &p), again.delete("cfg", &DeleteParams::default()))?; //~ concurrent-same-object
        Ok(())
    }

    // A wrapper written as `fn .. -> impl Future<Output = ..>`: the kind its type names.
    fn pods_later(&self) -> impl std::future::Future<Output = anyhow::Result<Api<Pod>>> + '_ {
        async move { Ok(Api::default_namespaced(self.get_client().await?)) }
    }

    async fn lazy_wrapper(&self, p: Patch<serde_json::Value>) -> anyhow::Result<()> {
        let pods = self.pods_later().await?;
        tokio::try_join!(pods.delete("a", &DeleteParams::default()), self.api::<Pod>().await?.patch("a", &PatchParams::default(), &p))?; //~ concurrent-same-object
        Ok(())
    }

    // Look-alike: a Pod and a Secret of one name are two objects.
    async fn other_kinds(&self, p: Patch<serde_json::Value>) -> anyhow::Result<()> {
        let pods = self.api::<Pod>().await?;
        let secrets = self.api::<Secret>().await?;
        tokio::try_join!(pods.delete("a", &DeleteParams::default()), secrets.patch("a", &PatchParams::default(), &p))?;
        Ok(())
    }

    // Look-alike: the same name in two namespaces the wrapper is given.
    async fn other_namespaces(&self, p: Patch<serde_json::Value>) -> anyhow::Result<()> {
        let here = self.namespaced_api::<ConfigMap>("here").await?;
        let there = self.namespaced_api::<ConfigMap>("there").await?;
        tokio::try_join!(here.delete("cfg", &DeleteParams::default()), there.patch("cfg", &PatchParams::default(), &p))?;
        Ok(())
    }
}

// Look-alike: a method named `api` of a type that is not the crate's is not the wrapper.
async fn foreign(remote: &remote::Cluster, p: Patch<serde_json::Value>) -> anyhow::Result<()> {
    let dp = DeleteParams::default();
    let pp = PatchParams::default();
    tokio::try_join!(remote.api::<Pod>().await?.delete("a", &dp), remote.api::<Pod>().await?.patch("a", &pp, &p))?;
    Ok(())
}
