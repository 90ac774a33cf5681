"""The JSON API v1: submit, poll, list problems, token auth, and errors as {"error": ...}."""
import json

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from rest_framework.test import APIClient

from grader.core import messages as M
from grader.models import Status, Submission

from .conftest import HIDDEN_MARKER, SOURCE, graded_result

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/{slug}/submissions"


def post(client, slug, body):
    return client.post(SUBMIT.format(slug=slug), body, format="json")


def test_submit_returns_201_with_urls_and_enqueues(problem, alice, alice_api, sent_tasks):
    """POST saves a QUEUED submission, enqueues it once after commit, and answers 201 with its API and page URLs."""
    with sent_tasks.until_commit():
        response = post(alice_api, "tiny-add", {"source": SOURCE})
    assert sent_tasks == []  # nothing is queued before the commit
    assert response.status_code == 201, response.content
    body = response.json()
    submission = Submission.objects.get()
    assert body["id"] == submission.pk and body["status"] == "QUEUED"
    assert body["url"] == f"http://testserver/api/v1/submissions/{submission.pk}"
    assert body["html_url"] == f"http://testserver/submissions/{submission.pk}/"
    assert response["Location"] == body["url"]
    assert submission.user == alice and submission.source == SOURCE
    assert sent_tasks.commit() == [submission.pk]  # the commit: the live-status cache is renewed and the task is sent


def test_submit_with_launch_numbers_and_expressions(choose_problem, alice_api, django_capture_on_commit_callbacks):
    """The launch object accepts numbers or expressions and is stored with the submission."""
    with django_capture_on_commit_callbacks(execute=False):
        response = post(alice_api, "tiny-choose",
                        {"source": SOURCE, "launch": {"block": 64, "grid": "ceil_div(n, 64)", "shared_bytes": 0}})
    assert response.status_code == 201, response.content
    submission = Submission.objects.get()
    assert (submission.launch_block, submission.launch_grid, submission.launch_shared_bytes) == ("64", "ceil_div(n, 64)", "0")


@pytest.mark.parametrize("body, needle", [
    ({}, "source"),
    ({"source": ""}, "source"),
    ({"source": SOURCE, "launch": "256"}, "launch"),
])
def test_malformed_body_is_400_with_error(problem, alice_api, body, needle):
    """A missing/empty source or a malformed launch is a 400 {"error": ...} naming the field; nothing is saved."""
    response = post(alice_api, "tiny-add", body)
    assert response.status_code == 400
    assert needle in response.json()["error"]
    assert not Submission.objects.exists()


def test_non_json_body_is_400(problem, alice_api):
    """A body that is not JSON is a clear 400."""
    response = alice_api.post(SUBMIT.format(slug="tiny-add"), "{not json", content_type="application/json")
    assert response.status_code == 400 and "error" in response.json()


@override_settings(WARPDRILL_MAX_SOURCE_BYTES=200)
def test_too_large_is_400(problem, alice_api):
    """A source over the limit is a 400 that says so."""
    response = post(alice_api, "tiny-add", {"source": SOURCE + "//" + "x" * 300})
    assert response.status_code == 400 and "larger than" in response.json()["error"]


def test_bad_launch_expression_is_400(choose_problem, alice_api):
    """An unevaluable launch expression is a 400 that names the problem."""
    response = post(alice_api, "tiny-choose", {"source": SOURCE, "launch": {"block": "256", "grid": "n +"}})
    assert response.status_code == 400
    assert "grid" in response.json()["error"]


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=2)
def test_rate_limit_is_429(problem, alice_api, django_capture_on_commit_callbacks):
    """Past the per-minute limit the API answers 429 with the reason."""
    with django_capture_on_commit_callbacks(execute=False):
        assert post(alice_api, "tiny-add", {"source": SOURCE}).status_code == 201
        assert post(alice_api, "tiny-add", {"source": SOURCE}).status_code == 201
    response = post(alice_api, "tiny-add", {"source": SOURCE})
    assert response.status_code == 429 and "a minute" in response.json()["error"]
    assert Submission.objects.count() == 2


