#!/usr/bin/env bash
# The cost of dependency helpers (src/deps.rs): the tool on a package that depends on the 45
# pinned kube crates of the lintcheck corpus, with --no-deps-helpers, then with an empty cache
# (every kube-dependent dependency read from disk and summarised), then with the cache filled.
# Arguments: --runs R (default 3). The cache lives in a target directory of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
if [ "${1:-}" = "--runs" ]; then runs="$2"; fi

cargo fetch --locked --manifest-path lintcheck/corpus/Cargo.toml
cargo build --release --bins
tool="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/kube-order-lint"
target="$(mktemp -d)"
trap 'rm -rf "$target"' EXIT
export CARGO_TARGET_DIR="$target"

measure() { # label, then the tool's arguments
    local label="$1"
    shift
    /usr/bin/time -f "$label: %e s wall, %U s user, %M KiB peak" \
        "$tool" --format json --exit-zero "$@" lintcheck/corpus >/dev/null
}

for _ in $(seq "$runs"); do
    measure "off   " --no-deps-helpers
    rm -rf "$target/kube-order-lint"
    measure "cold  "
    measure "cached"
done
echo "summaries cached: $(ls "$target/kube-order-lint/deps" | wc -l) dependencies"
