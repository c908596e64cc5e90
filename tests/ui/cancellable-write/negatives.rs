// Not cancellable writes: writes in `select!` handlers, a `select!` with a single future, reads,
// whole functions raced against a shutdown signal with nothing written after.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use tokio::sync::oneshot;

async fn handlers(leases: Api<Lease>, pp: PatchParams, p: Patch<()>, stop: oneshot::Receiver<()>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
    tokio::select! {
        _ = stop => {}
        _ = tick.tick() => {
            let _ = leases.patch("leader", &pp, &p).await;
        }
    }
    // Reduced from kube-coordinate: the renew is in the handler of the timer's arm.
    let delay = tokio::time::sleep(std::time::Duration::from_secs(1));
    tokio::select! {
        Ok(lease) = leases.get("leader") => { let _ = lease; }
        _ = delay => {
            let _ = leases.patch("leader", &pp, &p).await;
        }
    }
}

async fn single_future(leases: Api<Lease>, pp: PatchParams, p: Patch<()>) {
    tokio::select! {
        r = leases.patch("leader", &pp, &p) => { let _ = r; }
        else => {}
    }
}

async fn reads(leases: Api<Lease>, stop: oneshot::Receiver<()>) {
    tokio::select! {
        _ = stop => {}
        _ = leases.get("leader") => {}
    }
}

// A controller loop raced against shutdown: nothing is written after it stops.
async fn run_controller(leases: Api<Lease>) {
    loop {
        let _ = leases.patch("leader", &PatchParams::default(), &Patch::Merge(())).await;
        tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    }
}

async fn main_loop(leases: Api<Lease>, stop: oneshot::Receiver<()>) {
    tokio::select! {
        _ = run_controller(leases.clone()) => {}
        _ = stop => {}
    }
}

// Reduced from kftray: a cancelled cleanup returns an error at once, so the create after it never
// follows a cancelled delete.
async fn cleanup(leases: Api<Lease>) -> Result<(), String> {
    leases.delete("old", &Default::default()).await.map_err(|e| e.to_string())?;
    Ok(())
}

async fn start(leases: Api<Lease>, stop: oneshot::Receiver<()>) -> Result<(), String> {
    tokio::select! {
        _ = stop => Err("cancelled".to_string()),
        r = cleanup(leases.clone()) => r,
    }
    .map_err(|e| format!("cleanup: {e}"))?;
    leases.create(&Default::default(), &Lease::default()).await.map_err(|e| e.to_string())?;
    Ok(())
}

// Reduced from kubelet: the select is in an `async` block polled later; the request written after
// it is made first.
async fn services(leases: Api<Lease>, stop: oneshot::Receiver<()>) {
    let background = Box::pin(async {
        tokio::select! {
            _ = run_controller(leases.clone()) => {}
            _ = stop => {}
        }
    });
    // Not cancelled; but `background` is lazy: its controller starts only after this patch.
    let _ = leases.patch("leader", &PatchParams::default(), &Patch::Merge(())).await; //~ await-order-inverted
    background.await;
}

// Reduced from kubert: the select waits for the claim to expire; the renew comes after it.
async fn claim_loop(leases: Api<Lease>, closed: oneshot::Receiver<()>) {
    tokio::select! {
        biased;
        _ = closed => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
    }
    let _ = leases.patch("leader", &PatchParams::apply("kubert"), &Patch::Merge(())).await;
}
