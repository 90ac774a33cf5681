"""`manage.py healthcheck KIND [TARGET]`: the container health checks of docker-compose.yml.

  healthcheck http URL          GET URL (the web's /readyz, /healthz): healthy on 200
  healthcheck worker NODE       the Celery worker NODE (e.g. cpu@$HOSTNAME) answers a ping within 5 s
  healthcheck beat FILE         beat's schedule FILE was written within --max-age seconds
  healthcheck database          the database answers SELECT 1

Exit status 0 when healthy, 1 with the reason on stderr otherwise.
"""
from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Container health checks: http URL | worker NODE | beat FILE | database."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=["http", "worker", "beat", "database"])
        parser.add_argument("target", nargs="?", default="")
        parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for an answer")
        parser.add_argument("--max-age", type=float, default=600.0,
                            help="beat: the oldest the schedule file may be, in seconds")

    def handle(self, kind, target, timeout, max_age, **options):
        problem = getattr(self, f"_{kind}")(target, timeout, max_age)
        if problem:
            raise CommandError(f"unhealthy: {problem}")
        self.stdout.write("healthy")

    def _http(self, url, timeout, max_age):
        if not url:
            return "healthcheck http needs a URL"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return None if response.status == 200 else f"{url} answered {response.status}"
        except urllib.error.HTTPError as exc:
            return f"{url} answered {exc.code}: {exc.read(500).decode(errors='replace')}"
        except OSError as exc:
            return f"{url}: {exc}"

    def _worker(self, node, timeout, max_age):
        from config.celery import app

        if not node:
            return "healthcheck worker needs the worker's node name (QUEUE@HOSTNAME)"
        replies = app.control.ping(destination=[node], timeout=timeout)
        return None if any(node in reply for reply in replies) else f"worker {node} did not answer within {timeout} s"

    def _beat(self, path, timeout, max_age):
        candidates = [Path(path), *Path(path).parent.glob(Path(path).name + "*")] if path else []
        ages = [time.time() - p.stat().st_mtime for p in candidates if p.exists()]
        if not ages:
            return f"no schedule file {path}"
        return None if min(ages) <= max_age else f"{path} not written for {min(ages):.0f} s"

    def _database(self, target, timeout, max_age):
        from ops.health import check_database

        return check_database()
