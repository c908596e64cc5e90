// A method of a crate trait called on a receiver whose type is not known (`S: Store`,
// `&dyn Store`) may run any impl of the crate: it makes the requests of each.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, PostParams};

trait Store {
    async fn save(&self, cm: &ConfigMap) -> kube::Result<()>;
}

struct KubeStore {
    cms: Api<ConfigMap>,
}

struct MirroredStore {
    cms: Api<ConfigMap>,
}

impl Store for KubeStore {
    async fn save(&self, cm: &ConfigMap) -> kube::Result<()> {
        self.cms.replace("settings", &PostParams::default(), cm).await?;
        Ok(())
    }
}

impl Store for MirroredStore {
    async fn save(&self, cm: &ConfigMap) -> kube::Result<()> {
        self.cms.replace("settings-mirror", &PostParams::default(), cm).await?;
        Ok(())
    }
}

// Either impl may run; the first replaces the ConfigMap deleted at the same time.
async fn sync_settings<S: Store>(store: &S, cms: &Api<ConfigMap>, cm: &ConfigMap, dp: &DeleteParams) {
    let _ = tokio::join!(store.save(cm), cms.delete("settings", dp)); //~ concurrent-same-object
}

async fn through_dyn(store: &dyn Store, cms: &Api<ConfigMap>, cm: &ConfigMap, dp: &DeleteParams) {
    let _ = tokio::join!(store.save(cm), cms.delete("settings-mirror", dp)); //~ concurrent-same-object
}

// Look-alike: no impl writes the ConfigMap deleted.
async fn other_object<S: Store>(store: &S, cms: &Api<ConfigMap>, cm: &ConfigMap, dp: &DeleteParams) {
    let _ = tokio::join!(store.save(cm), cms.delete("defaults", dp));
}
