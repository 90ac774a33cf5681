"""gunicorn settings of the web service (platform/start-web.sh). https://docs.gunicorn.org/en/stable/settings.html"""
import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
# WEB_WORKERS processes (docs/scaling.md: about 2 per core), each with DB_POOL_MAX_SIZE connections at most.
workers = int(os.environ.get("WEB_WORKERS", "4"))
# WEB_THREADS > 1: gthread workers of that many threads (give each process DB_POOL_MAX_SIZE >= WEB_THREADS, or its
# threads wait for a connection). 1: sync workers. Sync workers each wait on the listening socket and every idle one
# wakes for each connection: a 304 verdict poll cost 2.55-2.70 ms of web CPU with 4 sync workers, 1.65-1.96 with 2,
# 1.37-1.49 with 2 gthread workers of 4 threads, 1.15-1.19 with 1 of 8 (bench/poll_flood.py, README, 2026-12-04).
threads = int(os.environ.get("WEB_THREADS", "1"))
if threads > 1:
    worker_class = "gthread"
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
