//! Program order (`model::order`) read back from small sources: each request is named by the
//! string it gets. Here rather than next to the code: the queries need facts built and linked,
//! and `model::order` sits below both.

use kube_order_lint::model::link::link_single;
use kube_order_lint::model::{FileModel, RawKind, RawRequest};
use kube_order_lint::source::SourceFile;

fn model(body: &str) -> FileModel {
    let src = format!(
        "use k8s_openapi::api::core::v1::Pod;\nuse kube::api::Api;\n\
         async fn f(pods: Api<Pod>, xs: Vec<u8>, c: bool) -> kube::Result<()> {{\n{body}\nOk(())\n}}"
    );
    let source = SourceFile::new(0, "t.rs".into(), src.clone());
    let file = syn::parse_file(&src).expect("parses");
    let facts = kube_order_lint::model::build::build(&source, &file);
    link_single(0, &facts, "t.rs")
}

/// The request whose object is the literal `name`.
fn request<'m>(m: &'m FileModel, name: &str) -> &'m RawRequest {
    m.raw
        .iter()
        .find(|r| match &r.kind {
            RawKind::Api(call) => format!("{:?}", call.object).contains(&format!("\"{name}\"")),
            RawKind::Helper(_) => false,
        })
        .unwrap_or_else(|| panic!("no request of {name:?}"))
}

fn follows(m: &FileModel, a: &str, b: &str) -> bool {
    m.order()
        .may_follow(request(m, a).point(), request(m, b).point())
}

