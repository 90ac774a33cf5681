#!/usr/bin/env bash
# Web service: gunicorn (platform/gunicorn.conf.py) behind nginx (platform/nginx.conf).
# Migrations are the one-shot "migrate" service's (platform/migrate.sh), never the web's.
set -euo pipefail
source "$(dirname "$0")/metrics-dir.sh"
exec gunicorn config.wsgi:application -c platform/gunicorn.conf.py
