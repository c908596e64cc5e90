//! The benchmark: builds the corpus pinned by `benches/corpus/Cargo.lock` (the `.rs` files of
//! every crate it resolves to on x86_64 Linux), then times the tool against a plain
//! `syn::parse_file` of every file, in the same run. Run it through `benches/run.sh`, which
//! fetches the crates and builds the release binaries first.
//!
//! ```sh
//! benches/run.sh [-j N] [--runs R] [--findings-out DIR [--findings-only]]
//! ```
//!
//! Each command runs once to warm the page cache, then R times (default 3); the run with the
//! median wall time is shown (with its CPU time), and the highest peak resident memory seen over
//! the runs (from `wait4`). On a machine shared with other work, CPU times are the steadier figure.
//!
//! `--findings-out DIR` saves the findings of each layout (the per-crate corpus, the `.rs` files
//! as one unit, the kube crates) as `DIR/<layout>.json`, paths relative to the layout, so that
//! two commits compare with `diff -r`; `--findings-only` runs each layout once for that and times
//! nothing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TARGET_PLATFORM: &str = "x86_64-unknown-linux-gnu";

/// What the corpus directory holds, besides the Cargo.lock it was built from.
const CORPUS_LAYOUT: &str = "layout 2: .rs files and Cargo.toml of each crate";

struct Args {
    jobs: usize,
    runs: usize,
    /// Where to save each layout's findings (`--findings-out`).
    findings_out: Option<PathBuf>,
    /// Save the findings without timing anything (`--findings-only`).
    findings_only: bool,
}

/// The layouts whose findings `--findings-out` saves, by file name.
const PER_CRATE: &str = "per-crate";
const ONE_UNIT: &str = "one-unit";
const KUBE: &str = "kube";

fn main() {
    if let Err(e) = try_main() {
        eprintln!("bench: {e}");
        std::process::exit(2);
    }
}

fn try_main() -> Result<(), String> {
    let args = parse_args()?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (release, tool, baseline) = binaries()?;
    let corpus = release
        .parent()
        .ok_or("cannot locate the target directory")?
        .join("bench-corpus");
    let crates = build_corpus(&root.join("benches/corpus"), &corpus)?;
    let size = measure_corpus(&corpus)?;
    println!(
        "corpus: {} crates, {} files, {} lines, {:.0} MB in {}",
        crates,
        size.files,
        thousands(size.lines),
        size.bytes as f64 / 1e6,
        corpus.display()
    );
    // The kube crates (about 40k lines, requests on every page), as when checking a crate on save.
    let kube = corpus.with_file_name("bench-corpus-kube");
    build_linked(&corpus, &kube, 1, true, is_kube)?;
    // The same `.rs` files without their manifests: nothing tells the crates apart, so the
    // whole corpus is one link unit (helpers resolved by name across 322 crates), the worst case.
    let flat = corpus.with_file_name("bench-corpus-flat");
    build_linked(&corpus, &flat, 1, false, |_| true)?;
    let layouts = Layouts { corpus, kube, flat };
    if args.findings_only {
        let dir = args
            .findings_out
            .as_ref()
            .ok_or("--findings-only needs --findings-out DIR")?;
        return save_layout_findings(&args, &tool, &layouts, dir);
    }
    let runs = time_commands(&args, &tool, &baseline, &layouts)?;
    print_table(&runs, &size);
    print_checks(&runs, args.jobs);
    if let Some(dir) = &args.findings_out {
        println!();
        for (name, layout, m) in [
            (PER_CRATE, &layouts.corpus, &runs.tool),
            (ONE_UNIT, &layouts.flat, &runs.flat),
            (KUBE, &layouts.kube, &runs.kube),
        ] {
            save_findings(dir, name, layout, &m.stdout)?;
        }
    }
    Ok(())
}

fn is_kube(crate_dir: &str) -> bool {
    crate_dir.starts_with("kube-")
}

/// The release directory, the tool and the parse baseline, which the script built.
fn binaries() -> Result<(PathBuf, PathBuf, PathBuf), String> {
    let release = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or("cannot locate the release directory")?;
    let tool = release.join("kube-order-lint");
    let baseline = release.join("examples/parse_baseline");
    for bin in [&tool, &baseline] {
        if !bin.is_file() {
            return Err(format!(
                "{} is missing: build with `cargo build --release --bins --examples`",
                bin.display()
            ));
        }
    }
    Ok((release, tool, baseline))
}

