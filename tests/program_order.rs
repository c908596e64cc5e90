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
