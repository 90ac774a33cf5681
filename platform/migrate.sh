#!/usr/bin/env bash
# One-shot (compose service "migrate"): migrations and the problem bank, before web and workers start.
# Web containers never migrate: N of them starting together would race on the same migrations.
set -euo pipefail
python manage.py migrate --no-input
python manage.py import_problems problems/bank
