#!/usr/bin/env bash
# localbench setup: prepares a Linux machine to run the benchmark, the dashboard and the tray.
#
#   ./setup.sh [--help] [--dry-run] [--yes] [--interactive]
#   ./setup.sh --service [--system] [--dry-run] [-- HOST ARGS]
#
# Steps (seed "Setup script rules", adapted to Deno): package manager; core tools (Deno from npm,
# Node/npm, Git, curl, pkg-config); tray libraries; the model server's CLI; GPU and its monitor
# tool; dependencies from the lock files; a dependency check; next steps.
# Log: logs/setup_<YYYYMMDD_HHMMSS>.log, with logs/setup_latest.log linking to the newest.
# --dry-run changes nothing: it only writes that log (and its link) under logs/.
# --service instead installs the plugin host as a systemd service (see service_setup below).
# Exit status: 0 done, 1 failure or non-Linux OS (or no systemd for --service), 2 bad arguments.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LMS_DOWNLOAD_URL="https://lmstudio.ai/download"

usage() {
  cat <<'EOF'
Usage: ./setup.sh [--help] [--dry-run] [--yes] [--interactive]
       ./setup.sh --service [--system] [--dry-run] [-- HOST ARGS]

Prepares this Linux machine for localbench.

Options:
  --help          print this help and exit
  --dry-run       preview every action and change nothing (non-interactive; only the log is written)
  --yes           non-interactive: required steps run, optional prompts are answered "no"
  --interactive   ask before optional steps (the default when a terminal is attached)

Steps: package manager, core tools (Deno from npm, Node/npm, Git, curl, pkg-config), tray
libraries (libayatana-appindicator3, GTK 3, gobject-introspection, cairo), the model server's
CLI (lms or llmster), GPU monitor tools, dependencies from package-lock.json and deno.lock,
a dependency check, next steps. The log is logs/setup_<YYYYMMDD_HHMMSS>.log (logs/setup_latest.log
links to the newest).

The plugin host as a service (after the setup above):
  --service       write a systemd unit that runs `deno task host` (Restart=on-failure), then
                  enable and start it; with --dry-run print the unit and change nothing.
                  Arguments after `--` go to the host, e.g. -- --host 0.0.0.0 --port 5000
  --system        a system unit (/etc/systemd/system, run as you, through sudo) instead of a
                  user unit (~/.config/systemd/user, started at login or, with
                  `loginctl enable-linger`, at boot)
EOF
}

DRY_RUN=0
MODE=""
SERVICE=0
SYSTEM_UNIT=0
HOST_ARGS=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --help | -h)
      usage
      exit 0
      ;;
    --dry-run) DRY_RUN=1 ;;
    --yes | -y) MODE="yes" ;;
    --interactive) MODE="interactive" ;;
    --service) SERVICE=1 ;;
    --system) SYSTEM_UNIT=1 ;;
    --)
      shift
      HOST_ARGS=("$@")
      break
      ;;
    *)
      echo "setup.sh: unknown argument: $1" >&2
      usage >&2
      exit 2
      ;;
  esac
  shift
done
if [ "$SERVICE" -eq 0 ] && { [ "$SYSTEM_UNIT" -eq 1 ] || [ "${#HOST_ARGS[@]}" -gt 0 ]; }; then
  echo "setup.sh: --system and host arguments go with --service" >&2
  usage >&2
  exit 2
fi
if [ "$DRY_RUN" -eq 1 ]; then
  MODE="dry-run"
elif [ -z "$MODE" ]; then
  if [ -t 0 ]; then MODE="interactive"; else MODE="yes"; fi
fi

# ---- log -------------------------------------------------------------------------------------
mkdir -p "$ROOT/logs" || exit 1
LOG="$ROOT/logs/setup_$(date +%Y%m%d_%H%M%S).log"
: >"$LOG" || exit 1
ln -sfn "$(basename "$LOG")" "$ROOT/logs/setup_latest.log"

