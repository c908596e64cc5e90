use std::sync::Arc;

use futures::future::BoxFuture;

pub struct Watcher {
    pub on_change: Arc<dyn Fn(String) -> BoxFuture<'static, ()> + Send + Sync>,
}

impl Watcher {
    pub fn new() -> Self {
        Watcher {
            on_change: Arc::new(crate::marks::mark),
        }
    }
}
