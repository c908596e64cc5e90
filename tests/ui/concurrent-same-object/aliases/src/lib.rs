// `type Leases = kube_client::Api<Lease>;` in one file, used in another that never names `Api`:
// the requests through the alias are seen (and the file is parsed for them).
use k8s_openapi::api::coordination::v1::Lease;

pub type Leases = kube_client::Api<Lease>;

pub mod election;
