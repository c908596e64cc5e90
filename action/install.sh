#!/usr/bin/env bash
# The action's install step: `cargo install` of this repository into KOL_ROOT (unless the cache
# restored it there), added to PATH.
#   KOL_SOURCE          the repository (the action's checkout)
#   KOL_ROOT            the install root (bin/ is added to GITHUB_PATH when set)
#   KOL_INSTALL_ARGS    more arguments for cargo install (e.g. --debug, in tests)
set -euo pipefail
: "${KOL_SOURCE:?the repository to install from}" "${KOL_ROOT:?the install root}"
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
