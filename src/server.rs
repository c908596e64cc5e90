//! `kube-order-lint server`: a Language Server Protocol server over stdio, a thin layer over
//! [`crate::check`] on [`lsp_server`] (the transport rust-analyzer uses).
//!
//! It publishes the findings of a document when it is opened, changed (full text sync) or
//! saved, checking the editor's text with the configuration of the file's directory (as
//! `--stdin-filename` does), and offers each finding's fix as a quick fix with its
//! applicability: safe fixes are preferred, unsafe ones say so in their title, display-only
//! advice is not offered. Messages are JSON values; positions are UTF-16, as LSP's default.

mod wire;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ExtractError, Message, Notification, Request, Response};
use serde_json::{json, Value};

use crate::check::{self, Options};
use crate::config::ConfigSource;
use crate::diagnostic::{Diagnostic, Severity};
use crate::edit::Applicability;
use crate::source::SourceFile;

/// A document the editor has open: its text, and the fixes of its last check.
struct Document {
    path: PathBuf,
    /// An `untitled:` buffer: no file, so no configuration to look up.
    untitled: bool,
    text: String,
    fixes: Vec<OfferedFix>,
}

/// What the server keeps between messages.
#[derive(Default)]
struct State {
    documents: HashMap<String, Document>,
    /// Files other than documents (a configuration file) whose errors were published last, by
    /// URI: cleared when a check no longer has them.
    others: HashMap<String, Vec<Value>>,
    /// The last error shown with `window/showMessage`, so that each keystroke does not show it
    /// again.
    shown: Option<String>,
}

/// How the server stopped: LSP's exit code is 0 after `shutdown`, 1 otherwise (an `exit`
/// without `shutdown`, or the editor gone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    AfterShutdown,
    WithoutShutdown,
}

/// A finding's fix as a code action: the finding's range and LSP diagnostic, the edits as LSP
/// text edits of the document.
struct OfferedFix {
    range: Value,
    title: String,
    preferred: bool,
    diagnostic: Value,
    edits: Vec<Value>,
}

/// Serve on stdin/stdout until the client says `exit`; why it stopped otherwise. The command
/// line turns the result into an exit code.
pub fn run() -> Result<Stopped, String> {
    let (connection, io_threads) = wire::stdio();
    let result = serve(&connection);
    drop(connection);
    // A message that could not be read says why the connection ended.
    let joined = io_threads.join();
    match (joined, result) {
        (Ok(()), Ok(stopped)) => Ok(stopped),
        (Err(e), _) => Err(e),
        (_, Err(e)) => Err(e.to_string()),
    }
}

fn capabilities() -> Value {
    json!({
        "textDocumentSync": {
            "openClose": true,
            "change": 1,
            "save": { "includeText": true }
        },
        "codeActionProvider": { "codeActionKinds": ["quickfix"] }
    })
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn serve(connection: &Connection) -> Result<Stopped, Failure> {
    let (id, _params) = connection.initialize_start()?;
    connection.initialize_finish(
        id,
        json!({
            "capabilities": capabilities(),
            "serverInfo": { "name": "kube-order-lint", "version": env!("CARGO_PKG_VERSION") }
        }),
    )?;
    let mut state = State::default();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(Stopped::AfterShutdown);
                }
                let response = respond(&state.documents, request);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(n) if n.method == "exit" => return Ok(Stopped::WithoutShutdown),
            Message::Notification(n) => match notified(&mut state.documents, n) {
                Some(Next::Check(uri)) => publish(connection, &mut state, &uri)?,
                Some(Next::Clear(uri)) => send_diagnostics(connection, &uri, Vec::new())?,
                None => {}
            },
            Message::Response(_) => {}
        }
    }
    Ok(Stopped::WithoutShutdown)
}

/// What a notification asks for.
enum Next {
    /// Check the document again and publish its findings.
    Check(String),
    /// The document was closed: its findings go with it.
    Clear(String),
}

