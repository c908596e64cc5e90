//! Conditional compilation: the `#[cfg(..)]` predicate code is compiled under, in a small
//! normalized form, and whether two pieces of code can be compiled together.
//!
//! The builder records on every raw request and function the conjunction of the `cfg`s of the
//! items, statements, expressions and arms around it ([`Cfg`]); the linker conjoins a helper's
//! requests with the call's. Two requests whose predicates cannot both hold (`unix` and
//! `windows`, `feature = "a"` and `not(feature = "a")`, two `target_os` values) are never
//! compiled into one program, so [`super::Request::same_object`] never pairs them. Lints do not
//! read attributes.

use std::fmt;
use std::sync::Arc;

use syn::punctuated::Punctuated;
use syn::{Meta, Token};

/// One `cfg` option: a name (`unix`, `test`, `debug_assertions`) or a key and value
/// (`target_os = "linux"`, `feature = "tls"`). `unix` and `windows` are kept as
/// `target_family = "unix"`/`"windows"`, which they mean.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CfgAtom {
    pub key: String,
    pub value: Option<String>,
}

/// A `cfg` predicate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CfgExpr {
    Atom(CfgAtom),
    Not(Box<CfgExpr>),
    All(Vec<CfgExpr>),
    Any(Vec<CfgExpr>),
}

/// What code is compiled under: the conjunction of the predicates around it, outermost first;
/// none for code compiled always.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cfg(Option<Arc<[CfgExpr]>>);

/// Keys that have one value per compilation.
const SINGLE_VALUED: &[&str] = &[
    "target_os",
    "target_arch",
    "target_env",
    "target_vendor",
    "target_abi",
    "target_pointer_width",
    "target_endian",
    "panic",
];

/// Operating systems of the `unix` family.
const UNIX_OSES: &[&str] = &[
    "linux",
    "macos",
    "ios",
    "tvos",
    "watchos",
    "visionos",
    "android",
    "freebsd",
    "netbsd",
    "openbsd",
    "dragonfly",
    "solaris",
    "illumos",
    "haiku",
    "aix",
    "hurd",
    "redox",
    "fuchsia",
    "emscripten",
    "nto",
    "horizon",
    "vita",
    "l4re",
    "espidf",
];

/// Past this many distinct options, two predicates are taken to coexist without checking.
const MAX_ATOMS: usize = 14;

impl CfgAtom {
    fn new(key: &str, value: Option<String>) -> Self {
        match (key, value) {
            ("unix" | "windows", None) => CfgAtom {
                key: "target_family".into(),
                value: Some(key.into()),
            },
            (key, value) => CfgAtom {
                key: key.into(),
                value,
            },
        }
    }

    fn is_test(&self) -> bool {
        self.key == "test" && self.value.is_none()
    }

    /// The family a `target_os` implies.
    fn implied_family(&self) -> Option<CfgAtom> {
        let os = self.value.as_deref().filter(|_| self.key == "target_os")?;
        let family = match os {
            "windows" => "windows",
            os if UNIX_OSES.contains(&os) => "unix",
            _ => return None,
        };
        Some(CfgAtom::new(family, None))
    }
}

impl CfgExpr {
    /// The predicate of a `cfg(..)`'s argument; None for a form that is not one.
    fn from_meta(meta: &Meta) -> Option<CfgExpr> {
        match meta {
            Meta::Path(p) => Some(CfgExpr::Atom(CfgAtom::new(
                &p.get_ident()?.to_string(),
                None,
            ))),
            Meta::NameValue(nv) => {
                let key = nv.path.get_ident()?.to_string();
                let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                else {
                    return None;
                };
                Some(CfgExpr::Atom(CfgAtom::new(&key, Some(s.value()))))
            }
            Meta::List(list) => {
                let op = list.path.get_ident()?.to_string();
                let args = list
                    .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                    .ok()?;
                let args = args
                    .iter()
                    .map(CfgExpr::from_meta)
                    .collect::<Option<Vec<_>>>()?;
                match op.as_str() {
                    "all" => Some(CfgExpr::All(args)),
                    "any" => Some(CfgExpr::Any(args)),
                    "not" if args.len() == 1 => {
                        Some(CfgExpr::Not(Box::new(args.into_iter().next()?)))
                    }
                    _ => None,
                }
            }
        }
    }

