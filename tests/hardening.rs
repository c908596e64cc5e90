//! Hostile inputs, through the real binary (issue 16): a linter runs in CI on pull requests from
//! strangers, so file names, file contents and file types are chosen by an attacker. Each test
//! names the defect it guards against.

use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

use common::cli::{run, tool_in, write, Run, FINDING, MANIFEST};

use serde_json::Value;

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}); exit {:?}; stderr:\n{}",
            run.code, run.stderr
        )
    })
}

#[cfg(unix)]
#[test]
fn a_backslash_in_a_file_name_stays_a_backslash() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a\\b.rs", FINDING);
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc = json(&r);
    assert_eq!(doc["diagnostics"][0]["file"], "a\\b.rs", "{doc}");
    assert_eq!(doc["diagnostics"][0]["fix"]["edits"][0]["file"], "a\\b.rs");
    let r = run(tool_in(dir.path()).args(["--format", "github", "."]));
    assert!(r.stdout.contains(" file=a\\b.rs,line=3,"), "{}", r.stdout);
}

#[test]
fn the_current_directory_is_named_as_a_dot_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Cargo.toml", "this is [[ not toml");
    write(dir.path(), "finding.rs", FINDING);
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    let notes = json(&r)["notes"].to_string();
    assert!(notes.contains("cargo metadata failed for . ("), "{notes}");
}

/// A name that would make a fake annotation if printed as is where the runner reads commands.
#[cfg(unix)]
const INJECTION: &str = "a\n::error file=x::injected";

/// No line of `text` is a workflow command but those the tool writes, with escaped values.
#[cfg(unix)]
fn assert_no_injected_command(text: &str, what: &str) {
    for line in text.lines() {
        assert!(
            !line.trim_start().starts_with("::error file=x::"),
            "{what}: an injected command:\n{text}"
        );
    }
}

#[cfg(unix)]
#[test]
fn github_format_escapes_every_line_on_stdout_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "finding.rs", FINDING);
    // A file that does not parse, so that its name is printed as an error.
    write(
        dir.path(),
        &format!("{INJECTION}.rs"),
        "fn g(pods: Api<Pod> {\n",
    );
    let runs = [
        vec!["--format", "github", "."],
        vec!["--format", "github", "-o", "out.txt", "."],
        vec!["--format", "github", "--fix", "-o", "out.txt", "."],
        vec!["--format", "github", "--write-baseline", "b.json", "."],
        vec!["--format", "github", "--baseline", INJECTION, "."],
        vec!["--format", "github", "--min-confidence", INJECTION, "."],
        vec!["--format=github", "--config", INJECTION, "."],
    ];
    for args in runs {
        let r = run(tool_in(dir.path()).args(&args));
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_no_injected_command(&r.stdout, &format!("{args:?}: stdout"));
        assert_no_injected_command(&r.stderr, &format!("{args:?}: stderr"));
        // Errors on stderr are annotations themselves, never bare lines.
        for line in r.stderr.lines() {
            assert!(!line.starts_with("error"), "{args:?}: {}", r.stderr);
        }
        // An error shown on stdout is not repeated on stderr.
        if !args.contains(&"-o") && args.len() == 3 {
            assert!(
                r.stdout
                    .contains("::error file=a%0A%3A%3Aerror file=x%3A%3Ainjected.rs,line=1"),
                "{}",
                r.stdout
            );
            assert!(r.stderr.is_empty(), "{args:?}: {}", r.stderr);
        } else {
            assert!(r.stderr.contains("::error "), "{args:?}: {}", r.stderr);
        }
    }
}

