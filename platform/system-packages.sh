#!/usr/bin/env bash
# Read platform/system-packages.txt (the one list of system packages).
#   system-packages.sh web|gpu|dev|browser   the package names tagged for that image or use, one per line
#   system-packages.sh --missing TAG...      those of the tags whose check fails on this machine
set -euo pipefail
list="$(dirname "$0")/system-packages.txt"

present() {  # present CHECK: whether the check of a line holds here
  local kind="${1%%:*}" what="${1#*:}"
  case "$kind" in
    cmd) command -v "$what" >/dev/null 2>&1 ;;
    file) [ -e "$what" ] ;;
    lib) ldconfig -p 2>/dev/null | grep -F "$what" >/dev/null ;;  # no -q: an early exit would fail the pipe (pipefail)
    font) fc-list 2>/dev/null | grep -F "$what" >/dev/null ;;
    *) echo "system-packages: unknown check '$1'" >&2; return 1 ;;
  esac
}

missing=0
if [ "${1:-}" = "--missing" ]; then missing=1; shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [--missing] TAG..." >&2; exit 2; }
while read -r pkg tags check; do
  case "$pkg" in ''|'#'*) continue ;; esac
  for tag in "$@"; do
    if [[ ",$tags," == *",$tag,"* ]]; then
      if [ "$missing" = 0 ] || ! present "$check"; then echo "$pkg"; fi
      break
    fi
  done
done <"$list"
