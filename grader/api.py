"""The JSON API (v1): get a token, list problems, submit a kernel, poll a submission.

Errors are JSON objects {"error": "..."}. The core's user-safe errors carry their HTTP status,
headers and extra data (grader/core/errors.py); `error_response` turns one into an answer.

Authentication: `Authorization: Token <key>` (the key from POST /api/v1/token), with `Bearer` accepted
as an alias since most HTTP clients send that; or the browser's session cookie, which needs the CSRF
token on writes. Token comes first so that a missing or bad credential is a 401 with
`WWW-Authenticate: Token` (DRF takes the header from the first class).
"""
from __future__ import annotations


from axes.helpers import get_cool_off
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException, NotAuthenticated, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import tokens
from accounts.login_limits import is_locked_out, lockout_message
from accounts.tokens import TrackedBearerAuthentication, TrackedTokenAuthentication
from grader.parsers import DepthLimitedJSONParser
from accounts.roles import is_instructor
from grader import access, actions, live
from grader.core import messages as M
from grader.core.errors import WarpDrillError, http_status_for

from .models import Submission
from .serializers import SubmissionCreateSerializer, problem_detail_payload, problem_payload, submission_payload

def _first_message(detail) -> str:
    """Flatten DRF's nested validation detail to one readable sentence."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            return text if key in ("detail", "non_field_errors") else f"{key}: {text}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def error_text(exc: WarpDrillError) -> str:
    """The error's sentence in the active language: an error that carries a catalogue message (`message`, a
    grader.core.messages.Message: a playground request's PlaygroundSpecError) rendered with gettext (its
    English when the translation does not fit the parameters); any other error's text as it is (already
    translated where it was raised)."""
    message = getattr(exc, "message", None)
    if isinstance(message, M.Message):
        try:
            return message.render(gettext)
        except (KeyError, ValueError, TypeError):
            return str(message)
    return str(exc)


def error_response(exc: WarpDrillError) -> Response:
    """The JSON answer to a user-safe error: {"error": error_text(exc), **exc.data()} with the error's status
    and headers (a rate limit's and a platform fault's `Retry-After`, a fixed launch's `fields`)."""
    return Response({"error": error_text(exc), **exc.data()}, status=http_status_for(exc), headers=exc.headers())


# `Token <key>` and `Bearer <key>`, each recording the key's last use (the account's token page).
BearerTokenAuthentication = TrackedBearerAuthentication


class WarpDrillAPIView(APIView):
    """Base view: every error becomes {"error": "..."} with the right status.

    A request without credentials (or with an unknown scheme) gets 401 with a message naming the
    scheme; a bad key gets 401 "Invalid token."; both carry `WWW-Authenticate: Token`.
    """

    authentication_classes = [TrackedTokenAuthentication, TrackedBearerAuthentication, SessionAuthentication]
    # Named here, not only in settings: ObtainAuthToken (the token view) sets DRF's plain JSON parser.
    parser_classes = [DepthLimitedJSONParser, FormParser, MultiPartParser]

    def initial(self, request, *args, **kwargs):
        """DRF's authentication, permissions and throttles, then exam mode: a student whose exam attempt
        closes the rest of the site gets 403 {"error", "code": "exam_in_progress", "exam_url"} from every
        endpoint (exams.lockdown; the token's user is known only here, not to the site's middleware)."""
        super().initial(request, *args, **kwargs)
        from exams.services import lockdown_refusal

        refused = lockdown_refusal(request.user)
        if refused is not None:
            raise refused

    def handle_exception(self, exc):
        if isinstance(exc, WarpDrillError):
            return error_response(exc)
        if isinstance(exc, RequestDataTooBig):
            # Django refuses to read a body over DATA_UPLOAD_MAX_MEMORY_SIZE; say so in JSON.
            limit_kib = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
            message = _("The request body is larger than %(kib)d KiB; a source may have at most %(max)d KiB.") % {
                "kib": limit_kib, "max": settings.WARPDRILL_MAX_SOURCE_BYTES // 1024}
            return Response({"error": message}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        if isinstance(exc, Http404):
            # One body for every missing object, whoever's it would be (get_object_or_404 names the model).
            return Response({"error": _("Not found.")}, status=status.HTTP_404_NOT_FOUND)
        response = super().handle_exception(exc)  # also turns Http404/PermissionDenied into responses
        if response is not None and isinstance(response.data, (dict, list)) and "error" not in response.data:
            detail = exc.detail if isinstance(exc, APIException) else response.data
            body = {"error": _first_message(detail)}
            if isinstance(exc, ValidationError) and isinstance(exc.detail, dict):
                body["fields"] = exc.detail
            if isinstance(exc, NotAuthenticated):
                body["error"] = _("Authentication credentials were not provided: send the header "
                                  "'Authorization: Token <key>' (POST /api/v1/token gives the key).")
            response.data = body
        return response


@csrf_exempt  # it changes nothing, and a token client's POST to a wrong path should read this, not a CSRF page
def not_found(request, path=""):
    """Any path under /api/v1/ that names no endpoint: 404 {"error": "Not found."} for every method."""
    return JsonResponse({"error": _("Not found.")}, status=404)


class TokenView(WarpDrillAPIView, ObtainAuthToken):
    """POST /api/v1/token with username and password: {"token": ...}.

    DRF's obtain_auth_token with the API's error format: 400 {"error": ...} for wrong or missing
    credentials, 429 {"error": ...} while django-axes has the username locked out from this address
    (the correct password is refused then too), with `Retry-After` in seconds. An Authorization
    header is ignored by POST: a client holding a stale token must still be able to get a new one.
    DELETE revokes the key it is sent with (see `delete`); the account's token page does the same.
    """

    authentication_classes = ()

    def get_authenticate_header(self, request):
        return "Token"  # DELETE without a key is a 401, as everywhere else in the API

    def delete(self, request):
        """DELETE /api/v1/token with `Authorization: Token <key>` (or Bearer): revoke that key (a token
        client's log-out): 204, and the key is refused from then on. POST gives a new one."""
        for authentication in (TrackedTokenAuthentication(), TrackedBearerAuthentication()):
            found = authentication.authenticate(request)  # a bad key: 401 "Invalid token."
            if found is not None:
                tokens.revoke(found[0])
                return Response(status=status.HTTP_204_NO_CONTENT)
        raise NotAuthenticated()

    def handle_exception(self, exc):
        if self.request.method == "DELETE":
            return super().handle_exception(exc)
        if is_locked_out(self.request):
            # The whole cool-off, as the message says: exact for the attempt that locked it, an upper
            # bound for later ones (a failure during the lockout does not restart it).
            cool_off = get_cool_off()
            headers = {"Retry-After": str(int(cool_off.total_seconds()))} if cool_off else {}
            return Response({"error": lockout_message()}, status=status.HTTP_429_TOO_MANY_REQUESTS,
                            headers=headers)
        return super().handle_exception(exc)


def published_problems():
    from problems.models import Problem

    return Problem.objects.filter(is_published=True, current_version__isnull=False,
                                  course__isnull=True).select_related("current_version")


class ProblemListView(WarpDrillAPIView):
    """GET /api/v1/problems: every published problem."""

    def get(self, request):
        return Response({"problems": [problem_payload(p, request) for p in published_problems()]})


class ProblemDetailView(WarpDrillAPIView):
    """GET /api/v1/problems/<slug>: one problem with its statement (Markdown, in the request's
    language: Korean when the package has it and Accept-Language asks for it) and its starter kernel,
    both of the variant the caller practises (the one the web page shows). A problem the caller may
    not open (unpublished, another course's) is a 404 like a missing slug."""

    def get(self, request, slug):
        from problems.views import visible_problem  # the bank's, or a course's for its members

        problem = visible_problem(request.user, slug)
        return Response(problem_detail_payload(problem, request))


class ProblemSubmissionsView(WarpDrillAPIView):
    """POST /api/v1/problems/<slug>/submissions: submit a kernel; 201 with the submission's URLs."""

    def post(self, request, slug):
        from problems.views import visible_problem  # the bank's, or a course's for its members

        problem = visible_problem(request.user, slug)
        serializer = SubmissionCreateSerializer(data=request.data)
        if not serializer.is_valid():
            # A malformed request is refused here, before create_submission: it counts toward the
            # rate limit all the same, so that refusals cannot be sent without end.
            actions.check_rate_limit(request.user)
            actions.record_refusal(request.user)
            raise ValidationError(serializer.errors)
        course = None
        code = serializer.validated_data.get("course", "").strip()
        if code:
            from problems.views import opened_for

            course = opened_for(request.user, problem, code)
            if course is None and problem.course_id is None:
                # Said, not ignored: a script that names a course expects its GPU.
                actions.check_rate_limit(request.user)
                actions.record_refusal(request.user)
                raise ValidationError({"course": [_("No course %(code)s that you are a member of.") % {"code": code}]})
        submission = actions.create_submission(
            request.user, problem, serializer.validated_data["source"], serializer.launch_choice(), course=course
        )
        payload = submission_payload(submission, full=False, request=request)
        body = {k: payload[k] for k in ("id", "url", "html_url", "status", "problem")}
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})


@method_decorator(cache_control(private=True, no_cache=True), name="dispatch")
class SubmissionDetailView(WarpDrillAPIView):
    """GET /api/v1/submissions/<id>: status, progress and the result a student may see.

    Polling is a conditional GET: the JSON answer carries an ETag, and a request whose If-None-Match
    holds the current one gets 304 Not Modified with no body, answered from the shared cache of
    submission states before authentication: no SQL (grader.live; the live partial of the HTML
    page answers its polls the same way). The state token is taken before the row is read for the
    body, so a change in between costs one extra full answer, never a stale one. The browsable
    API's HTML has no ETag (it differs on every request: its CSRF token).
    """

    def dispatch(self, request, *args, **kwargs):
        return live.not_modified(request, "a", kwargs["pk"]) or super().dispatch(request, *args, **kwargs)

    def get(self, request, pk):
        token = live.current_token(pk)
        # One rule with the HTML page (grader.access.visible_to: their own, or the staff who may see
        # it, a course's TAs included); anything else is a 404 like a missing id, so the API does not
        # tell which ids exist.
        instructor = is_instructor(request.user)
        submission = get_object_or_404(Submission.objects.select_related("problem_version__problem__course"), pk=pk)
        if not access.visible_to(request.user, submission):
            raise Http404("No such submission.")
        response = Response(submission_payload(submission, full=instructor, request=request))
        if getattr(request.accepted_renderer, "format", None) == "json":
            live.with_etag(response, request, "a", pk, token, instructor)
        return response


class SubmissionListView(WarpDrillAPIView):
    """GET /api/v1/submissions: the caller's 50 latest submissions (status and verdict only)."""

    def get(self, request):
        # Exam submissions are listed on the exam's pages, with the feedback the exam allows.
        # Practice only: no exam work, no validation run or rejudge copy an author's staff work made.
        rows = access.practice_submissions(request.user).select_related("problem_version__problem")[:50]
        return Response({"submissions": [
            {k: v for k, v in submission_payload(s, full=False, request=request).items()
             if k in ("id", "url", "html_url", "problem", "status", "verdict", "created_at", "finished_at")}
            for s in rows
        ]})
