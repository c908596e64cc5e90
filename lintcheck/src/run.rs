//! Runs the release binary on each crate of the corpus, as a user would: `kube-order-lint .`
//! in the crate's directory, default settings, JSON output with `--statistics`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::corpus::{cargo, Crate};

/// What one run of the tool on one crate gave.
pub struct Run {
    pub krate: String,
    pub diagnostics: Vec<Diagnostic>,
    pub statistics: Statistics,
    pub files_checked: usize,
    pub errors: Vec<String>,
    pub wall: Duration,
    /// Peak resident memory of the run, in KiB.
    pub max_rss_kib: u64,
}

#[derive(Deserialize)]
struct Document {
    files_checked: usize,
    diagnostics: Vec<Diagnostic>,
    errors: Vec<FileError>,
    statistics: Statistics,
}

#[derive(Deserialize, Clone)]
pub struct Diagnostic {
    pub lint: String,
    pub confidence: String,
    pub message: String,
    pub file: String,
    pub line: usize,
}

#[derive(Deserialize)]
struct FileError {
    file: String,
    line: Option<usize>,
    message: String,
}

#[derive(Deserialize, Default, Clone)]
pub struct Statistics {
    pub requests: usize,
    pub concurrency_sites: usize,
    pub unresolved_calls: usize,
    pub unresolved: Vec<NameCount>,
}

#[derive(Deserialize, Clone)]
pub struct NameCount {
    pub name: String,
    pub count: usize,
}

/// Builds the tool's release binary in the workspace at `root`; returns its path.
pub fn build_tool(root: &Path) -> Result<PathBuf, String> {
    let status = cargo()
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "kube-order-lint",
            "--bin",
        ])
        .arg("kube-order-lint")
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !status.success() {
        return Err("cargo build --release of kube-order-lint failed".to_string());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(target.join("release").join("kube-order-lint"))
}

pub fn run_all(tool: &Path, crates: &[Crate]) -> Result<Vec<Run>, String> {
    crates.iter().map(|c| run_one(tool, c)).collect()
}

fn run_one(tool: &Path, krate: &Crate) -> Result<Run, String> {
    let started = Instant::now();
    let mut command = Command::new(tool);
    command
        .args(["--format", "json", "--statistics", "--exit-zero", "."])
        .current_dir(&krate.dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let (code, stdout, max_rss_kib) = run_measured(&mut command)
        .map_err(|e| format!("cannot run {} on {}: {e}", tool.display(), krate.key()))?;
    let doc: Document = serde_json::from_slice(&stdout).map_err(|e| {
        format!(
            "{}: exit code {code}, output is not the JSON document: {e}",
            krate.key()
        )
    })?;
    Ok(Run {
        krate: krate.key(),
        diagnostics: doc.diagnostics,
        statistics: doc.statistics,
        files_checked: doc.files_checked,
        errors: doc
            .errors
            .iter()
            .map(|e| format!("{}:{}: {}", e.file, e.line.unwrap_or(0), e.message))
            .collect(),
        wall: started.elapsed(),
        max_rss_kib,
    })
}

/// Runs a command to its end: its exit code, its standard output, and its peak resident memory
/// (KiB), from `wait4`, so that only this process and what it waited for are counted.
fn run_measured(command: &mut Command) -> std::io::Result<(i32, Vec<u8>, u64)> {
    let mut child = command.spawn()?;
    let mut stdout = Vec::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_end(&mut stdout)?;
    }
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills; the child is ours and not yet waited for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid {
        return Err(std::io::Error::last_os_error());
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    Ok((code, stdout, usage.ru_maxrss as u64))
}
