// Requests under `cfg`s that cannot hold together are never compiled into one program: they
// never run concurrently. A finding under a `cfg` says so.
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, PostParams};

// Statements of `async` blocks under `cfg(unix)` and `cfg(windows)`: never both compiled.
async fn platform_statements(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    tokio::try_join!(
        async {
            #[cfg(unix)]
            cms.delete("socket-config", &dp).await?;
            Ok::<_, kube::Error>(())
        },
        async {
            #[cfg(windows)]
            cms.replace("socket-config", &pp, &cm).await?;
            Ok::<_, kube::Error>(())
        }
    )?;
    Ok(())
}

// The look-alike: both under `cfg(unix)`, reported with the `cfg`.
async fn unix_statements(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    tokio::try_join!( //~ concurrent-same-object
        async {
            #[cfg(unix)]
            cms.delete("socket-config", &dp).await?;
            Ok::<_, kube::Error>(())
        },
        async {
            #[cfg(unix)]
            cms.replace("socket-config", &pp, &cm).await?;
            Ok::<_, kube::Error>(())
        }
    )?;
    Ok(())
}

// Blocks under a feature and under its negation.
async fn feature_blocks(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    tokio::join!(
        async {
            #[cfg(feature = "tls")]
            {
                let _ = cms.delete("tls-config", &dp).await;
            }
        },
        async {
            #[cfg(not(feature = "tls"))]
            {
                let _ = cms.replace("tls-config", &pp, &cm).await;
            }
        }
    );
    Ok(())
}

// Two different features can be enabled together: reported, with both.
async fn two_features(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    tokio::join!( //~ concurrent-same-object
        async {
            #[cfg(feature = "tls")]
            {
                let _ = cms.delete("tls-config", &dp).await;
            }
        },
        async {
            #[cfg(feature = "metrics")]
            {
                let _ = cms.replace("tls-config", &pp, &cm).await;
            }
        }
    );
    Ok(())
}

// Modules for one operating system each; a Linux module's function implies `unix`.
#[cfg(target_os = "linux")]
mod linux {
    use super::*;
    pub async fn publish(cms: &Api<ConfigMap>, pp: &PostParams, cm: &ConfigMap) -> kube::Result<ConfigMap> {
        cms.replace("node-info", pp, cm).await
    }
}

#[cfg(target_os = "macos")]
mod macos {
    use super::*;
    pub async fn publish(cms: &Api<ConfigMap>, pp: &PostParams, cm: &ConfigMap) -> kube::Result<ConfigMap> {
        cms.replace("node-info", pp, cm).await
    }
}

#[cfg(windows)]
async fn forget(cms: &Api<ConfigMap>, dp: &DeleteParams) -> kube::Result<()> {
    cms.delete("node-info", dp).await?;
    Ok(())
}

async fn modules(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    let _ = tokio::join!(linux::publish(&cms, &pp, &cm), macos::publish(&cms, &pp, &cm));
    let _ = tokio::join!(linux::publish(&cms, &pp, &cm), forget(&cms, &dp));
    Ok(())
}

// The look-alike: the Linux function with a request made on every platform.
async fn module_and_direct(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams) -> kube::Result<()> {
    let _ = tokio::join!(linux::publish(&cms, &pp, &cm), cms.get("node-info")); //~ concurrent-same-object
    Ok(())
}

// Inherent impls under exclusive `cfg`s, called under a `cfg` of their own.
struct Node {
    cms: Api<ConfigMap>,
}

#[cfg(unix)]
impl Node {
    async fn publish_unix(&self, pp: &PostParams, cm: &ConfigMap) -> kube::Result<ConfigMap> {
        self.cms.replace("node-info", pp, cm).await
    }
}

#[cfg(not(unix))]
impl Node {
    async fn publish_elsewhere(&self, pp: &PostParams, cm: &ConfigMap) -> kube::Result<ConfigMap> {
        self.cms.replace("node-info", pp, cm).await
    }
}

async fn impls(node: &Node, cm: ConfigMap, pp: PostParams, dp: DeleteParams) -> kube::Result<()> {
    tokio::join!(
        async {
            #[cfg(unix)]
            let _ = node.publish_unix(&pp, &cm).await;
        },
        async {
            let _ = node.publish_elsewhere(&pp, &cm).await;
        }
    );
    // The look-alike: the unix method with a delete made on every platform.
    tokio::join!( //~ concurrent-same-object
        async {
            let _ = node.publish_unix(&pp, &cm).await;
        },
        async {
            let _ = node.cms.delete("node-info", &dp).await;
        }
    );
    Ok(())
}

// Match arms under exclusive `cfg`s.
async fn arms(cms: Api<ConfigMap>, cm: ConfigMap, pp: PostParams, dp: DeleteParams, mode: u8) -> kube::Result<()> {
    tokio::join!(
        async {
            match mode {
                #[cfg(unix)]
                0 => {
                    let _ = cms.delete("mode", &dp).await;
                }
                _ => {}
            }
        },
        async {
            match mode {
                #[cfg(windows)]
                0 => {
                    let _ = cms.replace("mode", &pp, &cm).await;
                }
                _ => {}
            }
        }
    );
    Ok(())
}

// One module per platform with functions of the same names: a call runs one of them, each under
// its `cfg`.
#[cfg(unix)]
mod platform {
    use super::*;
    pub async fn reset(cms: &Api<ConfigMap>, dp: &DeleteParams) -> kube::Result<()> {
        cms.delete("unix-socket", dp).await?;
        Ok(())
    }
}

#[cfg(windows)]
mod platform {
    use super::*;
    pub async fn reset(cms: &Api<ConfigMap>, dp: &DeleteParams) -> kube::Result<()> {
        cms.delete("named-pipe", dp).await?;
        Ok(())
    }
}

async fn per_platform(cms: Api<ConfigMap>, dp: DeleteParams) -> kube::Result<()> {
    let _ = tokio::join!(platform::reset(&cms, &dp), cms.get("unix-socket")); //~ concurrent-same-object
    let _ = tokio::join!(platform::reset(&cms, &dp), cms.get("named-pipe")); //~ concurrent-same-object
    // Neither platform's function touches it.
    let _ = tokio::join!(platform::reset(&cms, &dp), cms.get("settings"));
    Ok(())
}
