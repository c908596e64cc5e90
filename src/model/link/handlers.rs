//! A web handler's requests as one invocation makes them, seen from where it is registered: its
//! parameters are what the server hands it for one HTTP request ([`Root::Handled`]).

use super::callees::resolution_of;
use super::substitution::Substitution;
use super::{display_name, Linker};
use crate::model::{
    Argument, FunctionFacts, HandlerRoute, HelperCall, NameExpr, RawKind, Request, Root,
};

impl Linker<'_> {
    /// The requests one invocation of the route's handler makes (none when the handler is no
    /// function of the crate).
    pub(super) fn handler_requests(&self, pos: usize, route: &HandlerRoute) -> Vec<Request> {
        let RawKind::Helper(call) = &route.raw.kind else {
            return Vec::new();
        };
        let resolution = resolution_of(call, false);
        let mut out = Vec::new();
        // The registration passes no arguments; a function is found by how many it takes (an
        // axum handler takes at most 16 extractors).
        let callees = (0..=MAX_EXTRACTORS)
            .map(|n| {
                let mut raw = route.raw.clone();
                let with_args = HelperCall {
                    args: vec![Argument::unknown(); n],
                    ..call.clone()
                };
                raw.kind = RawKind::Helper(with_args.clone());
                self.callees(pos, &raw, &with_args)
            })
            .find(|found| !found.is_empty())
            .unwrap_or_default();
        for (cpos, k) in callees {
            let callee = &self.shared.facts(cpos).functions[k];
            let summary = self.summary(cpos, k, 1);
            let handed = handed_request(call, callee);
            let mut subst = Substitution::new(self.index(), callee, &handed);
            // `Json(event): Json<E>`: the binding inside the pattern is what the server hands.
            for e in &callee.extracted {
                if let Some(arg) = handed.args.get(e.param) {
                    subst.params.insert(e.binding, arg);
                }
            }
            let via = display_name(callee);
            out.extend(summary.iter().map(|r| {
                self.at_call(pos, &route.raw, subst.apply(r), via.clone(), resolution, 1)
            }));
        }
        out
    }
}

/// How many parameters a handler is looked up with, at most (axum's limit).
const MAX_EXTRACTORS: usize = 16;

/// The registration as a call of the handler with, for each parameter, the value the server
/// hands one invocation (see [`Root::Handled`]), by the parameter's type as written.
fn handed_request(call: &HelperCall, handler: &FunctionFacts) -> HelperCall {
    let args = (0..handler.params.len())
        .map(|i| {
            let extracted = handler.extracted.iter().find(|e| e.param == i);
            let (name, text) = match extracted {
                Some(e) => (
                    NameExpr::Path {
                        root: Root::Handled(e.ty.clone()),
                        fields: Vec::new(),
                    },
                    e.name.clone(),
                ),
                None => (NameExpr::Unknown, String::new()),
            };
            Argument {
                name,
                text,
                ..Argument::unknown()
            }
        })
        .collect();
    HelperCall {
        args,
        ..call.clone()
    }
}
