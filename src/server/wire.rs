//! The server's transport: LSP's framing (`Content-Length` headers, then a JSON body) on
//! stdin/stdout, read with limits. `lsp_server`'s own reader allocates whatever
//! `Content-Length` claims (`4000000000` allocated 3.9 GB; larger values aborted or panicked)
//! and ends the connection on any malformed body; here:
//! - a header line is at most [`MAX_HEADER_LINE`] bytes, a body at most [`MAX_MESSAGE_BYTES`]:
//!   a header that cannot be read (no or a bad `Content-Length`, over the limit) is answered
//!   with a JSON-RPC error and ends the connection, since the stream cannot be resynchronised;
//!   the server then exits with a message;
//! - a body that is not JSON is answered with a parse error (-32700), JSON that is not a
//!   message with an invalid request error (-32600), and the server keeps serving.

use std::io::{self, BufRead, Write};
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, Message};
use serde_json::{json, Value};

/// The largest message read: 64 MiB, the limit of a source file.
pub const MAX_MESSAGE_BYTES: u64 = crate::read::MAX_SOURCE_BYTES;

/// The longest header line read.
pub const MAX_HEADER_LINE: u64 = 8 * 1024;

/// The reader and writer threads of [`stdio`]; `join` gives why reading stopped, if not at the
/// end of input or after `exit`.
pub struct Threads {
    reader: JoinHandle<Result<(), String>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Threads {
    pub fn join(self) -> Result<(), String> {
        let read = self
            .reader
            .join()
            .unwrap_or_else(|_| Err("reader panicked".into()));
        let written = self.writer.join().unwrap_or(Ok(()));
        read?;
        written.map_err(|e| format!("cannot write: {e}"))
    }
}

/// A connection over stdin/stdout with the limits above.
pub fn stdio() -> (Connection, Threads) {
    let (to_writer, from_server) = bounded::<Message>(0);
    let (to_server, from_reader) = bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        for message in from_server {
            let mut out = io::stdout().lock();
            message.write(&mut out)?;
        }
        Ok(())
    });
    let reader = std::thread::spawn(move || read_loop(&mut io::stdin().lock(), &to_server));
    let connection = Connection {
        sender: to_writer,
        receiver: from_reader,
    };
    (connection, Threads { reader, writer })
}

/// Read messages until the end of input, `exit`, or a header that cannot be read.
fn read_loop(input: &mut impl BufRead, to_server: &Sender<Message>) -> Result<(), String> {
    loop {
        let body = match read_frame(input, MAX_MESSAGE_BYTES) {
            Ok(Some(body)) => body,
            Ok(None) => return Ok(()),
            Err(e) => {
                answer_error(Value::Null, -32700, &e);
                return Err(e);
            }
        };
        let Some(message) = to_message(&body) else {
            continue;
        };
        let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
        if to_server.send(message).is_err() || exit {
            return Ok(());
        }
    }
}

/// The message in `body`, or None after answering why it is not one.
fn to_message(body: &[u8]) -> Option<Message> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            answer_error(Value::Null, -32700, &format!("parse error: {e}"));
            return None;
        }
    };
    let id = match &value["id"] {
        id @ (Value::Number(_) | Value::String(_)) => id.clone(),
        _ => Value::Null,
    };
    // A request or notification has a method, a response a result or an error: the message
    // type alone would also take `[1, 2]` or `{"id": 3}` for a response.
    let shaped = value.as_object().is_some_and(|o| {
        o.get("method").is_some_and(Value::is_string)
            || o.contains_key("result")
            || o.contains_key("error")
    });
    if !shaped {
        let why = "invalid request: not a JSON-RPC request, notification or response";
        answer_error(id, -32600, why);
        return None;
    }
    match serde_json::from_value(value) {
        Ok(message) => Some(message),
        Err(e) => {
            answer_error(id, -32600, &format!("invalid request: {e}"));
            None
        }
    }
}

/// A JSON-RPC error response, written directly: its id may be null, which
/// [`lsp_server::Response`] cannot express.
fn answer_error(id: Value, code: i32, message: &str) {
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
        .to_string();
    let mut out = io::stdout().lock();
    let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|()| out.flush());
}

/// One frame's body; None at the end of input before a header. Errors say what was wrong with
/// the header, in one line.
pub fn read_frame(input: &mut impl BufRead, limit: u64) -> Result<Option<Vec<u8>>, String> {
    let mut length: Option<u64> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        io::Read::take(&mut *input, MAX_HEADER_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read a header: {e}"))?;
        if line.is_empty() {
            return if first {
                Ok(None)
            } else {
                Err("the input ended inside a header".into())
            };
        }
        if line.len() as u64 > MAX_HEADER_LINE {
            return Err(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            ));
        }
        first = false;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(format!("malformed header {:?}", clip(text)));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            let n: u64 = value
                .parse()
                .map_err(|_| format!("bad Content-Length {:?}", clip(value)))?;
            length = Some(n);
        }
    }
    let n = length.ok_or("a message without a Content-Length header")?;
    if n > limit {
        return Err(format!(
            "Content-Length {n} is larger than the limit of {} MiB; not read",
            limit / (1024 * 1024)
        ));
    }
    let mut body = vec![0; n as usize];
    input
        .read_exact(&mut body)
        .map_err(|e| format!("the input ended inside a message: {e}"))?;
    Ok(Some(body))
}

fn clip(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(input: &[u8], limit: u64) -> Result<Option<Vec<u8>>, String> {
        read_frame(&mut io::BufReader::new(input), limit)
    }

    #[test]
    fn frames_are_read_within_their_limits() {
        assert_eq!(
            frame(b"Content-Length: 2\r\n\r\n{}", 10),
            Ok(Some(b"{}".to_vec()))
        );
        assert_eq!(
            frame(b"content-length:2\r\nContent-Type: x\r\n\r\n{}", 10),
            Ok(Some(b"{}".to_vec()))
        );
        assert_eq!(frame(b"", 10), Ok(None));
        for (input, error) in [
            (
                &b"Content-Length: 18446744073709551615\r\n\r\n"[..],
                "Content-Length 18446744073709551615 is larger than the limit",
            ),
            (
                b"Content-Length: 99999999999999999999\r\n\r\n",
                "bad Content-Length",
            ),
            (b"Content-Length: -1\r\n\r\n", "bad Content-Length"),
            (
                b"Content-Type: x\r\n\r\n{}",
                "a message without a Content-Length",
            ),
            (b"hello\r\n\r\n", "malformed header"),
            (
                b"Content-Length: 5\r\n\r\n{}",
                "the input ended inside a message",
            ),
            (b"Content-Length: 5\r\n", "the input ended inside a header"),
        ] {
            let e = frame(input, 1 << 20).unwrap_err();
            assert!(e.starts_with(error), "{e}");
        }
        let long = format!("X-Long: {}\r\n\r\n", "a".repeat(10_000));
        assert!(frame(long.as_bytes(), 10)
            .unwrap_err()
            .contains("longer than"));
    }
}
