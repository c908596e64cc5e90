// Names built by a crate helper: `lease_name(app)` returns `format!("{app}-lease")`. Two calls
// with the same argument are one object; with two literals, two objects.
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};

fn lease_name(app: &str) -> String {
    format!("{app}-lease")
}

// A helper built on another helper: the template is followed through both.
fn scoped_lease_name(team: &str, app: &str) -> String {
    format!("{team}-{}", lease_name(app))
}

struct Elector {
    app: String,
    leases: Api<Lease>,
}

impl Elector {
    async fn holder(&self) {
        let _ = self.leases.get(&lease_name(&self.app)).await;
    }

    async fn renew(&self) {
        let name = lease_name(&self.app);
        let _ = self.leases.patch(&name, &PatchParams::default(), &Patch::Merge(())).await;
    }

    // The same app's Lease, read and renewed at once.
    async fn check_and_renew(&self) {
        tokio::join!(self.holder(), self.renew()); //~ concurrent-same-object
    }
}

async fn renew(leases: &Api<Lease>, name: &str) {
    let _ = leases.patch(name, &PatchParams::default(), &Patch::Merge(())).await;
}

// The same literal argument: one Lease.
async fn same_literal(leases: Api<Lease>) {
    tokio::join!( //~ concurrent-same-object
        renew(&leases, &lease_name("web")),
        renew(&leases, &lease_name("web")),
    );
}

// Look-alike: two literals are two Leases.
async fn two_literals(leases: Api<Lease>) {
    tokio::join!(
        renew(&leases, &lease_name("web")),
        renew(&leases, &lease_name("db")),
    );
}

// Through the nested helper, with the same arguments: one Lease.
async fn nested_same(leases: Api<Lease>, team: String, app: String) {
    tokio::join!( //~ concurrent-same-object
        renew(&leases, &scoped_lease_name(&team, &app)),
        renew(&leases, &scoped_lease_name(&team, &app)),
    );
}

// Look-alike: the nested helper with two literal apps.
async fn nested_two(leases: Api<Lease>, team: String) {
    tokio::join!(
        renew(&leases, &scoped_lease_name(&team, "web")),
        renew(&leases, &scoped_lease_name(&team, "db")),
    );
}

// Two apps of unrelated origin: only the naming scheme relates them (possible).
async fn two_apps(leases: Api<Lease>, a: String, b: String) {
    tokio::join!( //~ concurrent-same-object
        renew(&leases, &lease_name(&a)),
        renew(&leases, &lease_name(&b)),
    );
}

fn fresh_id() -> String {
    todo!()
}

// One template per element, with a part made anew for each: the naming scheme alone relates
// them (possible, not definite).
async fn per_element(leases: Api<Lease>, apps: Vec<String>) {
    let futs = apps.iter().map(|_| {
        let id = fresh_id();
        leases.delete(&format!("lease-{id}"), &Default::default())
    });
    futures::future::join_all(futs).await; //~ concurrent-same-object
}