#[test]
fn straight_line_code_runs_in_the_order_written() {
    let m = model(r#"pods.get("a").await?; pods.get("b").await?;"#);
    assert!(follows(&m, "a", "b"));
    assert!(!follows(&m, "b", "a"));
}

#[test]
fn a_loop_runs_earlier_code_again_after_later_code() {
    let m = model(
        r#"pods.get("before").await?; for _ in &xs { pods.get("a").await?; pods.get("b").await?; }"#,
    );
    assert!(follows(&m, "b", "a"), "the next iteration");
    assert!(
        !follows(&m, "a", "before"),
        "code before the loop runs once"
    );
}

#[test]
fn exclusive_arms_meet_only_across_iterations() {
    let m = model(r#"if c { pods.get("a").await?; } else { pods.get("b").await?; }"#);
    let (a, b) = (request(&m, "a").point(), request(&m, "b").point());
    assert!(m.order().exclusive(a, b));
    assert!(!m.order().may_follow(a, b));
    let m = model(r#"loop { if c { pods.get("a").await?; } else { pods.get("b").await?; } }"#);
    let (a, b) = (request(&m, "a").point(), request(&m, "b").point());
    assert!(
        !m.order().exclusive(a, b),
        "the loop runs the other arm next"
    );
    assert!(m.order().may_follow(a, b) && m.order().may_follow(b, a));
    assert!(!m.order().follows_in_pass(a, b), "not in one pass");
}

#[test]
fn an_arm_that_leaves_the_loop_or_the_function_does_not_go_round() {
    let m = model(r#"loop { pods.get("a").await?; if c { pods.get("b").await?; break; } }"#);
    assert!(!follows(&m, "b", "a"), "break");
    assert!(m.order().ends_its_loop(request(&m, "b").point()));
    assert!(!m.order().ends_its_loop(request(&m, "a").point()));
    let m =
        model(r#"loop { pods.get("a").await?; if c { pods.get("b").await?; return Ok(()); } }"#);
    assert!(!follows(&m, "b", "a"), "return");
    let m = model(
        r#"'outer: loop { pods.get("a").await?; loop { if c { pods.get("b").await?; break 'outer; } } }"#,
    );
    assert!(!follows(&m, "b", "a"), "a labeled break leaves every loop");
}

#[test]
fn closures_in_a_loop_are_made_again_on_each_iteration() {
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; let f = async { pods.get("b").await }; f.await?; }"#,
    );
    assert!(follows(&m, "a", "b"));
    assert!(
        !follows(&m, "b", "a"),
        "seen from the block, the function's code is not its own: when the block runs is not known"
    );
    let m = model(r#"let f = async { loop { pods.get("a").await?; } }; pods.get("b").await?;"#);
    let (a, b) = (request(&m, "a").point(), request(&m, "b").point());
    assert!(
        !m.order().may_follow(b, a),
        "the block was made before `b`, and its loop is not the function's"
    );
}

#[test]
fn a_call_is_made_after_its_arguments() {
    let m = model(
        r#"pods.patch("outer", &pp, &kube::api::Patch::Merge(pods.get("inner").await?)).await?;"#,
    );
    assert!(follows(&m, "inner", "outer"));
    assert!(!follows(&m, "outer", "inner"));
}

#[test]
fn a_point_on_every_way_is_unconditional_and_between_or_round_the_loop() {
    let m = model(
        r#"loop { pods.get("a").await?; pods.get("x").await?; pods.get("b").await?; if c { pods.get("y").await?; } }"#,
    );
    let p = |n| request(&m, n).point();
    let order = m.order();
    assert!(
        order.on_every_way(p("a"), p("x"), p("b")),
        "between, in one pass"
    );
    assert!(!order.on_every_way(p("a"), p("b"), p("x")), "not between");
    assert!(
        order.on_every_way(p("b"), p("a"), p("x")),
        "round the loop, from b to x"
    );
    assert!(
        !order.on_every_way(p("b"), p("x"), p("a")),
        "going round from b to a skips x"
    );
    assert!(
        !order.on_every_way(p("b"), p("y"), p("a")),
        "only in some iterations"
    );
}

#[test]
fn names_made_in_a_loop_vary_round_it() {
    let m = model(
        r#"let outer = String::new(); for n in &xs { let inner = n.to_string(); pods.get(&inner).await?; pods.get(&outer).await?; pods.get("lit").await?; }"#,
    );
    let name = |i: usize| match &m.requests_of(i)[0].object {
        kube_order_lint::model::ObjectName::One { name, .. } => name.clone(),
        kube_order_lint::model::ObjectName::All => panic!("one object"),
    };
    let (last, first) = (m.raw[2].point(), m.raw[0].point());
    let order = m.order();
    assert!(
        order.varies_round_the_loop(last, first, &name(0)),
        "a let in the loop"
    );
    assert!(
        !order.varies_round_the_loop(last, first, &name(1)),
        "bound before the loop"
    );
    assert!(
        !order.varies_round_the_loop(last, first, &name(2)),
        "a literal"
    );
}

#[test]
fn an_arm_that_continues_skips_the_rest_of_the_pass() {
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; if c { pods.get("b").await?; continue; } pods.get("x").await?; } pods.get("after").await?;"#,
    );
    let p = |n| request(&m, n).point();
    let order = m.order();
    assert!(
        !order.follows_in_pass(p("b"), p("x")),
        "skipped in b's pass"
    );
    assert!(order.may_follow(p("b"), p("x")), "on a later pass");
    assert!(order.may_follow(p("b"), p("a")), "the loop goes on");
    assert!(
        order.follows_in_pass(p("b"), p("after")),
        "after the last pass"
    );
    assert!(!order.ends_its_loop(p("b")));
    assert!(
        !order.on_every_way(p("b"), p("x"), p("a")),
        "the continue skips x on the way round"
    );
    assert!(
        order.on_every_way(p("a"), p("x"), p("a")),
        "x is skipped only from b"
    );
}

#[test]
fn a_break_skips_the_rest_of_the_pass_but_not_the_code_after_the_loop() {
    let m = model(
        r#"loop { if c { pods.get("b").await?; break; } pods.get("x").await?; } pods.get("after").await?;"#,
    );
    let p = |n| request(&m, n).point();
    let order = m.order();
    assert!(!order.may_follow(p("b"), p("x")));
    assert!(order.follows_in_pass(p("b"), p("after")));
    assert!(!order.on_every_way(p("b"), p("x"), p("after")));
}

#[test]
fn labelled_break_and_continue_leave_the_loop_they_name() {
    let m = model(
        r#"'outer: for _ in &xs { pods.get("a").await?; for _ in &xs { if c { pods.get("b").await?; continue 'outer; } } pods.get("x").await?; }"#,
    );
    let p = |n| request(&m, n).point();
    let order = m.order();
    assert!(
        !order.follows_in_pass(p("b"), p("x")),
        "the outer pass is cut short"
    );
    assert!(order.may_follow(p("b"), p("a")), "the outer loop goes on");
    assert!(order.ends_its_loop(p("b")), "the inner loop is left");
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; 'inner: loop { if c { pods.get("b").await?; break 'inner; } } pods.get("x").await?; }"#,
    );
    let p = |n| request(&m, n).point();
    let order = m.order();
    assert!(
        order.follows_in_pass(p("b"), p("x")),
        "only the inner loop is left"
    );
    assert!(
        order.may_follow(p("b"), p("a")),
        "the outer loop goes round"
    );
    assert!(order.ends_its_loop(p("b")));
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; 'block: { if c { pods.get("b").await?; break 'block; } } pods.get("x").await?; }"#,
    );
    let p = |n| request(&m, n).point();
    assert!(
        !m.order().ends_its_loop(p("b")),
        "a block's label leaves no loop"
    );
    assert!(m.order().may_follow(p("b"), p("a")));
}

