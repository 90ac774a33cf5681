#!/usr/bin/env bash
# Install everything WarpDrill needs on a fresh Debian machine, idempotently:
# system packages (bubblewrap, Boost.Context, g++, chromium for browser tests, gettext),
# a Python 3.12+ virtual environment in .venv/, the npm build, migrations, demo users and the bank.
# The slow steps overlap: npm runs while pip installs, and the emulator runtime builds while the
# database is migrated and the bank imported. Each step says when it starts, in seconds since the start.
# WARPDRILL_RUNTIME_IN_BACKGROUND=1 (make dev) leaves the runtime building when this script ends: the
# site starts meanwhile and the grading worker waits for the build (its lock) before its first grading.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
say() { printf '\033[1;34m==>\033[0m [%3ss] %s\n' "$((SECONDS - started))" "$*"; }
logs="${WARPDRILL_VAR_DIR:-var}/log"
mkdir -p "$logs"
# wait_for PID NAME LOG: wait for a background step; on failure show the end of its log and stop.
wait_for() {
  if ! wait "$1"; then
    echo "$2 failed; the end of $3:" >&2; tail -n 40 "$3" >&2; exit 1
  fi
}

# --- system packages -------------------------------------------------------------------
# The one list (platform/system-packages.txt), shared with the Dockerfiles: every package whose
# check fails here is installed (browser: Chromium for the browser tests, unless WARPDRILL_SKIP_BROWSER=1).
tags=(web gpu dev)
[ "${WARPDRILL_SKIP_BROWSER:-}" = 1 ] || tags+=(browser)
mapfile -t need_pkgs < <(bash platform/system-packages.sh --missing "${tags[@]}")
if [ ${#need_pkgs[@]} -gt 0 ]; then
  say "installing system packages: ${need_pkgs[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
fi

# --- front end (in the background, while pip installs) -----------------------------------
say "building the front end (npm, in the background: $logs/npm.log)"
(
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
  npm run --silent build
) >"$logs/npm.log" 2>&1 &
npm_pid=$!

# --- Python ----------------------------------------------------------------------------
find_python() {
  for candidate in python3.13 python3.12 /root/.pyenv/versions/3.13*/bin/python3.13 \
      /root/.pyenv/versions/3.12*/bin/python3.12 "$HOME"/.pyenv/versions/3.1[23]*/bin/python3.1[23] python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  return 1
}
if [ ! -x .venv/bin/python ]; then
  PY=$(find_python) || { echo "WarpDrill needs Python 3.12 or newer (Django 6)." >&2; exit 1; }
  say "creating .venv with $PY"
  # Without pip when uv will install (venv's own pip install takes ≈ 5 s); uv adds pip afterwards.
  if [ "${WARPDRILL_INSTALLER:-uv}" = uv ]; then "$PY" -m venv --without-pip .venv; else "$PY" -m venv .venv; fi
fi
# uv installs the same requirements as pip, from the same index, several times faster (a fresh
# machine, 2026-12-02: ≈ 13 s with installing uv itself, where pip took ≈ 47 s; ≈ 3 s from uv's cache
# in ~/.cache/uv). WARPDRILL_INSTALLER=pip uses pip; pip is also the fallback when uv cannot be had.
# UV_NATIVE_TLS: uv trusts the system's certificates, as pip does, not only its own bundle.
get_uv() {  # uv into .venv/bin, by the venv's pip or else by the interpreter's (pip --python)
  [ -x .venv/bin/uv ] && return 0
  if .venv/bin/python -m pip --version >/dev/null 2>&1; then .venv/bin/python -m pip install -q uv >/dev/null 2>&1
  else "${PY:-$(find_python)}" -m pip --python .venv/bin/python install -q uv >/dev/null 2>&1; fi
}
install_with_uv() {
  get_uv && UV_NATIVE_TLS="${UV_NATIVE_TLS:-1}" .venv/bin/uv pip install -q --python .venv/bin/python -r requirements.txt pip &&
    UV_NATIVE_TLS="${UV_NATIVE_TLS:-1}" .venv/bin/uv pip install -q --python .venv/bin/python --no-deps -r requirements-nodeps.txt  # why: the file says
}
install_with_pip() {
  .venv/bin/python -m pip --version >/dev/null 2>&1 || .venv/bin/python -m ensurepip -q
  .venv/bin/python -m pip install -q -r requirements.txt
  .venv/bin/python -m pip install -q --no-deps -r requirements-nodeps.txt  # why: the file says
}
if [ "${WARPDRILL_INSTALLER:-uv}" = uv ]; then
  say "installing Python packages (uv)"
  install_with_uv || { say "uv could not install them: installing with pip"; install_with_pip; }
else
  say "installing Python packages (pip)"
  install_with_pip
fi


# --- the emulator runtime (in the background, while the database is set up) ---------------
shared_cache="${WARPDRILL_SHARED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warpdrill}/emulator"
say "building the emulator runtime (in the background, once per runtime hash, kept in $shared_cache: $logs/runtime.log)"
# At niceness 10: the steps the site waits for (migrations, the bank) go first on a small machine.
nice -n 10 .venv/bin/python manage.py prepare_judge --backend emulator --shared-cache "$shared_cache" >"$logs/runtime.log" 2>&1 &
runtime_pid=$!

# --- database, translations, content ----------------------------------------------------
messages_pid=""
if [ -d locale ]; then
  say "compiling the translations (in the background: $logs/messages.log)"
  .venv/bin/python manage.py compilemessages -v 0 --ignore=.venv --ignore=node_modules >"$logs/messages.log" 2>&1 &
  messages_pid=$!
fi
if [ "${WARPDRILL_SKIP_DB_SETUP:-}" != 1 ]; then
  say "migrating the database"
  .venv/bin/python manage.py migrate --no-input -v 0
  seed_pid=""
  if [ "${WARPDRILL_SEED_DEMO:-}" = 1 ]; then  # make dev: the demo users and course, beside the import
    .venv/bin/python manage.py seed_demo --quiet >"$logs/seed.log" 2>&1 &
    seed_pid=$!
  fi
  say "importing the problem bank"
  .venv/bin/python manage.py import_problems --quiet problems/bank
  if [ -n "$seed_pid" ]; then wait_for "$seed_pid" "creating the demo users (seed_demo)" "$logs/seed.log"; fi
fi
say "waiting for the front end"
wait_for "$npm_pid" "the front-end build (npm)" "$logs/npm.log"
if [ -n "$messages_pid" ]; then wait_for "$messages_pid" "compiling the translations" "$logs/messages.log"; fi
if [ "${WARPDRILL_RUNTIME_IN_BACKGROUND:-}" = 1 ]; then
  # Said from the log: a runtime copied from the cache is ready long before this line.
  status="$(bash platform/runtime-status.sh "$runtime_pid" "$logs/runtime.log")"
  say "set up; $status"
  case "$status" in *FAILED*) tail -n 20 "$logs/runtime.log" >&2 ;; esac
else
  say "waiting for the emulator runtime"
  wait_for "$runtime_pid" "the emulator runtime build" "$logs/runtime.log"
  tail -n 1 "$logs/runtime.log"
  say "set up"
fi
