//! Tasks a crate function spawns and leaves running when it returns (`SourceController::new`
//! spawning a controller's `run`, keeping the handle in the value it returns): their requests
//! are marked in the function's summary ([`Request::left_running`]), and in a caller the call
//! of such a function is a spawn of its own ([`SpawnKind::Call`]), since the call returns while
//! the task goes on.

use foldhash::HashMap;

use super::{display_name, Linker};
use crate::model::order::made_in_spawned_tasks;
use crate::model::{LeftRunning, Operand, OperandForm, Request, Spawn, SpawnKind, TaskHandle};

impl Linker<'_> {
    /// The entries of function `k` of file `pos` made by a task the function leaves running,
    /// with that task. A task is left running when its handle is dropped (nothing can await
    /// it), or moved out of a function that is not `async` (returned, or kept in what it
    /// returns: such a function cannot wait for the task itself); not when it is aborted
    /// there, joined there, or handed to a `JoinSet` or a thread scope. Only spawns of the
    /// function's own body count, not those of closures or `async` blocks it makes.
    pub(super) fn left_running_entries(&self, pos: usize, k: usize) -> HashMap<usize, LeftRunning> {
        let facts = self.shared.facts(pos);
        let mut out = HashMap::default();
        if facts.spawns.is_empty() {
            return out;
        }
        let function = &facts.functions[k];
        let entries = self.shared.entries_of_function(pos, k);
        for spawn in &facts.spawns {
            // Spawned by the function's own body: a spawn in a closure it makes runs when the
            // closure is called (a callback handed out), not when the function does.
            if spawn.body != function.body || spawn.aborted.is_some() {
                continue;
            }
            let handle_kept = match (spawn.kind, spawn.handle) {
                (SpawnKind::Task | SpawnKind::Thread, TaskHandle::Detached) => false,
                (SpawnKind::Task | SpawnKind::Thread, TaskHandle::Unknown)
                    if !function.is_async =>
                {
                    true
                }
                _ => continue,
            };
            let left = LeftRunning {
                spawn: spawn.spelling.clone(),
                function: display_name(function),
                handle_kept,
            };
            // The task's future, also one bound before the spawn (`let fut = ..; spawn(fut)`),
            // and what is written inside it.
            for &i in entries {
                if spawn.task.requests.contains(&i) || spawn.span.contains(&facts.requests[i].span)
                {
                    out.entry(i).or_insert_with(|| left.clone());
                }
            }
        }
        out
    }

    /// The file's spawns, and one for each call of a crate function that leaves a task running
    /// (its requests marked [`Request::left_running`]): the task runs from the call on. Not for
    /// a call that is itself part of a spawned task's future (that spawn is the task), nor for
    /// a call of an `async fn` whose future is bound or dropped unpolled (it runs where that
    /// future is polled, if anywhere).
    /// `requests`: the file's entries as resolved.
    pub(super) fn spawns_with_calls(&self, pos: usize, requests: &[Vec<Request>]) -> Vec<Spawn> {
        let facts = self.shared.facts(pos);
        let mut spawns = facts.spawns.clone();
        let inside = made_in_spawned_tasks(&facts.spawns, &facts.requests);
        let spawned = |i: &usize| facts.spawns.iter().any(|s| s.task.requests.contains(i));
        let bound = |i: &usize| {
            facts
                .bound_futures
                .iter()
                .any(|b| b.future.requests.contains(i))
        };
        let unpolled = |i: &usize| facts.unpolled.iter().any(|u| u.requests.contains(i));
        for (i, resolved) in requests.iter().enumerate() {
            let Some(left) = resolved.iter().find_map(|r| r.left_running.as_deref()) else {
                continue;
            };
            let raw = &facts.requests[i];
            // A controller's run whose reconcile starts the task is compared with its own
            // reconciles, wherever the run's stream goes (see `Rival::Starter`).
            let run = self
                .with_linked_run(pos, raw)
                .is_some_and(|r| r.controller.is_some());
            // A call of a sync function has spawned when it returns (also one returning a
            // future: its own body, where the spawn is, has run); an `async fn`'s body runs
            // where its future is polled, if anywhere.
            let lazy = self.called_function(pos, i).is_some_and(|f| f.is_async);
            let never_polled = lazy && unpolled(&i);
            let polled_elsewhere = lazy && (bound(&i) || unpolled(&i));
            if never_polled || (!run && (inside[i] || spawned(&i) || polled_elsewhere)) {
                continue;
            }
            // A handle moved out of the function may come back to this caller, which may
            // await it where the call's result is awaited; a dropped one never.
            let kept = resolved
                .iter()
                .filter_map(|r| r.left_running.as_deref())
                .any(|l| l.handle_kept);
            let awaited = facts
                .awaits
                .iter()
                .find(|a| a.requests.contains(&i))
                .map(|a| a.span);
            let (handle, handle_used) = match (kept, awaited) {
                (false, _) => (TaskHandle::Detached, None),
                (true, at) => (TaskHandle::Unknown, at),
            };
            spawns.push(Spawn {
                kind: SpawnKind::Call,
                span: raw.span,
                spelling: format!("{} in `{}`", left.spawn, left.function),
                task: Operand {
                    span: raw.span,
                    requests: vec![i],
                    form: OperandForm::Other {
                        needs_parens: false,
                    },
                    batch: None,
                    arguments: Vec::new(),
                },
                handle,
                body: raw.body,
                branches: raw.branches.clone(),
                loops: raw.loops.clone(),
                handle_used,
                set_joined: None,
                aborted: None,
            });
        }
        spawns
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{build, link, SpawnKind, TaskHandle};
    use crate::source::SourceFile;

    const ITEMS: &str = r#"
        struct Holder { handle: JoinHandle<()> }
        fn detached(api: Api<ConfigMap>) {
            tokio::spawn(async move { api.patch("a", &pp, &p).await });
        }
        fn kept(api: Api<ConfigMap>) -> Holder {
            let handle = tokio::spawn(async move { api.patch("a", &pp, &p).await });
            Holder { handle }
        }
        async fn kept_async(api: Api<ConfigMap>) -> Holder {
            let handle = tokio::spawn(async move { api.patch("a", &pp, &p).await });
            Holder { handle }
        }
        fn aborted(api: Api<ConfigMap>) {
            let handle = tokio::spawn(async move { api.patch("a", &pp, &p).await });
            handle.abort();
        }
        async fn joined(api: Api<ConfigMap>) {
            let _ = tokio::spawn(async move { api.patch("a", &pp, &p).await }).await;
        }
        fn callback(api: Api<ConfigMap>) -> Box<dyn Fn()> {
            Box::new(move || {
                tokio::spawn(async move { api.patch("a", &pp, &p).await });
            })
        }
        async fn outer(api: Api<ConfigMap>) -> Holder {
            api.get("b").await;
            kept(api)
        }
    "#;

    /// The spawns made at the calls of `body` (in a function of a file with [`ITEMS`]): their
    /// handles.
    fn calls(body: &str) -> Vec<TaskHandle> {
        let text = format!("{ITEMS}\nasync fn main(api: Api<ConfigMap>) {{ {body} }}");
        let source = SourceFile::new(0, "lib.rs".into(), text.clone());
        let facts = build::build(&source, &syn::parse_file(&text).unwrap());
        let model = link::link_single(0, &facts, "lib.rs");
        let main = model.functions.iter().position(|f| f.name == "main");
        model
            .spawns
            .iter()
            .filter(|s| s.kind == SpawnKind::Call)
            .filter(|s| model.body(s.body).and_then(|b| b.function) == main)
            .map(|s| s.handle)
            .collect()
    }

    #[test]
    fn a_call_of_a_function_leaving_a_task_running_is_a_spawn() {
        assert_eq!(calls("detached(api);"), [TaskHandle::Detached]);
        assert_eq!(calls("let h = kept(api);"), [TaskHandle::Unknown]);
        // Through a function that returns what keeps the handle.
        assert_eq!(calls("let h = outer(api).await;"), [TaskHandle::Unknown]);
        // A sync function's result bound or dropped: it has run, spawn included.
        assert_eq!(calls("let _ = detached(api);"), [TaskHandle::Detached]);
    }

    #[test]
    fn a_task_aborted_joined_or_kept_by_an_async_fn_is_not_left_running() {
        assert!(calls("aborted(api);").is_empty());
        assert!(calls("joined(api).await;").is_empty());
        assert!(calls("let h = kept_async(api).await;").is_empty());
        // A closure handed out spawns when it is called, not when the function runs.
        assert!(calls("let cb = callback(api);").is_empty());
    }

    #[test]
    fn only_the_tasks_requests_are_marked() {
        let text =
            format!("{ITEMS}\nasync fn main(api: Api<ConfigMap>) {{ let h = outer(api).await; }}");
        let source = SourceFile::new(0, "lib.rs".into(), text.clone());
        let facts = build::build(&source, &syn::parse_file(&text).unwrap());
        let model = link::link_single(0, &facts, "lib.rs");
        let call = model
            .spawns
            .iter()
            .rfind(|s| s.kind == SpawnKind::Call)
            .unwrap();
        let requests = model.requests_of(call.task.requests[0]);
        let marked: Vec<(&str, bool)> = requests
            .iter()
            .map(|r| (r.verb.method, r.left_running.is_some()))
            .collect();
        assert_eq!(marked, [("get", false), ("patch", true)]);
        let left = requests[1].left_running.as_deref().unwrap();
        assert_eq!((left.function.as_str(), left.handle_kept), ("kept", true));
    }
}