/// The corpus laid out three ways: per crate, the kube crates alone, one link unit.
struct Layouts {
    corpus: PathBuf,
    kube: PathBuf,
    flat: PathBuf,
}

fn save_layout_findings(
    args: &Args,
    tool: &Path,
    layouts: &Layouts,
    dir: &Path,
) -> Result<(), String> {
    let j = args.jobs.to_string();
    for (name, layout) in [
        (PER_CRATE, &layouts.corpus),
        (ONE_UNIT, &layouts.flat),
        (KUBE, &layouts.kube),
    ] {
        let layout_arg = layout.to_string_lossy().to_string();
        let argv = ["-j", &j, "--format", "json", "--exit-zero", &layout_arg];
        let run = run_once(tool, &argv)?;
        save_findings(dir, name, layout, &run.stdout)?;
    }
    Ok(())
}

/// Every timed command of one benchmark run.
struct Runs {
    baseline_all: Measured,
    baseline_pre: Measured,
    tool: Measured,
    no_prefilter: Measured,
    double: Measured,
    kube: Measured,
    flat: Measured,
    one_thread: Measured,
}

fn time_commands(
    args: &Args,
    tool: &Path,
    baseline: &Path,
    layouts: &Layouts,
) -> Result<Runs, String> {
    println!(
        "{} threads, median of {} runs (after one warm-up run)\n",
        args.jobs, args.runs
    );
    let j = args.jobs.to_string();
    let corpus_arg = layouts.corpus.to_string_lossy().to_string();
    let lint = |dir: &Path, extra: &[&str]| -> Result<Measured, String> {
        let dir_arg = dir.to_string_lossy().to_string();
        let mut argv = vec!["-j", &j, "--format", "json", "--exit-zero"];
        argv.extend_from_slice(extra);
        argv.push(&dir_arg);
        time(args, tool, &argv)
    };
    let baseline_all = time(args, baseline, &["-j", &j, &corpus_arg])?;
    let baseline_pre = time(args, baseline, &["-j", &j, "--prefiltered", &corpus_arg])?;
    let tool_run = lint(&layouts.corpus, &[])?;
    let no_prefilter = lint(&layouts.corpus, &["--no-prefilter"])?;
    // Twice the corpus: the same files twice, hard-linked.
    let double = layouts.corpus.with_file_name("bench-corpus-x2");
    build_linked(&layouts.corpus, &double, 2, true, |_| true)?;
    let double = lint(&double, &[])?;
    let kube = lint(&layouts.kube, &[])?;
    let flat = lint(&layouts.flat, &[])?;
    // One thread, to see how the work spreads over cores.
    let one_thread = time(
        args,
        tool,
        &["-j", "1", "--format", "json", "--exit-zero", &corpus_arg],
    )?;
    Ok(Runs {
        baseline_all,
        baseline_pre,
        tool: tool_run,
        no_prefilter,
        double,
        kube,
        flat,
        one_thread,
    })
}

fn print_table(runs: &Runs, size: &CorpusSize) {
    let parsed = |out: &str| -> String {
        out.split_whitespace()
            .skip_while(|w| *w != "parsed")
            .nth(1)
            .unwrap_or("?")
            .to_string()
    };
    let kube_lines: usize = size
        .crate_lines
        .iter()
        .filter(|(c, _)| is_kube(c))
        .map(|(_, l)| l)
        .sum();
    let rows = [
        (
            "syn::parse_file, every file".to_string(),
            &runs.baseline_all,
            size.lines,
        ),
        (
            format!(
                "syn::parse_file, prefiltered ({} files)",
                parsed(&runs.baseline_pre.stdout)
            ),
            &runs.baseline_pre,
            size.lines,
        ),
        ("kube-order-lint".to_string(), &runs.tool, size.lines),
        (
            "kube-order-lint --no-prefilter".to_string(),
            &runs.no_prefilter,
            size.lines,
        ),
        (
            "kube-order-lint, corpus twice".to_string(),
            &runs.double,
            2 * size.lines,
        ),
        (
            "kube-order-lint, kube-* crates only".to_string(),
            &runs.kube,
            kube_lines,
        ),
        (
            "kube-order-lint, .rs files only (one unit)".to_string(),
            &runs.flat,
            size.lines,
        ),
        (
            "kube-order-lint -j 1".to_string(),
            &runs.one_thread,
            size.lines,
        ),
    ];
    println!(
        "{:<48} {:>9} {:>9} {:>12} {:>9} {:>10}",
        "", "lines", "wall", "lines/s", "cpu", "peak"
    );
    for (name, m, lines) in rows {
        println!(
            "{:<48} {:>9} {:>9} {:>12} {:>9} {:>6.0} MiB",
            name,
            thousands(lines),
            seconds(m.wall),
            thousands((lines as f64 / m.wall.as_secs_f64()) as usize),
            seconds(m.cpu),
            m.peak_kib as f64 / 1024.0,
        );
    }
}

