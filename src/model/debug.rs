//! `kube-order-lint debug model PATH`: what the model sees, to explain why a finding is or is
//! not made. This module only renders; the command (in `cli`) runs a real check and links each
//! file the way `check` does.

use std::path::Path;

use super::{build, link, FileFacts, FileModel, ObjectName, Operand, RawKind, RawRequest, Request};
use crate::source::{SourceFile, Span};

/// The model of one file on its own, as text (for tests and single snippets).
pub fn model_text(path: &Path, text: String) -> String {
    let source = SourceFile::new(0, path.to_path_buf(), text);
    let file = match crate::parse::parse_file(&source.text) {
        Ok(f) => f,
        Err(e) => return format!("parse error at {}:{}: {}\n", e.line, e.column, e.message),
    };
    let facts = build::build(&source, &file);
    let model = link::link_single(0, &facts, &source.display);
    dump(&source, &facts, &model)
}

/// A linked file's model as text, one fact per line: every entry (request or call) with how its
/// receiver or callee was resolved, and what it requests (kind, namespace, name, how surely),
/// then the sites, spawns, timeouts and other facts.
pub fn dump(source: &SourceFile, facts: &FileFacts, model: &FileModel) -> String {
    let mut out = String::new();
    for (i, r) in facts.requests.iter().enumerate() {
        dump_entry(&mut out, source, model, i, r);
    }
    dump_handlers(&mut out, source, model);
    dump_sites(&mut out, source, model);
    dump_tasks(&mut out, source, model);
    dump_futures(&mut out, source, model);
    dump_values(&mut out, facts);
    out
}

/// The web handlers registered in the file, each with the requests one invocation makes (see
/// [`super::HandlerRoute`]) and what the server hands it.
fn dump_handlers(out: &mut String, source: &SourceFile, model: &FileModel) {
    use std::fmt::Write;
    for (i, (route, requests)) in model.handlers.iter().enumerate() {
        let (line, col) = source.line_col(route.raw.span.start);
        let _ = writeln!(
            out,
            "handler #{i} {line}:{col} `{}` -- {} {} {}, registered in body {}: the server runs it once per HTTP request, concurrently with itself and the other handlers of body {}{}",
            route.handler,
            route.framework,
            route.method,
            if route.path.is_empty() { "(path not written)" } else { &route.path },
            route.raw.body,
            route.raw.body,
            if requests.is_empty() {
                " -- no requests (not a crate function that makes any)"
            } else {
                ""
            }
        );
        for req in requests {
            dump_request(out, req);
        }
    }
}

/// Entry `i`: the call as written, how its receiver or callee was resolved, its place in
/// program order, and each request it makes.
fn dump_entry(out: &mut String, source: &SourceFile, model: &FileModel, i: usize, r: &RawRequest) {
    use std::fmt::Write;
    let (line, col) = source.line_col(r.span.start);
    let _ = write!(out, "entry #{i} {line}:{col} ");
    match &r.kind {
        RawKind::Api(call) => {
            let _ = write!(out, "request `{}.{}`", call.receiver, call.verb.method);
            if model.requests_of(i).is_empty() {
                let _ = write!(out, " -- receiver is not a kube Api ({:?})", call.source);
            } else {
                // Where the receiver's type (`Api<K>`) came from.
                let _ = write!(out, " -- receiver {:?}", call.source);
            }
        }
        RawKind::Helper(call) => {
            let _ = write!(out, "call `{}` ({:?})", call.text, call.callee);
            // As linked: the functions the controller went through followed.
            if let Some(run) = model.raw.get(i).unwrap_or(r).controller.as_deref() {
                let _ = write!(out, " -- a controller's run of `{}`", run.reconcile);
                let through: Vec<String> = r
                    .controller
                    .iter()
                    .flat_map(|built| &built.through)
                    .map(|h| handed_to_text(model, h.call))
                    .collect();
                if !through.is_empty() {
                    let _ = write!(out, ", handed to {} first", through.join(", then "));
                }
                let _ = write!(out, ", reconciles at once: {:?}", run.concurrency);
            } else if r.controller.is_some() {
                let _ = write!(
                    out,
                    " -- not a controller's run: what it is called on is not a `Controller`"
                );
            }
            if model.requests_of(i).is_empty() {
                let _ = write!(out, " -- no requests (not a crate function that makes any)");
            }
        }
    }
    let _ = writeln!(out);
    // Where it lies in program order (see `model::order`).
    let _ = writeln!(
        out,
        "    order: body {} arms {:?} loops {:?}",
        r.body, r.branches, r.loops
    );
    for req in model.requests_of(i) {
        dump_request(out, req);
    }
}

