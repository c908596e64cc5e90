//! The callers of a function, and what they pass: a write whose body is a parameter of the
//! function it is made in carries a precondition when every caller's argument does (see
//! [`Precondition`]).

// foldhash, seeded per run, as the rest of the model (see `model::build`).
use foldhash::HashMap;

use super::substitution::Substitution;
use super::{FunctionRef, Linker};
use crate::model::verbs;
use crate::model::{HelperCall, Precondition, RawKind, RawRequest, Request};

/// How many callers up a parameter is followed (a bound, not a semantic rule).
const MAX_CALLER_DEPTH: usize = 4;

/// How many callers of one function are read at most: more is not followed (not guarded).
const MAX_CALLERS: usize = 64;

/// Calls by the callee's name, over every file: (file position, entry index). The names are
/// owned: borrowed ones would make the index invariant in its files' lifetime (it sits in a
/// `OnceLock`), and a doc example's linker lays one file of a shorter life on the run's.
pub(super) type CallsByName = HashMap<String, Vec<(usize, usize)>>;

impl<'a> Linker<'a> {
    /// The requests of entry `raw`, their preconditions given by a parameter resolved through
    /// the callers of the function the entry is in.
    pub(super) fn resolve_preconditions(
        &self,
        pos: usize,
        raw: &RawRequest,
        requests: &mut [Request],
    ) {
        for r in requests {
            if let Precondition::Param(param) = r.precondition {
                let guarded = raw
                    .function
                    .is_some_and(|k| self.every_caller_guards((pos, k), param, 0));
                r.precondition = if guarded {
                    Precondition::ResourceVersion
                } else {
                    Precondition::None
                };
            }
        }
    }

    /// Whether every call of the function passes, for `param`, a body carrying a
    /// precondition. Not when it has no caller the crate shows, may be called from outside the
    /// crate, or is called by a call that may be it but is not resolved.
    fn every_caller_guards(&self, function: FunctionRef, param: u64, depth: usize) -> bool {
        let (pos, k) = function;
        let callee = &self.shared.facts(pos).functions[k];
        if depth >= MAX_CALLER_DEPTH || callee.exported || callee.entry_point {
            return false;
        }
        let key = (function, param);
        if let Some(&known) = self.guarded_params.borrow().get(&key) {
            return known;
        }
        // Recursion (the function passes the body on to itself): not followed, not guarded.
        self.guarded_params.borrow_mut().insert(key, false);
        let guarded = match self.callers(function) {
            Some(callers) if !callers.is_empty() => callers.iter().all(|&(cpos, entry)| {
                let raw = &self.shared.facts(cpos).requests[entry];
                self.argument_guards(function, param, cpos, raw, depth)
            }),
            _ => false,
        };
        self.guarded_params.borrow_mut().insert(key, guarded);
        guarded
    }

    /// Whether this call of `function` passes a guarded body for `param`, written at the call
    /// or given by every caller of the calling function.
    fn argument_guards(
        &self,
        function: FunctionRef,
        param: u64,
        cpos: usize,
        raw: &RawRequest,
        depth: usize,
    ) -> bool {
        let Some(call) = self.crate_call(cpos, raw) else {
            return false;
        };
        let callee = &self.shared.facts(function.0).functions[function.1];
        let subst = Substitution::new(self.index(), callee, call);
        match subst.params.get(&param).map(|a| a.precondition) {
            // A version copied from a fresh read, passed on: guarded, as before the copy was
            // told apart (a body handed to another function is not followed that far).
            Some(Precondition::ResourceVersion | Precondition::Refreshed(_)) => true,
            Some(Precondition::Param(up)) => raw
                .function
                .is_some_and(|ck| self.every_caller_guards((cpos, ck), up, depth + 1)),
            Some(Precondition::Returned(entry)) => self.returns_guarded_body(cpos, entry, 0),
            Some(Precondition::None | Precondition::Cleared | Precondition::Stored) | None => false,
        }
    }

