//! Hostile inputs, round 3 (issue 27), through the real binary: nothing written outside what the
//! user named, output files written whole and never through a link, bounded reads of the
//! language server's wire and of standard input, and the GitHub Action's install step out of
//! the checkout's reach. Each test names the defect it guards against.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

mod common;

use common::cli::{run, tool_in, write, Run, FINDING, MANIFEST, TIMEOUT};

use assert_cmd::Command;
use serde_json::{json, Value};

#[cfg(unix)]
fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

// ---------------------------------------------------------------- 1. writes inside the named paths

/// A checkout `work/app` and a directory beside it, `outside`, holding a file with a finding.
fn crate_and_outside() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join(".git")).unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    (dir, work, outside)
}

/// `--fix` and `--add-suppressions` used to rewrite whatever file the crate pointed them to:
/// `#[path = "/abs"]`, a `[[bin]] path` outside the package, a source file that is a link to
/// outside. Such files are still checked and reported, never rewritten, and a note says why.
#[cfg(unix)]
#[test]
fn fix_and_add_suppressions_never_write_outside_the_named_paths() {
    for (case, flag) in ["path-attribute", "bin-path", "symlink"]
        .into_iter()
        .flat_map(|c| [(c, "--fix"), (c, "--add-suppressions")])
    {
        let (_dir, work, outside) = crate_and_outside();
        let target = write(&outside, "victim.rs", FINDING);
        match case {
            "path-attribute" => {
                write(&work, "app/Cargo.toml", MANIFEST);
                let lib = format!("#[path = \"{}\"]\nmod m;\n", target.display());
                write(&work, "app/src/lib.rs", &lib);
            }
            "bin-path" => {
                let manifest = format!(
                    "{MANIFEST}[[bin]]\nname = \"b\"\npath = \"{}\"\n",
                    target.display()
                );
                write(&work, "app/Cargo.toml", &manifest);
                write(&work, "app/src/lib.rs", "pub fn f() {}\n");
            }
            _ => {
                write(&work, "app/Cargo.toml", MANIFEST);
                std::fs::create_dir_all(work.join("app/src")).unwrap();
                symlink(&target, &work.join("app/src/lib.rs"));
            }
        }
        let r = run(tool_in(&work).args([flag, "--format", "short", "app"]));
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            FINDING,
            "{case} {flag}: the file outside was rewritten\n{}",
            r.stderr
        );
        assert!(
            r.stderr
                .contains("the file is outside the paths named on the command line"),
            "{case} {flag}: {}",
            r.stderr
        );
        if flag == "--fix" {
            // Still checked and reported.
            assert_eq!(r.code, 1, "{case}: {}{}", r.stdout, r.stderr);
            assert!(
                r.stdout.contains("concurrent-same-object"),
                "{case}: {}",
                r.stdout
            );
        }
    }
}

