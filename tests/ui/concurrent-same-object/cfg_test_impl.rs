// A trait with a real impl and an in-memory one under `#[cfg(test)]`: code that ships calls the
// real one; test code may call the fake.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, PostParams};

trait Store {
    async fn save(&self, cm: &ConfigMap) -> kube::Result<()>;
}

struct KubeStore {
    cms: Api<ConfigMap>,
}

impl Store for KubeStore {
    async fn save(&self, cm: &ConfigMap) -> kube::Result<()> {
        self.cms.replace("settings", &PostParams::default(), cm).await?;
        Ok(())
    }
}

// The fake does not hide the real impl from non-test code.
async fn sync_settings<S: Store>(store: &S, cms: &Api<ConfigMap>, cm: &ConfigMap, dp: &DeleteParams) {
    let _ = tokio::join!(store.save(cm), cms.delete("settings", dp)); //~ concurrent-same-object
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    struct MemStore {
        saved: Mutex<Vec<ConfigMap>>,
    }

    impl Store for MemStore {
        async fn save(&self, cm: &ConfigMap) -> kube::Result<()> {
            self.saved.lock().unwrap().push(cm.clone());
            Ok(())
        }
    }

    // Test code calling the trait on a receiver of unknown type: the fake, no request.
    async fn exercise<S: Store>(store: &S, cms: &Api<ConfigMap>, cm: &ConfigMap, dp: &DeleteParams) {
        let _ = tokio::join!(store.save(cm), cms.delete("settings", dp));
    }

    // Test code may still call the real impl by its type.
    #[tokio::test]
    async fn real_store(cms: Api<ConfigMap>, cm: ConfigMap, dp: DeleteParams) {
        let store = KubeStore { cms: cms.clone() };
        let _ = tokio::join!(store.save(&cm), cms.delete("settings", &dp)); //~ concurrent-same-object
    }
}