#[test]
fn terminal_escapes_and_bidi_controls_from_the_file_are_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    // An escape that clears the screen and a right-to-left override, in a name and a comment.
    let hostile = FINDING
        .replace(
            "pods.create(&pp, &pod), pods.get(&pod.name_any())",
            "pods.delete(\"blog\", &Default::default()), pods.get(\"blog\")",
        )
        .replace("\"blog\"", "\"blog\u{1b}[2J\u{202e}\"")
        .replace("\n}", " // \u{2066}\u{1b}]0;title\u{7}\n}");
    write(dir.path(), "a.rs", &hostile);
    for color in ["never", "always"] {
        let r = run(tool_in(dir.path()).args(["--color", color, "a.rs"]));
        assert_eq!(r.code, 1, "{}", r.stderr);
        for raw in ["\u{1b}[2J", "\u{1b}]0;", "\u{202e}", "\u{2066}", "\u{7}"] {
            assert!(!r.stdout.contains(raw), "{color}: {raw:?} in\n{}", r.stdout);
        }
        assert!(
            r.stdout.contains("\"blog\\u{1b}[2J\\u{202e}\""),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout.contains("\\u{2066}\\u{1b}]0;title\\u{7}"),
            "{}",
            r.stdout
        );
    }
    let r = run(tool_in(dir.path()).args(["--format", "short", "a.rs"]));
    assert!(
        !r.stdout.contains('\u{1b}') && r.stdout.contains("\\u{1b}"),
        "{}",
        r.stdout
    );
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[cfg(unix)]
fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

fn errors(doc: &Value) -> Vec<String> {
    common::json_errors(doc)
}

/// A crate whose manifest is `manifest` (written by the caller when None), with one finding.
fn crate_with(manifest: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("app/src")).unwrap();
    if let Some(m) = manifest {
        write(dir.path(), "app/Cargo.toml", m);
    }
    write(dir.path(), "app/src/lib.rs", FINDING);
    dir
}

/// A FIFO would block the reader until a writer comes (never); `/dev/zero` never ends. Either
/// is an error naming the manifest, at once (the timeout of `tool_in` fails the test otherwise).
#[cfg(unix)]
#[test]
fn a_manifest_that_is_a_fifo_or_a_device_is_an_error_not_a_hang() {
    for (what, expected) in [
        ("fifo", "a FIFO (named pipe), not a regular file"),
        ("zero", "a character device, not a regular file"),
    ] {
        let dir = crate_with(None);
        let manifest = dir.path().join("app/Cargo.toml");
        match what {
            "fifo" => mkfifo(&manifest),
            _ => symlink("/dev/zero", &manifest),
        }
        let r = run(tool_in(dir.path()).args(["--format", "json", "app"]));
        assert_eq!(r.code, 2, "{what}: {}", r.stderr);
        assert_eq!(
            r.stderr,
            format!("error: app/Cargo.toml: cannot read configuration: {expected}\n"),
            "{what}"
        );
    }
}

/// An unreadable configuration is an error: ignoring it would lose its `exclude` and levels.
#[cfg(unix)]
#[test]
fn an_unreadable_manifest_or_configuration_file_is_an_error() {
    // A dangling link, a directory: unreadable whoever runs the tool.
    let dir = crate_with(None);
    symlink("nowhere.toml", &dir.path().join("app/Cargo.toml"));
    let r = run(tool_in(dir.path()).args(["--format", "json", "app"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: app/Cargo.toml: cannot read configuration: dangling symbolic link: its target \
         nowhere.toml does not exist\n"
    );

    let dir = crate_with(Some(MANIFEST));
    std::fs::create_dir(dir.path().join("app/kube-order-lint.toml")).unwrap();
    let r = run(tool_in(dir.path()).args(["--format", "json", "app"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: app/kube-order-lint.toml: cannot read configuration: a directory, not a regular \
         file\n"
    );

    // Permissions (as root only through an unprivileged user).
    for name in ["Cargo.toml", "kube-order-lint.toml"] {
        let dir = crate_with(Some(MANIFEST));
        let file = dir.path().join("app").join(name);
        if name != "Cargo.toml" {
            write(
                dir.path(),
                "app/kube-order-lint.toml",
                "exclude = [\"src/lib.rs\"]\n",
            );
        }
        set_mode(&file, 0o000);
        let Some(mut cmd) = unprivileged(dir.path()) else {
            return;
        };
        let out = cmd.args(["--format", "json", "app"]).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: app/{name}: cannot read configuration: permission denied\n")
        );
    }
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The binary as an unprivileged user (through `setpriv` when running as root, since root reads
/// any file), with the time limit; None (test skipped, with the reason) when impossible.
#[cfg(unix)]
fn unprivileged(dir: &Path) -> Option<std::process::Command> {
    let bin = assert_cmd::cargo::cargo_bin("kube-order-lint");
    // SAFETY: no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let command = || {
        if root {
            let mut cmd = std::process::Command::new("setpriv");
            cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&bin);
            cmd
        } else {
            std::process::Command::new(&bin)
        }
    };
    // Temporary directories are private to their owner: open them to the unprivileged user.
    for d in dir.ancestors().take(3) {
        if d.starts_with(std::env::temp_dir()) && d != std::env::temp_dir() {
            set_mode(d, 0o755);
        }
    }
    for entry in walkdir(dir) {
        if entry.is_dir() {
            set_mode(&entry, 0o755);
        }
    }
    match command().arg("--version").output() {
        Ok(out) if out.status.success() => {
            let mut cmd = command();
            cmd.current_dir(dir);
            Some(cmd)
        }
        other => {
            eprintln!("skipped: cannot run the binary as an unprivileged user ({other:?})");
            None
        }
    }
}

/// Every directory under `dir`.
#[cfg(unix)]
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        if let Ok(entries) = std::fs::read_dir(&out[i]) {
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    out.push(e.path());
                }
            }
        }
        i += 1;
    }
    out
}

