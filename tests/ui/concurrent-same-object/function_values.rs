// Function values: a callback stored in a field (`Arc<dyn Fn>`) or a binding, built from a
// function of the crate or a closure, makes the requests of that function or closure when it is
// called, when the crate gives the field one value.
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams};

type Callback = Arc<dyn Fn(String) -> BoxFuture<'static, ()> + Send + Sync>;

fn mark(name: String) -> BoxFuture<'static, ()> {
    async move {
        let api: Api<ConfigMap> = Api::default_namespaced(client());
        let _ = api.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
    }
    .boxed()
}

fn client() -> kube::Client {
    todo!()
}

struct Watcher {
    // Built from a function of the crate.
    on_change: Callback,
    // Built from a closure.
    on_delete: Arc<dyn Fn(String) -> BoxFuture<'static, ()> + Send + Sync>,
    // Given by the caller: not known.
    on_error: Callback,
}

impl Watcher {
    fn new(api: Api<ConfigMap>, on_error: Callback) -> Self {
        Watcher {
            on_change: Arc::new(mark),
            on_delete: Arc::new(move |name| {
                let api = api.clone();
                Box::pin(async move {
                    let _ = api.delete(&name, &DeleteParams::default()).await;
                })
            }),
            on_error,
        }
    }

    // The function the field holds, called twice for one object.
    async fn changed_twice(&self, name: String) {
        tokio::join!((self.on_change)(name.clone()), (self.on_change)(name)); //~ concurrent-same-object
    }

    // The closure the field holds, called twice for one object.
    async fn deleted_twice(&self, name: String) {
        tokio::join!((self.on_delete)(name.clone()), (self.on_delete)(name)); //~ concurrent-same-object
    }

    // Look-alike: two objects (two literals).
    async fn changed_two(&self) {
        tokio::join!((self.on_change)("a".into()), (self.on_change)("b".into()));
    }

    // Look-alike: a callback the crate does not build makes no known requests.
    async fn errors_twice(&self, name: String) {
        tokio::join!((self.on_error)(name.clone()), (self.on_error)(name));
    }
}

// A callback bound with `let`, built from a function or a closure.
async fn bound(api: Api<ConfigMap>) {
    let by_path: Callback = Arc::new(mark);
    tokio::join!(by_path("a".into()), by_path("a".into())); //~ concurrent-same-object
    let by_closure: Callback = Arc::new(move |n| {
        let api = api.clone();
        async move {
            let _ = api.patch(&n, &PatchParams::default(), &Patch::Merge(())).await;
        }
        .boxed()
    });
    tokio::join!(by_closure("a".into()), by_closure("a".into())); //~ concurrent-same-object
    // Look-alike: two objects.
    tokio::join!(by_closure("a".into()), by_closure("b".into()));
}

struct Twice {
    on_sync: Callback,
}

// Look-alike: the crate gives `on_sync` two values; which one runs is not known.
fn twice(a: bool) -> Twice {
    if a {
        Twice { on_sync: Arc::new(mark) }
    } else {
        Twice { on_sync: Arc::new(|_| async {}.boxed()) }
    }
}

async fn sync_twice(t: Twice, name: String) {
    tokio::join!((t.on_sync)(name.clone()), (t.on_sync)(name));
}