log() { printf '%s\n' "$*" | tee -a "$LOG"; }
step() { log "" && log "==> $*"; }
ok() { log "  [ok] $*"; }
warn() { log "  [warn] $*"; }
fail() { log "  [error] $*"; }

# Runs a command that changes the machine; in --dry-run only shows it.
run() {
  if [ "$DRY_RUN" -eq 1 ]; then
    log "  [dry-run] would run: $*"
    return 0
  fi
  log "  \$ $*"
  "$@" 2>&1 | tee -a "$LOG"
  return "${PIPESTATUS[0]}"
}

# Asks an optional yes/no question; --yes and --dry-run answer "no".
ask() {
  if [ "$MODE" != "interactive" ]; then
    log "  $1 [y/N] no ($MODE)"
    return 1
  fi
  local answer=""
  read -r -p "  $1 [y/N] " answer || answer=""
  printf '  %s [y/N] %s\n' "$1" "$answer" >>"$LOG"
  [[ "$answer" =~ ^[Yy] ]]
}

have() { command -v "$1" >/dev/null 2>&1; }

log "localbench setup — $(date '+%Y-%m-%d %H:%M:%S') — mode: $MODE — log: $LOG"

# ---- operating system -----------------------------------------------------------------------
OS="${SETUP_UNAME:-$(uname -s)}"
if [ "$OS" != "Linux" ]; then
  fail "localbench setup supports Linux only (this system: $OS)"
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi

# ---- the plugin host as a systemd service (--service) ---------------------------------------
# A user unit by default (no root; the host runs as you, with your data folder), a system one
# with --system. The unit runs `deno task host` from this folder with the real Deno binary (the
# npm shim needs Node) and restarts it on failure; the launcher itself restarts a crashed host
# and applies the failsafes while it is down (docs/plugin-host.md#running-as-a-service).
UNIT_NAME="localbench-host.service"

