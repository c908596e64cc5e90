// The forms of the `join_all`/`try_join_all` fix: a `for` loop awaiting each future, a `vec!` of
// awaits for futures written out, and the sites left alone.
use futures::future::{join_all, try_join_all, BoxFuture};
use futures::FutureExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, Patch, PatchParams};

// The results are kept: a block collecting them in order takes the site's place.
async fn values(deploys: Api<Deployment>, names: Vec<String>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let patched = join_all(names.iter().map(|_| deploys.patch("web", &pp, &p))).await; //~ concurrent-same-object
    println!("{}", patched.len());
    let scaled = try_join_all(names.iter().map(|_| deploys.patch_scale("web", &pp, &p))).await?; //~ concurrent-same-object
    println!("{}", scaled.len());
    // The `Result` is kept: an `async` block returns the first error, or every value.
    let all = try_join_all(names.iter().map(|_| deploys.restart("web"))).await; //~ concurrent-same-object
    println!("{}", all.is_ok());
    Ok(())
}

// A closure whose body is a block: its statements move into the loop, before the await.
async fn block_body(deploys: Api<Deployment>, names: Vec<String>, pp: PatchParams) {
    join_all(names.iter().map(|n| { //~ concurrent-same-object
        let patch = Patch::Merge(serde_json::json!({ "metadata": { "labels": { "last": n } } }));
        deploys.patch("web", &pp, &patch)
    }))
    .await;
}

// Names the loop introduces never collide with the code's own; an iterator starting with a struct
// literal is put in parentheses in the head of the `for`.
async fn names(deploys: Api<Deployment>, results: Vec<String>) -> kube::Result<()> {
    let restarted = try_join_all(results.iter().map(|_| deploys.restart("web"))).await?; //~ concurrent-same-object
    println!("{}", restarted.len());
    join_all(Batch { names: results }.names.iter().map(|_| deploys.restart("web"))).await; //~ concurrent-same-object
    Ok(())
}

struct Batch {
    names: Vec<String>,
}

// Futures written out: a `vec!` of awaits, or an `async` block when the `Result` is kept.
async fn listed(deploys: Api<Deployment>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    let both = join_all(vec![deploys.patch("web", &pp, &p), deploys.patch("web", &pp, &p)]).await; //~ concurrent-same-object
    println!("{}", both.len());
    let kept = try_join_all([deploys.get("web"), deploys.restart("web")]).await; //~ concurrent-same-object
    println!("{}", kept.is_ok());
    Ok(())
}

// Shown, not applied: a future kept for later (it would become an `async` block), and comments
// that the loop would drop. Left alone: a value used on the spot.
async fn shown(deploys: Api<Deployment>, names: Vec<String>) {
    let later: BoxFuture<'_, _> = join_all(vec![deploys.restart("web"), deploys.restart("web")]).boxed(); //~ concurrent-same-object
    later.await;
    join_all(names.iter().map(|_| /* again */ deploys.restart("web"))).await; //~ concurrent-same-object
    println!("{}", join_all(names.iter().map(|_| deploys.restart("web"))).await.len()); //~ concurrent-same-object
}
