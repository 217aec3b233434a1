#!/usr/bin/env bash
# deno task bundle [bench|webapp|tray ...]
# Writes one JS file per program to dist/ (bench.js from cli.ts, webapp.js from webapp.ts,
# tray.js from tray.ts) with `deno bundle --platform deno`. Native/npm-binary packages stay
# external and are then pinned: `"systray2"` becomes `"npm:systray2@<version from deno.json>"`,
# so a bundle runs from any directory with `deno run --no-config -A dist/<name>.js` (Deno fetches
# or reuses those npm packages from its cache). With no names, every program whose source exists
# is bundled and missing ones are reported; a named program whose source is missing is an error.
# The web app also gets dist/static/ (styles, plugin assets, and every island built here by
# tools/build.ts); run from the bundle it serves that folder and builds nothing, so
# dist/ can be copied anywhere. The bench and web app bundles also get dist/assets/ (chart.js's
# browser build and the DejaVu fonts) so reports are complete from a copied dist/.
# BUNDLE_DIR overrides the output folder (default dist).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

declare -A SOURCE=([bench]=cli.ts [webapp]=webapp.ts [tray]=tray.ts)
EXTERNALS=(systray2 esbuild playwright-core)

explicit=1
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  explicit=0
  targets=(bench webapp tray)
fi

ext_args=()
for e in "${EXTERNALS[@]}"; do ext_args+=(--external "$e"); done

dist="${BUNDLE_DIR:-dist}"
mkdir -p "$dist"
built=0
failed=0
for name in "${targets[@]}"; do
  src="${SOURCE[$name]:-}"
  if [ -z "$src" ]; then
    echo "bundle: unknown program '$name' (bench, webapp or tray)" >&2
    exit 2
  fi
  if [ ! -f "$src" ]; then
    if [ "$explicit" -eq 1 ]; then
      echo "bundle: error: $src is missing, cannot build $dist/$name.js" >&2
      failed=1
    else
      echo "bundle: skipped $dist/$name.js: $src is missing" >&2
    fi
    continue
  fi
  out="$dist/$name.js"
  if [ "$name" = "webapp" ]; then
    # The bundle cannot build islands (their sources are not beside it): build all of them (the
    # dashboard's and the host pages') into _islands/ of the static/ copy beside it.
    rm -rf "${dist:?}/static" && cp -r static "$dist/static" && rm -rf "$dist/static/_islands"
    if ! deno run --quiet -A tools/build.ts --no-manifest --static-dir "$dist/static"; then
      echo "bundle: error: the island build failed for $dist/static" >&2
      failed=1
      continue
    fi
  fi
  if [ "$name" = "bench" ] || [ "$name" = "webapp" ]; then
    # The files the reports embed (lib/reports/assets.ts looks in assets/ beside the bundle).
    mkdir -p "$dist/assets"
    if ! cp node_modules/chart.js/dist/chart.umd.min.js node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf \
      node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf "$dist/assets/"; then
      echo "bundle: error: cannot copy the report assets (run 'npm ci' first)" >&2
      failed=1
      continue
    fi
  fi
  if [ "$name" = "webapp" ]; then
    # The log monitor's regex engine (plugins/logmonitor/re2_worker.ts reads it beside the bundle).
    rm -rf "${dist:?}/assets/re2-wasm" && mkdir -p "$dist/assets/re2-wasm"
    if ! cp -rL node_modules/re2-wasm/package.json node_modules/re2-wasm/LICENSE \
      node_modules/re2-wasm/build "$dist/assets/re2-wasm/"; then
      echo "bundle: error: cannot copy re2-wasm (run 'npm ci' first)" >&2
      failed=1
      continue
    fi
  fi
  if [ "$name" = "bench" ] || [ "$name" = "webapp" ]; then
    # The PostgreSQL store's worker (lib/store/pg/bridge.ts starts pg_worker.js beside the bundle).
    if ! deno bundle --quiet --platform deno -o "$dist/pg_worker.js" lib/store/pg/worker.ts; then
      echo "bundle: error: deno bundle failed for lib/store/pg/worker.ts" >&2
      failed=1
      continue
    fi
  fi
  if ! deno bundle --quiet --platform deno "${ext_args[@]}" -o "$out" "$src"; then
    echo "bundle: error: deno bundle failed for $src" >&2
    failed=1
    continue
  fi
  # Pin the external packages to the npm: specifiers of the import map.
  # shellcheck disable=SC2016 # the JavaScript is meant literally
  deno eval --quiet --no-config '
    const [file, ...names] = Deno.args;
    const imports = JSON.parse(Deno.readTextFileSync("deno.json")).imports ?? {};
    let text = Deno.readTextFileSync(file);
    for (const name of names) {
      const target = imports[name];
      if (!target) continue;
      const esc = name.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
      const re = new RegExp(`((?:from|import)\\s*\\(?\\s*)(["\x27])${esc}(/[^"\x27]*)?\\2`, "g");
      text = text.replace(re, (_m, pre, q, sub) => `${pre}${q}${target}${sub ?? ""}${q}`);
    }
    Deno.writeTextFileSync(file, text);
  ' "$out" "${EXTERNALS[@]}"
  echo "bundle: $out ($(wc -c <"$out") bytes) from $src"
  built=$((built + 1))
done

if [ "$built" -eq 0 ] && [ "$failed" -eq 0 ]; then
  echo "bundle: error: none of cli.ts, webapp.ts, tray.ts exists" >&2
  exit 1
fi
exit "$failed"
