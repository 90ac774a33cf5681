#!/usr/bin/env bash
# CPU worker: grades on the emulator from queue "cpu".
set -euo pipefail
exec celery -A config worker -Q cpu -c "${WORKER_CONCURRENCY:-2}" --loglevel INFO -n "cpu@%h"
