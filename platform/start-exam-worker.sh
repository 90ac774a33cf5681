#!/usr/bin/env bash
# Exam worker: grades exam kernel submissions from queue "exam" only, so practice traffic on "cpu"
# and "gpu" can never take its capacity while an exam runs (README: how many an exam needs).
set -euo pipefail
source "$(dirname "$0")/metrics-dir.sh"
exec celery -A config worker -Q exam -c "${EXAM_WORKER_CONCURRENCY:-2}" --loglevel INFO -n "exam@%h"