/// Keeps the documents up to date; what to do next, if anything.
fn notified(documents: &mut HashMap<String, Document>, n: Notification) -> Option<Next> {
    let params = &n.params;
    let uri = params["textDocument"]["uri"].as_str()?.to_string();
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let untitled = uri.starts_with("untitled:");
            // An untitled buffer is named by its URI in messages.
            let path = if untitled {
                PathBuf::from(&uri)
            } else {
                uri_to_path(&uri)?
            };
            let text = params["textDocument"]["text"].as_str()?.to_string();
            documents.insert(
                uri.clone(),
                Document {
                    path,
                    untitled,
                    text,
                    fixes: Vec::new(),
                },
            );
            Some(Next::Check(uri))
        }
        "textDocument/didChange" => {
            // Full sync: the last change holds the whole text.
            let text = params["contentChanges"].as_array()?.last()?["text"].as_str()?;
            documents.get_mut(&uri)?.text = text.to_string();
            Some(Next::Check(uri))
        }
        "textDocument/didSave" => {
            let document = documents.get_mut(&uri)?;
            if let Some(text) = params["text"].as_str() {
                document.text = text.to_string();
            }
            Some(Next::Check(uri))
        }
        "textDocument/didClose" => {
            documents.remove(&uri)?;
            Some(Next::Clear(uri))
        }
        _ => None,
    }
}

fn respond(documents: &HashMap<String, Document>, request: Request) -> Response {
    let id = request.id.clone();
    match request.extract::<Value>("textDocument/codeAction") {
        Ok((id, params)) => Response::new_ok(id, code_actions(documents, &params)),
        Err(ExtractError::MethodMismatch(request)) => Response::new_err(
            request.id,
            lsp_server::ErrorCode::MethodNotFound as i32,
            format!("unsupported request {}", request.method),
        ),
        Err(ExtractError::JsonError { method, error }) => Response::new_err(
            id,
            lsp_server::ErrorCode::InvalidParams as i32,
            format!("{method}: {error}"),
        ),
    }
}

/// The fixes of the findings whose range meets the requested one.
fn code_actions(documents: &HashMap<String, Document>, params: &Value) -> Value {
    let Some(uri) = params["textDocument"]["uri"].as_str() else {
        return Value::Null;
    };
    let Some(document) = documents.get(uri) else {
        return json!([]);
    };
    let wanted = &params["range"];
    let actions: Vec<Value> = document
        .fixes
        .iter()
        .filter(|f| ranges_meet(&f.range, wanted))
        .map(|f| {
            json!({
                "title": f.title,
                "kind": "quickfix",
                "isPreferred": f.preferred,
                "diagnostics": [f.diagnostic],
                "edit": { "changes": { uri: f.edits } }
            })
        })
        .collect();
    Value::Array(actions)
}

fn ranges_meet(a: &Value, b: &Value) -> bool {
    let pos = |v: &Value| {
        (
            v["line"].as_u64().unwrap_or(0),
            v["character"].as_u64().unwrap_or(0),
        )
    };
    pos(&a["start"]) <= pos(&b["end"]) && pos(&b["start"]) <= pos(&a["end"])
}

/// Check the document and publish its findings; errors in other files (its configuration)
/// are published on those files, and shown once.
fn publish(connection: &Connection, state: &mut State, uri: &str) -> Result<(), Failure> {
    let Some(document) = state.documents.get_mut(uri) else {
        return Ok(());
    };
    let (config, overrides) = if document.untitled {
        // No file: no directory to find a configuration in, no package to read helpers of.
        let overrides = crate::config::Overrides {
            deps_helpers: Some(false),
            ..Default::default()
        };
        (ConfigSource::None, overrides)
    } else {
        (ConfigSource::Discover, Default::default())
    };
    let report = check::check(&Options {
        paths: Vec::new(),
        config,
        overrides,
        texts: vec![(document.path.clone(), document.text.clone())],
        ..Options::default()
    });
    let source = SourceFile::new(0, document.path.clone(), document.text.clone());
    let found = in_document(&report, &document.path);
    let (mut diagnostics, fixes) = findings(&source, uri, &found, &report);
    document.fixes = fixes;
    // Errors of the document (a parse error, a malformed suppression) at their position;
    // errors of another file (a configuration) on that file, at its line.
    let shown_as = crate::source::display_path(&document.path);
    let mut others: HashMap<String, Vec<Value>> = HashMap::new();
    let mut first_other = None;
    for e in &report.errors {
        if e.file == shown_as || e.file == source.display {
            let offset = match (e.line, e.column) {
                (Some(l), Some(c)) => source.offset_of(l, c.saturating_sub(1)),
                (Some(l), None) => source.offset_of(l, 0),
                _ => 0,
            };
            diagnostics.push(error_diagnostic(range(&source, offset, offset), &e.message));
            continue;
        }
        let line = e.line.unwrap_or(1).saturating_sub(1);
        let column = e.column.unwrap_or(1).saturating_sub(1);
        let at = json!({ "line": line, "character": column });
        others
            .entry(path_to_uri(Path::new(&e.file)))
            .or_default()
            .push(error_diagnostic(
                json!({ "start": at, "end": at }),
                &e.message,
            ));
        first_other.get_or_insert_with(|| {
            let at = e.line.map(|l| format!(":{l}")).unwrap_or_default();
            format!(
                "kube-order-lint: {}{at}: {} ({shown_as} is not checked until this is fixed)",
                e.file, e.message
            )
        });
    }
    send_diagnostics(connection, uri, diagnostics)?;
    for gone in state.others.keys().filter(|u| !others.contains_key(*u)) {
        send_diagnostics(connection, gone, Vec::new())?;
    }
    for (other, diagnostics) in &others {
        send_diagnostics(connection, other, diagnostics.clone())?;
    }
    state.others = others;
    if first_other.is_some() && first_other != state.shown {
        connection
            .sender
            .send(Message::Notification(Notification::new(
                "window/showMessage".to_string(),
                json!({ "type": 1, "message": first_other }),
            )))?;
    }
    state.shown = first_other;
    Ok(())
}