    /// The calls of `function` in this linker's scope; None when a call of its name may be it
    /// but is not resolved to it (an unknown caller), or when there are too many to read.
    fn callers(&self, function: FunctionRef) -> Option<Vec<(usize, usize)>> {
        let (pos, k) = function;
        let name = self.shared.facts(pos).functions[k].name.as_str();
        let mut callers = Vec::new();
        for (cpos, entry) in self
            .shared
            .calls_named(name)
            .filter(|&(cpos, _)| self.sees(cpos))
        {
            let raw = &self.shared.facts(cpos).requests[entry];
            let Some(call) = self.crate_call(cpos, raw) else {
                continue;
            };
            if self.callees(cpos, raw, call).contains(&function) {
                callers.push((cpos, entry));
            } else if self.candidates(cpos, &raw.cfg, call, 0).contains(&function) {
                return None;
            }
            if callers.len() > MAX_CALLERS {
                return None;
            }
        }
        Some(callers)
    }

    /// The entry as a call of a crate function: a helper call, or a request method's name on
    /// a receiver that is not an `Api` (`lease.patch(&p)` of the crate's `Lease`).
    fn crate_call<'r>(&self, pos: usize, raw: &'r RawRequest) -> Option<&'r HelperCall> {
        match &raw.kind {
            RawKind::Helper(call) => Some(call),
            RawKind::Api(call)
                if verbs::lookup(call.verb.method).is_some()
                    && self.resolve_handle(pos, &call.source).is_some() =>
            {
                None
            }
            RawKind::Api(call) => call.as_method.as_ref(),
        }
    }
}

/// Every file's calls by the callee's name (see [`CallsByName`]).
pub(super) fn calls_by_name(
    files: &[(crate::source::FileId, &crate::model::FileFacts)],
) -> CallsByName {
    let mut calls: CallsByName = HashMap::default();
    for (pos, (_, facts)) in files.iter().enumerate() {
        for (i, raw) in facts.requests.iter().enumerate() {
            let call = match &raw.kind {
                RawKind::Helper(call) => Some(call),
                RawKind::Api(call) => call.as_method.as_ref(),
            };
            if let Some(call) = call {
                calls
                    .entry(super::callee_name(call).to_string())
                    .or_default()
                    .push((pos, i));
            }
        }
    }
    calls
}

#[cfg(test)]
mod tests {
    use crate::model::link::Linker;
    use crate::model::{build, FileModel};
    use crate::source::SourceFile;

    const HEAD: &str = "use k8s_openapi::api::coordination::v1::Lease;\nuse kube::api::{Api, Patch, PatchParams};\nstruct M { api: Api<Lease>, name: String }\n";

