// A sync function of the crate that blocks on a future, called from async code.
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::runtime::Handle;

fn get_sync(pods: &Api<Pod>, name: &str) -> kube::Result<Pod> {
    Handle::current().block_on(pods.get(name)) //~ block-on-in-async
}

// Through another sync function.
fn name_of(pods: &Api<Pod>) -> String {
    get_sync(pods, "web").map(|p| p.metadata.name.unwrap_or_default()).unwrap_or_default()
}

// Only in one branch.
fn maybe_wait(pods: &Api<Pod>, wait: bool) {
    if wait {
        let _ = futures::executor::block_on(pods.get("web")); //~ block-on-in-async
    }
}

struct Client {
    pods: Api<Pod>,
}

impl Client {
    fn refresh(&self) {
        let _ = futures::executor::block_on(self.pods.get("web")); //~ block-on-in-async
    }
}

async fn reconcile(pods: Api<Pod>, client: Client) {
    let _ = get_sync(&pods, "web");
    let _ = name_of(&pods);
    // Blocks only if `wait` is true, and `true` selects that branch: `possible` (see
    // selected_branches.rs).
    maybe_wait(&pods, true);
    client.refresh();
    tokio::spawn(async move {
        let _ = name_of(&pods);
    });
}

// Reduced from kubevault's tests: the command's `run` blocks on the work it does.
struct Command {
    namespace: String,
}

impl Command {
    fn run(&self) -> kube::Result<()> {
        futures::executor::block_on(async { Ok(()) }) //~ block-on-in-async
    }
}

#[tokio::test]
async fn run_in_test() {
    let command = Command { namespace: "default".to_string() };
    let _ = command.run();
}

// A value known only by a trait the crate does not declare: not taken for `Command::run`.
async fn unknown_receiver(app: impl Sized) {
    let _ = app.run();
}
