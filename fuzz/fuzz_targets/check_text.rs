//! Fuzz target: the library's entry point that analyses one source text, then both output
//! formats. Beyond "no panic", it checks that every position a finding gives lies inside the text.
#![no_main]

use std::path::Path;

use codespan_reporting::term::termcolor::NoColor;
use kube_order_lint::{check_text, report};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let report = check_text(Path::new("fuzz.rs"), &text);
    for d in &report.diagnostics {
        for label in std::iter::once(&d.primary).chain(&d.secondary) {
            let source = report
                .source(label.span.file)
                .expect("a finding points into a file of the report");
            assert!(label.span.start <= label.span.end, "{label:?}");
            assert!(label.span.end <= source.text.len(), "{label:?}");
            assert!(source.text.is_char_boundary(label.span.start), "{label:?}");
            assert!(source.text.is_char_boundary(label.span.end), "{label:?}");
        }
    }
    let mut human = NoColor::new(Vec::new());
    report::human::render(&report, &mut human).expect("human output");
    let json = report::json::render(&report);
    serde_json::from_str::<serde_json::Value>(&json).expect("one JSON document");
});