#[test]
fn a_let_else_block_is_an_arm_that_always_leaves() {
    let m = model(
        r#"pods.get("a").await?; let Some(_) = xs.first() else { pods.get("e").await?; tokio::time::sleep(d).await; return Ok(()); }; pods.get("x").await?;"#,
    );
    let p = |n| request(&m, n).point();
    assert!(!m.order().may_follow(p("e"), p("x")));
    assert!(
        !m.waits_on_every_way(p("a"), p("x")),
        "the timer is waited for only on the way out"
    );
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; let Some(_) = xs.first() else { pods.get("e").await?; continue; }; pods.get("x").await?; }"#,
    );
    let p = |n| request(&m, n).point();
    assert!(!m.order().follows_in_pass(p("e"), p("x")));
    assert!(m.order().may_follow(p("e"), p("a")), "the loop goes on");
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; let Some(_) = xs.first() else { pods.get("e").await?; std::process::exit(1) }; pods.get("x").await?; }"#,
    );
    let p = |n| request(&m, n).point();
    assert!(
        !m.order().follows_in_pass(p("e"), p("x")),
        "diverging some other way still skips the rest of the pass"
    );
    assert!(
        m.order().may_follow(p("e"), p("a")),
        "and, not knowing how, keeps the later passes"
    );
}

#[test]
fn a_question_mark_may_leave_but_never_makes_later_code_unreachable() {
    let m = model(
        r#"for _ in &xs { pods.get("a").await?; tokio::time::sleep(d).await; xs.first().ok_or(e)?; pods.get("b").await?; }"#,
    );
    let p = |n| request(&m, n).point();
    assert!(m.order().follows_in_pass(p("a"), p("b")));
    assert!(m.order().may_follow(p("b"), p("a")), "the loop goes round");
    assert!(!m.order().ends_its_loop(p("a")));
    assert!(m.waits_on_every_way(p("a"), p("b")));
    assert!(!m.waits_on_every_way(p("b"), p("a")));
}

#[test]
fn a_while_condition_runs_on_every_pass() {
    let m =
        model(r#"while let Some(_) = pods.get_opt("cond").await? { pods.get("body").await?; }"#);
    let p = |n| request(&m, n).point();
    assert!(m.order().may_follow(p("body"), p("cond")), "the next pass");
    assert!(m.order().follows_in_pass(p("cond"), p("body")));
    let m = model(r#"for _ in pods.get("iter").await?.spec { pods.get("body").await?; }"#);
    let p = |n| request(&m, n).point();
    assert!(
        !m.order().may_follow(p("body"), p("iter")),
        "a for loop's iterator is made once"
    );
}

#[test]
fn the_timer_index_answers_as_a_scan_of_every_wait_would() {
    let m = model(
        r#"
        pods.get("a").await?;
        tokio::time::sleep(d).await;
        for _ in &xs {
            pods.get("b").await?;
            if c { tokio::time::sleep(d).await; pods.get("c").await?; continue; }
            match c { true => { tokio::time::sleep(d).await; } false => { pods.get("d").await?; } }
            tokio::time::sleep(d).await;
            'inner: loop {
                pods.get("e").await?;
                if c { tokio::time::sleep(d).await; break 'inner; }
                let Some(_) = xs.first() else { tokio::time::sleep(d).await; continue; };
                tokio::time::sleep(d).await;
            }
            let f = async { tokio::time::sleep(d).await; pods.get("g").await };
            f.await?;
        }
        while let Some(_) = pods.get_opt("h").await? { if c { pods.get("i").await?; } tokio::time::sleep(d).await; }
        pods.get("j").await?;
        "#,
    );
    let order = m.order();
    let (mut pairs, mut waited) = (0, 0);
    let requests = m.raw.iter().map(|r| r.point());
    let points: Vec<_> = requests
        .chain(m.timer_waits.iter().map(|w| w.point()))
        .collect();
    for &a in &points {
        for &b in &points {
            let scan = m
                .timer_waits
                .iter()
                .any(|w| order.on_every_way(a, w.point(), b));
            assert_eq!(m.waits_on_every_way(a, b), scan);
            pairs += 1;
            waited += usize::from(scan);
        }
    }
    assert!(
        m.timer_waits.len() >= 8 && pairs >= 100,
        "{} waits, {pairs} pairs",
        m.timer_waits.len()
    );
    assert!(waited > 10 && waited < pairs - 10, "both answers are met");
}

#[test]
fn a_timer_in_a_loop_that_may_run_no_pass_is_not_on_every_way() {
    let waits = |body: &str| {
        let m = model(body);
        m.waits_on_every_way(request(&m, "a").point(), request(&m, "b").point())
    };
    assert!(!waits(
        r#"pods.get("a").await?; while c { tokio::time::sleep(d).await; } pods.get("b").await?;"#
    ));
    assert!(!waits(
        r#"pods.get("a").await?; for _ in &xs { tokio::time::sleep(d).await; } pods.get("b").await?;"#
    ));
    assert!(
        waits(
            r#"pods.get("a").await?; loop { tokio::time::sleep(d).await; if c { break; } } pods.get("b").await?;"#
        ),
        "a loop runs at least one pass"
    );
    assert!(
        waits(
            r#"for _ in &xs { pods.get("a").await?; tokio::time::sleep(d).await; pods.get("b").await?; }"#
        ),
        "a loop both are in"
    );
}
