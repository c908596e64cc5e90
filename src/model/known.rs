//! The identifiers every fact a finding rests on is written with: the model builds requests and
//! blocking calls from them, and the prefilter parses only the files that have one
//! ([`TRIGGERS`], passed to [`crate::prefilter::Prefilter::new`] by the driver). One table for
//! both, so that a new kind of request cannot be recognised by the model and skipped by the
//! prefilter: recognise it through a constant here, and it is a trigger word.

use crate::prefilter::Trigger;

/// kube's `Api<K>`: annotations, constructors, parameters, fields and return types.
pub const API: &str = "Api";
/// kube's `Client`: `request`/`send` on a value typed `Client`.
pub const CLIENT: &str = "Client";
/// kube-runtime's event `Recorder`: `publish` writes an Event.
pub const RECORDER: &str = "Recorder";
/// A value named `recorder` is taken for an event `Recorder`.
pub const RECORDER_VALUE: &str = "recorder";
/// Executors driving futures from sync code.
pub const BLOCK_ON: &str = "block_on";

const fn t(word: &'static str, why: &'static str) -> Trigger {
    Trigger { word, why }
}

/// Every trigger word and why it is one.
pub static TRIGGERS: &[Trigger] = &[
    t(
        API,
        "kube's `Api<K>`: annotations, `Api::namespaced(..)` constructors, parameters typed \
         `&Api<K>` (helpers that make requests), fields and return types other files resolve \
         their receivers through",
    ),
    t(
        RECORDER,
        "kube-runtime's event `Recorder`: `Recorder::publish` writes an Event (a parameter or \
         binding typed `Recorder`, `Recorder::new(..)`)",
    ),
    t(
        RECORDER_VALUE,
        "a value named `recorder` (`self.recorder`, `ctx.recorder`, `diagnostics.recorder(..)`) \
         is taken for an event `Recorder`: its `publish` writes an Event",
    ),
    t(
        CLIENT,
        "kube's `Client`: `Client::request`/`send` on a value typed `Client` are requests to an \
         object the tool cannot see",
    ),
    t(
        BLOCK_ON,
        "executors driving futures from sync code (`block_on`): `block-on-in-async` reports them, \
         and the sync functions that call them, when async code calls those",
    ),
];

/// The words of [`TRIGGERS`].
pub fn trigger_words() -> Vec<&'static str> {
    TRIGGERS.iter().map(|t| t.word).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prefilter::Prefilter;
    use crate::source::SourceFile;

    /// A file using each trigger word the way the model recognises it, and whether the model
    /// found a fact in it.
    const USES: &[(&str, &str)] = &[
        (
            API,
            "async fn f(pods: &Api<Pod>) { pods.get(\"a\").await; }",
        ),
        (
            CLIENT,
            "async fn f(c: Client, r: Request) { c.request::<Pod>(r).await; }",
        ),
        (
            RECORDER,
            "async fn f(r: &Recorder, e: Event, o: &Ref) { r.publish(&e, o).await; }",
        ),
        (
            RECORDER_VALUE,
            "async fn f(c: &Ctx, e: Event, o: &Ref) { c.recorder.publish(&e, o).await; }",
        ),
        (BLOCK_ON, "fn f(rt: &Runtime) { rt.block_on(async {}); }"),
    ];

    /// Whether the model, linked, sees a request or a blocking call in `text`.
    fn has_facts(text: &str) -> bool {
        let source = SourceFile::new(0, "lib.rs".into(), text.to_string());
        let file = syn::parse_file(text).unwrap();
        let facts = crate::model::build::build(&source, &file);
        let model = crate::model::link::link_single(0, &facts, "lib.rs");
        model.requests.iter().any(|r| !r.is_empty()) || !model.blocking.is_empty()
    }

    /// Each trigger word is what the model keys a fact on (the same file with the word renamed
    /// has no fact), and the prefilter built from [`TRIGGERS`] parses the file.
    #[test]
    fn every_trigger_word_is_what_the_model_builds_a_fact_from() {
        let prefilter = Prefilter::new(&trigger_words(), &[]);
        for t in TRIGGERS {
            let (_, text) = USES
                .iter()
                .find(|(w, _)| *w == t.word)
                .unwrap_or_else(|| panic!("no use of the trigger word `{}` to test", t.word));
            assert!(has_facts(text), "Missing: no fact in {text}");
            assert!(prefilter.must_parse(text), "Missing: not parsed: {text}");
            let renamed = text.replace(t.word, "Renamed");
            assert!(
                !has_facts(&renamed),
                "`{}` is not what the fact rests on: {renamed}",
                t.word
            );
            assert!(!prefilter.must_parse(&renamed), "Noisy: parsed: {renamed}");
        }
    }
}