/// The call at `span` a controller is handed to, as written (see [`super::HandedTo`]).
fn handed_to_text(model: &FileModel, span: Span) -> String {
    let call = model.raw.iter().find_map(|e| match &e.kind {
        RawKind::Helper(call) if e.span == span && e.controller.is_none() => Some(&call.text),
        _ => None,
    });
    call.map_or_else(|| "a call".to_string(), |text| format!("`{text}`"))
}

/// One request an entry makes: kind, namespace, name (and how surely it can match), resolution.
fn dump_request(out: &mut String, req: &Request) {
    use std::fmt::Write;
    let name = match &req.object {
        ObjectName::All => "<collection>".to_string(),
        // How a comparison with this name can end at best: a name that is not a
        // literal, const or place only ever gives `possible` findings.
        ObjectName::One { name, .. } => {
            let best = match name {
                super::NameExpr::Format { parts, .. }
                    if !parts.contains(&super::NameExpr::Unknown) =>
                {
                    "definite"
                }
                super::NameExpr::Unknown
                | super::NameExpr::Format { .. }
                | super::NameExpr::Computed { .. } => "possible",
                _ => "definite",
            };
            format!("{name:?} (at best {best})")
        }
    };
    let _ = writeln!(
        out,
        "    {} {:?} kind={} namespace={:?} origin={:?} resolution={:?} (at most {}) may_create={}{}{}{}{} name={name}{}{}{}{}{}",
        req.verb.method,
        req.verb.access,
        req.handle.kind.as_deref().unwrap_or("?"),
        req.handle.namespace,
        req.handle.origin,
        req.resolution,
        req.resolution.cap(),
        req.may_create,
        match (req.is_guarded(), req.body_is_stored()) {
            (true, _) => " guarded",
            (_, true) => " body_stored",
            _ if req.version_refreshed() => " version_refreshed",
            _ => "",
        },
        if req.name_from_list { " name_from_list" } else { "" },
        match &req.listed {
            Some(l) if l.names_of_param.is_some() => {
                " listed=elements of a parameter (its callers' listing)".to_string()
            }
            Some(l) => format!(
                " listed=`{}` (of {}, selected by {:?})",
                l.text,
                l.kind.as_deref().unwrap_or("the handle's kind"),
                l.selected_by
            ),
            None => String::new(),
        },
        match &req.fetched {
            Some(f) => format!(
                " fetched=`{}` of a {} fetched by {}",
                super::fields_text(&f.fields),
                f.kind,
                f.by
            ),
            None => String::new(),
        },
        if req.via.is_empty() {
            String::new()
        } else {
            format!(" via {}", req.via.join(" -> "))
        },
        if req.keyed_by.is_empty() {
            String::new()
        } else {
            format!(" keyed_by={:?}", req.keyed_by)
        },
        match req.cfg.describe() {
            Some(cfg) => format!(" {cfg}"),
            None => String::new(),
        },
        // The same object for every reconcile in flight (see `model::reconciles`).
        match req.shared_across_reconciles() {
            Some(c) => format!(" shared by every reconcile ({c})"),
            None => String::new(),
        },
        // A task a function on the way spawns and leaves running (see `link::left_running`).
        match &req.left_running {
            Some(l) => format!(
                " left running by {} in `{}`{}",
                l.spawn,
                l.function,
                if l.handle_kept { " (handle kept)" } else { "" }
            ),
            None => String::new(),
        }
    );
}

