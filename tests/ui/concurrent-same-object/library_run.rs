// An actix `HttpServer::new(..).bind(..)?.run()` is not a controller's `run`: the server's type
// is not the crate's, and `run` is a name library types share, so the crate's `Controller::run`,
// which patches a ConfigMap, is not taken for it by name (only `--min-confidence unknown` shows
// the pair). The look-alike joins two runs of the controller itself.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};

struct Controller {
    cms: Api<ConfigMap>,
}

impl Controller {
    async fn run(&self) -> kube::Result<()> {
        let pp = PatchParams::default();
        self.cms.patch("state", &pp, &Patch::Merge(())).await?;
        Ok(())
    }
}

async fn server_and_controller(controller: Controller) {
    let server = actix_web::HttpServer::new(|| ()).bind(("0.0.0.0", 8080)).unwrap();
    let _ = tokio::join!(server.run(), controller.run());
}

async fn two_controllers(a: Controller, b: &Controller) {
    let _ = tokio::join!(a.run(), a.run()); //~ concurrent-same-object
    let _ = b;
}
