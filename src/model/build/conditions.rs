//! Arms that run on a test of one parameter of their function (`if wait`, `match mode { "sync"
//! => .. }`), and literal arguments: what lets a call's arguments select a branch of its callee
//! (see [`ArmCondition`]).

use std::sync::Arc;

use syn::{Expr, Lit, Pat};

use super::{strip, strip_parens, Builder};
use crate::model::{ArmCondition, Literal};

impl Builder<'_> {
    /// The arms of `if cond { .. } else { .. }` (construct `id`) as tests of a parameter.
    pub(super) fn note_if_conditions(&mut self, id: u32, cond: &Expr) {
        let Some((param, then, otherwise)) = self.if_test(cond) else {
            return;
        };
        self.facts.arm_conditions.push(((id, 0), then.of(param)));
        self.facts
            .arm_conditions
            .push(((id, 1), otherwise.of(param)));
    }

    /// `cond` as a test of a parameter: the parameter, and the tests under which the `then` and
    /// the `else` arm run.
    fn if_test(&self, cond: &Expr) -> Option<(u64, Test, Test)> {
        let cond = strip_parens(cond);
        match cond {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                let (param, then, otherwise) = self.if_test(&u.expr)?;
                Some((param, otherwise, then))
            }
            Expr::Binary(b) if matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) => {
                let (param, value) = match (self.param_of(&b.left), literal_of(&b.right)) {
                    (Some(p), Some(v)) => (p, v),
                    _ => (self.param_of(&b.right)?, literal_of(&b.left)?),
                };
                let is = Test::is(vec![value.clone()]);
                let is_not = Test::is_not(vec![value]);
                match b.op {
                    syn::BinOp::Eq(_) => Some((param, is, is_not)),
                    _ => Some((param, is_not, is)),
                }
            }
            // `if let Some(_) = timeout`, `if let "sync" = mode`.
            Expr::Let(l) => {
                let param = self.param_of(&l.expr)?;
                let values = pattern_literals(&l.pat)?;
                Some((param, Test::is(values.clone()), Test::is_not(values)))
            }
            // `timeout.is_some()`, `timeout.is_none()`.
            Expr::MethodCall(m) if m.args.is_empty() => {
                let param = self.param_of(&m.receiver)?;
                let (some, none) = (Test::is(vec![Literal::Some]), Test::is(vec![Literal::None]));
                match m.method.to_string().as_str() {
                    "is_some" => Some((param, some, none)),
                    "is_none" => Some((param, none, some)),
                    _ => None,
                }
            }
            e => {
                let param = self.param_of(e)?;
                let yes = Test::is(vec![Literal::Bool(true)]);
                Some((param, yes, Test::is(vec![Literal::Bool(false)])))
            }
        }
    }

    /// The arms of `match scrutinee { .. }` (construct `id`) as tests of a parameter: arms of
    /// literal patterns (`"a" | "b"`, `true`, `Some(_)`, `None`), then maybe one that takes the
    /// rest (`_`, a binding). An arm with a guard, and every arm after it, is not a test.
    pub(super) fn note_match_conditions(&mut self, id: u32, scrutinee: &Expr, arms: &[syn::Arm]) {
        let scrutinee = match strip(scrutinee) {
            // `match mode.as_str() { "sync" => .. }`
            Expr::MethodCall(m) if m.args.is_empty() && m.method == "as_str" => &*m.receiver,
            e => e,
        };
        let Some(param) = self.param_of(scrutinee) else {
            return;
        };
        // The arms' literals first, so that every arm shares one list of them.
        let mut tests: Vec<Option<Vec<Literal>>> = Vec::new();
        for arm in arms {
            if arm.guard.is_some() {
                break;
            }
            if takes_any(&arm.pat) {
                // Later arms never run.
                tests.push(None);
                break;
            }
            match pattern_literals(&arm.pat) {
                Some(values) => tests.push(Some(values)),
                None => break,
            }
        }
        let literals: Arc<[Literal]> = tests.iter().flatten().flatten().cloned().collect();
        let mut earlier = 0;
        for (k, is) in tests.into_iter().enumerate() {
            let count = is.as_ref().map_or(0, Vec::len);
            let condition = ArmCondition::new(param, is, literals.clone(), earlier);
            self.facts.arm_conditions.push(((id, k as u32), condition));
            earlier += count;
        }
    }

    /// The binding id of the parameter of the function being built that `expr` reads, when it
    /// is not declared `mut`.
    fn param_of(&self, expr: &Expr) -> Option<u64> {
        self.param_binding(strip(expr))
            .filter(|id| !self.mut_params.contains(id))
    }
}

