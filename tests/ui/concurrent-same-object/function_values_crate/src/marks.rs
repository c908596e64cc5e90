use futures::future::BoxFuture;
use futures::FutureExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};

pub fn mark(name: String) -> BoxFuture<'static, ()> {
    async move {
        let api: Api<ConfigMap> = Api::default_namespaced(todo!());
        let _ = api.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
    }
    .boxed()
}
