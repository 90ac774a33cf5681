"""gunicorn settings of the web service (platform/start-web.sh). https://docs.gunicorn.org/en/stable/settings.html"""
import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
# Sync workers: WEB_WORKERS processes (docs/scaling.md: about 2 per core), each with DB_POOL_MAX_SIZE connections at most.
workers = int(os.environ.get("WEB_WORKERS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT_S", "30"))
accesslog = "-"
# One JSON object per access line, with nginx's request id (X-Request-ID).
access_log_format = ('{"ts": "%(t)s", "logger": "gunicorn.access", "request_id": "%({x-request-id}i)s", '
                     '"method": "%(m)s", "path": "%(U)s", "status": %(s)s, "bytes": "%(B)s", "ms": %(M)s}')


def child_exit(server, worker):
    """A gunicorn worker exited: prometheus-client's multiprocess mode stops counting its live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
