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
