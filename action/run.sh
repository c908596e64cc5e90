#!/usr/bin/env bash
# The action's check step, in the directory to check:
#   KOL_ARGS              arguments for kube-order-lint (split on spaces)
#   KOL_SARIF             write SARIF to this file (none when empty)
#   KOL_ANNOTATIONS       `true`: print the findings as GitHub annotations (workflow commands)
#   KOL_FAIL_ON_FINDINGS  `true`: findings make the status 1 (errors always make it 2)
#   KOL_BIN               the tool (default: kube-order-lint on PATH)
# Writes `status` (and `sarif-file`) to GITHUB_OUTPUT when set, and exits with 0 so that the
# SARIF upload still runs; the action's last step fails the job with the status. Without
# GITHUB_OUTPUT (a local run) it exits with the status.
set -uo pipefail
bin="${KOL_BIN:-kube-order-lint}"
read -r -a args <<< "${KOL_ARGS:-}"
status=0
if [ -n "${KOL_SARIF:-}" ]; then
  "$bin" "${args[@]}" --format sarif --output "$KOL_SARIF" --exit-zero || status=$?
fi
if [ "${KOL_ANNOTATIONS:-true}" = true ]; then
  code=0
  "$bin" "${args[@]}" --format github || code=$?
  [ "$code" -gt "$status" ] && status=$code
elif [ "$status" -eq 0 ]; then
  # Without annotations, the exit code of a check that prints nothing but the summary.
  code=0
  "$bin" "${args[@]}" --format short > /dev/null || code=$?
  status=$code
fi
if [ "$status" -eq 1 ] && [ "${KOL_FAIL_ON_FINDINGS:-true}" != true ]; then
  status=0
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "status=$status"
    echo "sarif-file=${KOL_SARIF:-}"
  } >> "$GITHUB_OUTPUT"
  exit 0
fi
exit "$status"
