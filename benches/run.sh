#!/usr/bin/env bash
# The benchmark (see README, "Benchmark"): fetch the pinned corpus, build the release binaries,
# then time kube-order-lint against a plain syn::parse_file of every file, in the same run.
# Arguments go to the harness: -j N (threads, default 2), --runs R (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fetch --locked --manifest-path benches/corpus/Cargo.toml
cargo build --release --bins --example parse_baseline --example bench
exec target/release/examples/bench "$@"
