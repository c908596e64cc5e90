#!/usr/bin/env bash
# Superlinear corners (issue 16): generated inputs that once took minutes. Prints, for each, the
# median wall time and peak memory of RUNS runs (default 3) of the release binary; no target is
# asserted here. Run from anywhere; honours CARGO_TARGET_DIR and TOOL.
set -euo pipefail
cd "$(dirname "$0")/.."
# TOOL=path measures another binary (an older build, for before/after figures).
if [[ -z ${TOOL:-} ]]; then cargo build --release --quiet --bin kube-order-lint; fi
tool="${TOOL:-$(realpath "${CARGO_TARGET_DIR:-target}")/release/kube-order-lint}"
runs="${RUNS:-3}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

{ # join! with 4,000 operands, half of them writes of 50 objects
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n    tokio::join!(\n'
  for i in $(seq 0 3999); do
    if (( i % 2 )); then printf '        pods.delete("p%d", &dp),\n' $((i % 50)); else printf '        pods.get("p%d"),\n' $((i % 50)); fi
  done
  printf '    );\n}\n'
} > "$dir/join_4000.rs"

# join! of N operands alternating get("a") and delete("a") on one handle, as N and 2N: one
# object, so every pair conflicts (issue 26: 20,000 took 117 s and 22 GB). join_one N
join_one() {
  local n=$1
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n    tokio::join!(\n'
  for i in $(seq 0 $((n - 1))); do
    if (( i % 2 )); then printf '        pods.delete("a", &dp),\n'; else printf '        pods.get("a"),\n'; fi
  done
  printf '    );\n}\n'
}
join_one 20000 > "$dir/join_one_20000.rs"
join_one 40000 > "$dir/join_one_40000.rs"

{ # 8,000 spawned writes whose handles are dropped
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
  for i in $(seq 0 7999); do
    printf '    let h%d = tokio::spawn(async move { pods.delete("p%d", &dp).await });\n' "$i" $((i % 50))
  done
  printf '    pods.delete("p1", &dp).await;\n}\n'
} > "$dir/spawn_8000.rs"

{ # 2,000 spawned writes of one object, each followed by an awaited timer in an arm: every pair
  # of tasks asks whether a timer lies on every way between them (was a scan of every timer)
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams, slow: bool) {\n'
  for i in $(seq 0 1999); do
    printf '    tokio::spawn(async move { pods.delete("p0", &dp).await });\n'
    printf '    if slow { tokio::time::sleep(std::time::Duration::from_secs(1)).await; }\n'
  done
  printf '    pods.delete("p0", &dp).await;\n}\n'
} > "$dir/spawn_timers_2000.rs"

# N spawned writes of one object, written in place (spawn_one) or through a crate helper that
# leaves its task running (spawn_helper), as N and 2N: every task races every later one, and
# each finding counts the pairs (session 13: quadratic, 2,000 took 0.94 s and 4,000 3.69 s).
spawn_one() {
  local n=$1
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams, pp: PatchParams, p: Patch<Pod>) {\n'
  for _ in $(seq 0 $((n - 1))); do
    printf '    tokio::spawn(async move { pods.patch("a", &pp, &p).await });\n'
  done
  printf '    pods.delete("a", &dp).await;\n}\n'
}
spawn_helper() {
  local n=$1
  printf 'fn spawn_patch(pods: &Api<Pod>) {\n    let pods = pods.clone();\n'
  printf '    tokio::spawn(async move { pods.patch("a", &PatchParams::default(), &Patch::Merge(())).await });\n}\n'
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
  for _ in $(seq 0 $((n - 1))); do printf '    spawn_patch(&pods);\n'; done
  printf '    pods.delete("a", &dp).await;\n}\n'
}
for n in 2000 4000; do spawn_one "$n" > "$dir/spawn_one_$n.rs"; spawn_helper "$n" > "$dir/spawn_helper_$n.rs"; done

{ # 8,000 request futures awaited in the reverse of the order they were made
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
  for i in $(seq 0 7999); do printf '    let f%d = pods.delete("p%d", &dp);\n' "$i" "$i"; done
  for i in $(seq 7999 -1 0); do printf '    f%d.await;\n' "$i"; done
  printf '}\n'
} > "$dir/inverted_8000.rs"

# N request futures alternating get("a") and delete("a"), awaited in reverse, as N and 2N: each
# future's first inversion is the first await after it (issue 26: 4,000 took 12.7 s). inverted_one N
inverted_one() {
  local n=$1
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
  for i in $(seq 0 $((n - 1))); do
    if (( i % 2 )); then printf '    let f%d = pods.delete("a", &dp);\n' "$i"; else printf '    let f%d = pods.get("a");\n' "$i"; fi
  done
  for i in $(seq $((n - 1)) -1 0); do printf '    f%d.await;\n' "$i"; done
  printf '}\n'
}
inverted_one 10000 > "$dir/inverted_one_10000.rs"
inverted_one 20000 > "$dir/inverted_one_20000.rs"

# A helper whose write may be cancelled (`timeout`), called N times by one function: in the N
# arms of one `match` (arms_N), or in straight-line code on N names (calls_N). Whether the
# helper is called again was asked of every pair of calls (10,000 arms: 2.6 s; 20,000: 11.3 s).
arms() {
  local n=$1
  printf 'async fn renew(leases: &Api<Lease>, pp: &PatchParams, p: &Patch<Lease>) {\n'
  printf '    let _ = tokio::time::timeout(D, leases.patch("leader", pp, p)).await;\n}\n'
  printf 'async fn f(leases: Api<Lease>, pp: PatchParams, p: Patch<Lease>, k: u32) {\n    match k {\n'
  for i in $(seq 0 $((n - 1))); do printf '        %d => renew(&leases, &pp, &p).await,\n' "$i"; done
  printf '        _ => {}\n    }\n}\n'
}
calls() {
  local n=$1
  printf 'async fn renew(leases: &Api<Lease>, name: &str, pp: &PatchParams, p: &Patch<Lease>) {\n'
  printf '    let _ = tokio::time::timeout(D, leases.patch(name, pp, p)).await;\n}\n'
  printf 'async fn f(leases: Api<Lease>, pp: PatchParams, p: Patch<Lease>) {\n'
  for i in $(seq 0 $((n - 1))); do printf '    renew(&leases, "n%d", &pp, &p).await;\n' "$i"; done
  printf '}\n'
}
for n in 10000 20000; do arms "$n" > "$dir/arms_$n.rs"; calls "$n" > "$dir/calls_$n.rs"; done

# A workspace of N members as a chain of dependencies: member i depends on member i-1 and
# calls its helper, which makes a request; each member has a finding of its own. With a third
# argument, each member also has a module without a trigger word (`util.rs`), which the
# prefilter's later passes decide on. chain DIR N [modules]
chain() {
  local chain=$1 n=$2 modules=${3:-}
  mkdir -p "$chain"
  {
    printf '[workspace]\nresolver = "2"\nmembers = ['
    for i in $(seq 0 $((n - 1))); do printf '"m%d", ' "$i"; done
    printf ']\n'
  } > "$chain/Cargo.toml"
  for i in $(seq 0 $((n - 1))); do
    mkdir -p "$chain/m$i/src"
    {
      printf '[package]\nname = "m%d"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' "$i"
      if (( i > 0 )); then printf 'm%d = { path = "../m%d" }\n' $((i - 1)) $((i - 1)); fi
    } > "$chain/m$i/Cargo.toml"
    {
      printf 'use kube::api::{Api, DeleteParams};\n'
      printf 'pub async fn helper%d(pods: &Api<Pod>, dp: &DeleteParams) {\n' "$i"
      if (( i > 0 )); then printf '    m%d::helper%d(pods, dp).await;\n' $((i - 1)) $((i - 1)); fi
      printf '    pods.delete("p%d", dp).await;\n}\n' "$i"
      printf 'pub async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
      printf '    tokio::join!(helper%d(&pods, &dp), pods.get("p%d"));\n}\n' "$i" "$i"
      if [[ -n $modules ]]; then printf 'mod util;\n'; fi
    } > "$chain/m$i/src/lib.rs"
    if [[ -n $modules ]]; then printf 'pub fn plain%d() -> u32 { %d }\n' "$i" "$i" > "$chain/m$i/src/util.rs"; fi
  done
}
# 150, 300 and 600 members: linking grows linearly (`cargo metadata` itself does not quite).
for n in 150 300 600; do chain "$dir/chain_$n" "$n"; done
# The prefilter's passes over linked names: once per group of linked units (was per member over
# its scope, quadratic: 15.5 s for 300 members).
chain "$dir/chain_modules_300" 300 modules

# 200,000 exclude globs in one configuration (none matching), over a small crate.
globs="$dir/globs_200000"
mkdir -p "$globs/src"
printf '[package]\nname = "globs"\nversion = "0.1.0"\nedition = "2021"\n' > "$globs/Cargo.toml"
printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n    tokio::join!(pods.delete("a", &dp), pods.get("a"));\n}\n' > "$globs/src/lib.rs"
{
  printf 'exclude = [\n'
  for i in $(seq 0 199999); do printf '  "gen/dir%d/**/*_%d.rs",\n' "$i" "$i"; done
  printf ']\n'
} > "$globs/kube-order-lint.toml"

# 90,000 and 180,000 wildcard patterns without a directory (`*?` repeated): refused with an error
# naming the file before the one automaton they make is built (issue 26: 32 s, 9.9 GB, then an
# NFA build error). The run exits 2; the figures are those of reaching the error.
for n in 90000 180000; do
  wild="$dir/wildcards_$n"
  mkdir -p "$wild/src"
  cp "$globs/Cargo.toml" "$globs/src/lib.rs" "$wild/" && mv "$wild/lib.rs" "$wild/src/"
  {
    printf 'exclude = [\n'
    for i in $(seq 0 $((n - 1))); do printf '  "*?*?*?*?%d*?*?",\n' "$i"; done
    printf ']\n'
  } > "$wild/kube-order-lint.toml"
done

# `--fix` over N files with one safe fix each (a join! of a create and a get of one object), as N
# and 2N, in a directory without a manifest (one link unit): each file's fix is re-checked
# against the run (issue 26: 6,000 took 56 s, 12,000 262 s; the check alone 0.75 s). fix_files DIR N
fix_files() {
  local fixes=$1 n=$2
  mkdir -p "$fixes"
  for i in $(seq 0 $((n - 1))); do
    {
      printf 'async fn f%d(pods: Api<Pod>, pp: PostParams, pod: Pod) {\n' "$i"
      printf '    let (created, fetched) = tokio::join!(pods.create(&pp, &pod), pods.get("p%d"));\n}\n' "$i"
    } > "$fixes/f$i.rs"
  done
}
for n in 2000 4000; do fix_files "$dir/fix_$n" "$n"; done

# The median of RUNS runs: wall seconds and peak KiB.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
measure() {
  local name=$1; shift
  local times="$dir/$name.times"
  : > "$times"
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$times" -a "$tool" --format short --quiet "$@" > /dev/null || true
  done
  # time(1) adds a line for a non-zero exit (a finding): keep the figures only.
  grep -E '^[0-9.]+ [0-9]+$' "$times" > "$times.figures"
  printf '%s: %s s, %s KiB peak (median of %s)\n' "$name" \
    "$(cut -d' ' -f1 "$times.figures" | median)" "$(cut -d' ' -f2 "$times.figures" | median)" "$runs"
}

for f in join_4000 join_one_20000 join_one_40000 spawn_8000 spawn_timers_2000 \
  spawn_one_2000 spawn_one_4000 spawn_helper_2000 spawn_helper_4000 inverted_8000 inverted_one_10000 inverted_one_20000 \
  arms_10000 arms_20000 calls_10000 calls_20000; do
  measure "$f" "$dir/$f.rs"
done
for n in 150 300 600; do measure "chain_$n" "$dir/chain_$n"; done
measure chain_modules_300 "$dir/chain_modules_300"
measure globs_200000 "$globs"
for n in 90000 180000; do measure "wildcards_$n" "$dir/wildcards_$n"; done
# --fix rewrites the files: each run fixes a fresh copy, and the last copy must have no join! left.
measure_fix() {
  local name=$1 template=$2
  local times="$dir/$name.times" work="$dir/$name.work"
  : > "$times"
  for _ in $(seq "$runs"); do
    rm -rf "$work" && cp -r "$template" "$work"
    /usr/bin/time -f "%e %M" -o "$times" -a "$tool" --fix --format short --quiet "$work" > /dev/null || true
  done
  grep -E '^[0-9.]+ [0-9]+$' "$times" > "$times.figures"
  printf '%s: %s s, %s KiB peak (median of %s), %s of %s files still with a join!\n' "$name" \
    "$(cut -d' ' -f1 "$times.figures" | median)" "$(cut -d' ' -f2 "$times.figures" | median)" "$runs" \
    "$({ grep -rl 'join!' "$work" || true; } | wc -l)" "$(find "$work" -name '*.rs' | wc -l)"
}
for n in 2000 4000; do
  measure "fix_${n}_check_only" "$dir/fix_$n"
  measure_fix "fix_$n" "$dir/fix_$n"
done
