// Values that flow through returns and `join!` results (issue example): `start` creates a Pod
// named by its argument and returns a `Worker` for it; two workers started with different names
// are stopped at once: nothing relates their Pods, so nothing is reported by default. One worker
// restarted twice at once patches one Pod twice: `web` is a `Worker` (what `start` returns, through
// the `try_join!` tuple), so `restart` is `Worker::restart`, and `self.pod` is `web.pod` both times.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};

struct Fleet {
    pods: Api<Pod>,
}

struct Worker {
    pods: Api<Pod>,
    pod: String,
}

fn pod_named(name: &str) -> Pod {
    let _ = name;
    Pod::default()
}

impl Fleet {
    async fn start(&self, name: &str) -> kube::Result<Worker> {
        self.pods.create(&PostParams::default(), &pod_named(name)).await?;
        Ok(Worker { pods: self.pods.clone(), pod: name.to_string() })
    }
}

impl Worker {
    async fn stop(self) -> kube::Result<()> {
        self.pods.delete(&self.pod, &DeleteParams::default()).await?;
        Ok(())
    }

    async fn restart(&self) -> kube::Result<()> {
        let patch = Patch::Merge(());
        self.pods.patch(&self.pod, &PatchParams::default(), &patch).await?;
        Ok(())
    }
}

async fn two_workers(fleet: Fleet) -> kube::Result<()> {
    let (web, db) = tokio::try_join!(fleet.start("web-1"), fleet.start("db-1"))?;
    tokio::try_join!(web.stop(), db.stop())?;
    Ok(())
}

async fn one_worker_twice(fleet: Fleet) -> kube::Result<()> {
    let (web, _db) = tokio::try_join!(fleet.start("web-1"), fleet.start("db-1"))?;
    tokio::try_join!(web.restart(), web.restart())?; //~ concurrent-same-object
    Ok(())
}