/// Inside the named directory, through a link or not, files are still fixed.
#[cfg(unix)]
#[test]
fn files_inside_the_named_paths_are_still_fixed() {
    let (_dir, work, _outside) = crate_and_outside();
    write(&work, "app/Cargo.toml", MANIFEST);
    write(&work, "app/src/real.rs", FINDING);
    write(&work, "app/src/lib.rs", "mod linked;\n");
    symlink("real.rs", &work.join("app/src/linked.rs"));
    let r = run(tool_in(&work).args(["--fix", "app"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let real = std::fs::read_to_string(work.join("app/src/real.rs")).unwrap();
    assert_ne!(real, FINDING);
}

// ---------------------------------------------------------------- 2, 3. output files

/// `-o` and `--write-baseline` used to write through a planted symbolic link (and create a
/// file through a dangling one): refused, with a clear error, and nothing written there.
#[cfg(unix)]
#[test]
fn output_and_baseline_refuse_a_symbolic_link() {
    let (_dir, work, outside) = crate_and_outside();
    write(&work, "a.rs", FINDING);
    let existing = write(&outside, "existing.txt", "precious\n");
    let dangling = outside.join("created.txt");
    for flag in ["-o", "--write-baseline"] {
        for target in [&existing, &dangling] {
            let link = work.join("report.json");
            let _ = std::fs::remove_file(&link);
            symlink(target, &link);
            let r = run(tool_in(&work).args([flag, "report.json", "a.rs"]));
            assert_eq!(r.code, 2, "{flag}: {}", r.stderr);
            assert!(
                r.stderr.contains("report.json")
                    && r.stderr.contains(
                        "is a symbolic link, which is not written through; name the file itself"
                    ),
                "{flag}: {}",
                r.stderr
            );
            assert_eq!(std::fs::read_to_string(&existing).unwrap(), "precious\n");
            assert!(
                !dangling.exists(),
                "{flag}: created through a dangling link"
            );
        }
    }
}

/// `-o` and `--write-baseline` used to write in place: a run stopped midway (here by the file
/// size limit, with and without SIGXFSZ) left a truncated file and lost the previous one. The
/// previous content now stays whole until the new one is complete.
#[cfg(unix)]
#[test]
fn output_and_baseline_are_replaced_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    // Enough findings for more than the 8 KiB the limit lets through.
    let many: String = (0..40)
        .map(|i| FINDING.replace("async fn f(", &format!("async fn f{i}(")))
        .collect();
    write(
        dir.path(),
        "a.rs",
        &many.replace("use kube::api::{Api, PostParams};\n", ""),
    );
    let bin = assert_cmd::cargo::cargo_bin("kube-order-lint");
    for flag in ["-o", "--write-baseline"] {
        for ignore_signal in [true, false] {
            let previous = "previous content\n";
            let out = write(dir.path(), "out.json", previous);
            let script = if ignore_signal {
                r#"trap '' XFSZ; ulimit -f 16 && exec "$0" "$@""#
            } else {
                r#"ulimit -f 16 && exec "$0" "$@""#
            };
            let output = StdCommand::new("sh")
                .current_dir(dir.path())
                .args(["-c", script])
                .arg(&bin)
                .args(["--format", "json", flag, "out.json", "a.rs"])
                .output()
                .unwrap();
            assert_ne!(
                output.status.code(),
                Some(0),
                "{flag}: the limit did not apply"
            );
            assert_eq!(
                std::fs::read_to_string(&out).unwrap(),
                previous,
                "{flag} (signal ignored: {ignore_signal}): {}",
                String::from_utf8_lossy(&output.stderr)
            );
            // Besides the two files, at most the temporary file of a killed run (removed after
            // a write error).
            for entry in std::fs::read_dir(dir.path()).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                if name == "a.rs" || name == "out.json" {
                    continue;
                }
                assert!(
                    !ignore_signal
                        && name.starts_with(".out.json.")
                        && name.ends_with(".kube-order-lint.tmp"),
                    "{flag}: {name} left behind"
                );
                std::fs::remove_file(dir.path().join(name)).unwrap();
            }
        }
    }
    // Without the limit, both are written whole.
    let r = run(tool_in(dir.path()).args(["--format", "json", "-o", "out.json", "a.rs"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap())
            .unwrap();
    assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(40));
}

// ---------------------------------------------------------------- 6, 7. the language server's wire

/// The server with raw bytes on stdin; its stdout frames, stderr and exit code.
struct Wire {
    frames: Vec<Value>,
    stderr: String,
    code: Option<i32>,
}

fn frames(bytes: &[u8]) -> Vec<Value> {
    let mut reader = BufReader::new(bytes);
    let mut out = Vec::new();
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return out;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.expect("Content-Length")];
        reader.read_exact(&mut body).unwrap();
        out.push(serde_json::from_slice(&body).unwrap());
    }
}

fn server(input: &[u8]) -> Wire {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_kube-order-lint"))
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // The server may stop reading early: a write error is not the test's failure.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let deadline = std::time::Instant::now() + TIMEOUT;
    while child.try_wait().unwrap().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = writer.join();
    let out = child.wait_with_output().unwrap();
    Wire {
        frames: frames(&out.stdout),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn initialize() -> Vec<u8> {
    let mut bytes = frame(&json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }).to_string());
    bytes.extend(frame(
        &json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }).to_string(),
    ));
    bytes
}

