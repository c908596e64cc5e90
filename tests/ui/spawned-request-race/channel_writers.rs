// A task draining a channel is the single writer of what its messages ask for: it is exempt only
// while it is the only writer of the object.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams};
use tokio::sync::mpsc;

// The caller patches the status the status writer also patches: two writers of one object.
async fn second_writer(pods: Api<Pod>, name: String) -> kube::Result<()> {
    let (tx, mut rx) = mpsc::channel::<&'static str>(8);
    let writer_pods = pods.clone();
    let writer_name = name.clone();
    tokio::spawn(async move { //~ spawned-request-race
        while let Some(phase) = rx.recv().await {
            let _ = writer_pods
                .patch_status(&writer_name, &PatchParams::default(), &Patch::Merge(phase))
                .await;
        }
    });
    tx.send("Running").await.ok();
    pods.patch_status(&name, &PatchParams::default(), &Patch::Merge("Ready")).await?;
    Ok(())
}

// Look-alike: every status write goes through the channel; the caller only reads.
async fn single_writer(pods: Api<Pod>, name: String) -> kube::Result<()> {
    let (tx, mut rx) = mpsc::channel::<&'static str>(8);
    let writer_pods = pods.clone();
    let writer_name = name.clone();
    tokio::spawn(async move {
        while let Some(phase) = rx.recv().await {
            let _ = writer_pods
                .patch_status(&writer_name, &PatchParams::default(), &Patch::Merge(phase))
                .await;
        }
    });
    tx.send("Running").await.ok();
    let _ = pods.get(&name).await?;
    tx.send("Ready").await.ok();
    Ok(())
}