    /// The files linked together; the model of the first.
    fn model(sources: &[&str]) -> FileModel {
        let files: Vec<(SourceFile, syn::File)> = sources
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let text = format!("{HEAD}{text}");
                let file = syn::parse_file(&text).expect("parses");
                (SourceFile::new(i, format!("f{i}.rs").into(), text), file)
            })
            .collect();
        let facts: Vec<_> = files.iter().map(|(s, f)| build::build(s, f)).collect();
        Linker::new(facts.iter().enumerate().collect(), Default::default(), &[]).link(0)
    }

    /// Whether the patch made in `fn write_lease` (the first of the first file) is guarded.
    /// (Its other entries, calls building the body, make no request.)
    fn write_is_guarded(sources: &[&str]) -> bool {
        let model = model(sources);
        let write = model.functions.iter().position(|f| f.name == "write_lease");
        let (i, _) = model
            .raw
            .iter()
            .enumerate()
            .find(|&(i, r)| r.function == write && !model.requests[i].is_empty())
            .expect("a request in `write_lease`");
        let requests = &model.requests[i];
        assert_eq!(requests.len(), 1);
        requests[0].is_guarded()
    }

    const WRITE: &str = "impl M {
        async fn write_lease(&self, p: &Patch<serde_json::Value>) { let _ = self.api.patch(&self.name, &PatchParams::default(), p).await; }
    }";

    const GUARDED: &str = r#"impl M {
        async fn renew(&self, v: String) { self.write_lease(&Patch::Merge(serde_json::json!({"metadata": {"resourceVersion": v}}))).await; }
    }"#;

    const UNGUARDED: &str = r#"impl M {
        async fn release(&self) { self.write_lease(&Patch::Merge(serde_json::json!({"spec": {}}))).await; }
    }"#;

    #[test]
    fn a_body_parameter_is_guarded_when_every_caller_passes_a_resource_version() {
        assert!(write_is_guarded(&[WRITE, GUARDED]));
        let local = r#"impl M {
            async fn acquire(&self, v: String) {
                let p = Patch::Apply(serde_json::json!({"metadata": {"resourceVersion": v}}));
                self.write_lease(&p).await;
            }
        }"#;
        assert!(write_is_guarded(&[WRITE, GUARDED, local]));
    }

    #[test]
    fn one_caller_without_it_or_none_at_all_leaves_it_unguarded() {
        assert!(!write_is_guarded(&[WRITE, GUARDED, UNGUARDED]));
        assert!(!write_is_guarded(&[WRITE]));
        let public = WRITE.replace("async fn write_lease", "pub async fn write_lease");
        assert!(!write_is_guarded(&[&public, GUARDED]));
    }

    #[test]
    fn a_caller_passing_its_own_parameter_is_guarded_by_its_callers() {
        let relay = "impl M {
            async fn relay(&self, p: &Patch<serde_json::Value>) { self.write_lease(p).await; }
        }";
        let top = r#"impl M {
            async fn top(&self, v: String) { self.relay(&Patch::Merge(serde_json::json!({"metadata": {"resourceVersion": v}}))).await; }
        }"#;
        assert!(write_is_guarded(&[WRITE, relay, top]));
        let bottom = r#"impl M {
            async fn bottom(&self) { self.relay(&Patch::Merge(serde_json::json!({}))).await; }
        }"#;
        assert!(!write_is_guarded(&[WRITE, relay, top, bottom]));
    }

    #[test]
    fn a_body_a_crate_function_returns_is_guarded_as_its_tail_is() {
        let built = r#"fn guarded_body(v: String) -> serde_json::Value { serde_json::json!({"metadata": {"resourceVersion": v}}) }
        fn plain_body(v: String) -> serde_json::Value { serde_json::json!({"spec": {"holderIdentity": v}}) }
        fn relayed_body(v: String) -> serde_json::Value { guarded_body(v) }"#;
        let caller = |body: &str| {
            format!(
                "impl M {{ async fn renew(&self, v: String) {{ self.write_lease(&Patch::Merge({body})).await; }} }}"
            )
        };
        assert!(write_is_guarded(&[
            WRITE,
            &caller("guarded_body(v)"),
            built
        ]));
        assert!(write_is_guarded(&[
            WRITE,
            &caller("relayed_body(v)"),
            built
        ]));
        assert!(!write_is_guarded(&[WRITE, &caller("plain_body(v)"), built]));
        // At the write itself, in a local.
        let direct = r#"impl M {
            async fn write_lease(&self, v: String) {
                let p = Patch::Merge(guarded_body(v));
                let _ = self.api.patch(&self.name, &PatchParams::default(), &p).await;
            }
        }"#;
        assert!(write_is_guarded(&[direct, built]));
        assert!(!write_is_guarded(&[
            &direct.replace("guarded_body", "plain_body"),
            built
        ]));
    }

    #[test]
    fn a_helper_call_carries_the_body_it_passes() {
        // One file: the calls are its requests.
        let model = model(&[&format!("{WRITE}{GUARDED}{UNGUARDED}")]);
        let guarded_of = |name: &str| {
            let f = model.functions.iter().position(|f| f.name == name);
            let (i, _) = model
                .raw
                .iter()
                .enumerate()
                .find(|(_, r)| r.function == f)
                .unwrap();
            model.requests[i].iter().all(|r| r.is_guarded())
        };
        assert!(guarded_of("renew"));
        assert!(!guarded_of("release"));
    }
}