    fn atoms<'e>(&'e self, out: &mut Vec<&'e CfgAtom>) {
        match self {
            CfgExpr::Atom(a) => {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
            CfgExpr::Not(e) => e.atoms(out),
            CfgExpr::All(es) | CfgExpr::Any(es) => es.iter().for_each(|e| e.atoms(out)),
        }
    }

    fn eval(&self, value: &impl Fn(&CfgAtom) -> bool) -> bool {
        match self {
            CfgExpr::Atom(a) => value(a),
            CfgExpr::Not(e) => !e.eval(value),
            CfgExpr::All(es) => es.iter().all(|e| e.eval(value)),
            CfgExpr::Any(es) => es.iter().any(|e| e.eval(value)),
        }
    }

    /// The conjuncts of a predicate: `all(a, b)` is `a` and `b`.
    fn push_conjuncts(self, out: &mut Vec<CfgExpr>) {
        match self {
            CfgExpr::All(es) => es.into_iter().for_each(|e| e.push_conjuncts(out)),
            e => {
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        }
    }
}

impl fmt::Display for CfgAtom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.key.as_str(), &self.value) {
            ("target_family", Some(v)) if v == "unix" || v == "windows" => f.write_str(v),
            (key, Some(v)) => write!(f, "{key} = {v:?}"),
            (key, None) => f.write_str(key),
        }
    }
}

impl fmt::Display for CfgExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, op: &str, es: &[CfgExpr]| {
            write!(f, "{op}(")?;
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{e}")?;
            }
            f.write_str(")")
        };
        match self {
            CfgExpr::Atom(a) => write!(f, "{a}"),
            CfgExpr::Not(e) => write!(f, "not({e})"),
            CfgExpr::All(es) => list(f, "all", es),
            CfgExpr::Any(es) => list(f, "any", es),
        }
    }
}

/// The predicate of the `#[cfg(..)]` attributes among these (all of them must hold); None when
/// there is none, or none the tool understands. A test function (`#[test]`, `#[tokio::test]`)
/// is compiled under `cfg(test)`.
pub fn of_attrs(attrs: &[syn::Attribute]) -> Option<CfgExpr> {
    let mut all = Vec::new();
    for a in attrs {
        if a.path().is_ident("cfg") {
            if let Some(e) = a
                .parse_args::<Meta>()
                .ok()
                .and_then(|m| CfgExpr::from_meta(&m))
            {
                e.push_conjuncts(&mut all);
            }
        } else if is_test_attr(a) {
            CfgExpr::Atom(CfgAtom::new("test", None)).push_conjuncts(&mut all);
        }
    }
    match all.len() {
        0 => None,
        1 => all.pop(),
        _ => Some(CfgExpr::All(all)),
    }
}

/// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(..)]`: a function only compiled for
/// the test harness.
fn is_test_attr(a: &syn::Attribute) -> bool {
    a.path().segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "test" | "rstest" | "test_case"
        )
    })
}

/// The attributes written on an expression (`#[cfg(unix)] { .. }`).
pub fn attrs_of_expr(expr: &syn::Expr) -> &[syn::Attribute] {
    use syn::Expr;
    match expr {
        Expr::Array(e) => &e.attrs,
        Expr::Assign(e) => &e.attrs,
        Expr::Async(e) => &e.attrs,
        Expr::Await(e) => &e.attrs,
        Expr::Binary(e) => &e.attrs,
        Expr::Block(e) => &e.attrs,
        Expr::Break(e) => &e.attrs,
        Expr::Call(e) => &e.attrs,
        Expr::Cast(e) => &e.attrs,
        Expr::Closure(e) => &e.attrs,
        Expr::Const(e) => &e.attrs,
        Expr::Continue(e) => &e.attrs,
        Expr::Field(e) => &e.attrs,
        Expr::ForLoop(e) => &e.attrs,
        Expr::Group(e) => &e.attrs,
        Expr::If(e) => &e.attrs,
        Expr::Index(e) => &e.attrs,
        Expr::Infer(e) => &e.attrs,
        Expr::Let(e) => &e.attrs,
        Expr::Lit(e) => &e.attrs,
        Expr::Loop(e) => &e.attrs,
        Expr::Macro(e) => &e.attrs,
        Expr::Match(e) => &e.attrs,
        Expr::MethodCall(e) => &e.attrs,
        Expr::Paren(e) => &e.attrs,
        Expr::Path(e) => &e.attrs,
        Expr::Range(e) => &e.attrs,
        Expr::RawAddr(e) => &e.attrs,
        Expr::Reference(e) => &e.attrs,
        Expr::Repeat(e) => &e.attrs,
        Expr::Return(e) => &e.attrs,
        Expr::Struct(e) => &e.attrs,
        Expr::Try(e) => &e.attrs,
        Expr::TryBlock(e) => &e.attrs,
        Expr::Tuple(e) => &e.attrs,
        Expr::Unary(e) => &e.attrs,
        Expr::Unsafe(e) => &e.attrs,
        Expr::While(e) => &e.attrs,
        Expr::Yield(e) => &e.attrs,
        _ => &[],
    }
}

