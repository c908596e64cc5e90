//! The layer: holds the requests that arrive within a window, then sends them to the service
//! below one at a time, in the chosen order, each after the previous one was answered.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use kube::client::Body;
use tokio::sync::oneshot;
use tower::{BoxError, Layer, Service, ServiceExt};

use crate::record::{Call, Caller, Recording, Seen};

/// The order in which a window's requests are sent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// As they arrived (the order the client issued them): a control run.
    Arrival,
    /// Last arrived first: `join!(a, b)` reaches the server as `b, a`.
    Reverse,
    /// A shuffle drawn from this seed: the same seed gives the same order.
    Random(u64),
    /// Reads (get, list, watch) first, then writes, each in arrival order: a read made
    /// "at the same time" as a write sees the state before it.
    WritesLast,
}

type Matcher = Arc<dyn Fn(&Call) -> bool + Send + Sync>;

/// A tower layer for a kube `Client`'s service: see the crate's documentation.
#[derive(Clone)]
pub struct Reorder {
    order: Order,
    window: Duration,
    cancel_after_send: Option<Matcher>,
    recording: Recording,
}

impl Reorder {
    /// Requests arriving within 20 ms of the first one held are released together, in `order`.
    pub fn new(order: Order) -> Reorder {
        Reorder {
            order,
            window: Duration::from_millis(20),
            cancel_after_send: None,
            recording: Recording::new(),
        }
    }

    /// How long the first held request waits for others. Requests polled together (one `join!`)
    /// arrive within microseconds; under `#[tokio::test(start_paused = true)]` the window
    /// closes only when every task waits, which is deterministic.
    pub fn window(mut self, window: Duration) -> Reorder {
        self.window = window;
        self
    }

    /// The cancellable-write case: a request `matches` accepts is sent to the server as usual,
    /// but its answer is withheld, so the caller's future stays pending until the code drops it
    /// (a `select!` arm losing, a `timeout` elapsing, an abort), after the server acted on it.
    /// The recording says whether the caller dropped it ([`Caller::Dropped`]).
    pub fn cancel_after_send(
        mut self,
        matches: impl Fn(&Call) -> bool + Send + Sync + 'static,
    ) -> Reorder {
        self.cancel_after_send = Some(Arc::new(matches));
        self
    }

    /// What the services this layer wraps were sent, in order, with their answers.
    pub fn recording(&self) -> Recording {
        self.recording.clone()
    }

    /// A `Client` whose requests go through this layer to `service` (an [`crate::ApiServer`],
    /// or any service that answers kube's requests). Clients made from one `Reorder` share its
    /// recording, not their windows: give the code under test one client.
    pub fn client<S>(&self, service: S, default_namespace: &str) -> kube::Client
    where
        S: Service<Request<Body>, Response = Response<Body>> + Send + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError>,
    {
        kube::Client::new(self.layer(service), default_namespace)
    }

    /// A `Client` whose requests go through this layer, then through `client` (its
    /// configuration, authentication and connection): to reorder requests to a real API server.
    pub fn wrap(&self, client: kube::Client) -> kube::Client {
        let namespace = client.default_namespace().to_string();
        let send = tower::service_fn(move |request: Request<Body>| {
            let client = client.clone();
            async move { client.send(request).await }
        });
        self.client(send, &namespace)
    }
}

impl<S> Layer<S> for Reorder {
    type Service = ReorderService<S>;

    fn layer(&self, inner: S) -> ReorderService<S> {
        let seed = match self.order {
            Order::Random(seed) => seed,
            _ => 0,
        };
        ReorderService {
            shared: Arc::new(Shared {
                config: self.clone(),
                held: Mutex::new(Held {
                    requests: Vec::new(),
                    open: false,
                    random: seed,
                }),
                inner: tokio::sync::Mutex::new(inner),
            }),
        }
    }
}

/// The service [`Reorder`] makes.
pub struct ReorderService<S> {
    shared: Arc<Shared<S>>,
}

impl<S> Clone for ReorderService<S> {
    fn clone(&self) -> Self {
        ReorderService {
            shared: self.shared.clone(),
        }
    }
}

struct Shared<S> {
    config: Reorder,
    held: Mutex<Held>,
    // Locked while a window's requests are sent: windows are released one after another.
    inner: tokio::sync::Mutex<S>,
}

