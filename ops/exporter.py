"""The worker-side metrics exporter: a small HTTP server in the Celery worker's main process.

It serves /metrics in the Prometheus text format with the values of every pool process
(multiprocess mode, PROMETHEUS_MULTIPROC_DIR) and the same protection as the web page (a bearer
token when WARPDRILL_METRICS_TOKEN is set, else loopback clients only). Scrape state (queue depths,
exam attempts) is left to the web page, so that N workers do not report it N times.
"""
from __future__ import annotations

import logging
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

log = logging.getLogger(__name__)


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # no access line per scrape
        pass


def app(environ, start_response):
    """WSGI app: GET /metrics (authorized) -> 200 text format; anything else -> 404."""
    from ops.metrics import authorized, registry_for_scrape

    headers = {"Authorization": environ.get("HTTP_AUTHORIZATION", "")}
    if environ.get("PATH_INFO") != "/metrics" or not authorized(headers.get, environ.get("REMOTE_ADDR", "")):
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"Not found\n"]
    body = generate_latest(registry_for_scrape(with_state=False))
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))])
    return [body]


def start(port: int, addr: str = "0.0.0.0") -> WSGIServer:
    """Serve `app` on addr:port from a daemon thread; returns the server (port 0 picks a free one)."""
    server = make_server(addr, port, app, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="metrics-exporter", daemon=True).start()
    log.info("metrics exporter listening on %s:%s", addr, server.server_port)
    return server
