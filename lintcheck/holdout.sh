#!/usr/bin/env bash
# Re-runs a holdout set (lintcheck/holdoutSET.md): exports each repository of
# lintcheck/holdoutSET.repos at its pinned commit from the bare git directory the fetch tool left
# under /work/.mirror, then runs kube-order-lint on it, at the default level and with
# `--min-confidence unknown`. Nothing of the repositories is built or run.
#
# Usage: lintcheck/holdout.sh SET [OUT_DIR]   (SET: 8, 9, …; default OUT_DIR /tmp/hSET; the
#        exports go to OUT_DIR/src). lintcheck/holdout8.sh and holdout9.sh call it.
# Environment: KOL (the binary; default target/release/kube-order-lint of this checkout),
#              MIRROR (default /work/.mirror).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
set=${1:?usage: lintcheck/holdout.sh SET [OUT_DIR]}
out=${2:-/tmp/h$set}
kol=${KOL:-$root/target/release/kube-order-lint}
mirror=${MIRROR:-/work/.mirror}

# One repository a line: owner+name (mirror directory), commit, path checked inside the export.
mapfile -t repos < <(grep -v '^#' "$root/lintcheck/holdout$set.repos")

[ -x "$kol" ] || { echo "no binary at $kol (cargo build --release first)" >&2; exit 2; }
kol=$(realpath "$kol") # the runs are made from inside the export directory
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
echo "findings: $out/results/NAME.{default,unknown}; the verdicts are in lintcheck/holdout$set.md"
