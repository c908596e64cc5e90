#!/usr/bin/env bash
# Fuzz the analysis of one source text with libFuzzer through cargo-fuzz, for a bounded time, on
# one core. Two targets, run one after the other, each for SECONDS:
#   check_text     `kube_order_lint::check_text` and both output formats: no panic, positions
#                  inside the text;
#   nesting_bound  the analysis on a stack sized from the input's nesting count: the count must
#                  bound the recursion (see `src/parse.rs`).
#
#   fuzz/run.sh [SECONDS] [LIBFUZZER_ARGS...]     default: 600 seconds per target
#   FUZZ_TARGETS=check_text fuzz/run.sh 60        one target only
#
# Works on a stable toolchain: `--sanitizer none` needs no `-Z` flag (our crate has no `unsafe`,
# so AddressSanitizer adds little; to use it anyway on stable, run with FUZZ_SANITIZER=address,
# which sets RUSTC_BOOTSTRAP=1 for its `-Zsanitizer` flag).
# Each corpus grows in fuzz/corpus/<target> (not committed), seeded with the repository's Rust
# files; crashes land in fuzz/artifacts/<target>. Save each crash that is fixed as a regression
# input under tests/fixtures/fuzz/ (checked by `cargo test --test robustness`).
set -euo pipefail
cd "$(dirname "$0")"

seconds="${1:-600}"
shift || true
sanitizer="${FUZZ_SANITIZER:-none}"

if ! command -v cargo-fuzz >/dev/null; then
    cargo install cargo-fuzz --locked
fi
if [ "$sanitizer" != none ]; then
    export RUSTC_BOOTSTRAP=1
fi

for target in ${FUZZ_TARGETS:-check_text nesting_bound}; do
    corpus="corpus/$target"
    mkdir -p "$corpus" "artifacts/$target"
    # Seeds: every small Rust file of the repository (UI cases, fixtures, demo), by content hash.
    find ../tests ../demo -name '*.rs' -size -16k -print0 |
        while IFS= read -r -d '' f; do
            cp "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16)"
        done
    echo "== fuzzing $target for $seconds seconds"
    cargo fuzz run --sanitizer "$sanitizer" "$target" "$corpus" ../tests/fixtures/fuzz -- \
        -max_total_time="$seconds" \
        -timeout=20 \
        -max_len=8192 \
        -rss_limit_mb=4096 \
        -dict=check_text.dict \
        -print_final_stats=1 \
        "$@"
done
