//! Object names: the name (or namespace) an expression evaluates to as a [`NameExpr`], through
//! places, accessors, `format!` templates, `json!` and struct-literal metadata, and helper calls.

use proc_macro2::TokenTree;
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use super::{ident_in, same_object, strip, Binding, Builder, Value};
use crate::model::identity::ANY_ELEMENT;
use crate::model::{NameExpr, RawKind, ReturnedType, Root};

impl Builder<'_> {
    fn root_of(&self, ident: &syn::Ident) -> Option<Root> {
        if ident == "self" {
            return Some(Root::SelfValue(self.self_types.last().cloned().flatten()));
        }
        if let Some(b) = self.lookup(&ident.to_string()) {
            return Some(Root::Binding(b.id));
        }
        Some(Root::Const(ident.to_string()))
    }

    /// A place expression (`a`, `a.b.c`, `self.x`) as a normalised path.
    pub(super) fn place(&self, expr: &Expr) -> Option<NameExpr> {
        match strip(expr) {
            Expr::Path(p) => {
                let ident = p.path.get_ident()?;
                if let Some(b) = self.lookup(&ident.to_string()) {
                    if let Value::Name(n) = &b.value {
                        return Some(n.clone());
                    }
                    if let Some(copy) = &b.same_as {
                        return Some(copy.0.clone());
                    }
                } else if let Some(v) = self.consts.get(&ident.to_string()) {
                    return Some(NameExpr::Literal(v.clone()));
                }
                Some(NameExpr::Path {
                    root: self.root_of(ident)?,
                    fields: Vec::new(),
                })
            }
            Expr::Field(f) => {
                let member = match &f.member {
                    syn::Member::Named(i) => i.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                match self.place(&f.base)? {
                    NameExpr::Path { root, mut fields } => {
                        fields.push(member);
                        Some(NameExpr::Path { root, fields })
                    }
                    _ => None,
                }
            }
            // `managers[0]`: some element of `managers` (see [`ANY_ELEMENT`]);
            // `obj.annotations()["dest"]`: the value of that key (see [`key_field`]).
            Expr::Index(i) => match self.place(&i.expr)? {
                NameExpr::Path { root, mut fields } => {
                    fields.push(
                        string_literal(&i.index)
                            .map_or_else(|| ANY_ELEMENT.to_string(), |k| key_field(&k)),
                    );
                    Some(NameExpr::Path { root, fields })
                }
                _ => None,
            },
            Expr::MethodCall(m) => self.accessed_place(m),
            _ => None,
        }
    }

    /// A place reached through an accessor: `pod.spec.as_ref().unwrap().node_name`,
    /// `pod.owner_references()[0].name`, `pod.namespace()` (see [`accessor_fields`]).
    fn accessed_place(&self, m: &syn::ExprMethodCall) -> Option<NameExpr> {
        let added = accessor_fields(m)?;
        match self.place(&m.receiver)? {
            NameExpr::Path { root, mut fields } => {
                fields.extend(added);
                Some(NameExpr::Path { root, fields })
            }
            _ => None,
        }
    }

    /// `obj.annotations().get("dest")`: the value of a key of an object's annotations or
    /// labels (through `unwrap`, `cloned`, … as a name). Only on those maps: `get` with a
    /// string is also how a crate's own lookups are spelled, whose returned name `link` follows.
    fn metadata_value(&self, m: &syn::ExprMethodCall) -> Option<NameExpr> {
        if m.method != "get" || m.args.len() != 1 {
            return None;
        }
        let key = string_literal(&m.args[0])?;
        match self.place(&m.receiver)? {
            NameExpr::Path { root, mut fields } if is_metadata_map(&fields) => {
                fields.push(key_field(&key));
                Some(NameExpr::Path { root, fields })
            }
            _ => None,
        }
    }

    /// The object name (or namespace) an expression evaluates to.
    pub(super) fn name_of(&self, expr: &Expr) -> NameExpr {
        match strip(expr) {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => NameExpr::Literal(s.value()),
            e @ (Expr::Path(_) | Expr::Field(_) | Expr::Index(_)) => {
                if let Expr::Path(p) = e {
                    if let Some(ident) = p.path.get_ident() {
                        if let Some(Binding {
                            value: Value::Object(_),
                            same_as: None,
                            ..
                        }) = self.lookup(&ident.to_string())
                        {
                            return NameExpr::Unknown;
                        }
                    }
                }
                self.place(e).unwrap_or(NameExpr::Unknown)
            }
            Expr::MethodCall(m) => match m.method.to_string().as_str() {
                "name_any" | "name_unchecked" | "name" if m.args.is_empty() => {
                    self.metadata_name_of(&m.receiver)
                }
                // `obj.object_ref(&())`: the reference to an object stands for the object
                // (events are about it).
                "object_ref" if m.args.len() <= 1 => self.metadata_name_of(&m.receiver),
                "as_str" | "as_ref" | "as_deref" | "clone" | "to_string" | "to_owned" | "into"
                | "unwrap" | "expect" | "unwrap_or_default" | "borrow" | "deref" | "borrow_mut"
                | "as_mut" | "deref_mut" | "read" | "write" | "lock" => self.name_of(&m.receiver),
                // `pod.namespace()`, `pod.owner_references().first()`: a place in the object.
                "namespace" | "owner_references" | "first" | "last" if m.args.is_empty() => self
                    .accessed_place(m)
                    .unwrap_or_else(|| self.name_returned_by(expr)),
                "get" => self
                    .metadata_value(m)
                    .unwrap_or_else(|| self.name_returned_by(expr)),
                "cloned" | "copied" if m.args.is_empty() => match strip(&m.receiver) {
                    Expr::MethodCall(get) => self.metadata_value(get),
                    _ => None,
                }
                .unwrap_or_else(|| self.name_returned_by(expr)),
                _ => self.name_returned_by(expr),
            },
            // `self.state.write().await`: the guard of a lock is the value it guards.
            Expr::Await(a) => match strip(&a.base) {
                Expr::MethodCall(m)
                    if m.args.is_empty() && ident_in(&m.method, &["read", "write", "lock"]) =>
                {
                    self.name_of(&m.receiver)
                }
                _ => NameExpr::Unknown,
            },
            Expr::Call(c) if c.args.len() == 1 => match strip(&c.func) {
                Expr::Path(p)
                    if p.path.segments.last().is_some_and(|s| {
                        s.ident == "from" || s.ident == "Some" || s.ident == "new"
                    }) && is_string_ctor(&p.path) =>
                {
                    self.name_of(&c.args[0])
                }
                _ => self.name_returned_by(expr),
            },
            Expr::Call(_) => self.name_returned_by(expr),
            Expr::Struct(s) => self.struct_value_name(s),
            Expr::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "format") =>
            {
                self.format_name(&m.mac)
            }
            _ => NameExpr::Unknown,
        }
    }

    /// What a call of a crate function returns, when it is a name: a binding of this call's
    /// own, which `link` follows to the name the callee's tail gives (see
    /// [`FileFacts::returned_values`]). Its id is the entry's, in a range `fresh_id` never
    /// reaches: the value of one call, not of another call of the same function.
    fn name_returned_by(&self, call: &Expr) -> NameExpr {
        let span = self.span(strip(call));
        let entry = match self.entry_by_span.get(&(span.start, span.end)) {
            Some(&i) if matches!(self.facts.requests[i].kind, RawKind::Helper(_)) => i,
            _ => return NameExpr::Unknown,
        };
        let id = ((self.source.id as u64) << 32) | (1 << 31) | entry as u64;
        let returned = ReturnedType {
            entry,
            element: None,
            item: false,
        };
        self.returned_calls.borrow_mut().insert(id, returned);
        // Made anew on each pass of the loops around it (`Uuid::new_v4()`, a counter's read).
        self.varying.borrow_mut().push(id);
        NameExpr::Path {
            root: Root::Binding(id),
            fields: Vec::new(),
        }
    }

    /// A `format!` result: its template, with the name of each argument it inserts.
    fn format_name(&self, mac: &syn::Macro) -> NameExpr {
        let Some((pieces, holes, args)) = format_template(mac) else {
            return NameExpr::Unknown;
        };
        let named = |name: &str| {
            args.iter().find_map(|a| match a {
                Expr::Assign(a) if matches!(&*a.left, Expr::Path(p) if p.path.is_ident(name)) => {
                    Some(self.name_of(&a.right))
                }
                _ => None,
            })
        };
        let parts = holes
            .iter()
            .map(|hole| match hole {
                FormatHole::Positional(i) => match args.get(*i) {
                    Some(Expr::Assign(_)) | None => NameExpr::Unknown,
                    Some(arg) => self.name_of(arg),
                },
                // `{app}`: the binding captured by that name.
                FormatHole::Named(name) => named(name)
                    .or_else(|| {
                        let ident = syn::parse_str::<syn::Ident>(name).ok()?;
                        self.place(&Expr::Path(syn::ExprPath {
                            attrs: Vec::new(),
                            qself: None,
                            path: ident.into(),
                        }))
                    })
                    .unwrap_or(NameExpr::Unknown),
                FormatHole::Spec => NameExpr::Unknown,
            })
            .collect();
        NameExpr::format(pieces, parts)
    }

    /// `obj.metadata.name` for an object expression `obj`.
    pub(super) fn metadata_name_of(&self, object: &Expr) -> NameExpr {
        if let Expr::Path(p) = strip(object) {
            if let Some(ident) = p.path.get_ident() {
                if let Some(Binding {
                    value: Value::Object(name),
                    ..
                }) = self.lookup(&ident.to_string())
                {
                    return name.clone();
                }
            }
        }
        if let Expr::Struct(s) = strip(object) {
            return self.struct_metadata_name(s).unwrap_or(NameExpr::Unknown);
        }
        // `obj.clone()`, `Arc::clone(&obj)`: the same object.
        let same = same_object(object);
        if !std::ptr::eq(same, strip(object)) {
            return self.metadata_name_of(same);
        }
        match self.place(object) {
            Some(NameExpr::Path { root, mut fields }) => {
                fields.extend(["metadata".to_string(), "name".to_string()]);
                NameExpr::Path { root, fields }
            }
            _ => NameExpr::Unknown,
        }
    }

    /// `Pod { metadata: ObjectMeta { name: Some("x".into()), .. }, .. }` → "x".
    pub(super) fn struct_metadata_name(&self, s: &syn::ExprStruct) -> Option<NameExpr> {
        for field in &s.fields {
            let syn::Member::Named(member) = &field.member else {
                continue;
            };
            if member == "metadata" {
                if let Expr::Struct(meta) = strip(&field.expr) {
                    return self.struct_metadata_name(meta);
                }
            } else if member == "name" {
                return Some(self.name_of(&field.expr));
            }
        }
        None
    }

    /// `json!({ "metadata": { "name": "x" } })` → "x".
    pub(super) fn json_metadata_name(&self, mac: &syn::Macro) -> NameExpr {
        fn find(tokens: proc_macro2::TokenStream, key: &str) -> Option<proc_macro2::TokenStream> {
            let tokens: Vec<TokenTree> = tokens.into_iter().collect();
            for (i, t) in tokens.iter().enumerate() {
                if let TokenTree::Literal(l) = t {
                    if l.to_string() == format!("{key:?}") {
                        if let Some(TokenTree::Punct(p)) = tokens.get(i + 1) {
                            if p.as_char() == ':' {
                                let value: proc_macro2::TokenStream = tokens[i + 2..]
                                    .iter()
                                    .take_while(
                                        |t| !matches!(t, TokenTree::Punct(p) if p.as_char() == ','),
                                    )
                                    .cloned()
                                    .collect();
                                return Some(value);
                            }
                        }
                    }
                }
                if let TokenTree::Group(g) = t {
                    if let Some(v) = find(g.stream(), key) {
                        return Some(v);
                    }
                }
            }
            None
        }
        let Some(TokenTree::Group(meta)) =
            find(mac.tokens.clone(), "metadata").and_then(|v| v.into_iter().next())
        else {
            return NameExpr::Unknown;
        };
        match find(meta.stream(), "name").and_then(|v| syn::parse2::<Expr>(v).ok()) {
            Some(e) => self.name_of(&e),
            None => NameExpr::Unknown,
        }
    }
}

