// A sync function of the crate that blocks on a future, called from async code.
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::runtime::Handle;

fn get_sync(pods: &Api<Pod>, name: &str) -> kube::Result<Pod> {
    Handle::current().block_on(pods.get(name))
}

// Through another sync function.
fn name_of(pods: &Api<Pod>) -> String {
    get_sync(pods, "web").map(|p| p.metadata.name.unwrap_or_default()).unwrap_or_default()
}

// Only in one branch.
fn maybe_wait(pods: &Api<Pod>, wait: bool) {
    if wait {
        let _ = futures::executor::block_on(pods.get("web"));
    }
}

struct Client {
    pods: Api<Pod>,
}

impl Client {
    fn refresh(&self) {
        let _ = futures::executor::block_on(self.pods.get("web"));
    }
}

async fn reconcile(pods: Api<Pod>, client: Client) {
    let _ = get_sync(&pods, "web"); //~ block-on-in-async
    let _ = name_of(&pods); //~ block-on-in-async
    maybe_wait(&pods, true); //~ block-on-in-async
    client.refresh(); //~ block-on-in-async
    tokio::spawn(async move {
        let _ = name_of(&pods); //~ block-on-in-async
    });
}
