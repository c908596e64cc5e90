//! `kube-order-lint server` end to end: the real binary, spoken to over stdio in JSON-RPC with
//! LSP's framing, as an editor does.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kube-order-lint"))
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the server");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
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
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Send a request and wait for its response (notifications in between are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.receive();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{m}");
                return m["result"].clone();
            }
        }
    }

    fn receive(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(30))
            .expect("a message from the server within 30 s")
    }

    /// The next publishDiagnostics notification.
    fn diagnostics(&mut self) -> Value {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics" {
                return m["params"].clone();
            }
        }
    }
}

#[test]
fn publishes_diagnostics_and_offers_fixes_over_json_rpc() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let path = dir.path().join("reconcile.rs");
    let uri = format!("file://{}", path.display());
    let code = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/ui/concurrent-same-object/seed.rs"
    ))
    .unwrap();

    let mut client = Client::start();
    let init = client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    assert_eq!(init["serverInfo"]["name"], "kube-order-lint");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 1);
    assert!(init["capabilities"]["codeActionProvider"].is_object());
    client.notify("initialized", json!({}));

    // didOpen: the editor's text is checked (the file does not exist on disk).
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": code } }),
    );
    let published = client.diagnostics();
    assert_eq!(published["uri"], uri);
    let diagnostics = published["diagnostics"].as_array().unwrap().clone();
    assert_eq!(diagnostics.len(), 2, "{published}");
    let first = &diagnostics[0];
    assert_eq!(first["code"], "concurrent-same-object");
    assert_eq!(first["source"], "kube-order-lint");
    assert_eq!(first["severity"], 2);
    assert_eq!(
        first["range"]["start"],
        json!({ "line": 14, "character": 29 })
    );
    assert!(first["message"]
        .as_str()
        .unwrap()
        .starts_with("create and get of the same Pod \"blog\" run concurrently"));
    assert_eq!(first["relatedInformation"].as_array().unwrap().len(), 2);

    // codeAction on the finding: its fix, as a workspace edit of the document.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": first["range"],
            "context": { "diagnostics": [first] }
        }),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(action["isPreferred"], true);
    assert_eq!(
        action["title"],
        "await the requests one after another, in the order written (kube-order-lint: safe fix)"
    );
    let edits = action["edit"]["changes"][&uri].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert!(edits[0]["newText"]
        .as_str()
        .unwrap()
        .contains("pods.create(&pp, &pod).await"));
    // A range without findings: no action.
    let none = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } },
            "context": { "diagnostics": [] }
        }),
    );
    assert_eq!(none, json!([]));

    // didSave with the fixed text: nothing left.
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri }, "text": "fn main() {}\n" }),
    );
    let published = client.diagnostics();
    assert_eq!(published["diagnostics"], json!([]));

    // A parse error is a diagnostic at its position.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": "fn main(\n" }]
        }),
    );
    let published = client.diagnostics();
    assert_eq!(published["diagnostics"][0]["severity"], 1, "{published}");

    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// An initialized client.
fn started() -> Client {
    let mut client = Client::start();
    client.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    client.notify("initialized", json!({}));
    client
}

fn seed() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/ui/concurrent-same-object/seed.rs"
    ))
    .unwrap()
}

#[test]
fn exit_without_shutdown_ends_with_exit_code_1() {
    let mut client = started();
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status}");
}

#[test]
fn did_close_clears_the_diagnostics_of_the_document() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let uri = format!("file://{}", dir.path().join("lib.rs").display());
    let mut client = started();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": seed() } }),
    );
    assert_eq!(
        client.diagnostics()["diagnostics"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    let published = client.diagnostics();
    assert_eq!(published["uri"], uri);
    assert_eq!(published["diagnostics"], json!([]));
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

#[test]
fn untitled_documents_are_checked_without_configuration() {
    let mut client = started();
    let uri = "untitled:Untitled-1";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": seed() } }),
    );
    let published = client.diagnostics();
    assert_eq!(published["uri"], uri);
    let diagnostics = published["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 2, "{published}");
    assert_eq!(diagnostics[0]["code"], "concurrent-same-object");
    // Quick fixes work on them too.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": diagnostics[0]["range"],
            "context": { "diagnostics": [diagnostics[0]] }
        }),
    );
    assert_eq!(actions.as_array().unwrap().len(), 1, "{actions}");
}

