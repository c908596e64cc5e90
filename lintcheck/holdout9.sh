#!/usr/bin/env bash
# Re-runs holdout set 9 (lintcheck/holdout9.md): exports each repository at its pinned commit from
# the bare git directory the fetch tool left under /work/.mirror, then runs kube-order-lint on it,
# at the default level and with `--min-confidence unknown`. Nothing of the repositories is built
# or run.
#
# Usage: lintcheck/holdout9.sh [OUT_DIR]   (default /tmp/h9; the exports go to OUT_DIR/src)
# Environment: KOL (the binary; default target/release/kube-order-lint of this checkout),
#              MIRROR (default /work/.mirror).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/h9}
kol=${KOL:-$root/target/release/kube-order-lint}
mirror=${MIRROR:-/work/.mirror}

# owner+name (mirror directory), commit, path checked inside the export
repos=(
  "bottlerocket-os+bottlerocket-update-operator 2fcbeb120679afa7e53f0cc3a33ada6d00e20f3c ."
  "wasmCloud+wasmcloud-operator e1342ba78af3c264cc8bbdb7f9260ecd6816fca8 ."
  "linkerd+linkerd-failover 8679d57b68a5c8931737475627225e9de0be18ce ."
  "stackabletech+zookeeper-operator 79a5f62efbcfe3e409b936a9a70a73d0c6139633 ."
  "stackabletech+spark-k8s-operator 405d55143e7d95e3d32ec5bb4ab03a5ee068668a ."
  "openebs+mayastor-extensions 5c0033a9f1f1b3e7f5baa4a1bcd0fe72fb27c0fb ."
  "drogue-iot+drogue-cloud 8aa49b2482442bb13d54d97a308a16f476ace203 ."
  "Weshnaw+bfall-kube-controller 0bc2aed3822d3faae3735fc4a4375a83fea89927 ."
)

[ -x "$kol" ] || { echo "no binary at $kol (cargo build --release first)" >&2; exit 2; }
mkdir -p "$out/src" "$out/results"

for entry in "${repos[@]}"; do
  read -r mirror_name commit path <<<"$entry"
  name=${mirror_name#*+}
  name=${name,,}
  git_dir=$mirror/$mirror_name/repo
  if ! git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "$name: commit $commit not in $git_dir (fetch github:${mirror_name/+//} again)" >&2
    continue
  fi
  dest=$out/src/$name
  rm -rf "$dest"
  mkdir -p "$dest"
  git --git-dir="$git_dir" archive "$commit" | tar -x -C "$dest"
  target=$name
  [ "$path" = . ] || target=$name/$path
  for level in default unknown; do
    args=(--format short)
    [ "$level" = unknown ] && args+=(--min-confidence unknown)
    result=$out/results/$name.$level
    # exit code 1 means "findings"; 2 means an error the tool reports on stderr
    status=0
    (cd "$out/src" && "$kol" "${args[@]}" "$target") >"$result" 2>"$result.err" || status=$?
    printf '%-24s %-8s exit %d: %s\n' "$name" "$level" "$status" "$(tail -n 1 "$result.err")"
  done
done
echo "findings: $out/results/NAME.{default,unknown}; the verdicts are in lintcheck/holdout9.md"