/// A huge `Content-Length` aborted the server (exit 134), the largest u64 panicked it (101),
/// 4000000000 allocated 3.9 GB before reading: the size is capped at 64 MiB, and a header
/// that cannot be read is answered with an error, then the server exits with a message.
#[test]
fn the_server_caps_the_message_size_and_refuses_bad_headers() {
    for header in [
        "Content-Length: 99999999999999",
        "Content-Length: 18446744073709551615",
        "Content-Length: 4000000000",
        "Content-Length: 67108865",
        "Content-Length: nine",
        "Content-Type: application/json",
    ] {
        let mut input = initialize();
        input.extend_from_slice(format!("{header}\r\n\r\n{{}}").as_bytes());
        let wire = server(&input);
        assert_eq!(wire.code, Some(2), "{header}: {}", wire.stderr);
        assert!(
            wire.stderr.starts_with("error: kube-order-lint server: "),
            "{header}: {}",
            wire.stderr
        );
        // Written by the reader, maybe before the answer to `initialize`.
        let error = wire
            .frames
            .iter()
            .find(|f| f.get("error").is_some())
            .unwrap_or_else(|| panic!("{header}: no error answered: {:?}", wire.frames));
        assert_eq!(error["id"], Value::Null, "{header}: {error}");
        assert_eq!(error["error"]["code"], -32700, "{header}: {error}");
        if header.contains("000") || header.contains("67108865") {
            assert!(
                wire.stderr
                    .contains("is larger than the limit of 64 MiB; not read"),
                "{header}: {}",
                wire.stderr
            );
        }
    }
}

/// Malformed JSON ended the server ("disconnected channel"): it is answered with a JSON-RPC
/// parse error (-32700), JSON that is no message with an invalid request (-32600), and the
/// server keeps serving (here: it still answers `shutdown` and exits on `exit`).
#[test]
fn the_server_answers_malformed_json_and_keeps_serving() {
    let mut input = initialize();
    input.extend(frame("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": "));
    input.extend(frame("[1, 2]"));
    input.extend(frame("{\"jsonrpc\": \"2.0\", \"id\": 3}"));
    input.extend(frame(
        &json!({ "jsonrpc": "2.0", "id": 4, "method": "shutdown" }).to_string(),
    ));
    input.extend(frame(
        &json!({ "jsonrpc": "2.0", "method": "exit" }).to_string(),
    ));
    let wire = server(&input);
    assert_eq!(wire.code, Some(0), "{}", wire.stderr);
    // Answers to different messages may come in any order.
    let mut answers: Vec<String> = wire
        .frames
        .iter()
        .map(|f| format!("{} {}", f["id"], f["error"]["code"]))
        .collect();
    answers.sort();
    assert_eq!(
        answers,
        ["1 null", "3 -32600", "4 null", "null -32600", "null -32700"],
        "{:?}",
        wire.frames
    );
}

// ---------------------------------------------------------------- 11. standard input

/// 600 MB on standard input were read whole (2.35 GB of memory): standard input is read
/// through the 64 MiB limit of a file, and more is an error.
#[test]
fn standard_input_is_read_through_the_file_size_limit() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_kube-order-lint"))
        .args(["--format", "short", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..65 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
        let _ = stdin.write_all(b"\n");
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("standard input is larger than 64 MiB; not read"),
        "{stderr}"
    );
}

// ---------------------------------------------------------------- 12. the GitHub Action

/// A checkout whose `rust-toolchain.toml` names a toolchain it ships, and a fake `cargo` on
/// `PATH` that records where and with which toolchain it runs (the Action's install step
/// runs with the checkout as working directory).
#[cfg(unix)]
#[test]
fn the_action_installs_from_outside_the_checkout_with_a_chosen_toolchain() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let checkout = dir.path().join("checkout");
    std::fs::create_dir_all(checkout.join(".cargo")).unwrap();
    write(
        &checkout,
        "rust-toolchain.toml",
        "[toolchain]\npath = \"/evil\"\n",
    );
    write(
        &checkout,
        ".cargo/config.toml",
        "[alias]\nkube-order-lint = \"run --bin evil\"\n",
    );
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.path().join("cargo.log");
    let root = dir.path().join("root");
    let cargo = bin.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"cwd=$PWD toolchain=${{RUSTUP_TOOLCHAIN:-}}\" >> '{}'\n\
             mkdir -p '{root}/bin'\nprintf '#!/bin/sh\\necho kube-order-lint 0\\n' > '{root}/bin/kube-order-lint'\n\
             chmod +x '{root}/bin/kube-order-lint'\n",
            log.display(),
            root = root.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("action/install.sh");
    let out = StdCommand::new("bash")
        .arg(&script)
        .current_dir(&checkout)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("GITHUB_PATH")
        .env("KOL_SOURCE", env!("CARGO_MANIFEST_DIR"))
        .env("KOL_ROOT", &root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(&log).unwrap();
    let line = log.lines().next().unwrap();
    let cwd = line
        .strip_prefix("cwd=")
        .and_then(|l| l.split(" toolchain=").next())
        .unwrap();
    assert!(
        !Path::new(cwd).starts_with(&checkout),
        "cargo ran inside the checkout: {line}"
    );
    assert!(
        line.ends_with(" toolchain=stable"),
        "no toolchain chosen: {line}"
    );
    // The check step runs the installed binary itself, never `cargo kube-order-lint`.
    let run_sh =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("action/run.sh"))
            .unwrap();
    assert!(!run_sh.contains("cargo kube-order-lint"));
}

/// The README's CI examples run the installed binary, not `cargo kube-order-lint` inside the
/// checkout (whose `.cargo/config.toml` `[alias]` and `rust-toolchain.toml` cargo obeys), and
/// install from outside it with a chosen toolchain.
#[test]
fn the_readme_ci_examples_never_run_cargo_inside_the_checkout() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme.find("\n## In CI").expect("the CI section");
    let end = readme[start + 1..]
        .find("\n## ")
        .map_or(readme.len(), |i| start + 1 + i);
    let ci = &readme[start..end];
    let mut in_yaml = false;
    for line in ci.lines() {
        if line.trim_start().starts_with("```") {
            in_yaml = !in_yaml && line.contains("yaml");
            continue;
        }
        if in_yaml {
            assert!(
                !line.contains("cargo kube-order-lint"),
                "README CI example: {line}"
            );
            if line.contains("cargo install") {
                assert!(
                    line.contains("cargo +stable install") && line.contains("cd "),
                    "README CI example installs inside the checkout: {line}"
                );
            }
        }
    }
    assert!(
        ci.contains("rust-toolchain.toml") && ci.contains("[alias]"),
        "the why is not said"
    );
}