fn is_string_ctor(path: &syn::Path) -> bool {
    let segs: Vec<&syn::Ident> = path.segments.iter().map(|s| &s.ident).collect();
    match segs.as_slice() {
        [one] => *one == "Some",
        [.., ty, _] => *ty == "String" || *ty == "Cow",
        _ => false,
    }
}

/// The fields an accessor call reaches in its receiver: none for the ones that pass a value
/// through (`as_ref`, `unwrap`), some element for `first`/`get(i)`, the metadata for kube's
/// `ResourceExt` accessors; None for any other call.
fn accessor_fields(m: &syn::ExprMethodCall) -> Option<Vec<String>> {
    let method = m.method.to_string();
    let fields: &'static [&'static str] = match (method.as_str(), m.args.len()) {
        ("as_ref" | "as_deref" | "unwrap" | "clone" | "to_owned" | "unwrap_or_default", 0)
        | ("expect", 1) => &[],
        // `map.get("key")`: the value of that key.
        ("get", 1) if string_literal(&m.args[0]).is_some() => {
            return string_literal(&m.args[0]).map(|k| vec![key_field(&k)]);
        }
        ("first" | "last", 0) | ("get", 1) => &[ANY_ELEMENT],
        ("namespace", 0) => &["metadata", "namespace"],
        ("owner_references", 0) => &["metadata", "owner_references"],
        ("annotations", 0) => &["metadata", "annotations"],
        ("labels", 0) => &["metadata", "labels"],
        _ => return None,
    };
    Some(fields.iter().map(|f| f.to_string()).collect())
}

