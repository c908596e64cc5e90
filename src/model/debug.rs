//! `kube-order-lint debug model FILE`: what the model sees, to explain why a finding is or is
//! not made.

use std::path::Path;

use super::{build, link, ObjectName};
use crate::source::SourceFile;

pub fn print_model(path: &Path) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return crate::cli::exit::ERROR;
        }
    };
    print!("{}", model_text(path, text));
    crate::cli::exit::CLEAN
}

/// The model of one file as text, one fact per line.
pub fn model_text(path: &Path, text: String) -> String {
    use std::fmt::Write;
    let source = SourceFile::new(0, path.to_path_buf(), text);
    let file = match syn::parse_file(&source.text) {
        Ok(f) => f,
        Err(e) => {
            let at = e.span().start();
            return format!("parse error at {}:{}: {e}\n", at.line, at.column + 1);
        }
    };
    let facts = build::build(&source, &file);
    let mut index = link::CrateIndex::default();
    index.add(&facts.items);
    let raw = facts.requests.clone();
    let model = link::link(0, facts, &index);
    let mut out = String::new();
    for (i, r) in raw.iter().enumerate() {
        let (line, col) = source.line_col(r.span.start);
        let _ = write!(
            out,
            "request #{i} {line}:{col} `{}.{}`",
            r.receiver, r.verb.method
        );
        match model.request(i) {
            None => {
                let _ = writeln!(out, " -- receiver is not a kube Api ({:?})", r.source);
            }
            Some(req) => {
                let name = match &req.object {
                    ObjectName::All => "<collection>".to_string(),
                    ObjectName::One { name, .. } => format!("{name:?}"),
                };
                let _ = writeln!(
                    out,
                    " {:?} kind={} namespace={:?} origin={:?} name={name}",
                    req.verb.access,
                    req.handle.kind.as_deref().unwrap_or("?"),
                    req.handle.namespace,
                    req.handle.origin,
                );
            }
        }
    }
    for s in &model.sites {
        let (line, col) = source.line_col(s.span.start);
        let _ = writeln!(out, "site {line}:{col} {} {:?}", s.spelling, s.kind);
        for (k, op) in s.operands.iter().enumerate() {
            let _ = writeln!(out, "  operand {k}: requests {:?}", op.requests);
        }
    }
    out
}
