#!/usr/bin/env bash
# Installs what the test suite needs on a Debian machine: the npm dependencies through Deno,
# and the Debian packages the end-to-end tests use (only those missing; needs root for apt).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

# Debian packages used by the tests. Keep this list in step with docs/contributing.md "Tests".
packages=(
  chromium poppler-utils                  # browser tests (dashboard, reports), PDF checks
  mosquitto openssl                       # MQTT tests of the temperature ETA plugin
  xvfb trayer libayatana-appindicator3-1 libgtk-3-0 xdotool imagemagick   # tray under Xvfb
  shellcheck                              # setup.sh lint test
  sqlite3                                 # store plan test in a second SQLite version, benchmarks
  cmake ninja-build g++ git               # building llama-server for the end-to-end tests
  socat                                   # pseudo-terminals for the printer's serial line tests
  python3                                 # the Marlin printer simulator's pseudo-terminal
  postgresql                              # the results store on PostgreSQL (tests start their own cluster)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test_deps: missing Debian packages (run as root or install them): ${missing[*]}" >&2
    exit 1
  fi
  echo "test_deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

deno install --quiet >/dev/null 2>&1 || deno install

# The real engine (llama-server and two tiny generated models), cached outside the repository.
deno task engine:setup
