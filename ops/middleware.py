"""Middleware of the operations app.

ProbeMiddleware answers /healthz, /readyz and /metrics before any other middleware: a probe from the
container itself (Host: 127.0.0.1, plain HTTP) must not be refused by ALLOWED_HOSTS or redirected
to HTTPS, and must not touch sessions. RequestIdMiddleware gives every other request an id for its
log lines (and the X-Request-ID response header).
"""
from __future__ import annotations

import re
import uuid

from django.http import HttpResponse, JsonResponse

from ops import logcontext

# An id that a trusted proxy (platform/nginx.conf) passes in X-Request-ID is kept when it looks like one.
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


class ProbeMiddleware:
    """Serve the probes and the metrics page ahead of host validation, HTTPS redirects and sessions."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if path == "/healthz":
            return HttpResponse("ok\n", content_type="text/plain")
        if path == "/readyz":
            from ops.health import readiness

            ready, report = readiness()
            return JsonResponse({"ready": ready, **report}, status=200 if ready else 503)
        if path == "/metrics":
            from ops.metrics import metrics_response

            return metrics_response(request)
        return self.get_response(request)


class RequestIdMiddleware:
    """Bind a request id (X-Request-ID from the proxy, or a new one) to the log context of the request
    and return the id in the X-Request-ID header. (The request metrics are django-prometheus's.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.META.get("HTTP_X_REQUEST_ID", "")
        request_id = incoming if _REQUEST_ID.match(incoming) else uuid.uuid4().hex
        request.request_id = request_id
        # Bound until the request is finished (request_finished clears it, see ops.signals), not only
        # for the middleware chain: Django logs "Not Found" and 500s after the chain has returned.
        logcontext.clear()
        logcontext.bind(request_id=request_id)
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response
