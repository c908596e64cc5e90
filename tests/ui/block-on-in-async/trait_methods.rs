// Reduced from tokio-util: `SyncIoBridge` implements `std::io::Read` by blocking on an async
// reader. A `read_to_end` call on a receiver whose type is not known is not taken for the
// bridge's: every reader, in the crate or not, has a `read_to_end`.
use tokio::io::AsyncReadExt;
use tokio::runtime::Handle;

pub struct SyncIoBridge<T> {
    src: T,
    rt: Handle,
}

impl<T: tokio::io::AsyncRead + Unpin> std::io::Read for SyncIoBridge<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let src = &mut self.src;
        self.rt.block_on(AsyncReadExt::read(src, buf))
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        let src = &mut self.src;
        self.rt.block_on(AsyncReadExt::read_to_end(src, buf)) //~ block-on-in-async
    }
}

// `AsyncReadExt::read_to_end`: a future, spawned.
async fn drop_sender() {
    let (mut rx, _tx) = tokio::io::simplex(32);
    let mut buf = Vec::new();
    let task = tokio::spawn(rx.read_to_end(&mut buf));
    drop(task);
}

// The receiver's type is known: the bridge's own method blocks.
async fn bridged(bridge: &mut SyncIoBridge<tokio::fs::File>) {
    let mut buf = Vec::new();
    let _ = bridge.read_to_end(&mut buf);
}

// A trait the crate declares, as a bound: its only implementation runs (`definite`).
trait Refresh {
    fn refresh(&self);
}

struct Cache;

impl Refresh for Cache {
    fn refresh(&self) {
        futures::executor::block_on(async {}); //~ block-on-in-async
    }
}

async fn uses_refresh(cache: impl Refresh) {
    cache.refresh();
}
