// A method called on what another call returned runs the crate's method only when the linker
// can type the receiver: a crate function returning `Bridge` does; a library call does not,
// so a library type's method of the same name (`http::Request::method`, a runtime's
// `block_on`) is not taken for the crate's by its name. (A false finding of the one-unit
// benchmark: kube-client's tests calling `req.method()` were reported as calling tokio's
// test-only `RtAndLocalSet::method`.)
pub struct Bridge {
    rt: tokio::runtime::Runtime,
}

impl Bridge {
    pub fn method(&self) {
        self.rt.block_on(async {}); //~ block-on-in-async
    }
}

fn bridge() -> Bridge {
    Bridge {
        rt: tokio::runtime::Runtime::new().unwrap(),
    }
}

// Typed through the crate function that returned it: `Bridge::method`, which blocks.
async fn typed_receiver() {
    let b = bridge();
    b.method();
}

// Returned by a library call: an `http::Request`, whose `method()` only reads.
async fn library_receiver() {
    let req = http::Request::builder().body(()).unwrap();
    let _ = req.method();
}
