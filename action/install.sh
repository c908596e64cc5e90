#!/usr/bin/env bash
# The action's install step: `cargo install` of this repository into KOL_ROOT, added to PATH.
#   KOL_SOURCE          the repository (the action's checkout)
#   KOL_ROOT            the install root (bin/ is added to GITHUB_PATH when set)
#   KOL_INSTALL_ARGS    more arguments for cargo install (e.g. --debug, in tests)
set -euo pipefail
: "${KOL_SOURCE:?the repository to install from}" "${KOL_ROOT:?the install root}"
# shellcheck disable=SC2086 # KOL_INSTALL_ARGS is a list of words
cargo install --locked --quiet --path "$KOL_SOURCE" --root "$KOL_ROOT" ${KOL_INSTALL_ARGS:-}
"$KOL_ROOT/bin/kube-order-lint" --version
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$KOL_ROOT/bin" >> "$GITHUB_PATH"
fi
