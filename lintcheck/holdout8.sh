#!/usr/bin/env bash
# Re-runs holdout set 8 (lintcheck/holdout8.md, repositories in lintcheck/holdout8.repos).
# Usage: lintcheck/holdout8.sh [OUT_DIR]   (default /tmp/h8); see lintcheck/holdout.sh.
exec "$(dirname "$0")/holdout.sh" 8 "$@"
