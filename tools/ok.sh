#!/usr/bin/env bash
# The one gate (`deno task ok`, run by .ci/run): `deno fmt --check`, `deno lint` and
# `deno task check`, then the suite with the doc examples (tools/test.sh). Each failed step counts
# as one failure in the suite's closing line `tests: N passed, N failed`, which stays the last
# line printed (plus LOCALBENCH_FAILED_BEFORE failures counted before, by .ci/run).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export PATH="$PWD/node_modules/.bin:$PATH"
export NO_COLOR=1
failed="${LOCALBENCH_FAILED_BEFORE:-0}"
[[ "$failed" =~ ^[0-9]+$ ]] || failed=0

step() {
  if ! "$@"; then
    echo "ok.sh: '$*' failed" >&2
    failed=$((failed + 1))
  fi
}
step deno fmt --check
step deno lint
step deno task check
LOCALBENCH_FAILED_BEFORE="$failed" exec bash tools/test.sh "$@"