/// In a walked directory, FIFOs and devices named `*.rs` are not read, and not dropped silently
/// either: counted as skipped, with a note. Named on the command line, they are errors.
#[cfg(unix)]
#[test]
fn fifos_and_devices_named_rs_are_noted_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "finding.rs", FINDING);
    mkfifo(&dir.path().join("pipe.rs"));
    symlink("/dev/zero", &dir.path().join("zero.rs"));
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc = json(&r);
    assert_eq!(doc["files_skipped"], 2, "{doc}");
    assert_eq!(doc["files_checked"], 1, "{doc}");
    assert_eq!(
        doc["notes"],
        serde_json::json!([
            "pipe.rs was not checked: it is a FIFO (named pipe), not a regular file",
            "zero.rs was not checked: it is a character device, not a regular file"
        ])
    );
    let r = run(tool_in(dir.path()).arg("."));
    assert!(
        r.stdout
            .contains("1 finding (1 definite, 0 possible) in 1 file checked, 2 skipped"),
        "{}",
        r.stdout
    );

    let r = run(tool_in(dir.path()).args(["--format", "json", "pipe.rs", "zero.rs", "finding.rs"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        errors(&json(&r)),
        [
            "pipe.rs: a FIFO (named pipe), not a regular file or a directory",
            "zero.rs: a character device, not a regular file or a directory"
        ]
    );
}

/// `mod x;` whose file is there but cannot be read says what it is, not "does not exist".
#[cfg(unix)]
#[test]
fn a_module_file_that_is_a_link_loop_a_dangling_link_or_a_fifo_says_so() {
    let dir = crate_with(Some(MANIFEST));
    let src = dir.path().join("app/src");
    write(
        dir.path(),
        "app/src/lib.rs",
        &format!("mod looped;\nmod dangling;\nmod pipe;\nmod gone;\n{FINDING}"),
    );
    symlink("looped.rs", &src.join("looped.rs"));
    symlink("nowhere.rs", &src.join("dangling.rs"));
    mkfifo(&src.join("pipe.rs"));
    let r = run(tool_in(dir.path()).args(["--format", "json", "app"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let e = errors(&json(&r));
    let expected = [
        "app/src/lib.rs:1:1: file not found for module: app/src/looped.rs: symbolic link cannot be followed: ",
        "app/src/lib.rs:2:1: file not found for module: app/src/dangling.rs: dangling symbolic link: its target nowhere.rs does not exist",
        "app/src/lib.rs:3:1: file not found for module: app/src/pipe.rs: a FIFO (named pipe), not a regular file",
        "app/src/lib.rs:4:1: file not found for module: app/src/gone.rs does not exist",
    ];
    assert_eq!(e.len(), expected.len(), "{e:?}");
    for (e, expected) in e.iter().zip(expected) {
        assert!(e.starts_with(expected), "{e}\nexpected: {expected}");
    }
}

/// FINDING padded with comments past the file size limit of [`with_file_size_limit`].
fn big_finding() -> String {
    let big = format!(
        "{FINDING}{}",
        "// padding to make the file large\n".repeat(400)
    );
    assert!(big.len() > 8 * 1024);
    big
}

/// The binary in `dir` under `sh` with a file size limit of 16 blocks of 512 bytes (POSIX
/// `ulimit -f`): a real write failure, root included. With `ignore_signal`, the write fails
/// with EFBIG; without, SIGXFSZ kills the process in the middle of it.
#[cfg(unix)]
fn with_file_size_limit(dir: &Path, ignore_signal: bool, args: &[&str]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("kube-order-lint");
    let script = if ignore_signal {
        r#"trap '' XFSZ; ulimit -f 16 && exec "$0" "$@""#
    } else {
        r#"ulimit -f 16 && exec "$0" "$@""#
    };
    std::process::Command::new("sh")
        .current_dir(dir)
        .args(["-c", script])
        .arg(bin)
        .args(args)
        .output()
        .expect("run sh")
}

/// `--add-suppressions` writes as `--fix` does: a failed or interrupted write leaves the file
/// as it was (it used to be cut off mid-statement), and the run says so.
#[cfg(unix)]
#[test]
fn add_suppressions_never_leaves_a_file_cut_short() {
    for ignore_signal in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.rs", FINDING);
        let big = big_finding();
        write(dir.path(), "b.rs", &big);
        let out = with_file_size_limit(
            dir.path(),
            ignore_signal,
            &["--add-suppressions", "a.rs", "b.rs"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let a = std::fs::read_to_string(dir.path().join("a.rs")).unwrap();
        assert!(
            a.contains("// kube-order-lint: allow(concurrent-same-object)"),
            "{a}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("b.rs")).unwrap(),
            big
        );
        if ignore_signal {
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(
                stderr.contains("error: b.rs: cannot add suppressions: cannot write the fixed file: file too large"),
                "{stderr}"
            );
            assert!(
                stderr.contains("added 1 suppression comment in 1 file"),
                "{stderr}"
            );
            // The temporary file was removed.
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        } else {
            assert_eq!(out.status.code(), None, "killed by SIGXFSZ: {out:?}");
        }
    }
}

/// The documented rules for links hold for `--add-suppressions` too: a symbolic link is kept
/// and the file it points to changed; a file with several hard links is left alone.
#[cfg(unix)]
#[test]
fn add_suppressions_keeps_symbolic_links_and_leaves_hard_links_alone() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "real.rs", FINDING);
    symlink("real.rs", &dir.path().join("link.rs"));
    write(dir.path(), "hard.rs", FINDING);
    std::fs::hard_link(dir.path().join("hard.rs"), dir.path().join("other-name")).unwrap();
    let r = run(tool_in(dir.path()).args(["--add-suppressions", "link.rs", "hard.rs"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "error: hard.rs: cannot add suppressions: the file has 2 hard links, which replacing \
             it would separate; left unchanged"
        ),
        "{}",
        r.stderr
    );
    assert!(std::fs::symlink_metadata(dir.path().join("link.rs"))
        .unwrap()
        .file_type()
        .is_symlink());
    let real = std::fs::read_to_string(dir.path().join("real.rs")).unwrap();
    assert!(real.contains("// kube-order-lint: allow("), "{real}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("hard.rs")).unwrap(),
        FINDING
    );
}

/// A read-only file is not rewritten (the rename would only need the directory to be
/// writable), as editors refuse; the other files are still fixed.
#[cfg(unix)]
#[test]
fn fix_refuses_read_only_files_and_fixes_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let locked = write(dir.path(), "locked.rs", FINDING);
    let open = write(dir.path(), "open.rs", FINDING);
    set_mode(&locked, 0o444);
    for flag in ["--fix", "--add-suppressions"] {
        let r = run(tool_in(dir.path()).args([flag, "locked.rs", "open.rs"]));
        assert_eq!(r.code, 2, "{flag}: {}\n{}", r.stdout, r.stderr);
        let out = format!("{}{}", r.stdout, r.stderr);
        assert!(
            out.contains("error: locked.rs: ")
                && out.contains("the file is read-only; left unchanged"),
            "{flag}: {out}"
        );
        assert_eq!(std::fs::read_to_string(&locked).unwrap(), FINDING);
        assert_ne!(std::fs::read_to_string(&open).unwrap(), FINDING, "{flag}");
        std::fs::write(&open, FINDING).unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&locked).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444);
}

/// `-o` and `--write-baseline` onto a file being checked would destroy it: refused (exit 2),
/// whatever name it is given, and nothing is written (not even by `--fix`).
#[test]
fn output_and_baseline_onto_a_checked_file_are_refused() {
    let dir = crate_with(Some(MANIFEST));
    write(
        dir.path(),
        "app/src/lib.rs",
        &format!("mod other;\n{FINDING}"),
    );
    write(dir.path(), "app/src/other.rs", "fn other() {}\n");
    let lib = std::fs::read_to_string(dir.path().join("app/src/lib.rs")).unwrap();
    for args in [
        vec!["-o", "app/src/lib.rs", "app"],
        vec!["--output", "./app/src/../src/other.rs", "app"],
        vec!["--fix", "-o", "app/src/lib.rs", "app"],
        vec![
            "--format",
            "json",
            "-o",
            "app/src/other.rs",
            "app/src/other.rs",
        ],
        vec!["--write-baseline", "app/src/other.rs", "app"],
    ] {
        let r = run(tool_in(dir.path()).args(&args));
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("error: --")
                && r.stderr
                    .contains(": this is one of the files checked; it is not overwritten"),
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("app/src/lib.rs")).unwrap(),
            lib
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("app/src/other.rs")).unwrap(),
            "fn other() {}\n"
        );
    }
    // Other files are fine.
    let r =
        run(tool_in(dir.path()).args(["-o", "report.txt", "--write-baseline", "b.json", "app"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Thousands of worker threads used to take minutes to start and spin; the count is capped.
#[test]
fn a_huge_job_count_is_capped_and_does_not_hang() {
    let dir = crate_with(Some(MANIFEST));
    write(
        dir.path(),
        "app/src/lib.rs",
        &format!("mod other;\n{FINDING}"),
    );
    write(dir.path(), "app/src/other.rs", FINDING);
    for path in ["app", "app/src/other.rs"] {
        let started = std::time::Instant::now();
        let r = run(tool_in(dir.path())
            .timeout(Duration::from_secs(30))
            .args(["-j", "10000", "--format", "json", path]));
        assert!(r.code != -1, "{path}: killed after {:?}", started.elapsed());
        assert_eq!(r.code, 1, "{path}: {}", r.stderr);
    }
    let r = run(tool_in(dir.path()).arg("--help"));
    assert!(r.stdout.contains("Capped at 4 per core"), "{}", r.stdout);
}

/// A relative URI whose first segment has a `:` reads as a URL with a scheme.
#[test]
fn sarif_relative_uris_cannot_read_as_urls() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "http:evil.rs", FINDING);
    let r = run(tool_in(dir.path()).args(["--format", "sarif", "."]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc = json(&r);
    let location = &doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"], "http%3Aevil.rs",
        "{location}"
    );
    assert!(!r.stdout.contains("\"http:evil.rs\""), "{}", r.stdout);
}

/// A crate whose `rust-toolchain.toml` points at a toolchain it ships: checking it must not run
/// that toolchain's `cargo` (rustup's proxy reads the file of the working directory). Where
/// rustup is not the `cargo` on PATH, nothing would read the file and the test proves less.
#[cfg(unix)]
#[test]
fn the_checked_crate_cannot_choose_the_cargo_that_runs() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("crate");
    let toolchain = dir.path().join("toolchain/bin");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::create_dir_all(&toolchain).unwrap();
    let marker = dir.path().join("ran");
    for program in ["cargo", "rustc"] {
        let script = toolchain.join(program);
        std::fs::write(
            &script,
            format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"c\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(krate.join("src/lib.rs"), FINDING).unwrap();
    std::fs::write(
        krate.join("rust-toolchain.toml"),
        format!(
            "[toolchain]\npath = \"{}\"\n",
            dir.path().join("toolchain").display()
        ),
    )
    .unwrap();
    let r = run(tool_in(&krate)
        .env_remove("CARGO")
        .env_remove("RUSTUP_TOOLCHAIN")
        .arg("."));
    assert!(!marker.exists(), "the crate's toolchain ran: {}", r.stderr);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("cargo metadata failed"), "{}", r.stdout);
}

/// Outside any repository or workspace, configuration is read up to the nearest package root
/// only: a crate checked in a home or temporary directory does not pick up (or stop at) a
/// stranger's configuration from the directories above it. Its own configuration still counts.
#[test]
fn configuration_above_the_checked_tree_outside_a_repository_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("kube-order-lint.toml"), "lintz = 1\n").unwrap();
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(proj.join("src")).unwrap();
    std::fs::write(proj.join("src/lib.rs"), FINDING).unwrap();
    std::fs::write(proj.join("loose.rs"), FINDING).unwrap();
    // A loose file: only its own directory's configuration.
    let r = run(tool_in(&proj).arg("loose.rs"));
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // A package: its own configuration, found from its `src/`.
    std::fs::write(proj.join("Cargo.toml"), MANIFEST).unwrap();
    std::fs::write(
        proj.join("kube-order-lint.toml"),
        "[lints]\nall = \"allow\"\n",
    )
    .unwrap();
    let r = run(tool_in(&proj).arg("src/lib.rs"));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

/// The size limit for parsing counts tokens, not the whitespace between them: padding a file
/// with blanks must not make it too large to check.
#[test]
fn whitespace_padding_does_not_hide_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let padding = format!("{}\n", " \t".repeat(1 << 20));
    write(
        dir.path(),
        "padded.rs",
        &format!("{padding}{FINDING}{padding}"),
    );
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc = json(&r);
    assert_eq!(doc["diagnostics"][0]["file"], "padded.rs", "{doc}");
    assert_eq!(doc["files_skipped"], 0, "{doc}");
    let r = run(tool_in(dir.path()).args(["--format", "short", "--quiet", "."]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("padded.rs:"), "{}", r.stdout);
}

/// A file with more code than the limit is not checked, and every format says so (on standard
/// output or standard error), naming the file.
#[test]
fn a_file_too_large_to_parse_is_named_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let table = format!("static T: [u8; 600000] = [{}];\n", "7,".repeat(600_000));
    write(dir.path(), "big.rs", &format!("{FINDING}{table}"));
    let note = "big.rs was not checked: it has 1";
    for format in ["human", "short", "json", "sarif", "github", "rustc-json"] {
        let r = run(tool_in(dir.path()).args(["--format", format, "."]));
        assert_eq!(r.code, 0, "{format}: {}", r.stderr);
        assert!(
            r.stdout.contains(note) || r.stderr.contains(note),
            "{format}: stdout:\n{}\nstderr:\n{}",
            r.stdout,
            r.stderr
        );
    }
}