# A value written into the unit: no whitespace, quotes, backslash, % or $ (systemd syntax).
unit_safe() { [[ -n "$1" && "$1" != *[[:space:]\"\'\\%\$]* ]]; }

service_setup() {
  local sd_run="${SETUP_SYSTEMD_RUN:-/run/systemd/system}"
  if [ "$DRY_RUN" -eq 0 ] && { ! have systemctl || [ ! -d "$sd_run" ]; }; then
    fail "--service needs systemd (systemctl and $sd_run): run deno task host another way"
    return 1
  fi
  export PATH="$ROOT/node_modules/.bin:$PATH"
  local deno_bin=""
  if have deno; then deno_bin="$(deno eval 'console.log(Deno.execPath())' 2>/dev/null || true)"; fi
  if [ -z "$deno_bin" ] || [ ! -x "$deno_bin" ]; then deno_bin="$(command -v deno || true)"; fi
  if [ -z "$deno_bin" ]; then
    fail "deno is missing: run ./setup.sh first"
    return 1
  fi
  local data_dir="${LOCALBENCH_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/localbench}"
  local value
  for value in "$ROOT" "$deno_bin" "$data_dir" "${HOST_ARGS[@]}"; do
    if ! unit_safe "$value"; then
      fail "cannot write '$value' into a systemd unit (no spaces, quotes, \\, % or \$)"
      return 1
    fi
  done
  local scope=(--user) unit_dir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
  local target="default.target" user_line="" sudo=()
  if [ "$SYSTEM_UNIT" -eq 1 ]; then
    scope=() unit_dir="/etc/systemd/system" target="multi-user.target" sudo=("${SUDO[@]}")
    user_line="User=${SUDO_USER:-$(id -un)}"
  fi
  local unit
  unit="[Unit]
Description=localbench plugin host (deno task host)
Documentation=file://$ROOT/docs/plugin-host.md
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
${user_line:+$user_line
}WorkingDirectory=$ROOT
Environment=PATH=$(dirname "$deno_bin"):/usr/local/bin:/usr/bin:/bin
Environment=LOCALBENCH_DATA_DIR=$data_dir
ExecStart=$deno_bin task host${HOST_ARGS[*]:+ -- ${HOST_ARGS[*]}}
Restart=on-failure
RestartSec=5
TimeoutStopSec=60

[Install]
WantedBy=$target"
  local unit_path="$unit_dir/$UNIT_NAME" ctl="systemctl${scope[*]:+ ${scope[*]}}"
  step "Plugin host service: $unit_path"
  if [ ! -f "$ROOT/static/_islands/boot.js" ] && [[ " ${HOST_ARGS[*]} " != *" --no-ui "* ]]; then
    warn "the pages are not built (deno task build, run by ./setup.sh): the host will not start"
  fi
  if [ "$DRY_RUN" -eq 1 ]; then
    log "  [dry-run] would write $unit_path:"
    log "$unit"
  else
    local tmp
    tmp="$(mktemp)" || return 1
    printf '%s\n' "$unit" >"$tmp"
    if ! run "${sudo[@]}" mkdir -p "$unit_dir" || ! run "${sudo[@]}" install -m 0644 "$tmp" "$unit_path"; then
      rm -f "$tmp"
      fail "cannot write $unit_path"
      return 1
    fi
    rm -f "$tmp"
    ok "wrote $unit_path"
  fi
  if ! run "${sudo[@]}" systemctl "${scope[@]}" daemon-reload ||
    ! run "${sudo[@]}" systemctl "${scope[@]}" enable --now "$UNIT_NAME"; then
    fail "$ctl failed (a user unit needs your login session): see the log"
    return 1
  fi
  if [ "$SYSTEM_UNIT" -eq 0 ] && [ "$(loginctl show-user "$(id -un)" --property=Linger 2>/dev/null)" = "Linger=no" ]; then
    warn "the service starts at your login; to start it at boot: loginctl enable-linger $(id -un)"
  fi
  local journal="journalctl${scope[*]:+ ${scope[*]}} -u ${UNIT_NAME%.service}"
  log "  status:    $ctl status ${UNIT_NAME%.service}"
  log "  log:       $journal -f   (and $data_dir/host/logs/host.log)"
  log "  admin key: a first start prints it once: $journal | grep -A1 'Admin API key'"
  log "  remove:    $ctl disable --now ${UNIT_NAME%.service} && rm $unit_path"
  return 0
}

if [ "$SERVICE" -eq 1 ]; then
  service_setup
  exit $?
fi

# ---- 1. package manager ---------------------------------------------------------------------
step "1/8 Package manager"
PM=""
for candidate in apt-get dnf pacman zypper apk; do
  if have "$candidate"; then
    PM="$candidate"
    break
  fi
done
if [ -n "$PM" ]; then ok "package manager: $PM"; else warn "no known package manager (apt, dnf, pacman, zypper, apk)"; fi

# Installs system packages after asking (optional step).
pm_install() {
  [ "$#" -gt 0 ] || return 0
  if [ -z "$PM" ]; then
    warn "install these yourself: $*"
    return 1
  fi
  ask "Install $* with $PM?" || return 1
  case "$PM" in
    apt-get) run "${SUDO[@]}" apt-get update -qq && run "${SUDO[@]}" apt-get install -y "$@" ;;
    dnf) run "${SUDO[@]}" dnf install -y "$@" ;;
    pacman) run "${SUDO[@]}" pacman -S --needed --noconfirm "$@" ;;
    zypper) run "${SUDO[@]}" zypper --non-interactive install "$@" ;;
    apk) run "${SUDO[@]}" apk add "$@" ;;
  esac
}

