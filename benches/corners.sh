#!/usr/bin/env bash
# Superlinear corners (issue 16): generated single files that once took minutes. Prints the wall
# time and peak memory of one run of the release binary on each; no target is asserted here.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin kube-order-lint
tool=target/release/kube-order-lint
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

{ # join! with 4,000 operands, half of them writes of 50 objects
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n    tokio::join!(\n'
  for i in $(seq 0 3999); do
    if (( i % 2 )); then printf '        pods.delete("p%d", &dp),\n' $((i % 50)); else printf '        pods.get("p%d"),\n' $((i % 50)); fi
  done
  printf '    );\n}\n'
} > "$dir/join_4000.rs"

{ # 8,000 spawned writes whose handles are dropped
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
  for i in $(seq 0 7999); do
    printf '    let h%d = tokio::spawn(async move { pods.delete("p%d", &dp).await });\n' "$i" $((i % 50))
  done
  printf '    pods.delete("p1", &dp).await;\n}\n'
} > "$dir/spawn_8000.rs"

{ # 8,000 request futures awaited in the reverse of the order they were made
  printf 'async fn f(pods: Api<Pod>, dp: DeleteParams) {\n'
  for i in $(seq 0 7999); do printf '    let f%d = pods.delete("p%d", &dp);\n' "$i" "$i"; done
  for i in $(seq 7999 -1 0); do printf '    f%d.await;\n' "$i"; done
  printf '}\n'
} > "$dir/inverted_8000.rs"

for f in join_4000 spawn_8000 inverted_8000; do
  /usr/bin/time -f "$f: %e s, %M KiB peak" "$tool" --format short --quiet "$dir/$f.rs" > /dev/null || true
done
