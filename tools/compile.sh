#!/usr/bin/env bash
# deno task compile [bench|webapp|tray ...]
# Builds self-contained executables in dist/bin/: localbench-bench (cli.ts), localbench-webapp
# (webapp.ts), localbench-tray (tray.ts). `deno compile` needs Deno's compile runtime (denort),
# which it downloads from dl.deno.land (or takes from $DENORT_BIN). Where that host cannot be
# reached this script stops with a clear message; use `deno task bundle` instead.
# The tray executable embeds systray2's helper (node_modules/systray2/traybin); it still needs
# libayatana-appindicator3 and GTK 3 on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi

declare -A SOURCE=([bench]=cli.ts [webapp]=webapp.ts [tray]=tray.ts)
PERMS=(--allow-read --allow-write --allow-net --allow-env --allow-run --allow-sys)
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(bench webapp tray)

mkdir -p dist/bin
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
for name in "${targets[@]}"; do
  src="${SOURCE[$name]:-}"
  if [ -z "$src" ]; then
    echo "compile: unknown program '$name' (bench, webapp or tray)" >&2
    exit 2
  fi
  if [ ! -f "$src" ]; then
    echo "compile: skipped $name: $src is missing" >&2
    continue
  fi
  extra=()
  if [ "$name" = "tray" ]; then extra=(--allow-ffi --include node_modules/systray2/traybin); fi
  # The PostgreSQL store's worker, started by URL (lib/store/pg/bridge.ts): embedded explicitly.
  if [ "$name" != "tray" ]; then extra=(--include lib/store/pg/worker.ts); fi
  out="dist/bin/localbench-$name"
  if deno compile --quiet "${PERMS[@]}" "${extra[@]}" -o "$out" "$src" >"$log" 2>&1; then
    echo "compile: $out"
  else
    cat "$log" >&2
    if grep -qiE 'dl\.deno\.land|denort|dns error|failed to lookup' "$log"; then
      echo "compile: error: Deno's compile runtime (denort) cannot be downloaded here." >&2
      echo "compile: run where dl.deno.land is reachable, or set DENORT_BIN to a denort binary;" >&2
      echo "compile: 'deno task bundle' builds dist/*.js without it." >&2
      exit 1
    fi
    status=1
  fi
done
exit "$status"
