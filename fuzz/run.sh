#!/usr/bin/env bash
# Fuzz `kube_order_lint::check_text` (the analysis of one source text) with libFuzzer through
# cargo-fuzz, for a bounded time, on one core.
#
#   fuzz/run.sh [SECONDS] [LIBFUZZER_ARGS...]     default: 600 seconds
#
# Works on a stable toolchain: `--sanitizer none` needs no `-Z` flag (our crate has no `unsafe`,
# so AddressSanitizer adds little; to use it anyway on stable, run with FUZZ_SANITIZER=address,
# which sets RUSTC_BOOTSTRAP=1 for its `-Zsanitizer` flag).
# The corpus grows in fuzz/corpus/check_text (not committed), seeded with the repository's
# Rust files; crashes land in fuzz/artifacts/check_text. Save each crash that is fixed as a
# regression input under tests/fixtures/fuzz/ (checked by `cargo test --test robustness`).
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

corpus=corpus/check_text
mkdir -p "$corpus" artifacts/check_text
# Seeds: every small Rust file of the repository (UI cases, lint fixtures, demo), by content hash.
find ../tests ../demo -name '*.rs' -size -16k -print0 |
    while IFS= read -r -d '' f; do
        cp "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16)"
    done

cargo fuzz run --sanitizer "$sanitizer" check_text "$corpus" ../tests/fixtures/fuzz -- \
    -max_total_time="$seconds" \
    -timeout=20 \
    -max_len=8192 \
    -rss_limit_mb=4096 \
    -dict=check_text.dict \
    -print_final_stats=1 \
    "$@"
