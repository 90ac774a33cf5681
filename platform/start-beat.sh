#!/usr/bin/env bash
# Celery beat: the sweeper that re-queues stuck submissions.
set -euo pipefail
exec celery -A config beat --loglevel INFO --schedule /app/var/celerybeat-schedule