/// The field of a [`NameExpr::Path`] for the value of a map's key (`["dest"]`): one value, the
/// same each time the map is read.
fn key_field(key: &str) -> String {
    format!("[{key:?}]")
}

/// A string literal, through `&` and parentheses: a map's key.
fn string_literal(expr: &Expr) -> Option<String> {
    match strip(expr) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// The annotations or labels of an object (`obj.annotations()`, `obj.metadata.labels`, through
/// `as_ref()`/`unwrap()`).
fn is_metadata_map(fields: &[String]) -> bool {
    matches!(fields, [.., m, map] if m == "metadata" && (map == "annotations" || map == "labels"))
}

/// Which argument a `format!` hole inserts.
enum FormatHole {
    /// `{}` (the next positional argument) or `{0}`: index among the arguments after the template.
    Positional(usize),
    /// `{name}`: a `name = ..` argument, else the binding captured by that name.
    Named(String),
    /// A hole whose spec changes the text (`{:>8}`, `{x:?}`): its part is not followed.
    Spec,
}

/// A `format!` call: the literal pieces of its template (None where an argument is inserted),
/// which argument each hole inserts, and the arguments after the template.
type FormatCall = (Vec<Option<String>>, Vec<FormatHole>, Vec<Expr>);

/// See [`FormatCall`].
fn format_template(mac: &syn::Macro) -> Option<FormatCall> {
    let args = mac
        .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
        .ok()?;
    let mut args = args.into_iter();
    let Some(Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(template),
        ..
    })) = args.next()
    else {
        return None;
    };
    let template = template.value();
    let mut pieces = Vec::new();
    let mut holes = Vec::new();
    let mut next_positional = 0;
    let mut current = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                current.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                current.push('}');
            }
            '{' => {
                let hole: String = chars.by_ref().take_while(|&c| c != '}').collect();
                holes.push(format_hole(&hole, &mut next_positional));
                if !current.is_empty() {
                    pieces.push(Some(std::mem::take(&mut current)));
                }
                pieces.push(None);
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() || pieces.is_empty() {
        pieces.push(Some(current));
    }
    Some((pieces, holes, args.collect()))
}

