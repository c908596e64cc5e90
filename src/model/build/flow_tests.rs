//! The facts the builder records for the flow of futures, read back from small sources.

use crate::model::{FileFacts, RawKind, SiteKind, SpawnKind, TaskHandle, Unpolled, UseKind};
use crate::source::SourceFile;

fn facts(src: &str) -> (SourceFile, FileFacts) {
    let source = SourceFile::new(0, "t.rs".into(), src.to_string());
    let file = syn::parse_file(src).expect("parses");
    let facts = super::build(&source, &file);
    (source, facts)
}

fn line(source: &SourceFile, span: crate::source::Span) -> usize {
    source.line_col(span.start).0
}

const HEAD: &str = "use k8s_openapi::api::core::v1::Pod;\nuse kube::api::Api;\n";

/// A name built by a `format!` that captures the element in its template (`{i}`) is keyed by
/// it, as one passing it as an argument; a template capturing no element is not.
#[test]
fn format_captures_key_a_request_by_the_element() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, base: &str) {{
            let mut futs = Vec::new();
            for i in 0..3 {{
                let name = format!(\"{{base}}-{{i:02}}\");
                futs.push(pods.delete(&name, &dp));
                futs.push(pods.delete(&format!(\"{{base}}-lock\"), &dp));
            }}
            futures::future::join_all(futs).await;
        }}"
    ));
    let batch = f.sites[0].operands[0].batch.as_ref().expect("a batch");
    assert_eq!(batch.elements.len(), 1);
    assert!(f.requests[0].keyed_by.contains(&batch.elements[0]));
    assert!(!f.requests[1].keyed_by.contains(&batch.elements[0]));
}

/// A loop's `varying` holds the bindings made before it that it assigns and the values of the
/// calls it makes: names built from them differ from pass to pass.
#[test]
fn loops_record_what_varies_from_pass_to_pass() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, base: &str) {{
            let mut i = 0;
            let fixed = 1;
            loop {{
                let name = format!(\"{{base}}-{{i}}-{{fixed}}-{{}}\", uuid::Uuid::new_v4());
                let _ = pods.delete(&name, &dp).await;
                i += 1;
            }}
        }}"
    ));
    let l = &f.loops[0];
    assert_eq!(l.varying.len(), 2, "{:?}", l.varying);
}

#[test]
fn requests_record_the_element_they_are_keyed_by() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, names: Vec<String>, name: &str) {{
            futures::future::join_all(names.iter().map(|n| pods.delete(n, &dp))).await;
            futures::future::join_all(names.iter().map(|_| pods.delete(name, &dp))).await;
        }}"
    ));
    let keyed = &f.requests[0].keyed_by;
    assert_eq!(keyed.len(), 1);
    assert!(f.requests[1].keyed_by.is_empty());
    let batch = f.sites[0].operands[0].batch.as_ref().expect("a batch");
    assert_eq!(&batch.elements, keyed);
    assert_eq!(batch.over, "names.iter()");
    let batch = f.sites[1].operands[0].batch.as_ref().expect("a batch");
    assert!(batch.elements.is_empty(), "`_` binds no element");
}

#[test]
fn a_binding_computed_from_the_element_is_keyed_too() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(client: kube::Client, objs: Vec<Pod>) {{
            futures::future::join_all(objs.iter().map(|o| async move {{
                let ns = o.namespace().unwrap();
                let api: Api<Pod> = Api::namespaced(client.clone(), &ns);
                api.delete(\"fixed\", &dp).await
            }})).await;
        }}"
    ));
    assert_eq!(f.requests.len(), 1);
    assert!(
        !f.requests[0].keyed_by.is_empty(),
        "keyed through its namespace"
    );
}