def test_unknown_problem_is_404(db, alice_api):
    """Submitting to a problem that does not exist is a 404 {"error": ...}."""
    response = post(alice_api, "no-such-problem", {"source": SOURCE})
    assert response.status_code == 404 and "error" in response.json()


def test_anonymous_cannot_submit(problem):
    """Without credentials the API refuses (401/403) and saves nothing."""
    response = post(APIClient(), "tiny-add", {"source": SOURCE})
    assert response.status_code in (401, 403) and "error" in response.json()
    assert not Submission.objects.exists()


def test_get_submission_shape(problem, alice, alice_api, make_submission):
    """GET gives status, verdict, progress, public tests, diagnostics, compile, resources, message and times."""
    submission = make_submission(alice, problem, graded_result())
    body = alice_api.get(f"/api/v1/submissions/{submission.pk}").json()
    assert {"id", "problem", "status", "verdict", "progress", "tests", "diagnostics", "compile", "resources",
            "message", "created_at", "finished_at"} <= set(body)
    assert body["problem"] == "tiny-add" and body["status"] == "GRADED" and body["verdict"] == "WRONG_ANSWER"
    assert body["progress"] == {"done": 2, "total": 2}
    assert body["tests"][0]["output_log"] == "hello from thread 0\n"
    assert body["resources"]["registers"] == 32
    assert body["diagnostics"][0]["kind"] == "race" and body["diagnostics"][0]["line"] == 3
    assert body["finished_at"]


def test_queued_submission_has_progress_and_no_verdict(problem, alice, alice_api, make_submission):
    """Before grading the verdict is null and progress counts the tests."""
    submission = make_submission(alice, problem)
    body = alice_api.get(f"/api/v1/submissions/{submission.pk}").json()
    assert body["status"] == Status.QUEUED and body["verdict"] is None
    assert body["progress"] == {"done": 0, "total": 2} and body["tests"] == []


def test_hidden_test_details_never_in_json(problem, alice, alice_api, make_submission):
    """A hidden test keeps only name, verdict and time; its diagnostics lose their details."""
    submission = make_submission(alice, problem, graded_result())
    response = alice_api.get(f"/api/v1/submissions/{submission.pk}")
    assert HIDDEN_MARKER not in response.content.decode()
    hidden = response.json()["tests"][1]
    assert set(hidden) == {"name", "sample", "verdict", "time_s"}


def test_other_student_gets_404(problem, alice, bob_api, make_submission):
    """Bob may not read Alice's submission through the API: 404, as for an id that does not exist."""
    submission = make_submission(alice, problem, graded_result())
    response = bob_api.get(f"/api/v1/submissions/{submission.pk}")
    assert response.status_code == 404
    assert SOURCE not in response.content.decode() and "error" in response.json()


def test_instructor_reads_any_submission_in_full(problem, alice, instructor, make_submission):
    """Instructors read every submission, hidden details included."""
    submission = make_submission(alice, problem, graded_result())
    client = APIClient()
    client.force_authenticate(instructor)
    response = client.get(f"/api/v1/submissions/{submission.pk}")
    assert response.status_code == 200 and HIDDEN_MARKER in response.content.decode()


def test_problem_list(problem, choose_problem, alice_api):
    """GET /api/v1/problems lists published problems with their kernel and submit URL."""
    body = alice_api.get("/api/v1/problems").json()
    by_slug = {p["slug"]: p for p in body["problems"]}
    assert set(by_slug) == {"tiny-add", "tiny-choose"}
    assert by_slug["tiny-add"]["kernel"] == "__global__ void add(const float* a, const float* b, float* c, int n)"
    assert by_slug["tiny-choose"]["student_chooses_launch"] is True
    assert by_slug["tiny-add"]["submissions_url"].endswith("/api/v1/problems/tiny-add/submissions")
    assert "solution" not in json.dumps(body)


