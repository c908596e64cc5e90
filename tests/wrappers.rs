//! Requests through user-declared wrappers (`[[wrappers]]` in the configuration), checked through
//! the library.

mod common;

use std::path::PathBuf;

use kube_order_lint::model::wrappers::WrapperSpec;
use kube_order_lint::model::Access;
use kube_order_lint::{check, Options};

const FIXTURE: &str = "tests/fixtures/files/wrappers.rs";

fn spec(function: &str, access: Access) -> WrapperSpec {
    WrapperSpec {
        function: function.into(),
        access,
        name_arg: Some(0),
        namespace_arg: None,
        kind_param: None,
        kind_arg: None,
        kind: None,
        object_arg: None,
        api_arg: None,
        verb: None,
        from_dependency: None,
        method_of: None,
        fixed_name: None,
    }
}

fn wrappers() -> Vec<WrapperSpec> {
    vec![
        WrapperSpec {
            namespace_arg: Some(1),
            kind_param: Some(0),
            ..spec("Client::apply_patch", Access::Write)
        },
        WrapperSpec {
            namespace_arg: Some(1),
            kind_param: Some(0),
            ..spec("Client::get_opt", Access::Read)
        },
        WrapperSpec {
            kind: Some("Lease".into()),
            ..spec("kube_wrapper::delete_lease", Access::Write)
        },
        WrapperSpec {
            kind: Some("Lease".into()),
            ..spec("kube_wrapper::get_lease", Access::Read)
        },
    ]
}

#[test]
fn declared_wrappers_are_requests() {
    let report = check(&Options {
        paths: vec![PathBuf::from(FIXTURE)],
        wrappers: wrappers(),
        ..Options::default()
    });
    let text = std::fs::read_to_string(FIXTURE).expect("fixture");
    let failures = common::compare_markers(&text, &report);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let first = &report.diagnostics[0];
    assert!(first.message.contains("Pod `name`"), "{}", first.message);
    assert!(report.diagnostics[1].message.contains("Lease `name`"));
}

#[test]
fn without_declarations_wrapper_calls_are_not_requests() {
    let report = check(&Options {
        paths: vec![PathBuf::from(FIXTURE)],
        ..Options::default()
    });
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}
