#!/usr/bin/env bash
# Install everything WarpDrill needs on a fresh Debian machine, idempotently:
# system packages (bubblewrap, Boost.Context, g++, chromium for browser tests, gettext),
# a Python 3.12+ virtual environment in .venv/, the npm build, migrations, demo users and the bank.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

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
  "$PY" -m venv .venv
fi
say "installing Python packages"
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -r requirements.txt
.venv/bin/python -m pip install -q --no-deps -r requirements-nodeps.txt  # why: the file says

# --- front end -------------------------------------------------------------------------
say "building the front end (npm)"
if [ -f package-lock.json ]; then npm ci --silent --no-audit --no-fund; else npm install --silent --no-audit --no-fund; fi
npm run --silent build

# --- database, translations, content ----------------------------------------------------
if [ -d locale ]; then .venv/bin/python manage.py compilemessages -v 0 --ignore=.venv --ignore=node_modules; fi
if [ "${WARPDRILL_SKIP_DB_SETUP:-}" != 1 ]; then
  say "migrating the database"
  .venv/bin/python manage.py migrate --no-input -v 0
  .venv/bin/python manage.py import_problems problems/bank
fi
say "building the emulator runtime (once)"
.venv/bin/python manage.py prepare_judge --backend emulator
