#!/usr/bin/env bash
# The action's install step: `cargo install` of this repository into KOL_ROOT (unless the cache
# restored it there), added to PATH.
#   KOL_SOURCE          the repository (the action's checkout)
#   KOL_ROOT            the install root (bin/ is added to GITHUB_PATH when set)
#   KOL_TOOLCHAIN       the Rust toolchain that builds the tool (default: stable)
#   KOL_INSTALL_ARGS    more arguments for cargo install (e.g. --debug, in tests)
#
# The step runs in the checked repository, which may be a stranger's pull request: rustup
# picks the toolchain from the working directory's `rust-toolchain.toml` (a `path =` toolchain
# is any program the pull request ships). So cargo runs from the install root, outside the
# checkout, with the toolchain named explicitly (RUSTUP_TOOLCHAIN wins over any file).
set -euo pipefail
: "${KOL_SOURCE:?the repository to install from}" "${KOL_ROOT:?the install root}"
mkdir -p "$KOL_ROOT"
KOL_SOURCE="$(cd "$KOL_SOURCE" && pwd)"
KOL_ROOT="$(cd "$KOL_ROOT" && pwd)"
cd "$KOL_ROOT"
export RUSTUP_TOOLCHAIN="${KOL_TOOLCHAIN:-stable}"
# A binary restored from the action's cache (keyed by action/cache-key.sh) is used as it is.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$KOL_SOURCE/Cargo.toml" | head -n 1)
installed=$("$KOL_ROOT/bin/kube-order-lint" --version 2>/dev/null || true)
if [ "$installed" = "kube-order-lint $version" ] && [ -x "$KOL_ROOT/bin/cargo-kube-order-lint" ]; then
  echo "kube-order-lint $version: restored from the cache, not built"
else
  # shellcheck disable=SC2086 # KOL_INSTALL_ARGS is a list of words
  cargo install --locked --quiet --path "$KOL_SOURCE" --root "$KOL_ROOT" ${KOL_INSTALL_ARGS:-}
fi
"$KOL_ROOT/bin/kube-order-lint" --version
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$KOL_ROOT/bin" >> "$GITHUB_PATH"
fi