/// rustc removes exactly one byte order mark; a second one is a character that starts no token.
/// The check says so, at its position, and `--fix` agrees (it does not call the file changed
/// on disk); the other files are still checked and fixed.
#[test]
fn a_second_byte_order_mark_is_an_error_in_check_and_fix_alike() {
    let dir = tempfile::tempdir().unwrap();
    let doubled = format!("\u{feff}\u{feff}{FINDING}");
    let two = write(dir.path(), "two_boms.rs", &doubled);
    let one = write(dir.path(), "one_bom.rs", &format!("\u{feff}{FINDING}"));
    let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let doc = json(&r);
    let errors = common::json_errors(&doc);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("two_boms.rs:1:1: "), "{errors:?}");
    assert!(errors[0].contains("\\u{feff}"), "{errors:?}");
    assert_eq!(doc["diagnostics"][0]["file"], "one_bom.rs", "{doc}");
    let r = run(tool_in(dir.path()).args(["--fix", "."]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert!(!out.contains("changed on disk"), "{out}");
    assert!(out.contains("two_boms.rs:1:1"), "{out}");
    assert_eq!(std::fs::read_to_string(&two).unwrap(), doubled);
    let fixed = std::fs::read_to_string(&one).unwrap();
    assert!(fixed.starts_with('\u{feff}') && fixed != format!("\u{feff}{FINDING}"));
}

/// A workspace of members `a` (a finding) and `crates/b`, whose `Cargo.toml` is a FIFO; `b` is
/// listed by `b_pattern`.
#[cfg(unix)]
fn workspace_with_a_fifo_member(b_pattern: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let manifest = format!("[workspace]\nmembers = [\"a\", \"{b_pattern}\"]\n");
    write(dir.path(), "Cargo.toml", &manifest);
    for member in ["a", "crates/b"] {
        std::fs::create_dir_all(dir.path().join(member).join("src")).unwrap();
        write(dir.path(), &format!("{member}/src/lib.rs"), FINDING);
    }
    write(dir.path(), "a/Cargo.toml", &MANIFEST.replace("app", "a"));
    mkfifo(&dir.path().join("crates/b/Cargo.toml"));
    dir
}

/// `cargo metadata` itself blocks on a workspace member whose manifest is a FIFO: the members
/// are looked at first, their globs expanded as cargo does (any pattern form), which is an
/// error, and the directory is walked instead, where that member is an error of its own and the
/// other members are still checked.
#[cfg(unix)]
#[test]
fn a_member_manifest_that_is_a_fifo_cannot_hang_cargo_metadata() {
    for pattern in [
        "crates/b",
        "crates/*",
        "c*/b",
        "crates/?",
        "**/b",
        "crates/[ab]",
    ] {
        let dir = workspace_with_a_fifo_member(pattern);
        // Found before cargo runs: no waiting for its timeout (30 s by default).
        let started = std::time::Instant::now();
        let r = run(tool_in(dir.path()).args(["--format", "json", "."]));
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{pattern}: {:?}",
            started.elapsed()
        );
        assert_eq!(r.code, 2, "{pattern}: {}", r.stderr);
        let doc = json(&r);
        assert_eq!(
            errors(&doc),
            [
                "Cargo.toml: the manifest of member `crates/b` is not a regular file, and cargo \
                 metadata would block reading it; checking every .rs file under it instead",
                "crates/b/Cargo.toml: cannot read the package manifest: a FIFO (named pipe), not a \
                 regular file; the package is not checked"
            ],
            "{pattern}"
        );
        assert_eq!(doc["diagnostics"][0]["file"], "a/src/lib.rs", "{doc}");
        assert_eq!(
            doc["diagnostics"].as_array().map(Vec::len),
            Some(1),
            "{pattern}: {doc}"
        );
    }
}

