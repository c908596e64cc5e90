#!/usr/bin/env bash
# Re-runs holdout set 8 (lintcheck/holdout8.md): exports each repository at its pinned commit from
# the bare git directory the fetch tool left under /work/.mirror, then runs kube-order-lint on it,
# at the default level and with `--min-confidence unknown`. Nothing of the repositories is built
# or run.
#
# Usage: lintcheck/holdout8.sh [OUT_DIR]   (default /tmp/h8; the exports go to OUT_DIR/src)
# Environment: KOL (the binary; default target/release/kube-order-lint of this checkout),
#              MIRROR (default /work/.mirror).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/h8}
kol=${KOL:-$root/target/release/kube-order-lint}
mirror=${MIRROR:-/work/.mirror}

# owner+name (mirror directory), commit, path checked inside the export
repos=(
  "restatedev+restate-operator aae3289c224a4adbf1d62100418185a105615040 ."
  "hadron-project+hadron b36aaa37b20b5f8569417fae913687622b74b262 ."
  "rustrial+k8s-object-syncer a525b1fc02be900e66b7e7fa0444d6f228af7e25 ."
  "daniel-white+kubera 7febb825e52e2f2e54fc8e455e07de9be43134a4 ."
  "stackabletech+commons-operator fa3fb3301e731d9446acdec1683942529af523d2 ."
  "stackabletech+secret-operator dbb69f68deb9af5f433b2c5d0837eba67ae547fc ."
  "stackabletech+listener-operator d8f9cf3e1103d7ab9962f85b41acdb016a367166 ."
  "jeremylvln+Shulker 20adc9ead579343ec3620943247a4a1d5d98ea29 ."
  "idlab-discover+masters-robbe-haegeman 7dbe4d1c9170d9750c85b58573326ef36a2839d5 ."
  "linkerd+linkerd2 b24cd4059841f8cee2fb7a9c2ac23a693c583579 policy-controller"
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
echo "findings: $out/results/NAME.{default,unknown}; the verdicts are in lintcheck/holdout8.md"
