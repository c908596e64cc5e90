//! Calls of declared wrappers and of dependencies' helpers, as the requests they make.

use super::substitution::extend;
use super::Linker;
use crate::model::verbs::{self, Access};
use crate::model::wrappers::WrapperSpec;
use crate::model::{
    Argument, Callee, Handle, HelperCall, NameExpr, Namespace, ObjectName, Precondition,
    RawRequest, Request, Resolution,
};

impl<'a> Linker<'a> {
    /// The wrappers calls are resolved with (declared, and found in dependencies).
    pub fn wrappers(&self) -> &'a [WrapperSpec] {
        self.shared.run.wrappers
    }

    /// The helpers of dependencies a call is: free functions by the end of the call's path,
    /// methods by the receiver's type, when it is known (written, or what the call giving the
    /// receiver returns); never by a method's name alone.
    pub(super) fn dependency_helpers(&self, pos: usize, call: &HelperCall) -> Vec<&'a WrapperSpec> {
        let method = match &call.callee {
            Callee::Path(_) => None,
            Callee::Method {
                name, self_type, ..
            } => match self_type
                .clone()
                .or_else(|| self.receiver_type(pos, call, 0))
                .or_else(|| self.receiver_field_type(call))
            {
                Some(t) => Some((name, t)),
                None => return Vec::new(),
            },
            Callee::Field(_) => return Vec::new(),
        };
        self.wrappers()
            .iter()
            .filter(|w| w.from_dependency.is_some())
            .filter(|w| match (&method, &w.method_of) {
                (None, None) => wrapper_matches(w, call),
                (Some((name, t)), Some(of)) => {
                    of == t && w.function.rsplit("::").next() == Some(name.as_str())
                }
                _ => false,
            })
            .collect()
    }

    /// The declared type of a receiver that is a field (`ctx.op`, `self.op`), by the field's
    /// name (see [`IndexView::field_type`]).
    fn receiver_field_type(&self, call: &HelperCall) -> Option<String> {
        match &call.receiver.as_ref()?.name {
            NameExpr::Path { fields, .. } => {
                let field = fields.last()?;
                self.index().field_type(field).map(str::to_string)
            }
            _ => None,
        }
    }

    /// Is this a call of one of the wrappers (see [`wrapper_matches`])?
    pub(super) fn is_wrapper_call(&self, call: &HelperCall) -> bool {
        self.wrappers().iter().any(|w| wrapper_matches(w, call))
    }

    /// A call of a user-declared wrapper, as the request it makes.
    pub(super) fn wrapper_request(
        &self,
        pos: usize,
        raw: &RawRequest,
        call: &HelperCall,
        spec: &WrapperSpec,
    ) -> Request {
        let method = spec
            .verb
            .as_deref()
            .unwrap_or_else(|| spec.function.rsplit("::").next().unwrap_or_default());
        let verb = verbs::lookup(method)
            .filter(|v| v.access == spec.access)
            .unwrap_or(match spec.access {
                Access::Read => &verbs::WRAPPER_READ,
                Access::Write => &verbs::WRAPPER_WRITE,
            });
        let kind = spec
            .kind
            .clone()
            .or_else(|| {
                spec.kind_param
                    .and_then(|i| call.type_args.get(i).cloned().flatten())
            })
            .or_else(|| {
                let arg = call.args.get(spec.kind_arg?)?;
                arg.kind.clone().or_else(|| self.fetched_kind(pos, arg))
            });
        let namespace = match spec.namespace_arg.and_then(|i| call.args.get(i)) {
            Some(arg) => Namespace::Named(self.index().resolve_name(&arg.name)),
            None => Namespace::Unknown,
        };
        let object = match (spec.name_arg, spec.object_arg) {
            _ if spec.fixed_name.is_some() => ObjectName::One {
                name: NameExpr::Literal(spec.fixed_name.clone().unwrap_or_default()),
                text: format!("{:?}", spec.fixed_name.as_deref().unwrap_or_default()),
            },
            (Some(i), _) => wrapper_name(call.args.get(i), &[], |n| self.index().resolve_name(n)),
            (None, Some(i)) => wrapper_name(call.args.get(i), &["metadata", "name"], |n| {
                self.index().resolve_name(n)
            }),
            (None, None) => ObjectName::All,
        };
        // The `Api` passed: the request's kind and namespace are its own.
        let passed_handle = spec
            .api_arg
            .and_then(|i| call.args.get(i))
            .and_then(|a| a.handle.as_ref())
            .and_then(|h| self.index().resolve(h));
        let handle = match passed_handle {
            Some(h) => Handle {
                kind: kind.or(h.kind.clone()),
                ..h
            },
            None => Handle {
                kind,
                namespace,
                origin: None,
                kind_param: None,
            },
        };
        Request {
            span: raw.span,
            verb,
            handle,
            receiver: call
                .receiver
                .as_ref()
                .map(|r| r.text.clone())
                .unwrap_or_default(),
            object,
            via: spec
                .from_dependency
                .iter()
                .map(|_| spec.function.clone())
                .collect(),
            // A dependency's helper is not a file of the run.
            defined_at: match spec.from_dependency {
                Some(_) => None,
                None => self.shared.display(pos).map(|d| (d.clone(), raw.line)),
            },
            written_at: raw.span,
            keyed_by: raw.keyed_by.clone(),
            in_channel_loop: raw.in_channel_loop,
            resolution: Resolution::Typed,
            may_create: true,
            cfg: raw.cfg.clone(),
            name_from_get: false,
            name_from_list: false,
            fetched: None,
            listed: None,
            precondition: Precondition::None,
            controller: None,
            left_running: None,
        }
    }
}

/// Whether a call is one of a declared wrapper: the last segments must agree, and a qualified
/// call must fit the declared path.
pub(super) fn wrapper_matches(spec: &WrapperSpec, call: &HelperCall) -> bool {
    let declared: Vec<&str> = spec.function.split("::").collect();
    let Some(last) = declared.last() else {
        return false;
    };
    // A dependency's method: only on a receiver written to be of its type.
    if let Some(of) = &spec.method_of {
        return matches!(&call.callee, Callee::Method { name, self_type: Some(t), .. }
            if name == last && t == of);
    }
    match &call.callee {
        Callee::Method { name, .. } => name == last,
        Callee::Field(_) => false,
        Callee::Path(segments) => {
            let called: Vec<&str> = segments.iter().map(String::as_str).collect();
            let n = called.len().min(declared.len());
            called[called.len() - n..] == declared[declared.len() - n..]
        }
    }
}

/// The object a wrapper's argument names: the argument itself, or a field of it (`metadata.name`
/// of an object argument). Unknown when the call has no such argument.
fn wrapper_name(
    arg: Option<&Argument>,
    fields: &[&str],
    resolve: impl Fn(&NameExpr) -> NameExpr,
) -> ObjectName {
    let Some(arg) = arg else {
        return ObjectName::One {
            name: NameExpr::Unknown,
            text: String::new(),
        };
    };
    let fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    let text = match fields.is_empty() {
        true => arg.text.clone(),
        false => format!("{}.{}", arg.text, crate::model::fields_text(&fields)),
    };
    ObjectName::One {
        name: resolve(&extend(&arg.name, &fields)),
        text,
    }
}
