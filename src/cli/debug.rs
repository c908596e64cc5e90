//! `debug model PATH`: a real check of PATH (a crate, a directory or files), then the model of
//! every file that has facts, each linked the way `check` links it, so that helpers in other
//! files of the crate are followed.

use std::path::{Path, PathBuf};

use super::exit;
use crate::check::Options;
use crate::config::ConfigSource;
use crate::source::SourceFile;

pub(super) fn model(path: &Path) -> i32 {
    let options = Options {
        paths: vec![path.to_path_buf()],
        // Every file, so that the model of a file without trigger words can be seen too.
        no_prefilter: true,
        config: ConfigSource::Discover,
        ..Options::default()
    };
    let report = crate::check::check(&options);
    for e in &report.errors {
        eprintln!("error: {}", super::output::error_line(e));
    }
    if report.aborted {
        return exit::ERROR;
    }
    let linked = &report.linked;
    let mut files: Vec<_> = linked
        .facts
        .iter()
        .filter(|(_, facts)| !facts.is_empty())
        .filter_map(|(id, facts)| Some((linked.displays.get(id)?, *id, facts)))
        .collect();
    files.sort_by(|a, b| a.0.cmp(b.0));
    for (display, id, facts) in files {
        let text = match crate::read::read_text(Path::new(display), crate::read::MAX_SOURCE_BYTES) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {display}: {e}");
                continue;
            }
        };
        let source = SourceFile::new(id, PathBuf::from(display), text);
        let linker = linked.linker_for(id, facts);
        let model = linker.link(id);
        println!("== {display}");
        print!(
            "{}",
            crate::parse::on_worker_stack(|| crate::model::debug::dump(&source, facts, &model))
        );
    }
    // The helpers of dependencies, as the calls above were resolved with them.
    let helpers: Vec<String> = linked
        .wrappers
        .iter()
        .filter_map(crate::deps::describe)
        .collect();
    if !helpers.is_empty() {
        println!("== helpers of dependencies");
        for h in helpers {
            println!("{h}");
        }
    }
    for n in report
        .notes
        .iter()
        .filter(|n| n.contains("helpers of dependencies not read"))
    {
        println!("note: {n}");
    }
    if report.errors.is_empty() {
        exit::CLEAN
    } else {
        exit::ERROR
    }
}
