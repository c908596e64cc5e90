// A method called on what `Result` adapters give back (`.context(..)?`, `.map_err(..)?`,
// `.with_context(..)?`, then `?`, `.await` or parentheses) has the type the adapted call gave:
// a web server's `run` after `bind(..).context(..)?` is the library's, not the crate's
// `Sweeper::run` taken by its name (silent even with `--min-confidence unknown`,
// `tests/cli.rs`). The look-alikes run the crate's own `Sweeper`, made by its constructors
// through the same adapters: typed by them, they are the crate's `run`.
use anyhow::Context;
use k8s_openapi::api::core::v1::Secret;
use kube::api::{Api, Patch, PatchParams};

struct Sweeper {
    secrets: Api<Secret>,
}

impl Sweeper {
    fn new(secrets: Api<Secret>) -> anyhow::Result<Sweeper> {
        Ok(Sweeper { secrets })
    }

    async fn start(secrets: Api<Secret>) -> Result<Sweeper, kube::Error> {
        Ok(Sweeper { secrets })
    }

    async fn run(&self) -> anyhow::Result<()> {
        let pp = PatchParams::default();
        self.secrets.patch("sweep-state", &pp, &Patch::Merge(())).await?;
        Ok(())
    }
}

async fn metrics_with_context(sweeper: Sweeper) -> anyhow::Result<()> {
    let metrics = actix_web::HttpServer::new(|| ()).bind(("0.0.0.0", 9090)).context("metrics port")?.run();
    let _ = tokio::join!(metrics, sweeper.run());
    Ok(())
}

async fn metrics_map_err(sweeper: Sweeper) -> anyhow::Result<()> {
    tokio::select! {
        _ = actix_web::HttpServer::new(|| ()).bind(("0.0.0.0", 9090)).map_err(anyhow::Error::from)?.run() => {}
        _ = sweeper.run() => {}
    }
    Ok(())
}

async fn metrics_in_parens(sweeper: Sweeper) -> anyhow::Result<()> {
    let metrics = (actix_web::HttpServer::new(|| ()).bind(("0.0.0.0", 9090)).with_context(|| "metrics")?).run();
    let _ = tokio::join!(metrics, sweeper.run());
    Ok(())
}

async fn listener_awaited(sweeper: Sweeper) -> anyhow::Result<()> {
    let metrics = hyper_server::Listener::bind(("0.0.0.0", 9090)).await.context("listen")?.run();
    let _ = tokio::join!(metrics, sweeper.run());
    Ok(())
}

async fn metrics_unwrapped(sweeper: Sweeper) {
    let a = actix_web::HttpServer::new(|| ()).bind(("0.0.0.0", 9090)).unwrap().run();
    let b = actix_web::HttpServer::new(|| ()).bind(("0.0.0.0", 9091)).expect("port").run();
    let _ = tokio::join!(a, b, sweeper.run());
}

// The crate's own value, through the same adapters.
async fn two_sweepers(secrets: Api<Secret>, sweeper: Sweeper) -> anyhow::Result<()> {
    let _ = tokio::join!(Sweeper::new(secrets.clone()).context("sweeper")?.run(), sweeper.run()); //~ concurrent-same-object
    Ok(())
}

async fn sweeper_started(secrets: Api<Secret>, sweeper: Sweeper) -> anyhow::Result<()> {
    let _ = tokio::join!(Sweeper::start(secrets.clone()).await.map_err(anyhow::Error::from)?.run(), sweeper.run()); //~ concurrent-same-object
    Ok(())
}

async fn sweeper_bound(secrets: Api<Secret>, sweeper: Sweeper) -> anyhow::Result<()> {
    let second = Sweeper::new(secrets.clone()).with_context(|| "second sweeper")?;
    let _ = tokio::join!(second.run(), sweeper.run()); //~ concurrent-same-object
    Ok(())
}