# Package name of a need for the detected manager: need → apt dnf pacman zypper apk.
pkg_name() {
  local -A names=(
    [git]="git git git git git"
    [curl]="curl curl curl curl curl"
    [pkg-config]="pkg-config pkgconf-pkg-config pkgconf pkg-config pkgconf"
    [node]="nodejs nodejs nodejs nodejs20 nodejs"
    [npm]="npm npm npm npm20 npm"
    [appindicator]="libayatana-appindicator3-1 libayatana-appindicator-gtk3 libayatana-appindicator libayatana-appindicator3-1 libayatana-appindicator"
    [gtk3]="libgtk-3-0 gtk3 gtk3 libgtk-3-0 gtk+3.0"
    [gobject]="gobject-introspection gobject-introspection gobject-introspection gobject-introspection gobject-introspection"
    [cairo]="libcairo2 cairo cairo libcairo2 cairo"
  )
  local -a row
  read -r -a row <<<"${names[$1]}"
  case "$PM" in
    dnf) echo "${row[1]}" ;;
    pacman) echo "${row[2]}" ;;
    zypper) echo "${row[3]}" ;;
    apk) echo "${row[4]}" ;;
    *) echo "${row[0]}" ;;
  esac
}

# ---- 2. core tools --------------------------------------------------------------------------
step "2/8 Core tools"
missing=()
for tool in git curl pkg-config node npm; do
  if have "$tool"; then ok "$tool: $(command -v "$tool")"; else
    warn "$tool is missing"
    missing+=("$(pkg_name "$tool")")
  fi
done
[ "${#missing[@]}" -eq 0 ] || pm_install "${missing[@]}" || warn "continuing without: ${missing[*]}"

export PATH="$ROOT/node_modules/.bin:$PATH"
deno_from_npm=0
if have deno; then
  ok "deno: $(deno --version 2>/dev/null | head -n 1)"
elif have npm; then
  warn "deno is missing: it is installed from npm (the version pinned in package.json)"
  run npm ci --prefix "$ROOT" || fail "npm ci failed"
  deno_from_npm=1
else
  fail "deno is missing and npm is not available to install it (install Node.js/npm first)"
fi

# ---- 3. tray libraries ----------------------------------------------------------------------
step "3/8 Tray libraries"
has_lib() { ldconfig -p 2>/dev/null | grep -q "$1"; }
missing=()
check_lib() { # need, library file, label
  if has_lib "$2"; then ok "$3 ($2)"; else
    warn "$3 is missing ($2)"
    missing+=("$(pkg_name "$1")")
  fi
}
if has_lib libayatana-appindicator3.so.1 || has_lib libappindicator3.so.1; then
  ok "AppIndicator (libayatana-appindicator3 / libappindicator3)"
else
  warn "AppIndicator is missing (libayatana-appindicator3)"
  missing+=("$(pkg_name appindicator)")
fi
check_lib gtk3 libgtk-3.so.0 "GTK 3"
check_lib gobject libgirepository-1.0.so.1 "gobject-introspection"
check_lib cairo libcairo.so.2 "cairo"
[ "${#missing[@]}" -eq 0 ] || pm_install "${missing[@]}" ||
  warn "the tray needs these; the dashboard and the benchmark work without them"

# ---- 4. model server CLI --------------------------------------------------------------------
step "4/8 Model server CLI (lms or llmster)"
lms_path=""
if have lms; then
  lms_path="$(command -v lms)"
elif [ -x "$HOME/.lmstudio/bin/lms" ]; then
  lms_path="$HOME/.lmstudio/bin/lms"
elif have llmster; then
  lms_path="$(command -v llmster)"