impl Cfg {
    /// Code compiled always.
    pub fn always() -> Cfg {
        Cfg(None)
    }

    pub fn is_always(&self) -> bool {
        self.0.is_none()
    }

    fn conjuncts(&self) -> &[CfgExpr] {
        self.0.as_deref().unwrap_or(&[])
    }

    /// Code under this and also under `expr`.
    pub fn with(&self, expr: Option<CfgExpr>) -> Cfg {
        match expr {
            None => self.clone(),
            Some(e) => {
                let mut all = self.conjuncts().to_vec();
                e.push_conjuncts(&mut all);
                Cfg(Some(all.into()))
            }
        }
    }

    /// Code under both.
    pub fn and(&self, other: &Cfg) -> Cfg {
        match (&self.0, &other.0) {
            (_, None) => self.clone(),
            (None, _) => other.clone(),
            (Some(_), Some(b)) => {
                let mut all = self.conjuncts().to_vec();
                for e in b.iter() {
                    e.clone().push_conjuncts(&mut all);
                }
                Cfg(Some(all.into()))
            }
        }
    }

    /// Can code under this and code under `other` be compiled into one program?
    pub fn can_coexist(&self, other: &Cfg) -> bool {
        if self.is_always() || other.is_always() {
            return true;
        }
        satisfiable(self.conjuncts().iter().chain(other.conjuncts()), None)
    }

    /// Only compiled for tests: `cfg(test)`, a `#[cfg(test)] mod`, a `#[test]` function.
    pub fn is_test(&self) -> bool {
        !self.is_always() && !satisfiable(self.conjuncts().iter(), Some(false))
    }

    /// Never compiled for tests: `cfg(not(test))`.
    pub fn excludes_test(&self) -> bool {
        !self.is_always() && !satisfiable(self.conjuncts().iter(), Some(true))
    }

    /// The predicate without its `test` part, for messages ("`cfg(unix)`"); None when nothing
    /// but `test` is left: a finding in tests does not say so.
    pub fn platform(&self) -> Option<String> {
        render(
            self.conjuncts()
                .iter()
                .filter(|e| !matches!(e, CfgExpr::Atom(a) if a.is_test())),
        )
    }

    /// The whole predicate ("`cfg(all(test, unix))`"), for `debug model`; None when always.
    pub fn describe(&self) -> Option<String> {
        render(self.conjuncts().iter())
    }
}

fn render<'e>(conjuncts: impl Iterator<Item = &'e CfgExpr>) -> Option<String> {
    let parts: Vec<String> = conjuncts.map(|e| e.to_string()).collect();
    match parts.as_slice() {
        [] => None,
        [one] => Some(format!("cfg({one})")),
        many => Some(format!("cfg(all({}))", many.join(", "))),
    }
}