// ---------------------------------------------------------------- 4, 8, 9, 10. cargo and dependencies

const DEPS_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/crates/deps-helpers"
);

/// A copy of the dependency-helpers fixture (`checked` depends on `oplib`, a path dependency
/// on kube, with a lock file), in `dir/deps`.
fn deps_fixture(dir: &Path) -> PathBuf {
    let to = dir.join("deps");
    for entry in walkdir::WalkDir::new(DEPS_FIXTURE) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(DEPS_FIXTURE).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
    to
}

/// The binary on the fixture's `checked`, with a cache directory of the test's own.
fn check_deps(dir: &Path, checked: &Path) -> Command {
    let mut cmd = tool_in(checked);
    cmd.env("XDG_CACHE_HOME", dir.join("cache"))
        .args(["--format", "json", "."]);
    cmd
}

fn notes(r: &Run) -> Vec<String> {
    let doc: Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", r.stdout, r.stderr));
    doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

/// A `target` directory that is a link to outside used to be written to: by `cargo metadata`
/// (`.rustc_info.json`) and by the dependency-summary cache. Cargo now has a target directory
/// of its own in a private temporary directory, and the cache lives in a directory the tool
/// creates; the dependency helpers still work.
#[cfg(unix)]
#[test]
fn a_target_directory_that_is_a_link_is_never_written_to() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = deps_fixture(dir.path());
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let checked = fixture.join("checked");
    symlink(&outside, &checked.join("target"));
    let r = run(&mut check_deps(dir.path(), &checked));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        doc["diagnostics"].as_array().map(Vec::len),
        Some(9),
        "{doc}"
    );
    let written: Vec<_> = walkdir::WalkDir::new(&outside)
        .min_depth(1)
        .into_iter()
        .map(|e| e.unwrap().path().to_path_buf())
        .collect();
    assert!(written.is_empty(), "written through the link: {written:?}");
}

