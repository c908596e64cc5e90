// Trait dispatch follows provided methods: `sync` has a default body that patches the leader
// Lease; `Quiet` overrides it with a read. The default body's `self.publish()` is the
// implementor's own `publish` when the receiver's type is known.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

trait Syncer {
    fn leases(&self) -> Api<Lease>;

    async fn publish(&self);

    async fn sync(&self) {
        let _ = self.leases().patch("leader", &PatchParams::default(), &Patch::Merge(())).await;
        self.publish().await;
    }
}

// Keeps the default `sync`; publishes with a patch.
struct Loud {
    client: kube::Client,
}

impl Syncer for Loud {
    fn leases(&self) -> Api<Lease> {
        Api::default_namespaced(self.client.clone())
    }

    async fn publish(&self) {
        let _ = self.leases().patch("status", &PatchParams::default(), &Patch::Merge(())).await;
    }
}

// Overrides `sync` with a read.
struct Quiet {
    client: kube::Client,
}

impl Syncer for Quiet {
    fn leases(&self) -> Api<Lease> {
        Api::default_namespaced(self.client.clone())
    }

    async fn publish(&self) {}

    async fn sync(&self) {
        let _ = self.leases().get("leader").await;
    }
}

// Keeps the default `sync`; its `publish` only reads.
struct Calm {
    client: kube::Client,
}

impl Syncer for Calm {
    fn leases(&self) -> Api<Lease> {
        Api::default_namespaced(self.client.clone())
    }

    async fn publish(&self) {
        let _ = self.leases().get("status").await;
    }
}

// The default body runs for both: two patches of the leader Lease.
async fn both_loud(a: &Loud, b: &Loud) {
    tokio::join!(a.sync(), b.sync()); //~ concurrent-same-object
}

// Look-alike: the override only reads.
async fn both_quiet(a: &Quiet, b: &Quiet) {
    tokio::join!(a.sync(), b.sync());
}

// The default body's `self.publish()` is `Calm::publish`, a read: only the leader Lease's
// patches meet, not a "status" patch (that is `Loud`'s).
async fn both_calm(a: &Calm, b: &Calm) {
    tokio::join!(a.sync(), b.sync()); //~ concurrent-same-object
}

// Look-alike: an override's read and the default's patch of another Lease ("status" of `Loud`
// is not "leader").
async fn quiet_and_publish(a: &Quiet, b: &Loud) {
    tokio::join!(a.sync(), b.publish());
}

// Names built in a provided method from the implementor's own methods: `lease()` is
// `format!("{}-lease", self.app())`, and `app()` is each implementor's.
trait Leased {
    fn app(&self) -> String;

    fn lease(&self) -> String {
        format!("{}-lease", self.app())
    }

    async fn renew(&self, leases: &Api<Lease>) {
        let _ = leases.patch(&self.lease(), &PatchParams::default(), &Patch::Merge(())).await;
    }
}

struct Web;

impl Leased for Web {
    fn app(&self) -> String {
        "web".to_string()
    }
}

struct Db;

impl Leased for Db {
    fn app(&self) -> String {
        "db".to_string()
    }
}

// The same implementor: one Lease, "web-lease".
async fn web_twice(a: &Web, b: &Web, leases: Api<Lease>) {
    tokio::join!(a.renew(&leases), b.renew(&leases)); //~ concurrent-same-object
}

// Look-alike: "web-lease" and "db-lease".
async fn web_and_db(a: &Web, b: &Db, leases: Api<Lease>) {
    tokio::join!(a.renew(&leases), b.renew(&leases));
}