/// Where a span starts, `line:col`.
fn at(source: &SourceFile, span: Span) -> String {
    let (line, col) = source.line_col(span.start);
    format!("{line}:{col}")
}

/// An operand's requests, batch and closure arguments.
fn operand(op: &Operand) -> String {
    use std::fmt::Write;
    let mut text = format!("requests {:?}", op.requests);
    if let Some(b) = &op.batch {
        let _ = write!(
            text,
            " batch(over `{}`, elements {:?}, locals {}..)",
            b.over, b.elements, b.locals.start
        );
    }
    for a in &op.arguments {
        let _ = write!(text, " arg({} = {:?})", a.param, a.name);
    }
    text
}

/// The concurrency sites, with their operands, collections, limits and `select!` arms.
fn dump_sites(out: &mut String, source: &SourceFile, model: &FileModel) {
    use std::fmt::Write;
    let at = |span: Span| at(source, span);
    for s in &model.sites {
        let (line, col) = source.line_col(s.span.start);
        let _ = writeln!(
            out,
            "site {line}:{col} {} {:?} awaited={} question_mark={} statement={} let={}",
            s.spelling,
            s.kind,
            s.usage.awaited,
            s.usage.question_mark,
            s.usage.statement.is_some(),
            s.binding
                .as_ref()
                .map_or("none", |b| if b.splittable { "splittable" } else { "kept" }),
        );
        for (k, op) in s.operands.iter().enumerate() {
            let _ = writeln!(out, "  operand {k}: {} form {:?}", operand(op), op.form);
        }
        match &s.collection {
            Some(super::Collection::Listed(elements)) => {
                for (k, e) in elements.iter().enumerate() {
                    let _ = writeln!(out, "  listed {k}: {} form {:?}", operand(e), e.form);
                }
            }
            Some(super::Collection::Mapped(m)) => {
                let _ = writeln!(
                    out,
                    "  mapped: for `{}` in `{}` body form {:?}",
                    source.snippet(m.pattern),
                    source.snippet(m.iter),
                    m.body_form
                );
            }
            Some(super::Collection::Iterable(e)) => {
                let _ = writeln!(out, "  iterable `{}`", source.snippet(e.span));
            }
            None => {}
        }
        if let Some(limit) = s.limit {
            let _ = writeln!(out, "  limit `{}`", source.snippet(limit));
        }
        for (k, arm) in s.arms.iter().enumerate() {
            let _ = writeln!(
                out,
                "  arm {k}: future {:?} handler {} handler requests {:?}",
                arm.future,
                at(arm.handler),
                arm.handler_requests
            );
        }
    }
}

/// Spawned tasks (with what becomes of their handles), timeouts and abortable futures.
fn dump_tasks(out: &mut String, source: &SourceFile, model: &FileModel) {
    use std::fmt::Write;
    let at = |span: Span| at(source, span);
    for s in &model.spawns {
        let handle = match s.handle {
            super::TaskHandle::Joined(j) => format!("joined at {}", at(j)),
            other => format!("{other:?}"),
        };
        let _ = writeln!(
            out,
            "spawn {} {} {:?} handle {handle}: {}",
            at(s.span),
            s.spelling,
            s.kind,
            operand(&s.task)
        );
        for (what, span) in [
            ("handle used", s.handle_used),
            ("set joined", s.set_joined),
            ("aborted", s.aborted),
        ] {
            if let Some(span) = span {
                let _ = writeln!(out, "  {what} at {}", at(span));
            }
        }
    }
    for t in &model.timeouts {
        let _ = writeln!(
            out,
            "timeout {} {}: {}",
            at(t.span),
            t.spelling,
            operand(&t.future)
        );
    }
    for a in &model.abortables {
        let _ = writeln!(
            out,
            "abortable {} {}: {}",
            at(a.span),
            a.spelling,
            operand(&a.future)
        );
    }
}

