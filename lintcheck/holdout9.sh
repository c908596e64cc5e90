#!/usr/bin/env bash
# Re-runs holdout set 9 (lintcheck/holdout9.md, repositories in lintcheck/holdout9.repos).
# Usage: lintcheck/holdout9.sh [OUT_DIR]   (default /tmp/h9); see lintcheck/holdout.sh.
exec "$(dirname "$0")/holdout.sh" 9 "$@"
