use std::fmt::Debug;

use kube::runtime::{watcher, Controller};
use kube::{Api, Client, Resource};
use serde::de::DeserializeOwned;

pub trait PrimaryResourceExt: Resource {
    /// The controller handed in, also watching the `Child` objects it owns.
    fn setup_watches<Child>(controller: Controller<Self>, client: Client, ns: Option<&str>) -> Controller<Self>
    where
        Child: Resource<DynamicType = ()> + Clone + Debug + DeserializeOwned + Send + 'static,
        Self: Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    {
        let children: Api<Child> = if let Some(ns) = ns {
            Api::namespaced(client.clone(), ns)
        } else {
            Api::all(client.clone())
        };
        controller.owns(children, watcher::Config::default())
    }
}
