// checkpoint's reload (holdout 7, H1): a task that patches every listed webhook configuration
// again and again, while a controller of rules patches the configuration named after each rule
// it reconciles. The list holds whichever configuration a reconcile writes, so a stale copy
// from the loop can overwrite the reconcile's fresh one.
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::runtime::{controller::Action, Controller};
use kube::{Client, ResourceExt};

#[derive(Clone)]
struct Ctx {
    vwcs: Api<ValidatingWebhookConfiguration>,
}

#[derive(Debug)]
struct Error;

async fn reconcile(rule: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let vwc = ValidatingWebhookConfiguration::default();
    let pp = PatchParams::apply("rules");
    ctx.vwcs.patch(&rule.name_any(), &pp, &Patch::Apply(&vwc)).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

// Look-alike: this reconcile only reads the configuration named after the rule.
async fn inspect(rule: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    ctx.vwcs.get(&rule.name_any()).await.map_err(|_| Error)?;
    Ok(Action::await_change())
}

fn error_policy(_: Arc<ConfigMap>, _: &Error, _: Arc<Ctx>) -> Action {
    Action::requeue(Duration::from_secs(5))
}

async fn reload_forever(vwcs: Api<ValidatingWebhookConfiguration>) {
    loop {
        tokio::time::sleep(Duration::from_secs(10)).await;
        let Ok(list) = vwcs.list(&ListParams::default()).await else { continue };
        for wc in &list.items {
            let _ = vwcs.patch(&wc.name_any(), &PatchParams::apply("reload"), &Patch::Apply(wc)).await;
        }
    }
}

async fn run(client: Client) {
    let ctx = Ctx { vwcs: Api::all(client.clone()) };
    tokio::spawn(reload_forever(ctx.vwcs.clone())); //~ spawned-request-race
    let rules: Api<ConfigMap> = Api::all(client);
    Controller::new(rules, Default::default())
        .run(reconcile, error_policy, Arc::new(ctx))
        .for_each(|_| async {})
        .await;
}

async fn run_inspector(client: Client) {
    let ctx = Ctx { vwcs: Api::all(client.clone()) };
    tokio::spawn(reload_forever(ctx.vwcs.clone()));
    let rules: Api<ConfigMap> = Api::all(client);
    Controller::new(rules, Default::default())
        .run(inspect, error_policy, Arc::new(ctx))
        .for_each(|_| async {})
        .await;
}