#[test]
fn a_configuration_error_is_published_on_the_configuration_file_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let config = root.join("kube-order-lint.toml");
    std::fs::write(
        &config,
        "# levels\n[lints]\nconcurrent-same-objet = \"deny\"\n",
    )
    .unwrap();
    let uri = format!("file://{}", root.join("lib.rs").display());
    let config_uri = format!("file://{}", config.display());
    let mut client = started();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": seed() } }),
    );
    // The document: no diagnostic at 1:1 about another file.
    let mut seen = Vec::new();
    let mut message = None;
    while seen.len() < 2 || message.is_none() {
        let m = client.receive();
        match m["method"].as_str() {
            Some("textDocument/publishDiagnostics") => seen.push(m["params"].clone()),
            Some("window/showMessage") => message = Some(m["params"].clone()),
            _ => {}
        }
    }
    let of = |u: &str| seen.iter().find(|p| p["uri"] == u).cloned().unwrap();
    assert_eq!(of(&uri)["diagnostics"], json!([]), "{seen:?}");
    let on_config = of(&config_uri)["diagnostics"].as_array().unwrap().clone();
    assert_eq!(on_config.len(), 1, "{seen:?}");
    assert_eq!(on_config[0]["range"]["start"]["line"], 2);
    assert_eq!(on_config[0]["severity"], 1);
    assert!(on_config[0]["message"]
        .as_str()
        .unwrap()
        .contains("unknown lint `concurrent-same-objet`"));
    let message = message.unwrap();
    assert_eq!(message["type"], 1);
    let text = message["message"].as_str().unwrap();
    assert!(
        text.contains("kube-order-lint.toml:3: ") && text.contains("unknown lint"),
        "{text}"
    );
    // Fixed: the configuration file's diagnostics are cleared, the findings come back.
    std::fs::write(&config, "[lints]\nconcurrent-same-object = \"deny\"\n").unwrap();
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri } }),
    );
    let mut cleared = false;
    let mut findings = None;
    while !cleared || findings.is_none() {
        let p = client.diagnostics();
        if p["uri"] == config_uri {
            assert_eq!(p["diagnostics"], json!([]));
            cleared = true;
        } else {
            findings = Some(p);
        }
    }
    let findings = findings.unwrap();
    assert_eq!(findings["diagnostics"][0]["severity"], 1, "{findings}");
}

/// Neovim to run the README's snippets in: `KOL_NVIM`, or `nvim` on PATH.
fn neovim() -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("KOL_NVIM") {
        return Some(path.into());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join("nvim"))
        .find(|p| p.is_file())
}

/// The fenced `lua` blocks of the README, in order.
fn readme_lua_blocks() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    readme
        .split("```lua\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap().to_string())
        .collect()
}

#[test]
fn the_readme_neovim_snippets_publish_the_findings() {
    let blocks = readme_lua_blocks();
    assert_eq!(blocks.len(), 2, "the 0.11 form and the 0.9/0.10 form");
    assert!(blocks[0].contains("vim.lsp.config(") && blocks[1].contains("vim.lsp.start("));
    let Some(nvim) = neovim() else {
        eprintln!("skipped: no Neovim (nvim on PATH, or KOL_NVIM)");
        return;
    };
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_kube-order-lint"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    for block in &blocks {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join("lib.rs"), seed()).unwrap();
        std::fs::write(dir.path().join("init.lua"), block).unwrap();
        let out = Command::new(&nvim)
            .current_dir(dir.path())
            .env("PATH", &path)
            .args(["--headless", "-u", "init.lua", "lib.rs", "-c"])
            .arg(
                "lua vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50); \
                 io.stdout:write('findings=' .. #vim.diagnostic.get(0) .. '\\n'); vim.cmd('qa!')",
            )
            .stdin(Stdio::null())
            .output()
            .expect("run nvim");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("findings=2"), "{block}\n{stdout}");
    }
}