/// Blocking calls, futures bound by `let` (and their first use), awaits and unpolled futures.
fn dump_futures(out: &mut String, source: &SourceFile, model: &FileModel) {
    use std::fmt::Write;
    let at = |span: Span| at(source, span);
    for b in &model.blocking {
        let context = model
            .body(b.body)
            .map_or("?".to_string(), |c| format!("{:?}", c.kind));
        let _ = writeln!(
            out,
            "blocking {} {} in {context}{}{}",
            at(b.span),
            b.spelling,
            if b.via.is_empty() {
                String::new()
            } else {
                format!(" via {}", b.via.join(" -> "))
            },
            if b.unconditional {
                ""
            } else {
                " (conditional)"
            }
        );
    }
    for b in &model.bound_futures {
        let used = match &b.first_use {
            Some(u) => format!(
                "{:?} at {} branches {:?} loops {:?}{}",
                u.kind,
                at(u.span),
                u.branches,
                u.loops,
                match &u.usage {
                    Some(w) if w.statement.is_some() => " (a statement)",
                    Some(w) if w.question_mark => " (with ?)",
                    _ => "",
                }
            ),
            None => "never used".to_string(),
        };
        let _ = writeln!(
            out,
            "bound future `{}` {}: {}; init `{}`{} branches {:?} loops {:?}; first use {used}",
            b.name,
            at(b.stmt),
            operand(&b.future),
            source.snippet(b.init.span),
            if b.typed { " typed" } else { "" },
            b.branches,
            b.loops
        );
    }
    for w in &model.awaits {
        let _ = writeln!(
            out,
            "await {} requests {:?} bound {:?} body {} branches {:?}",
            at(w.span),
            w.requests,
            w.bound,
            w.body,
            w.branches
        );
    }
    for u in &model.unpolled {
        let _ = writeln!(
            out,
            "unpolled {} {:?}: requests {:?} expr `{}`{}{}{}",
            at(u.span),
            u.how,
            u.requests,
            source.snippet(u.expr.span),
            if u.typed { " typed" } else { "" },
            if u.in_async {
                " in async"
            } else {
                " not in async"
            },
            if u.lazy_callee {
                " (a call of a lazy crate function)"
            } else {
                ""
            }
        );
    }
}

/// Functions that return a lazy future, struct literals read as names, bindings whose fields
/// are assigned, and bindings holding a fetched object (see [`FileFacts::struct_values`],
/// [`FileFacts::assigned_fields`], [`FileFacts::fetched_objects`]).
fn dump_values(out: &mut String, facts: &FileFacts) {
    use std::fmt::Write;
    for f in facts.functions.iter().filter(|f| f.lazy_future) {
        let _ = writeln!(out, "lazy future fn `{}` line {}", f.name, f.line);
    }
    // A `run` on what these return is a run of the controller handed in (see
    // `ControllerRun::through`).
    for f in &facts.functions {
        if let Some(passed) = f.passes_controller {
            let _ = writeln!(
                out,
                "fn `{}` line {} passes on the controller of parameter {}, its limit: {}",
                f.name,
                f.line,
                passed.param,
                match passed.sets {
                    None => "as handed in".to_string(),
                    Some(set) => format!("{set:?}"),
                }
            );
        }
    }
    for (id, fields) in &facts.struct_values {
        let fields: Vec<String> = fields.iter().map(|(f, n)| format!("{f}: {n:?}")).collect();
        let _ = writeln!(out, "struct value Binding({id}): {}", fields.join(", "));
    }
    if !facts.assigned_fields.is_empty() {
        let _ = writeln!(out, "fields assigned: bindings {:?}", facts.assigned_fields);
    }
    // A fetched object's fields name objects, and its own name is the one a `get` used.
    for (id, entry) in &facts.fetched_objects {
        let _ = writeln!(
            out,
            "fetched object Binding({id}): the answer of entry #{entry}"
        );
    }
}
