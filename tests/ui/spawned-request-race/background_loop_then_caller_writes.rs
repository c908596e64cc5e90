// A task that patches every listed webhook configuration, and the spawning function patching
// one of them by name after the spawn: the list holds whichever one the caller names, so the
// two can meet on that object (the list is evidence, as it is for a writer elsewhere).
use k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt};

async fn start(vwcs: Api<ValidatingWebhookConfiguration>) -> kube::Result<()> {
    let bg = vwcs.clone();
    tokio::spawn(async move { //~ spawned-request-race
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(10)).await;
            let Ok(list) = bg.list(&ListParams::default()).await else { continue };
            for wc in &list.items {
                let _ = bg.patch(&wc.name_any(), &PatchParams::apply("reload"), &Patch::Apply(wc)).await;
            }
        }
    });
    let wc = ValidatingWebhookConfiguration::default();
    vwcs.patch("checkpoint", &PatchParams::apply("main"), &Patch::Apply(&wc)).await?;
    Ok(())
}

// The same with a task that makes one pass over the list.
async fn start_one_pass(vwcs: Api<ValidatingWebhookConfiguration>) -> kube::Result<()> {
    let bg = vwcs.clone();
    tokio::spawn(async move { //~ spawned-request-race
        let Ok(list) = bg.list(&ListParams::default()).await else { return };
        for wc in &list.items {
            let _ = bg.patch(&wc.name_any(), &PatchParams::apply("reload"), &Patch::Apply(wc)).await;
        }
    });
    let wc = ValidatingWebhookConfiguration::default();
    vwcs.patch("checkpoint", &PatchParams::apply("main"), &Patch::Apply(&wc)).await?;
    Ok(())
}

// Look-alike: the task lists the ConfigMaps of one namespace, the caller writes one of another.
async fn start_elsewhere(client: Client) -> kube::Result<()> {
    let bg: Api<ConfigMap> = Api::namespaced(client.clone(), "reload");
    tokio::spawn(async move {
        let Ok(list) = bg.list(&ListParams::default()).await else { return };
        for cm in &list.items {
            let _ = bg.patch(&cm.name_any(), &PatchParams::apply("reload"), &Patch::Apply(cm)).await;
        }
    });
    let cms: Api<ConfigMap> = Api::namespaced(client, "main");
    cms.patch("settings", &PatchParams::apply("main"), &Patch::Apply(&ConfigMap::default())).await?;
    Ok(())
}

// Look-alike: a task patching one object named by the caller's parameter, and the caller
// patching a constant name: two unrelated names (`unknown`, hidden by default).
async fn start_once(vwcs: Api<ValidatingWebhookConfiguration>, name: String) -> kube::Result<()> {
    let bg = vwcs.clone();
    tokio::spawn(async move {
        let wc = ValidatingWebhookConfiguration::default();
        let _ = bg.patch(&name, &PatchParams::apply("once"), &Patch::Apply(&wc)).await;
    });
    let wc = ValidatingWebhookConfiguration::default();
    vwcs.patch("checkpoint", &PatchParams::apply("main"), &Patch::Apply(&wc)).await?;
    Ok(())
}
