#!/usr/bin/env bash
# The key the action caches the installed tool under: its version (Cargo.toml's), the runner's
# OS and architecture, and a digest of the sources it is built from (Cargo.toml, Cargo.lock,
# src/), so that a branch whose version has not changed does not get an older build.
#   KOL_SOURCE   the repository (the action's checkout)
# Prints `key=...` (to GITHUB_OUTPUT when set).
set -euo pipefail
: "${KOL_SOURCE:?the repository to install from}"
cd "$KOL_SOURCE"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
digest=$(find Cargo.toml Cargo.lock src -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
key="kube-order-lint-$version-${RUNNER_OS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}-$digest"
echo "key=$key"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "key=$key" >> "$GITHUB_OUTPUT"
fi
