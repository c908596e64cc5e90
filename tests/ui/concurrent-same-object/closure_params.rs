// Reduced from seppo: each element builds its own Service through `Option::map`, so the
// parameter of the inner closure depends on the element, and the creates name different objects.
// The look-alike creates one Service built outside the loop, once per element.
use futures::future::try_join_all;
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, PostParams};

struct Def {
    name: String,
}

fn service_for(def: &Def) -> Option<Service> {
    let _ = &def.name;
    None
}

async fn one_per_definition(services: Api<Service>, defs: Vec<Def>) -> kube::Result<()> {
    let futures = defs
        .iter()
        .filter_map(|def| {
            service_for(def).map(|svc| {
                let services = services.clone();
                async move { services.create(&PostParams::default(), &svc).await }
            })
        })
        .collect::<Vec<_>>();
    try_join_all(futures).await?;
    Ok(())
}

async fn one_for_all(services: Api<Service>, defs: Vec<Def>, shared: Service) -> kube::Result<()> {
    let futures = defs
        .iter()
        .map(|_def| {
            let services = services.clone();
            let shared = shared.clone();
            async move { services.create(&PostParams::default(), &shared).await }
        })
        .collect::<Vec<_>>();
    try_join_all(futures).await?; //~ concurrent-same-object
    Ok(())
}