struct Held {
    requests: Vec<Waiting>,
    /// A window is open (its release is scheduled).
    open: bool,
    /// The state of the seeded shuffle, carried from one window to the next.
    random: u64,
}

type Answer<B> = Result<Response<B>, BoxError>;

struct Waiting {
    request: Request<Body>,
    is_write: bool,
    answer: oneshot::Sender<Answer<Body>>,
}

impl<S> Service<Request<Body>> for ReorderService<S>
where
    S: Service<Request<Body>, Response = Response<Body>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
{
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Answer<Body>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        // Held here, synchronously, so that arrival order is the order of the calls.
        let (answer, answered) = oneshot::channel();
        let (parts, body) = request.into_parts();
        let is_write = Call::new(&parts, &[]).is_write();
        let request = Request::from_parts(parts, body);
        let open_window = {
            let mut held = self.shared.held.lock().unwrap_or_else(|p| p.into_inner());
            held.requests.push(Waiting {
                request,
                is_write,
                answer,
            });
            !std::mem::replace(&mut held.open, true)
        };
        if open_window {
            tokio::spawn(release(self.shared.clone()));
        }
        Box::pin(async move {
            answered
                .await
                .map_err(|_| BoxError::from("kube-order-test: the request was lost"))?
        })
    }
}

/// Closes the window after its duration, then sends its requests in order, one at a time.
async fn release<S>(shared: Arc<Shared<S>>)
where
    S: Service<Request<Body>, Response = Response<Body>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
{
    tokio::time::sleep(shared.config.window).await;
    let batch = {
        let mut held = shared.held.lock().unwrap_or_else(|p| p.into_inner());
        held.open = false;
        let mut batch = std::mem::take(&mut held.requests);
        arrange(&mut batch, shared.config.order, &mut held.random);
        batch
    };
    let mut inner = shared.inner.lock().await;
    for waiting in batch {
        send(&mut *inner, &shared.config, waiting).await;
    }
}

/// Sends one request and waits for its answer, so that the next one reaches the server after it.
async fn send<S>(inner: &mut S, config: &Reorder, waiting: Waiting)
where
    S: Service<Request<Body>, Response = Response<Body>>,
    S::Error: Into<BoxError>,
{
    let (parts, body) = waiting.request.into_parts();
    let bytes = match body.collect_bytes().await {
        Ok(bytes) => bytes,
        Err(error) => {
            let _ = waiting.answer.send(Err(error.into()));
            return;
        }
    };
    let call = Call::new(&parts, &bytes);
    let request = Request::from_parts(parts, Body::from(bytes));
    // The service's error is not `Send`: converted before the next await.
    let ready: Result<&mut S, BoxError> = inner.ready().await.map_err(Into::into);
    let answer: Answer<Body> = match ready {
        Ok(ready) => ready.call(request).await.map_err(Into::into),
        Err(error) => Err(error),
    };
    let status = answer.as_ref().ok().map(|response| response.status());
    let withhold = config
        .cancel_after_send
        .as_ref()
        .is_some_and(|matches| matches(&call));
    let caller = if withhold {
        Caller::Waiting
    } else {
        Caller::Answered
    };
    let index = config.recording.push(Seen {
        call,
        status,
        caller,
    });
    if withhold {
        // The answer is never given: the caller waits until its future is dropped.
        let recording = config.recording.clone();
        let mut sender = waiting.answer;
        tokio::spawn(async move {
            sender.closed().await;
            drop(answer);
            recording.set_caller(index, Caller::Dropped);
        });
    } else if waiting.answer.send(answer).is_err() {
        config.recording.set_caller(index, Caller::Dropped);
    }
}

fn arrange(batch: &mut [Waiting], order: Order, random: &mut u64) {
    match order {
        Order::Arrival => {}
        Order::Reverse => batch.reverse(),
        // A stable sort: reads, then writes, each in arrival order.
        Order::WritesLast => batch.sort_by_key(|waiting| waiting.is_write),
        Order::Random(_) => {
            // Fisher-Yates with splitmix64: no dependency for a few draws.
            for i in (1..batch.len()).rev() {
                let j = (splitmix64(random) % (i as u64 + 1)) as usize;
                batch.swap(i, j);
            }
        }
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
