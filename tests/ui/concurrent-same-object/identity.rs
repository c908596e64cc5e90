// Which object a request touches: the identity rules, positive and negative.
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DeleteParams, ObjectMeta, PostParams};

const BLOG: &str = "blog";
const SHOP: &str = "shop";
const ALSO_BLOG: &str = "blog";

// The same name through borrows and conversions of one binding: definite.
async fn conversions(pods: Api<Pod>, name: String, dp: DeleteParams) -> kube::Result<()> {
    tokio::join!(pods.delete(&name, &dp), pods.get(name.as_str())); //~ concurrent-same-object
    tokio::join!(pods.delete(&*name, &dp), pods.get(&name.clone())); //~ concurrent-same-object
    tokio::join!(pods.delete(&name.to_string(), &dp), pods.get(&name)); //~ concurrent-same-object
    Ok(())
}

// `name_any()`, `name_unchecked()` and `metadata.name` of one object are its name.
async fn object_names(pods: Api<Pod>, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    tokio::join!(pods.delete(&pod.name_any(), &dp), pods.get(&pod.name_unchecked())); //~ concurrent-same-object
    tokio::join!(pods.delete(pod.metadata.name.as_ref().unwrap(), &dp), pods.get(&pod.name_any())); //~ concurrent-same-object
    Ok(())
}

// Consts: the same const, or consts with equal values, are one name; different values differ.
async fn consts(cms: Api<ConfigMap>, dp: DeleteParams) -> kube::Result<()> {
    tokio::join!(cms.delete(BLOG, &dp), cms.get(BLOG)); //~ concurrent-same-object
    tokio::join!(cms.delete(BLOG, &dp), cms.get(ALSO_BLOG)); //~ concurrent-same-object
    tokio::join!(cms.delete(BLOG, &dp), cms.get(SHOP));
    Ok(())
}

// Shadowing: the second `name` is another binding, so nothing is definite about it.
async fn shadowed(pods: Api<Pod>, other: String, dp: DeleteParams) -> kube::Result<()> {
    let name = "blog";
    let name = other;
    tokio::join!(pods.delete(&name, &dp), pods.get("blog")); // another binding of unknown origin: not reported by default
    Ok(())
}

// A name reassigned between the two requests: possibly different objects, never definite.
async fn reassigned(pods: Api<Pod>, a: String, b: String, dp: DeleteParams) -> kube::Result<()> {
    let mut name = a;
    let first = pods.delete(&name, &dp);
    name = b;
    let second = pods.get(&name);
    tokio::join!(first, second); // `a` and `b` are unrelated: not reported by default
    Ok(())
}

// Namespaces: different literal namespaces never collide; `Api::all` may be any of them.
async fn namespaces(client: kube::Client, dp: DeleteParams) -> kube::Result<()> {
    let staging: Api<Pod> = Api::namespaced(client.clone(), "staging");
    let prod: Api<Pod> = Api::namespaced(client.clone(), "prod");
    let everywhere: Api<Pod> = Api::all(client.clone());
    let default: Api<Pod> = Api::default_namespaced(client);
    tokio::join!(staging.delete("web", &dp), prod.get("web"));
    tokio::join!(everywhere.delete("web", &dp), prod.get("web")); //~ concurrent-same-object
    tokio::join!(default.delete("web", &dp), prod.get("web")); //~ concurrent-same-object
    Ok(())
}

// kube 5: `constrain` scopes a handle to another namespace.
async fn constrained(client: kube::Client, dp: DeleteParams) -> kube::Result<()> {
    let pods: Api<Pod> = Api::namespaced(client, "staging");
    let prod = pods.clone().constrain("prod");
    tokio::join!(pods.delete("web", &dp), prod.get("web"));
    let staging_again = prod.clone().constrain("staging");
    tokio::join!(pods.delete("web", &dp), staging_again.get("web")); //~ concurrent-same-object
    Ok(())
}

// `create` takes the name from the object: a struct literal, or an assignment before the call.
async fn created(pods: Api<Pod>, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    let mut pod = Pod::default();
    pod.metadata.name = Some("web".to_string());
    tokio::join!(pods.create(&pp, &pod), pods.delete("web", &dp)); //~ concurrent-same-object
    tokio::join!(pods.create(&pp, &pod), pods.delete("db", &dp));
    let cm = ConfigMap {
        metadata: ObjectMeta {
            name: Some(BLOG.to_string()),
            ..Default::default()
        },
        ..Default::default()
    };
    let cms: Api<ConfigMap> = Api::default_namespaced(kube::Client::try_default().await?);
    tokio::join!(cms.create(&pp, &cm), cms.get(SHOP));
    Ok(())
}

// Handles returned by methods and reached through nested fields.
struct Ctx {
    inner: Inner,
}
struct Inner {
    secrets_api: Api<k8s_openapi::api::core::v1::Secret>,
}
impl Ctx {
    fn pods(&self) -> Api<Pod> {
        unimplemented!()
    }
    async fn run(&self, name: &str, dp: DeleteParams) -> kube::Result<()> {
        tokio::join!(self.pods().delete(name, &dp), self.pods().get(name)); //~ concurrent-same-object
        tokio::join!(self.inner.secrets_api.delete(name, &dp), (&self.inner.secrets_api).get(name)); //~ concurrent-same-object
        tokio::join!(self.inner.secrets_api.delete(name, &dp), self.pods().get(name));
        Ok(())
    }
}

// A generic helper builds its own handle: the kind comes from the caller's turbofish.
async fn delete_everywhere<K>(client: kube::Client, name: &str) -> kube::Result<()> {
    let api = Api::<K>::all(client);
    api.delete(name, &DeleteParams::default()).await?;
    Ok(())
}

async fn generic_callers(client: kube::Client, pods: Api<Pod>) -> kube::Result<()> {
    tokio::join!(delete_everywhere::<Pod>(client.clone(), "web"), pods.get("web")); //~ concurrent-same-object
    tokio::join!(delete_everywhere::<ConfigMap>(client.clone(), "web"), pods.get("web"));
    Ok(())
}