/// A member that matches a glob but is excluded is not read by cargo: no error for it.
#[cfg(unix)]
#[test]
fn an_excluded_member_manifest_that_is_a_fifo_is_left_to_cargo() {
    let dir = workspace_with_a_fifo_member("crates/*");
    let manifest = "[workspace]\nmembers = [\"a\", \"crates/*\"]\nexclude = [\"crates/b\"]\n";
    write(dir.path(), "Cargo.toml", manifest);
    let r = run(tool_in(dir.path())
        .env("KUBE_ORDER_LINT_CARGO_TIMEOUT", "5")
        .args(["--format", "json", "."]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc = json(&r);
    assert!(errors(&doc).is_empty(), "{doc}");
    assert_eq!(doc["diagnostics"][0]["file"], "a/src/lib.rs", "{doc}");
}

/// A blocking manifest of a path dependency of a member (which cargo reads to find the
/// workspace): once stopped by cargo's timeout, now found by the look before cargo runs (issue
/// 27: path dependencies too), at once; the directory is walked. The timeout itself is tested
/// in `hardening_round3.rs` (`every_cargo_metadata_has_the_time_limit`).
#[cfg(unix)]
#[test]
fn cargo_metadata_blocked_by_a_member_manifest_is_stopped() {
    let dir = workspace_with_a_fifo_member("a");
    let manifest = format!(
        "{}\n[dependencies]\nb = {{ path = \"../crates/b\" }}\n",
        MANIFEST.replace("app", "a")
    );
    write(dir.path(), "a/Cargo.toml", &manifest);
    write(dir.path(), "Cargo.toml", "[workspace]\nmembers = [\"a\"]\n");
    let started = std::time::Instant::now();
    let r = run(tool_in(dir.path())
        .env("KUBE_ORDER_LINT_CARGO_TIMEOUT", "1")
        .args(["--format", "json", "."]));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let doc = json(&r);
    assert_eq!(
        errors(&doc)[0],
        "Cargo.toml: the manifest of path dependency `crates/b` is not a regular file, and cargo \
         metadata would block reading it; checking every .rs file under it instead",
        "{doc}"
    );
    assert_eq!(doc["diagnostics"][0]["file"], "a/src/lib.rs", "{doc}");
}

/// A helper whose locals each read every local before them: following the name through them
/// is bounded (32 locals per name), not exponential in the depth. It finishes at once, and the
/// two calls with the same argument are still reported.
#[test]
fn names_computed_through_many_locals_are_followed_within_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut helper =
        String::from("async fn touch(pods: &Api<Pod>, base: &str) {\n    let l0 = base.trim();\n");
    for i in 1..120 {
        let reads: Vec<String> = (0..i).map(|j| format!("l{j}")).collect();
        helper.push_str(&format!("    let l{i} = join(&[{}]);\n", reads.join(", ")));
    }
    helper.push_str("    let _ = pods.delete(&l119, &DeleteParams::default()).await;\n}\n");
    let text = format!(
        "use k8s_openapi::api::core::v1::Pod;\nuse kube::api::{{Api, DeleteParams}};\n\n{helper}\n\
         async fn twice(pods: Api<Pod>) {{\n    tokio::join!(touch(&pods, \"a\"), touch(&pods, \"a\"));\n}}\n"
    );
    one_finding_at_once(dir.path(), &text);
}

/// A package of a workspace that depends on `deps`, with `lib` as its `src/lib.rs`.
fn member(dir: &Path, name: &str, deps: &[&str], lib: &str) {
    std::fs::create_dir_all(dir.join(name).join("src")).unwrap();
    let deps: String = deps
        .iter()
        .map(|d| format!("{d} = {{ path = \"../{d}\" }}\n"))
        .collect();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{deps}"
    );
    write(dir, &format!("{name}/Cargo.toml"), &manifest);
    write(dir, &format!("{name}/src/lib.rs"), lib);
}

