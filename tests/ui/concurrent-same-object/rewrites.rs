// The forms of the fix: each site below is rewritten differently.
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};

// Only the conflicting requests are serialised; the get of "other" stays concurrent.
async fn partial(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    let (other, deleted, fetched) = tokio::try_join!(pods.get("other"), pods.delete("web", &dp), pods.get("web"))?; //~ concurrent-same-object
    // Two groups: each runs in order, the groups concurrently.
    tokio::join!( //~ concurrent-same-object
        pods.delete("a", &dp),
        pods.delete("b", &dp),
        pods.get("a"),
        pods.get("b"),
    );
    Ok(())
}

// Comments inside the join are kept with the statements they belong to.
async fn comments(pods: Api<Pod>, pp: PatchParams, p: Patch<()>) -> kube::Result<()> {
    tokio::try_join!( //~ concurrent-same-object
        // status first
        pods.patch_status("web", &pp, &p), // the new condition
        // then the read
        pods.get_status("web"),
    )?;
    Ok(())
}

// Where the join is not a statement of its own, a tuple of awaits takes its place.
async fn expressions(pods: Api<Pod>, dp: DeleteParams) -> kube::Result<()> {
    println!("{:?}", tokio::try_join!(pods.delete("web", &dp), pods.get("web"))?); //~ concurrent-same-object
    let (a, b): (kube::Result<_>, kube::Result<_>) = tokio::join!(pods.delete("web", &dp), pods.get("web")); //~ concurrent-same-object
    // The `Result` is kept: an `async` block awaited in place returns the same one.
    let both = tokio::try_join!(pods.delete("web", &dp), pods.get("web")); //~ concurrent-same-object
    if let Ok((_, pod)) = both {
        println!("{pod:?}");
    }
    if a.is_ok() { tokio::join!(pods.delete("web", &dp), pods.get("web")); } //~ concurrent-same-object
    Ok(())
}

// A future awaited through `&mut` needs parentheses; a join function's future kept for later is
// only shown (an `async` block has another type).
async fn futures_kept(pods: Api<Pod>, pp: PostParams, pod: Pod, dp: DeleteParams) -> kube::Result<()> {
    let mut create = Box::pin(pods.create(&pp, &pod));
    let read = pods.get(&pod.name_any());
    tokio::join!(&mut create, read); //~ concurrent-same-object
    let later = futures::future::join(pods.delete("blog", &dp), pods.get("blog")); //~ concurrent-same-object
    later.await;
    Ok(())
}

// The names a serialised `try_join!` group introduces avoid the operands' own identifiers.
async fn names(pods: Api<Pod>, cms: Api<ConfigMap>, dp: DeleteParams, r0: &str) -> kube::Result<()> {
    tokio::try_join!(cms.get("settings"), pods.delete(r0, &dp), pods.get(r0))?; //~ concurrent-same-object
    Ok(())
}

// An operand using `?` is not moved into an `async` block (the `?` would leave the block, not the
// function): the whole site is serialised.
async fn question_mark(pods: Api<Pod>, cms: Api<ConfigMap>, dp: DeleteParams, names: Vec<String>) -> kube::Result<()> {
    tokio::try_join!(cms.get("settings"), pods.delete(&format!("web-{}", first(&names)?), &dp), pods.get("web-1"))?; //~ concurrent-same-object
    Ok(())
}