/// Whether some configuration makes every predicate hold (with `test` fixed when given): one
/// value per single-valued key, `unix` and `windows` never both, a `target_os` implying its
/// family. Too many options to try are taken to be satisfiable.
fn satisfiable<'e>(exprs: impl Iterator<Item = &'e CfgExpr> + Clone, test: Option<bool>) -> bool {
    let mut atoms: Vec<&CfgAtom> = Vec::new();
    for e in exprs.clone() {
        e.atoms(&mut atoms);
    }
    let implied: Vec<CfgAtom> = atoms
        .iter()
        .filter_map(|a| a.implied_family())
        .filter(|f| !atoms.contains(&f))
        .collect();
    let mut all: Vec<&CfgAtom> = atoms;
    for f in &implied {
        if !all.contains(&f) {
            all.push(f);
        }
    }
    if all.len() > MAX_ATOMS {
        return true;
    }
    let index = |a: &CfgAtom| all.iter().position(|b| *b == a);
    // Implications: (os, family), both indices.
    let implications: Vec<(usize, usize)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, a)| Some((i, index(&a.implied_family()?)?)))
        .collect();
    let family = |name: &str| index(&CfgAtom::new(name, None));
    let (unix, windows) = (family("unix"), family("windows"));
    let test_index = index(&CfgAtom::new("test", None));
    let consistent = |bits: u32| {
        let on = |i: usize| bits & (1 << i) != 0;
        if let (Some(u), Some(w)) = (unix, windows) {
            if on(u) && on(w) {
                return false;
            }
        }
        if let (Some(t), Some(want)) = (test_index, test) {
            if on(t) != want {
                return false;
            }
        }
        if implications.iter().any(|&(os, fam)| on(os) && !on(fam)) {
            return false;
        }
        for (i, a) in all.iter().enumerate() {
            if on(i) && SINGLE_VALUED.contains(&a.key.as_str()) {
                let clash = all
                    .iter()
                    .enumerate()
                    .any(|(j, b)| j > i && on(j) && b.key == a.key && b.value != a.value);
                if clash {
                    return false;
                }
            }
        }
        true
    };
    (0..1u32 << all.len()).any(|bits| {
        consistent(bits)
            && exprs
                .clone()
                .all(|e| e.eval(&|a: &CfgAtom| index(a).is_some_and(|i| bits & (1 << i) != 0)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(text: &str) -> Cfg {
        let file: syn::File = syn::parse_str(&format!("#[cfg({text})] fn f() {{}}")).unwrap();
        let syn::Item::Fn(f) = &file.items[0] else {
            unreachable!()
        };
        Cfg::always().with(of_attrs(&f.attrs))
    }

    #[test]
    fn exclusive_platforms_and_features() {
        assert!(!cfg("unix").can_coexist(&cfg("windows")));
        assert!(!cfg("unix").can_coexist(&cfg("not(unix)")));
        assert!(!cfg("target_os = \"linux\"").can_coexist(&cfg("target_os = \"macos\"")));
        assert!(!cfg("target_os = \"linux\"").can_coexist(&cfg("windows")));
        assert!(!cfg("feature = \"a\"").can_coexist(&cfg("not(feature = \"a\")")));
        assert!(!cfg("all(unix, feature = \"a\")")
            .can_coexist(&cfg("any(windows, not(feature = \"a\"))")));
    }

    #[test]
    fn compatible_predicates() {
        assert!(cfg("unix").can_coexist(&cfg("unix")));
        assert!(cfg("unix").can_coexist(&cfg("target_os = \"linux\"")));
        assert!(cfg("feature = \"a\"").can_coexist(&cfg("feature = \"b\"")));
        assert!(cfg("test").can_coexist(&Cfg::always()));
        assert!(cfg("unknown_option").can_coexist(&cfg("not(other)")));
        assert!(cfg("any(unix, windows)").can_coexist(&cfg("windows")));
    }

    #[test]
    fn tests_and_messages() {
        assert!(cfg("test").is_test());
        assert!(cfg("all(test, unix)").is_test());
        assert!(!cfg("any(test, unix)").is_test());
        assert!(cfg("not(test)").excludes_test());
        assert!(!Cfg::always().is_test());
        assert_eq!(
            cfg("all(test, unix)").platform().as_deref(),
            Some("cfg(unix)")
        );
        assert_eq!(cfg("test").platform(), None);
        assert_eq!(
            cfg("all(unix, feature = \"tls\")").platform().as_deref(),
            Some("cfg(all(unix, feature = \"tls\"))")
        );
        assert_eq!(
            cfg("not(windows)").platform().as_deref(),
            Some("cfg(not(windows))")
        );
    }
}