/// A path dependency whose `Cargo.toml` is a FIFO hung the second `cargo metadata` (the one
/// for dependency helpers) forever: it gets the FIFO check of the first, and a note.
#[cfg(unix)]
#[test]
fn a_path_dependency_manifest_that_is_a_fifo_cannot_hang_the_helpers() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = deps_fixture(dir.path());
    let manifest = fixture.join("oplib/Cargo.toml");
    std::fs::remove_file(&manifest).unwrap();
    let c = std::ffi::CString::new(manifest.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let started = std::time::Instant::now();
    let r = run(&mut check_deps(dir.path(), &fixture.join("checked")));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // Both `cargo metadata` would read it (the first to check the lock file): an error for the
    // first (the directory is walked), a note for the second.
    assert_eq!(r.code, 2, "{}", r.stderr);
    let why = "the manifest of path dependency `../oplib` is not a regular file, and cargo \
               metadata would block reading it";
    assert!(
        r.stderr.contains(&format!(
            "error: Cargo.toml: {why}; checking every .rs file under it instead"
        )),
        "{}",
        r.stderr
    );
    let notes = notes(&r);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("helpers of dependencies not read") && n.contains(why)),
        "{notes:?}"
    );
}

/// The second `cargo metadata` had no time limit: a cargo that never finishes (here a stand-in
/// that hangs unless asked for `--no-deps`) hung the run. It now has the first one's (which a
/// stand-in that always hangs shows: an error, and the directory is walked).
#[cfg(unix)]
#[test]
fn every_cargo_metadata_has_the_time_limit() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let fixture = deps_fixture(dir.path());
    let cargo = dir.path().join("slow-cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\ncase \" $* \" in *\" --no-deps \"*) exec cargo \"$@\";; esac\nexec sleep 600\n",
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let started = std::time::Instant::now();
    let r = run(check_deps(dir.path(), &fixture.join("checked"))
        .env("CARGO", &cargo)
        .env("KUBE_ORDER_LINT_CARGO_TIMEOUT", "1"));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let notes = notes(&r);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("helpers of dependencies not read")
                && n.contains("cargo metadata did not finish within 1 s and was stopped")),
        "{notes:?}"
    );
    std::fs::write(&cargo, "#!/bin/sh\nexec sleep 600\n").unwrap();
    let r = run(check_deps(dir.path(), &fixture.join("checked"))
        .env("CARGO", &cargo)
        .env("KUBE_ORDER_LINT_CARGO_TIMEOUT", "1"));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let stopped = "error: Cargo.toml: cargo metadata did not finish within 1 s and was stopped";
    assert!(r.stderr.contains(stopped), "{}", r.stderr);
}

/// A manifest cargo reads whole (a sparse 3 GB one took 3.2 GB): manifests larger than
/// 16 MiB (here a sparse file of 17 MiB, taking no disk) are refused before cargo runs: a
/// path dependency's is an error for the discovery (the directory is walked) and a note for
/// the helpers. (A member's is also refused by the configuration, which reads it.)
#[cfg(unix)]
#[test]
fn manifests_larger_than_the_limit_are_not_given_to_cargo() {
    let pad = |path: &Path| {
        let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        file.set_len(17 * 1024 * 1024).unwrap();
    };
    let dir = tempfile::tempdir().unwrap();
    let fixture = deps_fixture(dir.path());
    pad(&fixture.join("oplib/Cargo.toml"));
    let r = run(&mut check_deps(dir.path(), &fixture.join("checked")));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let why = "the manifest of path dependency `../oplib` is larger than 16 MiB, which cargo \
               metadata would read whole";
    assert!(r.stderr.contains(why), "{}", r.stderr);
    let notes = notes(&r);
    assert!(notes.iter().any(|n| n.contains(why)), "{notes:?}");
}