/// Members list their direct dependencies only, and the run closes them into scopes: `top`
/// still reaches the helper of `bottom` that `middle` re-exports, also when `middle` itself is
/// not checked (`-p top -p bottom`), through the dependencies of the members not checked.
#[test]
fn a_member_reaches_the_members_it_depends_on_through_others() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[workspace]\nmembers = [\"top\", \"middle\", \"bottom\"]\n",
    );
    member(
        dir.path(),
        "bottom",
        &[],
        "use kube::api::{Api, DeleteParams};\n\
         pub async fn touch(pods: &Api<Pod>) {\n    \
             let _ = pods.delete(\"a\", &DeleteParams::default()).await;\n}\n",
    );
    member(
        dir.path(),
        "middle",
        &["bottom"],
        "pub use bottom::touch;\n",
    );
    member(
        dir.path(),
        "top",
        &["middle"],
        "use kube::api::Api;\nuse middle::touch;\n\
         pub async fn f(pods: Api<Pod>) {\n    tokio::join!(touch(&pods), pods.get(\"a\"));\n}\n",
    );
    for args in [&["."][..], &["-p", "top", "-p", "bottom"]] {
        let r = run(tool_in(dir.path()).args(["--format", "json"]).args(args));
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        let doc = json(&r);
        let found: Vec<(&str, &str)> = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["file"].as_str().unwrap(), d["lint"].as_str().unwrap()))
            .collect();
        assert_eq!(
            found,
            [("top/src/lib.rs", "concurrent-same-object")],
            "{args:?}: {doc}"
        );
    }
}

