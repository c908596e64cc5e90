//! The baseline the benchmark compares the tool against: read every `.rs` file under a directory
//! and `syn::parse_file` it, on N threads, doing nothing with the trees.
//!
//! ```sh
//! cargo run --release --example parse_baseline -- [-j N] [--prefiltered] DIR
//! ```
//!
//! `--prefiltered` parses only the files that contain one of the issue's reference trigger words
//! (`kube_order_lint::prefilter::REFERENCE_WORDS`: `Api` and the concurrency combinators, matched
//! as identifier segments, in code only), the floor the analysis is measured against. Prints the files
//! and lines seen, the files parsed and the files syn rejected.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

fn main() {
    let mut jobs = 2;
    let mut prefiltered = false;
    let mut dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-j" | "--jobs" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => jobs = n,
                None => usage(),
            },
            "--prefiltered" => prefiltered = true,
            _ if dir.is_none() && !arg.starts_with('-') => dir = Some(PathBuf::from(arg)),
            _ => usage(),
        }
    }
    let Some(dir) = dir else { usage() };
    let files = rust_files(&dir);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        // syn recurses on nested expressions, as in the tool.
        .stack_size(64 * 1024 * 1024)
        .build()
        .expect("thread pool");
    let lines = AtomicUsize::new(0);
    let parsed = AtomicUsize::new(0);
    let rejected = AtomicUsize::new(0);
    let filter = kube_order_lint::prefilter::Prefilter::with_words(
        kube_order_lint::prefilter::REFERENCE_WORDS,
        &[],
    );
    pool.install(|| {
        files.par_iter().for_each(|path| {
            let Ok(text) = std::fs::read_to_string(path) else {
                return;
            };
            lines.fetch_add(text.lines().count(), Ordering::Relaxed);
            if prefiltered && !filter.must_parse(&text) {
                return;
            }
            parsed.fetch_add(1, Ordering::Relaxed);
            if syn::parse_file(&text).is_err() {
                rejected.fetch_add(1, Ordering::Relaxed);
            }
            // The tool frees proc-macro2's per-thread source map after each file; so does the
            // baseline, or its memory would grow with the whole corpus.
            proc_macro2::extra::invalidate_current_thread_spans();
        })
    });
    println!(
        "files {} lines {} parsed {} rejected {}",
        files.len(),
        lines.into_inner(),
        parsed.into_inner(),
        rejected.into_inner()
    );
}

fn usage() -> ! {
    eprintln!("usage: parse_baseline [-j N] [--prefiltered] DIR");
    std::process::exit(2)
}

/// Every `.rs` file under `dir`, skipping hidden entries and `target` directories like the tool.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0
                || !(name.starts_with('.') || (e.file_type().is_dir() && name == "target"))
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| e.into_path())
        .collect()
}
