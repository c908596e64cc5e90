use kube::api::{Api, Patch, PatchParams};

/// Server-side apply of a status, generic over the kind.
pub async fn apply_status<K>(api: &Api<K>, name: &str, status: serde_json::Value) -> kube::Result<K>
where
    K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    api.patch_status(name, &PatchParams::apply("ctl"), &Patch::Apply(&status)).await
}
