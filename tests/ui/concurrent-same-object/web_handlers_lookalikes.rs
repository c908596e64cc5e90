// Look-alikes of web handlers racing on one object: none is reported.
use axum::extract::{Json, State};
use axum::routing::post;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::Client;

#[derive(serde::Deserialize)]
struct PullRequest {
    number: u64,
}

// One apply per request, of an object named after the request: the last one wins, as if the
// requests had come one after the other.
async fn single_apply(State(client): State<Client>, Json(pr): Json<PullRequest>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let cm = serde_json::json!({ "apiVersion": "v1", "kind": "ConfigMap" });
    cms.patch(&format!("pr-{}", pr.number), &PatchParams::apply("hooks"), &Patch::Apply(cm)).await.unwrap();
    "ok"
}

// A name made anew by each invocation: two requests never name one object.
async fn per_invocation(State(client): State<Client>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let name = format!("run-{}", uuid::Uuid::new_v4());
    let cm = cms.get(&name).await.unwrap();
    let patch = serde_json::json!({ "data": { "n": cm.data.unwrap_or_default().len().to_string() } });
    cms.patch(&name, &PatchParams::default(), &Patch::Merge(patch)).await.unwrap();
    cms.delete(&name, &DeleteParams::default()).await.unwrap();
    "ok"
}

// A delete and an apply of names built differently: different objects.
async fn delete_other(State(client): State<Client>, Json(pr): Json<PullRequest>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    cms.delete(&format!("preview-{}", pr.number), &DeleteParams::default()).await.unwrap();
    "ok"
}

// Two creates of one name: the second fails with AlreadyExists.
async fn create_once(State(client): State<Client>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let mut cm = ConfigMap::default();
    cm.metadata.name = Some("singleton".into());
    cms.create(&PostParams::default(), &cm).await.unwrap();
    "ok"
}

// A read-modify-write of one object that is registered with no server.
async fn not_registered(State(client): State<Client>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let cm = cms.get("counter").await.unwrap();
    let patch = serde_json::json!({ "data": { "n": cm.data.unwrap_or_default().len().to_string() } });
    cms.patch("counter", &PatchParams::default(), &Patch::Merge(patch)).await.unwrap();
    "ok"
}

async fn axum_server(client: Client) {
    let app = axum::Router::new()
        .route("/apply", post(single_apply))
        .route("/run", post(per_invocation))
        .route("/delete", post(delete_other))
        .route("/create", post(create_once))
        .with_state(client);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

// A `Router` of another crate with the same method names: not a web server's routes.
mod jobs {
    pub struct Router;
    impl Router {
        pub fn new() -> Self {
            Router
        }
        pub fn route<H>(self, _path: &str, _handler: H) -> Self {
            self
        }
    }
    pub fn post<H>(handler: H) -> H {
        handler
    }
}

fn job_table() -> jobs::Router {
    use jobs::{post, Router};
    Router::new().route("/counter", post(not_registered))
}