#[test]
fn select_arms_keep_futures_and_handlers_apart() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, ready: bool) {{
            tokio::select! {{
                biased;
                r = pods.get(\"a\"), if ready => {{ pods.delete(\"a\", &dp).await; }}
                _ = tokio::time::sleep(d) => {{}}
                else => {{}}
            }}
        }}"
    ));
    let site = &f.sites[0];
    assert_eq!(site.kind, SiteKind::SelectMacro { biased: true });
    assert_eq!(site.operands.len(), 2);
    assert_eq!(site.arms.len(), 3);
    let method = |m: &str| {
        f.requests
            .iter()
            .position(|r| matches!(&r.kind, RawKind::Api(c) if c.verb.method == m))
            .unwrap()
    };
    let (get, delete) = (method("get"), method("delete"));
    assert_eq!(site.operands[0].requests, vec![get]);
    assert_eq!(site.arms[0].future, Some(0));
    assert!(site.arms[0].precondition.is_some());
    assert_eq!(site.arms[0].handler_requests, vec![delete]);
    assert_eq!(line(&source, site.arms[0].handler), 6);
    assert_eq!(site.arms[2].future, None);
    assert!(site.arms[2].pattern.is_none());
}

#[test]
fn spawn_handles_are_followed_to_their_join() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) {{
            let h = tokio::spawn(async move {{ pods.get(\"a\").await }});
            tokio::spawn(async move {{ pods.get(\"b\").await }});
            let _ = tokio::spawn(async move {{ pods.get(\"c\").await }});
            let kept = tokio::spawn(async move {{ pods.get(\"d\").await }});
            store(kept);
            let _x = h.await;
            let t = std::thread::spawn(move || rt.block_on(pods.get(\"e\")));
            t.join();
        }}"
    ));
    let handles: Vec<_> = f.spawns.iter().map(|s| (s.kind, s.handle)).collect();
    assert_eq!(handles.len(), 5);
    assert!(
        matches!(handles[0], (SpawnKind::Task, TaskHandle::Joined(j)) if line(&source, j) == 9)
    );
    assert_eq!(handles[1].1, TaskHandle::Detached);
    assert_eq!(handles[2].1, TaskHandle::Detached);
    assert_eq!(handles[3].1, TaskHandle::Unknown);
    assert!(
        matches!(handles[4], (SpawnKind::Thread, TaskHandle::Joined(j)) if line(&source, j) == 11)
    );
    // One request each (`rt.block_on(..)` is also recorded, as a possible helper call).
    let api = |i: &usize| matches!(f.requests[*i].kind, RawKind::Api(_));
    assert!(f
        .spawns
        .iter()
        .all(|s| s.task.requests.iter().filter(|i| api(i)).count() == 1));
}

#[test]
fn timeouts_record_the_future_they_may_cancel() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) {{
            tokio::time::timeout(d, pods.delete(\"a\", &dp)).await;
            let _ = timeout(d, async {{ pods.get(\"b\").await }}).await;
        }}"
    ));
    assert_eq!(f.timeouts.len(), 2);
    assert_eq!(f.timeouts[0].spelling, "`tokio::time::timeout`");
    assert_eq!(f.timeouts[0].future.requests, vec![0]);
    assert_eq!(f.timeouts[1].future.requests, vec![1]);
    assert!(f.unpolled.is_empty(), "awaited through the timeout");
}

#[test]
fn bound_futures_record_their_first_use() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, c: bool) {{
            let a = pods.get(\"a\");
            let b = pods.get(\"b\");
            let d = pods.get(\"d\");
            let e = pods.get(\"e\");
            if c {{ b.await; }} else {{ tokio::join!(d, pods.get(\"x\")); }}
            a.await;
            let moved = async move {{ e.await }};
            moved.await;
        }}"
    ));
    let kind = |name: &str| {
        let b = f.bound_futures.iter().find(|b| b.name == name).unwrap();
        let u = b.first_use.as_ref().unwrap();
        (u.kind, line(&source, u.span), u.body == b.body)
    };
    assert_eq!(kind("a"), (UseKind::Await, 9, true));
    assert_eq!(kind("b"), (UseKind::Await, 8, true));
    assert_eq!(kind("d"), (UseKind::Site, 8, true));
    assert_eq!(
        kind("e"),
        (UseKind::Await, 10, false),
        "awaited in another body"
    );
    let b = f.bound_futures.iter().find(|b| b.name == "b").unwrap();
    let d = f.bound_futures.iter().find(|b| b.name == "d").unwrap();
    assert!(b
        .first_use
        .as_ref()
        .unwrap()
        .excludes(d.first_use.as_ref().unwrap()));
}

#[test]
fn unpolled_futures_say_how_they_were_dropped() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) {{
            let _ = pods.get(\"a\");
            pods.get(\"b\");
            let unused = pods.get(\"c\");
            let gone = pods.get(\"d\");
            drop(gone);
            let shadowed = pods.get(\"e\");
            let shadowed = 1;
            let place = pods.get(\"f\");
            let _ = place;
            place.await;
        }}"
    ));
    let hows: Vec<Unpolled> = f.unpolled.iter().map(|u| u.how.clone()).collect();
    assert_eq!(
        hows,
        vec![
            Unpolled::LetUnderscore,
            Unpolled::Statement,
            Unpolled::Dropped("gone".into()),
            Unpolled::UnusedBinding("shadowed".into()),
            Unpolled::UnusedBinding("unused".into()),
        ]
    );
}

#[test]
fn closures_called_later_bind_their_arguments() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) {{
            let del = |n: &str| pods.delete(n, &dp);
            tokio::join!(del(\"a\"), del(\"b\"));
        }}"
    ));
    let site = &f.sites[0];
    let args: Vec<_> = site
        .operands
        .iter()
        .map(|o| o.arguments[0].name.clone())
        .collect();
    assert_eq!(
        args,
        vec![
            crate::model::NameExpr::Literal("a".into()),
            crate::model::NameExpr::Literal("b".into())
        ]
    );
}

#[test]
fn long_method_chains_and_nested_blocks_are_evaluated_once() {
    // Each level of a chain used to evaluate its receiver twice: 2^80 evaluations.
    let chain: String = (0..80).map(|_| ".map(|x| x)").collect();
    let nested = (0..30).fold("pods.get(\"a\")".to_string(), |inner, _| {
        format!("async {{ {inner}.await }}")
    });
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, names: Vec<String>) {{
            let a = names.iter(){chain};
            let b = {nested};
            b.await;
        }}"
    ));
    assert_eq!(f.requests.len(), 1);
    assert!(f.unpolled.is_empty());
}

#[test]
fn join_all_records_how_its_collection_is_written() {
    use crate::model::{Collection, OperandForm};
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, names: Vec<String>, futs: Vec<F>) {{
            join_all(vec![pods.get(\"a\"), Box::pin(pods.get(\"a\")) as B, ready(1)]).await;
            try_join_all((names.iter()).map(|n: &String| {{ let x = n; pods.get(x) }})).await?;
            join_all(S {{ v: names }}.v.iter().map(|n| pods.get(n))).await;
            join_all(futs).await;
            let all = names.iter().map(|n| pods.get(n)).collect::<JoinAll<_>>();
        }}"
    ));
    let text = |s: crate::source::Span| source.snippet(s).to_string();
    let Some(Collection::Listed(elements)) = &f.sites[0].collection else {
        panic!("listed: {:?}", f.sites[0].collection);
    };
    let forms: Vec<OperandForm> = elements.iter().map(|e| e.form).collect();
    assert_eq!(
        forms,
        [
            OperandForm::Request,
            OperandForm::Other { needs_parens: true },
            OperandForm::Other {
                needs_parens: false
            },
        ],
        "every element, also one that makes no request"
    );
    let Some(Collection::Mapped(m)) = &f.sites[1].collection else {
        panic!("mapped: {:?}", f.sites[1].collection);
    };
    assert_eq!(text(m.iter), "names.iter()", "parentheses removed");
    assert_eq!(text(m.pattern), "n", "type annotation removed");
    assert!(!m.iter_needs_parens);
    assert_eq!(text(m.tail.expect("a block body").span), "pods.get(x)");
    assert!(f.sites[1].usage.awaited && f.sites[1].usage.question_mark);
    let Some(Collection::Mapped(m)) = &f.sites[2].collection else {
        panic!("mapped: {:?}", f.sites[2].collection);
    };
    assert!(m.iter_needs_parens, "a struct literal in a `for` head");
    assert_eq!(m.body_form, OperandForm::Request);
    assert!(m.tail.is_none());
    let Some(Collection::Iterable(e)) = &f.sites[3].collection else {
        panic!("iterable: {:?}", f.sites[3].collection);
    };
    assert_eq!(text(e.span), "futs");
    assert!(f.sites[4].collection.is_none(), "`collect` into `JoinAll`");
}

#[test]
fn streams_record_their_limit_and_a_limit_of_one_is_no_site() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, names: Vec<String>, n: usize) {{
            stream::iter(names.iter()).map(|_| pods.delete(\"a\", &dp)).buffer_unordered(n).collect::<Vec<_>>().await;
            stream::iter(names.iter()).for_each_concurrent(None, |_| async {{ pods.delete(\"a\", &dp).await; }}).await;
            stream::iter(names.iter()).map(|_| pods.delete(\"a\", &dp)).buffered(1).collect::<Vec<_>>().await;
            stream::iter(names.iter()).for_each_concurrent(Some(1usize), |_| async {{ pods.delete(\"a\", &dp).await; }}).await;
        }}"
    ));
    let limits: Vec<String> = f
        .sites
        .iter()
        .map(|s| source.snippet(s.limit.expect("a limit")).to_string())
        .collect();
    assert_eq!(limits, ["n", "None"]);
}

#[test]
fn awaits_of_bound_futures_record_their_question_mark_statement_branches_and_loops() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, c: bool) -> kube::Result<()> {{
            let a = pods.get(\"a\");
            let b: BoxFuture<'_, _> = pods.get(\"b\").boxed();
            let d = pods.get(\"d\");
            let e = &mut pods.get(\"e\");
            a.await?;
            let name = b.await?.name_any();
            loop {{ if c {{ d.await; }} break; }}
            e.await;
            Ok(())
        }}"
    ));
    let bound = |name: &str| f.bound_futures.iter().find(|b| b.name == name).unwrap();
    let usage = |name: &str| {
        let u = bound(name).first_use.clone().unwrap();
        let w = u.usage.clone().expect("an await");
        (
            source.snippet(w.span).to_string(),
            w.question_mark,
            w.statement.map(|s| source.snippet(s).to_string()),
            u.branches.len(),
            u.loops.len(),
        )
    };
    assert_eq!(
        usage("a"),
        ("a.await?".into(), true, Some("a.await?;".into()), 0, 0)
    );
    assert_eq!(usage("b"), ("b.await?".into(), true, None, 0, 0));
    assert_eq!(
        usage("d"),
        ("d.await".into(), false, Some("d.await;".into()), 1, 1)
    );
    assert!(!bound("a").typed && bound("b").typed);
    assert_eq!(
        source.snippet(bound("b").init.span),
        "pods.get(\"b\").boxed()"
    );
    assert!(bound("e").init.needs_parens, "`&mut fut` needs parentheses");
    assert!(bound("a").branches.is_empty() && bound("a").loops.is_empty());
}

#[test]
fn unpolled_futures_record_where_await_could_be_written() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, names: Vec<String>) {{
            let _ = pods.get(\"a\") as B;
            let _: B = pods.get(\"b\").boxed();
            names.iter().for_each(|n| {{ pods.get(n); }});
            let c = async {{ pods.get(\"c\"); }};
            c.await;
        }}
        fn g(pods: Api<Pod>) {{ pods.get(\"d\"); }}"
    ));
    let facts: Vec<(String, bool, bool, bool)> = f
        .unpolled
        .iter()
        .map(|u| {
            (
                source.snippet(u.expr.span).to_string(),
                u.expr.needs_parens,
                u.typed,
                u.in_async,
            )
        })
        .collect();
    assert_eq!(
        facts,
        [
            ("pods.get(\"a\") as B".into(), true, false, true),
            ("pods.get(\"b\").boxed()".into(), false, true, true),
            ("pods.get(n)".into(), false, false, false),
            ("pods.get(\"c\")".into(), false, false, true),
            ("pods.get(\"d\")".into(), false, false, false),
        ]
    );
}

#[test]
fn bodies_say_which_code_is_async() {
    use crate::model::BodyKind;
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) {{
            futures::executor::block_on(pods.get(\"a\"));
            let c = || Handle::current().block_on(pods.get(\"b\"));
            let a = async {{ rt.block_on(pods.get(\"c\")) }};
            let ac = async move |n: &str| block_on(pods.get(n));
        }}
        fn g() {{ block_on(async {{}}); }}"
    ));
    let kinds: Vec<BodyKind> = f
        .blocking
        .iter()
        .map(|b| f.bodies[b.body as usize].kind)
        .collect();
    assert_eq!(
        kinds,
        [
            BodyKind::AsyncFn,
            BodyKind::Closure,
            BodyKind::AsyncBlock,
            BodyKind::AsyncClosure,
            BodyKind::Fn
        ]
    );
    // Every body knows its function.
    assert!(f.bodies[1..].iter().all(|b| b.function.is_some()));
    assert!(f.functions[0].is_async && !f.functions[1].is_async);
    // A bare `block_on` may be a function of the crate: its call is kept for link.
    assert!(f.blocking[3].entry.is_some() && f.blocking[0].entry.is_none());
}

#[test]
fn sync_functions_that_block_are_linked_to_their_async_callers() {
    let src = format!(
        "{HEAD}fn get_sync(pods: &Api<Pod>) {{ let _ = Handle::current().block_on(pods.get(\"a\")); }}
        fn through(pods: &Api<Pod>) {{ if x {{ get_sync(pods); }} }}
        fn aware(pods: &Api<Pod>) {{ match Handle::try_current() {{ Ok(h) => tokio::task::block_in_place(|| h.block_on(pods.get(\"a\"))), Err(_) => Runtime::new().unwrap().block_on(pods.get(\"a\")) }}; }}
        async fn f(pods: Api<Pod>) {{ get_sync(&pods); through(&pods); aware(&pods); }}"
    );
    let (_, f) = facts(&src);
    assert!(f.functions[2].checks_runtime);
    let model = crate::model::link::link_single(0, &f, "t.rs");
    // Callers in the file's own unit are the helper's, not findings of their own.
    assert!(model.blocking.iter().all(|b| b.via.is_empty()));
    let [helper] = &model.blocking_helpers[..] else {
        panic!("one blocking helper: {:?}", model.blocking_helpers);
    };
    assert_eq!(helper.function, "t::get_sync");
    assert!(helper.on_every_path);
    let mut callers: Vec<(Vec<String>, bool, String)> = helper
        .callers
        .iter()
        .map(|c| (c.via.clone(), c.on_every_path, c.context.clone()))
        .collect();
    callers.sort();
    // `f` calls `get_sync` directly, and through `through`, which calls it only in a branch;
    // `aware` checks for a runtime and is not followed.
    let fn_f = "the async fn `f`".to_string();
    assert_eq!(
        callers,
        [
            (vec!["t::get_sync".to_string()], true, fn_f.clone()),
            (
                vec!["t::through".to_string(), "t::get_sync".to_string()],
                false,
                fn_f
            ),
        ]
    );
}

#[test]
fn task_handles_record_their_use_abort_and_join() {
    let (source, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) {{
            let h = tokio::spawn(async move {{ pods.delete(\"a\", &dp).await }});
            pods.get(\"a\").await;
            h.abort();
            let t = tokio::spawn(async move {{ pods.delete(\"b\", &dp).await }});
            let ah = t.abort_handle();
            ah.abort();
            let mut set = JoinSet::new();
            set.spawn(async move {{ pods.delete(\"c\", &dp).await }});
            set.join_next().await;
            tokio::spawn(status(pods.clone()));
        }}
        async fn status(pods: Api<Pod>) {{ pods.patch_status(\"d\", &pp, &p).await; }}"
    ));
    let at = |s: Option<crate::source::Span>| s.map(|s| line(&source, s));
    assert_eq!(at(f.spawns[0].handle_used), Some(6));
    assert_eq!(at(f.spawns[0].aborted), Some(6));
    assert_eq!(at(f.spawns[1].aborted), Some(9));
    assert_eq!(at(f.spawns[2].set_joined), Some(12));
    assert_eq!(f.spawns[2].aborted, None);
    // A function of the crate spawned as a task.
    assert_eq!(f.spawns.len(), 4);
    assert!(matches!(
        f.requests[f.spawns[3].task.requests[0]].kind,
        RawKind::Helper(_)
    ));
}

#[test]
fn requests_in_loops_that_drain_a_channel() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, mut other: Receiver<String>) {{
            let (tx, mut rx) = tokio::sync::mpsc::channel(8);
            while let Some(n) = rx.recv().await {{ pods.delete(&n, &dp).await; }}
            loop {{ tokio::select! {{ Some(n) = rx.recv() => {{ pods.patch(&n, &pp, &p).await; }} }} }}
            for n in other.iter() {{ pods.get(&n).await; }}
            while let Some(n) = rx.recv().await {{ tokio::spawn(async move {{ pods.delete(&n, &dp).await }}); }}
            for n in names {{ pods.delete(&n, &dp).await; }}
        }}"
    ));
    let drained: Vec<bool> = f
        .requests
        .iter()
        .filter(|r| matches!(r.kind, RawKind::Api(_)))
        .map(|r| r.in_channel_loop)
        .collect();
    // The task spawned per message is not the loop's body; a `for` over a plain collection
    // drains nothing.
    assert_eq!(drained, [true, true, true, false, false]);
}

#[test]
fn select_arms_and_deadlines_know_what_follows_them() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>) -> Result<(), E> {{
            loop {{
                tokio::time::timeout(d, pods.delete(\"a\", &dp)).await?;
                futures::select! {{
                    _ = pods.patch(\"a\", &pp, &p).fuse() => {{ return Ok(()); }},
                    _ = stop => {{ unreachable!() }},
                    default => {{}},
                }}
            }}
        }}"
    ));
    let t = &f.timeouts[0];
    assert!(t.in_loop && t.propagated);
    let site = &f.sites[0];
    assert!(site.in_loop && !site.propagated);
    let exits: Vec<bool> = site.arms.iter().map(|a| a.exits).collect();
    assert_eq!(exits, [true, true, false]);
    assert!(site.arms[2].is_default && !site.arms[1].is_default);
}

#[test]
fn a_name_copied_into_a_task_is_the_same_name() {
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, name: String) {{
            let task_name = name.clone();
            let mut changed = name.clone();
            pods.get(&task_name).await;
            pods.get(&name).await;
            pods.get(&changed).await;
        }}"
    ));
    let names: Vec<crate::model::NameExpr> = f
        .requests
        .iter()
        .map(|r| match &r.kind {
            RawKind::Api(c) => match &c.object {
                crate::model::ObjectName::One { name, .. } => name.clone(),
                _ => crate::model::NameExpr::Unknown,
            },
            _ => crate::model::NameExpr::Unknown,
        })
        .collect();
    assert_eq!(names[0], names[1]);
    assert_ne!(names[2], names[1], "a `mut` copy can change");
}

/// A `match` on a parameter records each arm's test; an arm does not run for the literals of
/// the arms before it, and a catch-all arm ends the tests.
#[test]
fn match_arms_on_a_parameter_exclude_the_earlier_arms_literals() {
    use crate::model::Literal;
    let (_, f) = facts(&format!(
        "{HEAD}async fn f(pods: Api<Pod>, mode: &str) {{
            match mode {{
                \"a\" => {{}}
                \"b\" | \"c\" => {{}}
                _ => {{}}
                \"d\" => {{}}
            }}
        }}"
    ));
    let arms: Vec<_> = f.arm_conditions.iter().map(|(_, c)| c).collect();
    assert_eq!(arms.len(), 3, "the arm after the catch-all is not a test");
    let s = |v: &str| Literal::Str(v.into());
    assert!(arms[0].runs_with(&s("a")) && !arms[0].runs_with(&s("b")));
    assert!(arms[1].runs_with(&s("c")) && !arms[1].runs_with(&s("a")));
    assert_eq!(arms[2].is_not(), &[s("a"), s("b"), s("c")]);
    assert!(arms[2].runs_with(&s("d")) && !arms[2].runs_with(&s("b")));
}
