#!/usr/bin/env bash
# Runs the whole test suite: installs what the tests need, runs `deno test --doc` (the tests and
# every JSDoc example of the source, which assert with node:assert), and ends with the
# line `tests: N passed, N failed[, N skipped]` taken from Deno's own summary (plus
# LOCALBENCH_FAILED_BEFORE failures counted before it, by .ci/run).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export PATH="$PWD/node_modules/.bin:$PATH"
export NO_COLOR=1
# Failures found before the suite (.ci/run's main command) count in the same line.
before="${LOCALBENCH_FAILED_BEFORE:-0}"
[[ "$before" =~ ^[0-9]+$ ]] || before=0

if ! bash tools/test_deps.sh; then
  echo "tests: 0 passed, $((1 + before)) failed"
  exit 1
fi

# The island bundles the servers serve (the manifest is checked by a test, never rewritten here).
if ! deno run -A tools/build.ts --no-manifest; then
  echo "tests: 0 passed, $((1 + before)) failed"
  exit 1
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# A hung test must not eat CI's time: the suite gets LOCALBENCH_TEST_TIMEOUT seconds (default 50
# minutes; a full run takes about 10) and the file that was running is named.
limit="${LOCALBENCH_TEST_TIMEOUT:-3000}"
timeout --kill-after=30 "$limit" deno test --allow-all --doc "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo >&2
  echo "test.sh: the suite did not finish within ${limit} s; last file started: $(grep -E '^running [0-9]+ tests? from' "$log" | tail -n 1)" >&2
fi

line="$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$log" | tail -n 1)"
passed="$(sed -nE 's/.*\| ([0-9]+) passed.*/\1/p' <<<"$line")"
failed="$(sed -nE 's/.*\| ([0-9]+) failed.*/\1/p' <<<"$line")"
skipped="$(sed -nE 's/.*\| ([0-9]+) ignored.*/\1/p' <<<"$line")"
if [ -z "$line" ]; then
  # deno test stopped before its summary (type error, crash): count that as one failure.
  passed=0
  failed=1
  [ "$rc" -eq 0 ] && rc=1
fi
if [ "$before" -gt 0 ]; then
  failed=$((${failed:-0} + before))
  [ "$rc" -eq 0 ] && rc=1
fi
if [ -n "$skipped" ] && [ "$skipped" != "0" ]; then
  echo "tests: ${passed:-0} passed, ${failed:-0} failed, ${skipped} skipped"
else
  echo "tests: ${passed:-0} passed, ${failed:-0} failed"
fi
exit "$rc"