/// The ratios, and what must hold of the outputs: the same findings with and without the
/// prefilter, the same output on every run of a command.
fn print_checks(runs: &Runs, jobs: usize) {
    let ratio = |a: &Measured, b: &Measured| {
        format!(
            "{:.2} wall time, {:.2} cpu time",
            a.wall.as_secs_f64() / b.wall.as_secs_f64(),
            a.cpu.as_secs_f64() / b.cpu.as_secs_f64().max(1e-9)
        )
    };
    println!();
    println!(
        "kube-order-lint / parse every file:        {}",
        ratio(&runs.tool, &runs.baseline_all)
    );
    println!(
        "kube-order-lint / parse prefiltered files: {}",
        ratio(&runs.tool, &runs.baseline_pre)
    );
    println!(
        "corpus twice / corpus once:                {}",
        ratio(&runs.double, &runs.tool)
    );
    println!(
        "-j 1 / -j {}:                              {}",
        jobs,
        ratio(&runs.one_thread, &runs.tool)
    );
    let findings = |out: &str| {
        serde_json::from_str::<serde_json::Value>(out)
            .map(|doc| doc["diagnostics"].clone())
            .ok()
    };
    let same = findings(&runs.tool.stdout).is_some()
        && findings(&runs.tool.stdout) == findings(&runs.no_prefilter.stdout);
    println!(
        "\nsame findings with and without the prefilter: {}",
        if same {
            "yes"
        } else {
            "NO (a bug: please report it)"
        }
    );
    println!("kube-order-lint output: {}", summarise(&runs.tool.stdout));
    println!(
        "kube-order-lint --no-prefilter output: {}",
        summarise(&runs.no_prefilter.stdout)
    );
    for (name, m) in [
        ("kube-order-lint", &runs.tool),
        ("kube-order-lint --no-prefilter", &runs.no_prefilter),
        ("kube-order-lint, corpus twice", &runs.double),
        ("kube-order-lint, kube-* crates only", &runs.kube),
        ("kube-order-lint, .rs files only (one unit)", &runs.flat),
        ("kube-order-lint -j 1", &runs.one_thread),
    ] {
        if !m.steady {
            println!("{name}: the output differed between runs (a bug: please report it)");
        }
    }
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        jobs: 2,
        runs: 3,
        findings_out: None,
        findings_only: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut number = |what: &str| -> Result<usize, String> {
            it.next()
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .ok_or(format!("{what} needs a positive number"))
        };
        match a.as_str() {
            "-j" | "--jobs" => args.jobs = number("-j")?,
            "--runs" => args.runs = number("--runs")?,
            "--findings-out" => {
                let dir = it.next().ok_or("--findings-out needs a directory")?;
                args.findings_out = Some(PathBuf::from(dir));
            }
            "--findings-only" => args.findings_only = true,
            _ => {
                return Err(format!(
                    "unknown argument `{a}` (usage: [-j N] [--runs R] [--findings-out DIR [--findings-only]])"
                ))
            }
        }
    }
    Ok(args)
}

