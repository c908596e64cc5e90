// A web server runs a handler once per HTTP request, concurrently with itself and with the other
// handlers of the server: two requests whose writes on one object conflict race.
use actix_web::{post, web, App, HttpServer};
use axum::extract::{Json, State};
use axum::routing::{get, post as axum_post};
use axum::Router;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::Client;

const COUNTER: &str = "request-counter";

#[derive(serde::Deserialize)]
struct PullRequest {
    number: u64,
}

// Every request reads one ConfigMap and writes it back: two at once lose an update.
async fn count(State(client): State<Client>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let cm = cms.get(COUNTER).await.unwrap();
    let n: u64 = cm.data.unwrap_or_default().get("n").and_then(|n| n.parse().ok()).unwrap_or(0);
    let patch = serde_json::json!({ "data": { "n": (n + 1).to_string() } });
    cms.patch(COUNTER, &PatchParams::default(), &Patch::Merge(patch)).await.unwrap(); //~ concurrent-same-object
    "ok"
}

// A `closed` and a `reopened` delivery of one pull request: the delete and the apply of the
// object named after it can be in flight at once.
async fn opened(State(client): State<Client>, Json(pr): Json<PullRequest>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let name = format!("pr-{}", pr.number);
    let cm = serde_json::json!({ "apiVersion": "v1", "kind": "ConfigMap" });
    cms.patch(&name, &PatchParams::apply("hooks"), &Patch::Apply(cm)).await.unwrap();
    "ok"
}

async fn closed(State(client): State<Client>, Json(pr): Json<PullRequest>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client, "hooks");
    let name = format!("pr-{}", pr.number);
    cms.delete(&name, &DeleteParams::default()).await.unwrap(); //~ concurrent-same-object
    "ok"
}

async fn axum_server(client: Client) {
    let app = Router::new()
        .route("/count", get(count))
        .route("/opened", axum_post(opened))
        .route("/closed", axum_post(closed))
        .with_state(client);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

#[derive(serde::Deserialize)]
struct Job {
    name: String,
}

// actix-web: `/apply` and `/delete` of one job, by routes and by an attribute handler.
async fn apply(client: web::Data<Client>, job: web::Json<Job>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client.get_ref().clone(), "jobs");
    let cm = serde_json::json!({ "apiVersion": "v1", "kind": "ConfigMap" });
    cms.patch(&job.name, &PatchParams::apply("jobs"), &Patch::Apply(cm)).await.unwrap();
    "ok"
}

async fn delete(client: web::Data<Client>, job: web::Json<Job>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client.get_ref().clone(), "jobs");
    cms.delete(&job.name, &DeleteParams::default()).await.unwrap(); //~ concurrent-same-object
    "ok"
}

#[post("/bump")]
async fn bump(client: web::Data<Client>) -> &'static str {
    let cms: Api<ConfigMap> = Api::namespaced(client.get_ref().clone(), "jobs");
    let cm = cms.get("bumps").await.unwrap();
    let n = cm.data.unwrap_or_default().len() + 1;
    let patch = serde_json::json!({ "data": { "n": n.to_string() } });
    cms.patch("bumps", &PatchParams::default(), &Patch::Merge(patch)).await.unwrap(); //~ concurrent-same-object
    "ok"
}

async fn actix_server(client: Client) -> std::io::Result<()> {
    let data = web::Data::new(client);
    HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .route("/apply", web::post().to(apply))
            .service(web::resource("/delete").route(web::post().to(delete)))
            .service(bump)
    })
    .bind("0.0.0.0:8081")?
    .run()
    .await
}
