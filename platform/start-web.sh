#!/usr/bin/env bash
# Web service: migrate, import the bank, serve with gunicorn.
set -euo pipefail
python manage.py migrate --no-input
python manage.py import_problems problems/bank
exec gunicorn config.wsgi:application --bind 0.0.0.0:8000 --workers "${WEB_WORKERS:-4}" --access-logfile -
