"""The playground's JSON API (under /api/v1/playground/): start a run, poll it.

POST /api/v1/playground/runs
    {"source": "...", "kernel": "" (default: the first __global__), "launch": {"grid", "block",
     "shared_bytes"}, "args": [{"name", "kind": input|output|scalar, "dtype", "size": "1024" or
     "32x32", "init": zeros|range|random|values, "value": seed, numbers or the scalar}, ...]}
    -> 201 {"key", "url", "html_url", "state"}; 400 {"error", "field"}; 429 with Retry-After.
GET /api/v1/playground/runs/<key>
    -> the run and its result (its owner's, or a shared one's); anyone else's is a 404.
"""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response

from grader.api import WarpDrillAPIView, error_response
from grader.core.errors import BadRequestError

from . import actions
from .views import visible_run


def api_result(run) -> dict | None:
    """The run's result as the API gives it (None before it is DONE): every message (the findings, the
    compiler's messages) at the edge as the submission API gives them ("message" in the request's language,
    "message_template" and "message_params"), the occupancy working's sentences in that language too."""
    from grader.serializers import localized, localized_resources

    result = run.playground_result()
    if result is None:
        return None
    data = result.to_dict()
    data["diagnostics"] = [localized(d, gettext) for d in data["diagnostics"]]
    if data["compile"]:
        data["compile"]["messages"] = [localized(m, gettext) for m in data["compile"]["messages"]]
    if data["resources"]:
        data["resources"] = localized_resources(data["resources"], gettext)
    return data


def run_payload(run, request) -> dict:
    """The API's JSON for one run: what was asked, its state and (when DONE) the result (api_result), in
    the request's language (Accept-Language) like the submission API."""
    return {
        "key": run.key,
        "url": request.build_absolute_uri(reverse("api:playground-run", args=[run.key])),
        "html_url": request.build_absolute_uri(run.get_absolute_url()),
        "state": run.state,
        "shared": run.shared,
        "kernel": run.kernel,
        "launch": {"grid": run.launch_grid, "block": run.launch_block, "shared_bytes": run.launch_shared_bytes},
        "args": run.args,
        "result": api_result(run),
        "error": run.error or None,
        "created_at": run.created_at.isoformat() if run.created_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
    }


def _text(data, key: str) -> str:
    value = data.get(key, "") if isinstance(data, dict) else ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value if isinstance(value, str) else "\0"


class PlaygroundRunsView(WarpDrillAPIView):
    """POST: start a playground run (never graded; counts toward the submission rate limit)."""

    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        launch = data.get("launch") if isinstance(data.get("launch"), dict) else {}
        try:
            source = data.get("source")
            if not isinstance(source, str) or not source.strip():
                raise BadRequestError(_("source: a kernel's source (a string) is required."))
            run = actions.create_run(request.user, source, _text(data, "kernel"), data.get("args") or [],
                                     _text(launch, "grid"), _text(launch, "block"), _text(launch, "shared_bytes"))
        except BadRequestError as exc:
            return error_response(exc)
        body = {k: v for k, v in run_payload(run, request).items() if k in ("key", "url", "html_url", "state")}
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})


class PlaygroundRunView(WarpDrillAPIView):
    """GET: one run, its owner's or a shared one (others: 404)."""

    def get(self, request, key):
        return Response(run_payload(visible_run(request, key), request))