/// Copy the `.rs` files of every crate the corpus manifest resolves to into `dir`, one
/// directory per crate with the crate's `Cargo.toml`, as crates lie in a workspace or a vendor
/// directory. Skipped when `dir` was built from the same Cargo.lock.
fn build_corpus(manifest_dir: &Path, dir: &Path) -> Result<usize, String> {
    let lock = fs::read_to_string(manifest_dir.join("Cargo.lock")).map_err(|e| e.to_string())?;
    // The layout is part of the stamp: a corpus built by an older version is built again.
    let lock = format!("{CORPUS_LAYOUT}\n{lock}");
    let stamp = dir.join(".stamp");
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(manifest_dir.join("Cargo.toml"))
        .other_options(vec![
            "--locked".to_string(),
            "--offline".to_string(),
            "--filter-platform".to_string(),
            TARGET_PLATFORM.to_string(),
        ])
        .exec()
        .map_err(|e| format!("cargo metadata on the corpus failed (run `cargo fetch --locked` in benches/corpus first): {e}"))?;
    let resolve = metadata.resolve.as_ref().ok_or("no resolve graph")?;
    let root = resolve.root.as_ref();
    let packages: Vec<_> = resolve
        .nodes
        .iter()
        .filter(|n| Some(&n.id) != root)
        .filter_map(|n| metadata.packages.iter().find(|p| p.id == n.id))
        .collect();
    if fs::read_to_string(&stamp).is_ok_and(|s| s == lock) {
        return Ok(packages.len());
    }
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| e.to_string())?;
    }
    for p in &packages {
        let src = p
            .manifest_path
            .parent()
            .ok_or("manifest without a directory")?;
        let dest = dir.join(format!("{}-{}", p.name, p.version));
        fs::create_dir_all(&dest).map_err(|e| e.to_string())?;
        fs::copy(p.manifest_path.as_std_path(), dest.join("Cargo.toml"))
            .map_err(|e| format!("{}: {e}", p.manifest_path))?;
        for file in rust_files(src.as_std_path()) {
            let rel = file
                .strip_prefix(src.as_std_path())
                .map_err(|e| e.to_string())?;
            let to = dest.join(rel);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            fs::copy(&file, &to).map_err(|e| format!("{}: {e}", file.display()))?;
        }
    }
    fs::write(&stamp, lock).map_err(|e| e.to_string())?;
    Ok(packages.len())
}

/// `copies` copies (hard links, or copies where links fail) of the crates of the corpus whose
/// directory name `keep` accepts, under `dir/1`, `dir/2`, …
fn build_linked(
    corpus: &Path,
    dir: &Path,
    copies: usize,
    manifests: bool,
    keep: impl Fn(&str) -> bool,
) -> Result<(), String> {
    let stamp = dir.join(".stamp");
    let wanted = fs::read_to_string(corpus.join(".stamp")).map_err(|e| e.to_string())?;
    if fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(());
    }
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let mut files = rust_files(corpus);
    if manifests {
        let crates = fs::read_dir(corpus).map_err(|e| e.to_string())?;
        for entry in crates.filter_map(Result::ok) {
            let manifest = entry.path().join("Cargo.toml");
            if manifest.is_file() {
                files.push(manifest);
            }
        }
    }
    for copy in 1..=copies {
        for file in &files {
            let rel = file.strip_prefix(corpus).map_err(|e| e.to_string())?;
            let krate = rel
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy());
            if !krate.is_some_and(|k| keep(&k)) {
                continue;
            }
            let to = dir.join(copy.to_string()).join(rel);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            if fs::hard_link(file, &to).is_err() {
                fs::copy(file, &to).map_err(|e| e.to_string())?;
            }
        }
    }
    fs::write(&stamp, wanted).map_err(|e| e.to_string())
}

/// Every `.rs` file under `dir`, skipping hidden entries and `target` directories as the tool
/// does when it walks a directory.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0
                || !(name.starts_with('.') || (e.file_type().is_dir() && name == "target"))
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| e.into_path())
        .collect()
}

struct CorpusSize {
    files: usize,
    lines: usize,
    bytes: usize,
    /// Lines per crate directory.
    crate_lines: BTreeMap<String, usize>,
}

fn measure_corpus(dir: &Path) -> Result<CorpusSize, String> {
    let mut size = CorpusSize {
        files: 0,
        lines: 0,
        bytes: 0,
        crate_lines: BTreeMap::new(),
    };
    for file in rust_files(dir) {
        let bytes = fs::read(&file).map_err(|e| e.to_string())?;
        let lines = bytes.iter().filter(|&&b| b == b'\n').count();
        size.files += 1;
        size.lines += lines;
        size.bytes += bytes.len();
        if let Some(krate) = file
            .strip_prefix(dir)
            .ok()
            .and_then(|r| r.components().next())
        {
            *size
                .crate_lines
                .entry(krate.as_os_str().to_string_lossy().to_string())
                .or_default() += lines;
        }
    }
    Ok(size)
}

struct Measured {
    wall: Duration,
    /// User and system CPU time: on a machine shared with other work, a steadier measure than
    /// the wall time.
    cpu: Duration,
    peak_kib: u64,
    stdout: String,
    /// Every run (the warm-up too) printed the same output.
    steady: bool,
}

