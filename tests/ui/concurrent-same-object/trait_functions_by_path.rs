// A trait's provided associated function runs when called through a type implementing the
// trait (`Config::wipe(..)`) or through the trait, never by its bare name: a bare `wipe(..)`
// is a free function (here one imported from a dependency), not the trait's. Taking it for the
// trait's gave a false `definite` (found while checking a helper's change in session 12).
use cleanup_lib::wipe;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams};

pub trait Cleanup {
    async fn wipe(cms: &Api<ConfigMap>) {
        let _ = cms.delete("shared", &DeleteParams::default()).await;
    }
}

pub struct Config;

impl Cleanup for Config {}

// The trait's function, through a type implementing it: the delete races the get.
pub async fn through_the_type(cms: Api<ConfigMap>) {
    let _ = tokio::join!(Config::wipe(&cms), cms.get("shared")); //~ concurrent-same-object
}

// The dependency's `wipe`: nothing is known of what it sends.
pub async fn bare_name(cms: Api<ConfigMap>) {
    let _ = tokio::join!(wipe(&cms), cms.get("shared"));
}
