#!/usr/bin/env bash
# Runs one process of Procfile.dev (make dev) so that Ctrl+C stops it cleanly and quickly.
#
# On Ctrl+C honcho sends SIGTERM to each process group it started (os.killpg). That reached a Celery
# worker's pool processes, and the compiler building the emulator runtime, at the same moment as the
# worker itself: the worker logged "Process 'ForkPoolWorker-2' exited with 'signal 15 (SIGTERM)'"
# ERRORs, and its shutdown outlasted honcho's 5 s, which then sent SIGKILL. Here the command runs in
# a session of its own (setsid), so honcho's signal reaches this script alone, which passes SIGTERM
# to the command's main process: a Celery worker answers with a warm shutdown that stops its own pool.
# A worker still busy after DEV_RUN_GRACE_S seconds (a grading in progress) gets SIGQUIT, Celery's cold
# shutdown: its task was not acknowledged (acks_late), so the broker hands it out again at the next
# start. Whatever is left in the command's process group when it exits gets SIGTERM.
#
# Usage: platform/dev-run.sh COMMAND [ARGS...]   (Procfile.dev: `worker: exec platform/dev-run.sh ...`)
set -uo pipefail

grace=${DEV_RUN_GRACE_S:-3}
# The command writes to the script's stderr (fd 3); bash's own notices ("line 37: 123 Quit ...", for a
# worker that ended in its cold shutdown) go nowhere.
exec 3>&2 2>/dev/null
setsid "$@" 2>&3 3>&- &
child=$!
stopping=0

stop() {
  stopping=1
  trap - TERM INT
  kill -TERM "$child" 2>/dev/null || return 0
  for _ in $(seq $((grace * 10))); do
    kill -0 "$child" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -QUIT "$child" 2>/dev/null || true
}
trap stop TERM INT

wait "$child"
status=$?
if [ "$stopping" = 1 ]; then
  wait "$child"  # the trapped signal ended the first wait: wait for the command's own end
  status=0       # it stopped because it was asked to
fi
kill -TERM -- "-$child" 2>/dev/null || true  # a compiler or other child the command left behind
exit "$status"
