#!/usr/bin/env bash
# usage: runtime-status.sh PID LOG
# One line for bootstrap.sh's last message: where the emulator runtime stands, read from what
# `manage.py prepare_judge` (process PID) wrote to LOG. A runtime copied from the shared cache is
# ready in a fraction of a second, so "still building" is said only while a build really runs.
#   ready      the log's last step says "backend ready" (built, or copied from the cache)
#   building   PID runs and the log has a "building <variant>" line
#   preparing  PID runs and no build has started yet (it is looking in the cache)
#   failed     PID has ended without "backend ready"
set -euo pipefail
pid="$1"; log="$2"
running() {  # a finished child that bootstrap.sh has not waited for yet is a zombie: not running
  local stat; stat="$(ps -o stat= -p "$pid" 2>/dev/null || true)"
  [ -n "$stat" ] && [ "${stat:0:1}" != Z ]
}
if grep -q "backend ready" "$log" 2>/dev/null; then
  echo "the emulator runtime is ready ($(grep "backend ready" "$log" | tail -n 1); $log)"
elif running && grep -q ": building " "$log" 2>/dev/null; then
  echo "the emulator runtime is still building ($log): the worker grades once it is done"
elif running; then
  echo "the emulator runtime is being prepared, from the cache if it is there ($log): the worker grades once it is ready"
else
  echo "preparing the emulator runtime FAILED (the end of $log below): the worker cannot grade until 'make dev' or 'manage.py prepare_judge' succeeds"
fi
