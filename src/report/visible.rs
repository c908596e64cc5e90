//! Text for a terminal, from files an attacker may have written: the characters that would act
//! on the terminal or reorder what is shown are written visibly instead, as rustc does.
//!
//! - control characters (C0, DEL and C1): ESC starts terminal commands (colours, cursor moves,
//!   window titles, hyperlinks), CR and BS overwrite what was printed; written as `\u{1b}`.
//!   Line feeds and tabs are kept, and so is a CR right before a line feed (CRLF files);
//! - the Unicode bidirectional controls (`Bidi_Control`: U+061C, U+200E, U+200F,
//!   U+202A–U+202E, U+2066–U+2069), which make code read differently from what it is ("Trojan
//!   Source", CVE-2021-42574); written as `\u{202e}`.

use std::borrow::Cow;
use std::io::{self, Write};

use codespan_reporting::term::termcolor::{ColorSpec, WriteColor};

/// Is `c` written as an escape? `next` is the character after it.
fn escaped(c: char, next: Option<char>) -> bool {
    match c {
        '\n' | '\t' => false,
        '\r' => next != Some('\n'),
        '\u{061C}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => true,
        c => c.is_control(),
    }
}

/// `text` with every control and bidirectional control character written as `\u{…}`.
pub fn visible(text: &str) -> Cow<'_, str> {
    let mut chars = text.chars().peekable();
    let mut at = 0;
    let mut out: Option<String> = None;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        if escaped(c, next) {
            let out = out.get_or_insert_with(|| text[..at].to_string());
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else if let Some(out) = out.as_mut() {
            out.push(c);
        }
        at += c.len_utf8();
    }
    match out {
        Some(s) => Cow::Owned(s),
        None => Cow::Borrowed(text),
    }
}

/// `text` for a terminal or a CI log, the one escaping of text for people ([`visible`], then
/// [`no_workflow_commands`]): whatever a checked crate wrote cannot act on the terminal nor
/// start a workflow command of the runner, which reads every line of a step's output.
pub fn for_people(text: &str) -> String {
    no_workflow_commands(&visible(text)).into_owned()
}

/// `text` with no line that the GitHub runner (or Azure Pipelines) would take for a command:
/// a line starting, after white space, with `::` or `##[` has that first character written as
/// an escape (`\u{3a}:error::…`). The tool's own commands are written by `--format github`,
/// which escapes line breaks in what it annotates instead.
pub fn no_workflow_commands(text: &str) -> Cow<'_, str> {
    let forged = |line: &str| {
        let start = line.trim_start();
        start.starts_with("::") || start.starts_with("##[")
    };
    if !text.split('\n').any(forged) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            if !forged(line) {
                return line.to_string();
            }
            let indent = line.len() - line.trim_start().len();
            let first = line[indent..].chars().next().unwrap_or(':');
            format!(
                "{}\\u{{{:x}}}{}",
                &line[..indent],
                first as u32,
                &line[indent + first.len_utf8()..]
            )
        })
        .collect();
    Cow::Owned(lines.join("\n"))
}

/// A [`WriteColor`] that writes its text through [`visible`], and its colours as they are (they
/// are the tool's own escape sequences, written by the inner writer). Characters split across
/// writes are reassembled; [`Visible::finish`] writes what is held back.
pub struct Visible<W: WriteColor> {
    inner: W,
    /// Bytes not yet written: an incomplete UTF-8 sequence, or a CR that may start a CRLF.
    pending: Vec<u8>,
}

impl<W: WriteColor> Visible<W> {
    pub fn new(inner: W) -> Self {
        Visible {
            inner,
            pending: Vec::new(),
        }
    }

    /// Write what is held back, and return the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.drain(true)?;
        Ok(self.inner)
    }

    /// Write the pending bytes; unless `all`, keep back an incomplete character or a final CR.
    fn drain(&mut self, all: bool) -> io::Result<()> {
        let bytes = std::mem::take(&mut self.pending);
        let mut rest = &bytes[..];
        loop {
            let (valid, after) = match std::str::from_utf8(rest) {
                Ok(s) => (s, &[][..]),
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // Checked by from_utf8.
                    (std::str::from_utf8(valid).unwrap_or_default(), after)
                }
            };
            if after.is_empty() {
                let (text, held) = match valid.strip_suffix('\r') {
                    Some(text) if !all => (text, "\r"),
                    _ => (valid, ""),
                };
                self.inner.write_all(visible(text).as_bytes())?;
                self.pending.extend_from_slice(held.as_bytes());
                return Ok(());
            }
            self.inner.write_all(visible(valid).as_bytes())?;
            match std::str::from_utf8(after) {
                // An incomplete character at the end: wait for the rest of it.
                Err(e) if e.error_len().is_none() && !all => {
                    self.pending.extend_from_slice(after);
                    return Ok(());
                }
                _ => {
                    // A byte that is not UTF-8: shown, never sent as is.
                    write!(self.inner, "\\x{:02x}", after[0])?;
                    rest = &after[1..];
                }
            }
        }
    }
}

impl<W: WriteColor> Write for Visible<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        self.drain(false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain(true)?;
        self.inner.flush()
    }
}

impl<W: WriteColor> WriteColor for Visible<W> {
    fn supports_color(&self) -> bool {
        self.inner.supports_color()
    }

    fn set_color(&mut self, spec: &ColorSpec) -> io::Result<()> {
        self.drain(true)?;
        self.inner.set_color(spec)
    }

    fn reset(&mut self) -> io::Result<()> {
        self.drain(true)?;
        self.inner.reset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codespan_reporting::term::termcolor::{Buffer, Color};

    #[test]
    fn no_line_for_people_starts_a_workflow_command() {
        assert_eq!(
            for_people("a\n::error::x\n  ##[error]y\n\u{1b}]0;t\u{7}"),
            "a\n\\u{3a}:error::x\n  \\u{23}#[error]y\n\\u{1b}]0;t\\u{7}"
        );
        assert_eq!(no_workflow_commands("a: ::b"), "a: ::b");
    }

    #[test]
    fn controls_and_bidi_controls_are_shown_as_escapes() {
        assert_eq!(visible("plain text\n\tok"), "plain text\n\tok");
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
        assert_eq!(visible("a\u{1b}[2Jb\u{7}"), "a\\u{1b}[2Jb\\u{7}");
        assert_eq!(
            visible("if x \u{202e}}\u{2066}{\u{2069}"),
            "if x \\u{202e}}\\u{2066}{\\u{2069}"
        );
        assert_eq!(
            visible("crlf\r\nlone\rx\u{9b}"),
            "crlf\r\nlone\\u{d}x\\u{9b}"
        );
    }

    #[test]
    fn the_writer_escapes_text_across_writes_and_keeps_colours() {
        let mut out = Visible::new(Buffer::ansi());
        let bidi = "\u{202e}".as_bytes();
        out.write_all(b"a\r").unwrap();
        out.write_all(b"\nb").unwrap();
        out.write_all(&bidi[..1]).unwrap();
        out.write_all(&bidi[1..]).unwrap();
        out.set_color(ColorSpec::new().set_fg(Some(Color::Red)))
            .unwrap();
        out.write_all(b"\x1b[0m\r").unwrap();
        out.reset().unwrap();
        out.write_all(b"\xff").unwrap();
        let text = String::from_utf8(out.finish().unwrap().into_inner()).unwrap();
        assert_eq!(
            text,
            "a\r\nb\\u{202e}\u{1b}[0m\u{1b}[31m\\u{1b}[0m\\u{d}\u{1b}[0m\\xff"
        );
    }
}