def test_my_submission_list(problem, alice, bob, alice_api, make_submission):
    """GET /api/v1/submissions lists only the caller's submissions."""
    mine = make_submission(alice, problem)
    make_submission(bob, problem)
    body = alice_api.get("/api/v1/submissions").json()
    assert [s["id"] for s in body["submissions"]] == [mine.pk]


def test_token_auth(problem, alice, django_capture_on_commit_callbacks):
    """A token from POST /api/v1/token authenticates API calls, including submitting."""
    client = APIClient()
    response = client.post("/api/v1/token", {"username": "alice", "password": "pass-1234-word"}, format="json")
    assert response.status_code == 200, response.content
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/problems").status_code == 200
    with django_capture_on_commit_callbacks(execute=False):
        assert post(client, "tiny-add", {"source": SOURCE}).status_code == 201
    assert Submission.objects.get().user == alice


def test_token_with_wrong_password_is_refused(alice):
    """A wrong password gets no token."""
    response = APIClient().post("/api/v1/token", {"username": "alice", "password": "nope"}, format="json")
    assert response.status_code == 400 and "token" not in response.json()


def test_bad_token_is_refused(problem):
    """An invalid token is refused."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token deadbeef")
    assert client.get("/api/v1/problems").status_code in (401, 403)
    assert not User.objects.filter(username="deadbeef").exists()


def test_hidden_diagnostics_are_generalised_and_deduplicated(problem, alice, alice_api, make_submission):
    """A finding on a hidden test keeps its kind but not its line, message or threads; one that repeats a
    sample's kind is dropped; a summary quoting it is rewritten."""
    from grader.core.results import Diagnostic
    from grader.core.verdicts import DiagnosticKind, Verdict

    result = graded_result()
    result.verdict = Verdict.MEMORY_ERROR
    hidden_message = f"out-of-bounds read at index {HIDDEN_MARKER}"
    result.diagnostics = [
        Diagnostic(kind=DiagnosticKind.OUT_OF_BOUNDS, message=hidden_message, line=3, block=(4096, 0, 0),
                   thread=(3, 0, 0), test="tail"),
        Diagnostic(kind=DiagnosticKind.OUT_OF_BOUNDS, message="out-of-bounds read at index 5", line=3,
                   block=(0, 0, 0), thread=(5, 0, 0), test="small"),
        Diagnostic(kind=DiagnosticKind.RACE, message=f"race {HIDDEN_MARKER}", line=2, block=(9, 0, 0),
                   thread=(1, 0, 0), test="tail (check)"),
    ]
    # The summary quotes the hidden finding as a parameter (a sample shows line 3, so the line stays).
    result.message = M.SUMMARY_TEST_AT_LINE(test="tail", reason=result.diagnostics[0].message, line=3)
    submission = make_submission(alice, problem, result)
    response = alice_api.get(f"/api/v1/submissions/{submission.pk}")
    assert HIDDEN_MARKER not in response.content.decode()
    body = response.json()
    assert [(d["kind"], d["line"], d["test"]) for d in body["diagnostics"]] == [
        ("out_of_bounds", 3, "small"), ("race", None, "#2 (check)")]  # a hidden test's line and name are not shown
    assert body["diagnostics"][0]["message"] == "out-of-bounds read at index 5"
    assert body["diagnostics"][1]["block"] is None and "hidden test" in body["diagnostics"][1]["message"]
    assert "hidden test" in body["message"] and body["message"].endswith("(line 3)")
    assert body["message"].startswith("Test #2: Out of bounds on a hidden test")
    assert [t["name"] for t in body["tests"]] == ["small", "#2"]
    assert "tail" not in body["message"] and not any("tail" in d["test"] for d in body["diagnostics"])
    # A summary stored as plain English (before messages had codes) that quotes it gives way to the
    # hidden test's own summary: its words cannot be taken apart.
    result.message = f"1/2 test cases passed. {hidden_message} (line 3)"
    old = make_submission(alice, problem, result)
    body = alice_api.get(f"/api/v1/submissions/{old.pk}").json()
    assert HIDDEN_MARKER not in str(body) and body["message"].startswith("Test #2 failed (a hidden test")