/// The findings of a run, placed in the document: one made in it that points into another file
/// (a write its controller's reconciles make, in a helper elsewhere: see
/// [`Diagnostic::site`]) is shown at its site, the place it points at related to it.
fn in_document(report: &crate::outcome::Report, path: &Path) -> Vec<Diagnostic> {
    let document = report.sources.iter().find(|s| s.path == path).map(|s| s.id);
    report
        .diagnostics
        .iter()
        .map(|d| {
            let mut d = d.clone();
            let elsewhere = Some(d.primary.span.file) != document;
            if let Some(site) = d.site.filter(|s| elsewhere && Some(s.file) == document) {
                if let Some(i) = d.secondary.iter().position(|l| l.span == site) {
                    std::mem::swap(&mut d.primary, &mut d.secondary[i]);
                    d.site = None;
                }
            }
            d
        })
        .collect()
}

/// The findings as LSP diagnostics, and the fixes to offer as code actions.
fn findings(
    source: &SourceFile,
    uri: &str,
    found: &[Diagnostic],
    report: &crate::outcome::Report,
) -> (Vec<Value>, Vec<OfferedFix>) {
    let mut diagnostics = Vec::new();
    let mut fixes = Vec::new();
    for d in found {
        let lsp = to_lsp(source, uri, d, report);
        if let Some(fix) = d.fix.as_ref().filter(|f| {
            f.applicability != Applicability::DisplayOnly && f.file() == Some(d.primary.span.file)
        }) {
            let edits = fix
                .edits
                .iter()
                .map(|e| json!({ "range": range(source, e.span.start, e.span.end), "newText": e.replacement }))
                .collect();
            let title = match fix.applicability {
                Applicability::Safe => format!("{} (kube-order-lint: safe fix)", fix.message),
                _ => format!(
                    "{} (kube-order-lint: unsafe fix, may change behaviour)",
                    fix.message
                ),
            };
            fixes.push(OfferedFix {
                range: lsp["range"].clone(),
                title,
                preferred: fix.applicability == Applicability::Safe,
                diagnostic: lsp.clone(),
                edits,
            });
        }
        diagnostics.push(lsp);
    }
    (diagnostics, fixes)
}

fn error_diagnostic(range: Value, message: &str) -> Value {
    json!({
        "range": range,
        "severity": 1,
        "source": "kube-order-lint",
        "message": message,
    })
}

fn send_diagnostics(
    connection: &Connection,
    uri: &str,
    diagnostics: Vec<Value>,
) -> Result<(), Failure> {
    connection
        .sender
        .send(Message::Notification(Notification::new(
            "textDocument/publishDiagnostics".to_string(),
            json!({ "uri": uri, "diagnostics": diagnostics }),
        )))?;
    Ok(())
}

fn to_lsp(
    source: &SourceFile,
    uri: &str,
    d: &Diagnostic,
    report: &crate::outcome::Report,
) -> Value {
    let severity = match d.severity {
        Severity::Error => 1,
        Severity::Warning => 2,
        Severity::Note => 3,
    };
    let mut message = d.message.clone();
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    // A label in another file of the run is related through that file's own text.
    let related: Vec<Value> = d
        .secondary
        .iter()
        .filter_map(|l| {
            let location = if l.span.file == d.primary.span.file {
                json!({ "uri": uri, "range": range(source, l.span.start, l.span.end) })
            } else {
                let other = report.source(l.span.file)?;
                json!({
                    "uri": path_to_uri(&other.path),
                    "range": range(other, l.span.start, l.span.end),
                })
            };
            Some(json!({ "location": location, "message": l.message }))
        })
        .collect();
    json!({
        "range": range(source, d.primary.span.start, d.primary.span.end),
        "severity": severity,
        "code": d.lint,
        "source": "kube-order-lint",
        "message": message,
        "relatedInformation": related,
        "data": { "confidence": d.confidence.to_string() },
    })
}

