// Names flow through the fields of values that crate functions return: `start` creates a Pod
// named by its argument and returns `Worker { pod: name.to_string(), .. }`; `stop(self)` deletes
// `self.pod`. The Workers of two literals are two Pods; of one literal, one Pod.
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

struct Fleet { pods: Api<Pod> }
struct Worker { pod: String, pods: Api<Pod> }

fn pod_named(name: &str) -> Pod {
    let mut pod = Pod::default();
    pod.metadata.name = Some(name.to_string());
    pod
}

impl Fleet {
    async fn start(&self, name: &str) -> kube::Result<Worker> {
        self.pods.create(&PostParams::default(), &pod_named(name)).await?;
        Ok(Worker { pod: name.to_string(), pods: self.pods.clone() })
    }
}

impl Worker {
    async fn stop(self) -> kube::Result<()> {
        self.pods.delete(&self.pod, &DeleteParams::default()).await?;
        Ok(())
    }
}

// Look-alike: "web-1" and "db-1" are different Pods.
async fn two(fleet: Fleet) -> kube::Result<()> {
    let (web, db) = tokio::try_join!(fleet.start("web-1"), fleet.start("db-1"))?;
    tokio::try_join!(web.stop(), db.stop())?;
    Ok(())
}

// The same Pod, started twice and stopped at once.
async fn twice(fleet: Fleet) -> kube::Result<()> {
    let web = fleet.start("web-1").await?;
    let again = fleet.start("web-1").await?;
    tokio::try_join!(web.stop(), again.stop())?; //~ concurrent-same-object
    Ok(())
}