else
  for candidate in "$HOME"/.lmstudio/llmster/*/llmster; do
    [ -x "$candidate" ] && lms_path="$candidate"
  done
fi
if [ -n "$lms_path" ]; then ok "model server CLI: $lms_path"; else
  warn "neither lms nor llmster found; download LM Studio (or headless llmster): $LMS_DOWNLOAD_URL"
fi

# ---- 5. GPU ---------------------------------------------------------------------------------
step "5/8 GPU and monitor tool"
gpus=""
if have lspci; then gpus="$(lspci 2>/dev/null | grep -iE 'vga|3d|display' || true)"; else warn "lspci is missing (pciutils): GPU not detected"; fi
while IFS= read -r line; do [ -z "$line" ] || log "  $line"; done <<<"$gpus"
vendor="none"
case "$gpus" in
  *NVIDIA* | *nvidia*) vendor="nvidia" ;;
  *AMD* | *ATI* | *Radeon*) vendor="amd" ;;
  *Intel* | *intel*) vendor="intel" ;;
esac
log "  vendor: $vendor"
case "$vendor" in
  nvidia) if have nvidia-smi; then ok "nvidia-smi"; else warn "nvidia-smi missing: install the NVIDIA driver utilities"; fi ;;
  amd)
    if have rocm-smi; then ok "rocm-smi"; else warn "rocm-smi missing: install ROCm (rocm-smi-lib) for GPU metrics"; fi
    if lsmod 2>/dev/null | grep -q '^amdgpu'; then ok "amdgpu kernel driver loaded"; else warn "amdgpu kernel driver not loaded"; fi
    if [ -e /dev/kfd ]; then ok "/dev/kfd present (ROCm compute)"; else warn "/dev/kfd missing: ROCm compute unavailable"; fi
    if id -nG 2>/dev/null | grep -qwE 'render|video'; then ok "user is in the render/video group"; else warn "add yourself to the render and video groups for GPU access"; fi
    ;;
  intel) if have intel_gpu_top; then ok "intel_gpu_top"; else warn "intel_gpu_top missing (package intel-gpu-tools)"; fi ;;
  *) log "  no discrete GPU detected: CPU metrics only" ;;
esac

# ---- 6. dependencies ------------------------------------------------------------------------
step "6/8 Dependencies (package-lock.json, deno.lock)"
install_deps=1
if [ -d "$ROOT/node_modules" ] && [ -n "$(ls -A "$ROOT/node_modules" 2>/dev/null)" ]; then
  ok "node_modules already present"
  ask "Reinstall the dependencies from the lock files?" || install_deps=0
fi
if [ "$install_deps" -eq 1 ]; then
  if have npm && [ "$deno_from_npm" -eq 0 ]; then run npm ci --prefix "$ROOT" || fail "npm ci failed"; fi
  if have deno || [ "$DRY_RUN" -eq 1 ]; then
    run deno install --frozen --config "$ROOT/deno.json" || fail "deno install failed"
    # The manifest and the island bundles the web app serves (it never builds them itself).
    run deno task --config "$ROOT/deno.json" build || fail "deno task build failed"
  else
    fail "deno is not available: dependencies not installed"
  fi
fi

# ---- 7. dependency check --------------------------------------------------------------------
step "7/8 Dependency check"
if have npm && [ -d "$ROOT/node_modules" ]; then
  if (cd "$ROOT" && npm ls --depth=0 >>"$LOG" 2>&1); then ok "npm ls: no conflicts"; else warn "npm ls reports problems (see the log)"; fi
fi
if have deno && [ -f "$ROOT/deno.lock" ]; then
  if [ "$DRY_RUN" -eq 1 ]; then
    log "  [dry-run] would run: deno install --frozen (checks deno.lock against deno.json)"
  elif (cd "$ROOT" && deno install --frozen --quiet >>"$LOG" 2>&1); then
    ok "deno.lock matches deno.json"
  else
    warn "deno.lock does not match deno.json (see the log)"
  fi
fi

# ---- 8. next steps --------------------------------------------------------------------------
step "8/8 Next steps"
log "  export PATH=\"$ROOT/node_modules/.bin:\$PATH\""
log "  deno task start --help          # the benchmark's options"
log "  deno task start --webapp        # the dashboard (and the tray on a desktop)"
log "  deno task tray                  # the tray alone"
log "  deno task bundle                # dist/bench.js, dist/webapp.js, dist/tray.js"
log ""
log "Setup finished. Log: $LOG"
exit 0