/// The bindings a `format!`-like macro's template captures by name (`{base}`, `{i:>3}`): the
/// values the result is computed from besides its arguments.
pub(super) fn format_captures(mac: &syn::Macro) -> Vec<String> {
    let Some(proc_macro2::TokenTree::Literal(first)) = mac.tokens.clone().into_iter().next() else {
        return Vec::new();
    };
    let Ok(syn::Lit::Str(template)) = syn::parse_str::<syn::Lit>(&first.to_string()) else {
        return Vec::new();
    };
    let template = template.value();
    let mut out = Vec::new();
    let mut rest = template.as_str();
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(escaped) = rest.strip_prefix('{') {
            rest = escaped;
            continue;
        }
        let Some(close) = rest.find('}') else {
            break;
        };
        let argument = rest[..close].split(':').next().unwrap_or_default().trim();
        if syn::parse_str::<syn::Ident>(argument).is_ok() {
            out.push(argument.to_string());
        }
        rest = &rest[close + 1..];
    }
    out
}

/// What one hole's text (between the braces) inserts.
fn format_hole(hole: &str, next_positional: &mut usize) -> FormatHole {
    let (argument, spec) = match hole.split_once(':') {
        Some((argument, spec)) => (argument.trim(), Some(spec)),
        None => (hole.trim(), None),
    };
    let hole = if argument.is_empty() {
        *next_positional += 1;
        FormatHole::Positional(*next_positional - 1)
    } else if let Ok(i) = argument.parse() {
        FormatHole::Positional(i)
    } else {
        FormatHole::Named(argument.to_string())
    };
    match spec {
        Some(spec) if !spec.is_empty() => FormatHole::Spec,
        _ => hole,
    }
}
