//! Running the real binary, shared by the CLI test files.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

/// A file with exactly one finding (a definite `concurrent-same-object`, with a safe fix).
pub const FINDING: &str = "use kube::api::{Api, PostParams};\n\
async fn f(pods: Api<Pod>, pp: PostParams, pod: Pod) {\n    \
    tokio::join!(pods.create(&pp, &pod), pods.get(&pod.name_any()));\n}\n";

/// The smallest manifest of a package named `app`.
pub const MANIFEST: &str = "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// Generous: a run over a few small files takes well under a second.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The binary, with nothing of the caller's terminal or CI in its environment.
pub fn tool() -> Command {
    let mut cmd = Command::cargo_bin("kube-order-lint").expect("binary");
    cmd.env_remove("NO_COLOR").env_remove("GITHUB_WORKSPACE");
    cmd
}

/// `tool()` in `dir` (paths are shown relative to it), killed after [`TIMEOUT`].
pub fn tool_in(dir: &Path) -> Command {
    let mut cmd = tool();
    cmd.current_dir(dir).timeout(TIMEOUT);
    cmd
}

/// What a run printed, and its exit code (-1 when a signal or the timeout ended it).
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

pub fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("run");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Writes `text` to `dir/name`, making the directories on the way.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).expect("write");
    path
}

/// The repository's root, where the fixtures are.
pub fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
