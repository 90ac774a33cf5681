#!/usr/bin/env bash
# CPU worker: grades on the emulator from queue "cpu". Its metrics: port WARPDRILL_WORKER_METRICS_PORT.
set -euo pipefail
source "$(dirname "$0")/metrics-dir.sh"
exec celery -A config worker -Q cpu -c "${WORKER_CONCURRENCY:-2}" --loglevel INFO -n "cpu@%h"