/// Helpers whose `format!` each inserts five calls of the one before: following the name a call
/// returns is bounded (32 calls per name, names of at most 64 parts), not exponential in the
/// depth. It finishes at once.
#[test]
fn names_returned_through_many_helpers_are_followed_within_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut helpers = String::from("fn n0(a: &str) -> String {\n    format!(\"{a}-0\")\n}\n");
    for i in 1..12 {
        let call = format!("n{}(a)", i - 1);
        helpers.push_str(&format!(
            "fn n{i}(a: &str) -> String {{\n    format!(\"{{}}{{}}{{}}{{}}{{}}-{i}\", {call}, {call}, {call}, {call}, {call})\n}}\n"
        ));
    }
    let text = format!(
        "use k8s_openapi::api::core::v1::Pod;\nuse kube::api::{{Api, DeleteParams}};\n\n{helpers}\n\
         async fn touch(pods: &Api<Pod>, name: &str) {{\n    let _ = pods.delete(name, &DeleteParams::default()).await;\n}}\n\n\
         async fn twice(pods: Api<Pod>) {{\n    tokio::join!(touch(&pods, &n11(\"a\")), touch(&pods, &n11(\"a\")));\n}}\n"
    );
    one_finding_at_once(dir.path(), &text);
}

/// `text` as `main.rs` in `dir`, checked at every confidence: one finding, well within 20 s (the
/// bounded expansions finish at once; without their bounds they run for minutes).
fn one_finding_at_once(dir: &Path, text: &str) {
    write(dir, "main.rs", text);
    let started = std::time::Instant::now();
    let r = run(tool_in(dir).args(["--format", "json", "--min-confidence", "unknown", "main.rs"]));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(json(&r)["diagnostics"].as_array().map(Vec::len), Some(1));
}