/// Run `bin args` once to warm up, then `runs` times: the run with the median wall time (with
/// its CPU time), and the highest peak RSS of all runs.
fn time(args: &Args, bin: &Path, argv: &[&str]) -> Result<Measured, String> {
    let warm_up = run_once(bin, argv)?;
    let mut runs = Vec::new();
    for _ in 0..args.runs {
        runs.push(run_once(bin, argv)?);
    }
    let peak = runs.iter().map(|m| m.peak_kib).max().ok_or("no run")?;
    let steady = runs.iter().all(|m| m.stdout == warm_up.stdout);
    runs.sort_by_key(|m| m.wall);
    let mut median = runs.swap_remove(runs.len() / 2);
    median.peak_kib = peak;
    median.steady = steady;
    Ok(median)
}

fn run_once(bin: &Path, argv: &[&str]) -> Result<Measured, String> {
    let out_path =
        std::env::temp_dir().join(format!("kube-order-lint-bench-{}.out", std::process::id()));
    let out = fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let child = Command::new(bin)
        .args(argv)
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let (status, peak_kib, cpu) = wait_with_peak(child)?;
    let wall = start.elapsed();
    let stdout = fs::read_to_string(&out_path).unwrap_or_default();
    let _ = fs::remove_file(&out_path);
    // The tool exits with 1 on findings and 2 when a file does not parse; both are results.
    if !(0..=2).contains(&status) {
        return Err(format!(
            "{} {} failed with status {status}",
            bin.display(),
            argv.join(" ")
        ));
    }
    Ok(Measured {
        wall,
        cpu,
        peak_kib,
        stdout,
        steady: true,
    })
}

/// Wait for a child and return its exit code, peak resident set size in KiB and CPU time.
#[cfg(unix)]
fn wait_with_peak(child: std::process::Child) -> Result<(i32, u64, Duration), String> {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; `pid` is our own child, not yet reaped.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if r != pid {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()));
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    // Linux reports ru_maxrss in KiB.
    Ok((code, usage.ru_maxrss as u64, cpu))
}

/// Elsewhere the peak memory and CPU time are not measured (shown as 0).
#[cfg(not(unix))]
fn wait_with_peak(mut child: std::process::Child) -> Result<(i32, u64, Duration), String> {
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok((status.code().unwrap_or(-1), 0, Duration::ZERO))
}

/// Save the findings of one layout (the tool's JSON output) as `dir/<name>.json`: its
/// `files_checked`, `diagnostics`, `errors` and `notes`, pretty-printed, with the layout's
/// directory taken off every path, so that the files of two runs (two worktrees, two commits)
/// compare with `diff -r`. The tool's name and version are left out.
fn save_findings(dir: &Path, name: &str, layout: &Path, json: &str) -> Result<(), String> {
    let doc: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| format!("{name}: the tool's output is not JSON: {e}"))?;
    // The tool shows paths as given, or relative to the working directory when under it.
    let mut prefixes = vec![format!("{}/", layout.display())];
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    if let Ok(relative) = layout.strip_prefix(&cwd) {
        prefixes.push(format!("{}/", relative.display()));
    }
    let mut kept = serde_json::Map::new();
    for key in ["files_checked", "diagnostics", "errors", "notes"] {
        let mut value = doc[key].clone();
        for prefix in &prefixes {
            relativise(&mut value, prefix);
        }
        kept.insert(key.to_string(), value);
    }
    let count = |k: &str| kept[k].as_array().map_or(0, Vec::len);
    let (findings, errors, notes) = (count("diagnostics"), count("errors"), count("notes"));
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.json"));
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(kept))
        .map_err(|e| e.to_string())?;
    text.push('\n');
    fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "findings of {name}: {findings} findings, {errors} errors, {notes} notes in {}",
        path.display()
    );
    Ok(())
}

/// Take `prefix` (a layout's directory) out of every string of `value`.
fn relativise(value: &mut serde_json::Value, prefix: &str) {
    match value {
        serde_json::Value::String(s) if s.contains(prefix) => *s = s.replace(prefix, ""),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| relativise(v, prefix)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|v| relativise(v, prefix)),
        _ => {}
    }
}

/// The tool's JSON output in one line: files, findings, errors, notes.
fn summarise(json: &str) -> String {
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(json) else {
        return "(not JSON)".to_string();
    };
    let count = |k: &str| doc[k].as_array().map_or(0, Vec::len);
    let mut s = format!(
        "{} files checked, {} findings, {} errors",
        doc["files_checked"],
        count("diagnostics"),
        count("errors"),
    );
    for note in doc["notes"].as_array().into_iter().flatten() {
        s.push_str(&format!("\n  note: {}", note.as_str().unwrap_or("")));
    }
    s
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{:.0} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
