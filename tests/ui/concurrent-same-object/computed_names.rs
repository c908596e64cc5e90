// A helper that computes the object's name and handle from its arguments, called twice with the
// same arguments: the same code on the same inputs is evidence of the same object (`possible`:
// the computation might read a clock or a counter). With other inputs, nothing relates them.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use kube::{Client, ResourceExt};

struct Manifest(Pod);

impl Manifest {
    fn latest(&self) -> Pod {
        self.0.clone()
    }
}

async fn patch_phase(api: &Api<Pod>, name: &str, phase: &str) {
    let _ = api.patch_status(name, &PatchParams::default(), &Patch::Merge(phase)).await;
}

async fn run_to_phase(client: &Client, manifest: &Manifest, phase: &str) {
    let (name, api) = {
        let latest = manifest.latest();
        let api: Api<Pod> = Api::namespaced(client.clone(), &latest.namespace().unwrap());
        (latest.name_any(), api)
    };
    patch_phase(&api, &name, phase).await;
}

async fn same_manifest(client: Client, manifest: Manifest) {
    tokio::join!( //~ concurrent-same-object
        run_to_phase(&client, &manifest, "Running"),
        run_to_phase(&client, &manifest, "Stopping"),
    );
}

// Look-alike: two manifests, computed alike but from different inputs.
async fn two_manifests(client: Client, web: Manifest, db: Manifest) {
    tokio::join!(
        run_to_phase(&client, &web, "Running"),
        run_to_phase(&client, &db, "Running"),
    );
}