/// The values an arm runs for (None: any value), before the values of earlier arms are taken
/// out.
#[derive(Clone)]
struct Test {
    is: Option<Vec<Literal>>,
    is_not: Vec<Literal>,
}

impl Test {
    fn is(values: Vec<Literal>) -> Test {
        Test {
            is: Some(values),
            is_not: Vec::new(),
        }
    }

    fn is_not(values: Vec<Literal>) -> Test {
        Test {
            is: None,
            is_not: values,
        }
    }

    fn of(self, param: u64) -> ArmCondition {
        let earlier = self.is_not.len();
        ArmCondition::new(param, self.is, self.is_not.into(), earlier)
    }
}

/// The literal an argument is, as far as a callee can test it: `true`, `3`, `-1`, `'x'`,
/// `"sync"` (also `.to_string()`, `.to_owned()`, `.into()` of one, `String::from("sync")`),
/// `None`, `Some(..)`.
pub(super) fn literal_of(expr: &Expr) -> Option<Literal> {
    match strip(expr) {
        Expr::Lit(l) => literal_value(&l.lit),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match literal_of(&u.expr)? {
            Literal::Int(n) => Some(Literal::Int(n.checked_neg()?)),
            _ => None,
        },
        Expr::Path(p) if p.path.is_ident("None") => Some(Literal::None),
        Expr::Call(c) => match strip(&c.func) {
            Expr::Path(p) if p.path.is_ident("Some") && c.args.len() == 1 => Some(Literal::Some),
            Expr::Path(p)
                if c.args.len() == 1
                    && p.path.segments.len() == 2
                    && p.path.segments[0].ident == "String"
                    && p.path.segments[1].ident == "from" =>
            {
                literal_of(&c.args[0]).filter(|l| matches!(l, Literal::Str(_)))
            }
            _ => None,
        },
        Expr::MethodCall(m)
            if m.args.is_empty()
                && ["to_string", "to_owned", "into"].contains(&m.method.to_string().as_str()) =>
        {
            literal_of(&m.receiver).filter(|l| matches!(l, Literal::Str(_)))
        }
        _ => None,
    }
}

fn literal_value(lit: &Lit) -> Option<Literal> {
    match lit {
        Lit::Bool(b) => Some(Literal::Bool(b.value)),
        Lit::Int(i) => i.base10_parse::<i128>().ok().map(Literal::Int),
        Lit::Char(c) => Some(Literal::Char(c.value())),
        Lit::Str(s) => Some(Literal::Str(s.value())),
        _ => None,
    }
}

/// The literals a refutable pattern matches: `"a" | "b"`, `true`, `3`, `None`, `Some(_)`
/// (`Some(x)`); None for any other pattern.
fn pattern_literals(pat: &Pat) -> Option<Vec<Literal>> {
    match pat {
        Pat::Lit(l) => Some(vec![literal_value(&l.lit)?]),
        Pat::Paren(p) => pattern_literals(&p.pat),
        Pat::Or(o) => {
            let mut out = Vec::new();
            for case in &o.cases {
                out.extend(pattern_literals(case)?);
            }
            Some(out)
        }
        Pat::Ident(i) if i.ident == "None" && i.subpat.is_none() => Some(vec![Literal::None]),
        Pat::Path(p) if p.path.is_ident("None") => Some(vec![Literal::None]),
        Pat::TupleStruct(t)
            if t.path.is_ident("Some") && t.elems.len() == 1 && takes_any(&t.elems[0]) =>
        {
            Some(vec![Literal::Some])
        }
        _ => None,
    }
}

/// A pattern every value matches: `_`, a binding (lowercase: `Sync` may name a constant or a
/// variant).
fn takes_any(pat: &Pat) -> bool {
    match pat {
        Pat::Wild(_) => true,
        Pat::Ident(i) => {
            i.subpat.is_none()
                && i.ident
                    .to_string()
                    .starts_with(|c: char| c == '_' || c.is_lowercase())
        }
        Pat::Paren(p) => takes_any(&p.pat),
        Pat::Type(t) => takes_any(&t.pat),
        _ => false,
    }
}