/// A kube-dependent path dependency with a huge source file skipped the parse cap (62 MB took
/// 8.7 GB and over 120 s): dependency sources get the crate's own limit (here made small
/// through the library's option, so that the file can be small too), with a note; the other
/// files of the dependency still give their helpers.
#[test]
fn dependency_sources_get_the_parse_limit_of_the_crate() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = deps_fixture(dir.path());
    let lib = fixture.join("oplib/src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("mod big;\n{text}")).unwrap();
    let big: String = (0..2000).map(|i| format!("pub fn f{i}() {{}}\n")).collect();
    write(&fixture, "oplib/src/big.rs", &big);
    let report = kube_order_lint::check(&kube_order_lint::Options {
        paths: vec![fixture.join("checked")],
        jobs: Some(1),
        max_file_size: 16 * 1024,
        ..kube_order_lint::Options::default()
    });
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(
        report.notes.iter().any(|n| n
            .contains("big.rs: not read for the helpers of dependency oplib 0.3.1: it has")
            && n.contains("over the 16 KiB limit for parsing")),
        "{:?}",
        report.notes
    );
    assert_eq!(report.diagnostics.len(), 9, "{:?}", report.diagnostics);
}

// ---------------------------------------------------------------- 5. output that can deceive

/// Text an attacker may write: terminal escapes (a colour, an OSC window title, a BEL), a
/// right-to-left override, and lines that would be workflow commands for the GitHub runner.
const HOSTILE: &str = "\u{1b}[2J\u{1b}]0;owned\u{7}\u{202e}\n::error::forged\n  ##[error]forged\n";

/// Every line the tool prints, on either stream, in a format for people or the runner.
fn assert_harmless(text: &str, github: bool, what: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!text.contains(c), "{what}: {c:?} printed raw:\n{text}");
    }
    for line in text.lines() {
        let start = line.trim_start();
        assert!(!start.starts_with("##["), "{what}: {line}");
        if start.starts_with("::") {
            assert!(
                github
                    && ["::error ", "::warning ", "::notice "]
                        .iter()
                        .any(|c| line.starts_with(c)),
                "{what}: a workflow command not the tool's: {line}"
            );
        }
    }
}

/// Terminal escapes and workflow commands reached stdout and stderr from file names, file
/// contents (names in findings, help), suppression comments (errors) and configuration keys, in
/// `short`, `human` and `github` (notes, errors and help included). Each output sink now has
/// one escaping function; every format and channel gets the hostile text here.
#[cfg(unix)]
#[test]
fn hostile_text_is_harmless_in_every_format_and_channel() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    // A finding whose object name (a raw string) is the hostile text: message, notes, help.
    let finding = FINDING
        .replace("&pod.name_any()", &format!("r\"{HOSTILE}\""))
        .replace(
            "pods.create(&pp, &pod)",
            &format!("pods.delete(r\"{HOSTILE}\", &Default::default())"),
        );
    write(dir.path(), "a.rs", &finding);
    // A file name with the hostile text (a finding, and an error: a malformed suppression).
    let named = format!("{FINDING}// kube-order-lint: allow({HOSTILE})\n");
    write(dir.path(), &format!("b{HOSTILE}.rs"), &named);
    // A note naming a file: too large to parse.
    write(
        dir.path(),
        &format!("c{HOSTILE}.rs"),
        &"fn f() {}\n".repeat(200_000),
    );
    for format in ["human", "short", "github"] {
        for extra in [&[][..], &["--add-suppressions"][..]] {
            let r = run(tool_in(dir.path())
                .args(["--color", "never", "--format", format])
                .args(extra)
                .arg("."));
            let what = format!("{format} {extra:?}");
            assert!(matches!(r.code, 1 | 2), "{what}: {}", r.stderr);
            assert!(
                r.stdout.contains("forged") || r.stderr.contains("forged"),
                "{what}: the hostile text is not shown at all:\n{}{}",
                r.stdout,
                r.stderr
            );
            let github = format == "github";
            assert_harmless(&r.stdout, github, &format!("{what} stdout"));
            assert_harmless(&r.stderr, github, &format!("{what} stderr"));
            // Undo --add-suppressions.
            write(dir.path(), "a.rs", &finding);
        }
    }
    // A configuration key (an error that stops the run).
    write(
        dir.path(),
        "kube-order-lint.toml",
        &format!("{} = 1\n", serde_json::to_string(HOSTILE).unwrap()),
    );
    for format in ["human", "short", "github"] {
        let r = run(tool_in(dir.path()).args(["--format", format, "a.rs"]));
        assert_eq!(r.code, 2, "{format}: {}", r.stderr);
        assert_harmless(
            &r.stderr,
            format == "github",
            &format!("{format} configuration"),
        );
    }
}
