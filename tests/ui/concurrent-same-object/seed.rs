// The example from kube-rs's issue on async reordering: a create joined with a get of the same Pod.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, PostParams};
use serde_json::json;

async fn seed(client: kube::Client) -> anyhow::Result<()> {
    let pods: Api<Pod> = Api::default_namespaced(client);
    let pp = PostParams::default();
    let pod: Pod = serde_json::from_value(json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": { "name": "blog" },
        "spec": { "containers": [{ "name": "blog", "image": "clux/blog:0.1.0" }] }
    }))?;
    let (created, fetched) = tokio::join!(pods.create(&pp, &pod), pods.get("blog")); //~ concurrent-same-object
    println!("{created:?} {fetched:?}");
    Ok(())
}

// The object built as a struct literal, and the get through `name_any()` of the same binding.
async fn struct_literal(pods: Api<Pod>, pp: PostParams) -> anyhow::Result<()> {
    let pod = Pod {
        metadata: ObjectMeta {
            name: Some("blog".to_string()),
            ..ObjectMeta::default()
        },
        ..Pod::default()
    };
    tokio::try_join!(pods.create(&pp, &pod), pods.get(&pod.name_any()))?; //~ concurrent-same-object
    Ok(())
}