/// An LSP range of byte offsets: 0-based lines, UTF-16 columns.
fn range(source: &SourceFile, start: usize, end: usize) -> Value {
    json!({ "start": position(source, start), "end": position(source, end) })
}

fn position(source: &SourceFile, offset: usize) -> Value {
    let text = &source.text;
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": character })
}

/// `/a/b c.rs` → `file:///a/b%20c.rs`; a relative path is taken from the current directory
/// (where messages' paths are relative to).
fn path_to_uri(path: &Path) -> String {
    const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    let absolute = std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let segments: Vec<String> = absolute
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(
                percent_encoding::utf8_percent_encode(&s.to_string_lossy(), SEGMENT).to_string(),
            ),
            std::path::Component::Prefix(p) => Some(p.as_os_str().to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    format!("file:///{}", segments.join("/"))
}

/// `file:///a/b%20c.rs` → `/a/b c.rs`; None for other schemes.
fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://localhost/a` and `file:///a`; on Windows `file:///C:/a`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let decoded = percent_encoding::percent_decode_str(rest)
        .decode_utf8()
        .ok()?
        .into_owned();
    let decoded = if cfg!(windows) {
        decoded.trim_start_matches('/').to_string()
    } else {
        decoded
    };
    Some(Path::new(&decoded).to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding made in the document that points into another file (a write its controller's
    /// reconciles make in a helper elsewhere) is shown at its site in the document, the write
    /// related to it in its own file.
    #[test]
    fn a_finding_pointing_into_another_file_is_shown_at_its_site() {
        use crate::diagnostic::Label;
        use crate::model::Confidence;
        use crate::source::Span;
        let document = SourceFile::new(
            3,
            "/w/src/main.rs".into(),
            "fn main() {\n    run();\n}\n".into(),
        );
        let helper = SourceFile::new(
            7,
            "/w/src/helper.rs".into(),
            "fn h() {\n    write();\n}\n".into(),
        );
        let at = |file, start, end, message: &str| Label {
            span: Span { file, start, end },
            message: message.to_string(),
        };
        let run = at(3, 16, 21, "reconciles run concurrently here");
        let d = Diagnostic {
            lint: "concurrent-same-object",
            severity: Severity::Warning,
            confidence: Confidence::Definite,
            message: "m".into(),
            primary: at(7, 13, 20, "the write"),
            secondary: vec![run.clone()],
            site: Some(run.span),
            notes: Vec::new(),
            help: None,
            fix: None,
        };
        let report = crate::outcome::Report {
            sources: vec![document, helper],
            diagnostics: vec![d],
            ..Default::default()
        };
        let found = in_document(&report, Path::new("/w/src/main.rs"));
        assert_eq!(found[0].primary, run);
        assert_eq!(found[0].site, None);
        let source = &report.sources[0];
        let (shown, _) = findings(source, "file:///w/src/main.rs", &found, &report);
        assert_eq!(
            shown[0]["range"]["start"],
            json!({ "line": 1, "character": 4 })
        );
        let related = &shown[0]["relatedInformation"][0];
        assert_eq!(related["location"]["uri"], "file:///w/src/helper.rs");
        assert_eq!(
            related["location"]["range"]["start"],
            json!({ "line": 1, "character": 4 })
        );
        assert_eq!(related["message"], "the write");
    }

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            uri_to_path("file:///tmp/a%20b/c.rs"),
            Some(PathBuf::from("/tmp/a b/c.rs"))
        );
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
    }

    #[test]
    #[cfg(unix)]
    fn paths_become_file_uris_and_back() {
        let uri = path_to_uri(Path::new("/tmp/a b/Cargo.toml"));
        assert_eq!(uri, "file:///tmp/a%20b/Cargo.toml");
        assert_eq!(
            uri_to_path(&uri),
            Some(PathBuf::from("/tmp/a b/Cargo.toml"))
        );
    }

    #[test]
    fn positions_are_utf16() {
        let source = SourceFile::new(0, "a.rs".into(), "ab\n\u{1F600}x\n".into());
        assert_eq!(position(&source, 3), json!({ "line": 1, "character": 0 }));
        // The emoji is 4 bytes and 2 UTF-16 units.
        assert_eq!(position(&source, 7), json!({ "line": 1, "character": 2 }));
    }
}
