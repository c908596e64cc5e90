use kube::api::DeleteParams;

use crate::Leases;

pub struct Elector {
    leases: Leases,
}

pub async fn step_down(leases: Leases, dp: DeleteParams) {
    let _ = (
        leases.delete("leader", &dp).await,
        leases.get("leader").await,
    ); //~ concurrent-same-object
}

impl Elector {
    pub async fn step_down(&self, dp: DeleteParams) {
        let _ = (
            self.leases.delete("leader", &dp).await,
            self.leases.get("leader").await,
        ); //~ concurrent-same-object
    }
}

/// A cache with methods of the same names, which make no request.
pub struct Cache;

impl Cache {
    pub async fn delete(&self, _key: &str, _dp: &DeleteParams) {}
    pub async fn get(&self, _key: &str) {}
}

pub async fn evict(cache: Cache, dp: DeleteParams) {
    let _ = tokio::join!(cache.delete("leader", &dp), cache.get("leader"));
}
