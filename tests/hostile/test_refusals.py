"""Refused submissions count toward the rate limit, and sources have a line limit (issue 13, finding 4).

A refused request (too large, a static check, a 65,000-line source) saved nothing, so the rate
limit, which counted saved submissions, never saw it: a student could send such requests without
end, each costing the server its parsing. Now each refusal is recorded and counted.
"""
from __future__ import annotations

import pytest
from django.test import override_settings

from grader.models import Submission, SubmissionRefusal
from tests.web.conftest import SOURCE, alice, alice_api, problem  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/{slug}/submissions"


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=3)
def test_refused_submissions_count_toward_the_rate_limit(problem, alice, alice_api):  # noqa: F811
    """Three refused requests (a NUL byte, refused by the serializer; too many lines, refused by
    create_submission) use up a limit of three a minute: the fourth, even a good one, is a 429."""
    url = SUBMIT.format(slug=problem.slug)
    for source in (SOURCE + "\0", SOURCE + "\n" * 70000, SOURCE + "\0"):
        refused = alice_api.post(url, {"source": source}, format="json")
        assert refused.status_code == 400, refused.content
    assert SubmissionRefusal.objects.filter(user=alice).count() == 3
    limited = alice_api.post(url, {"source": SOURCE}, format="json")
    assert limited.status_code == 429, limited.content
    assert "Retry-After" in limited
    assert not Submission.objects.filter(user=alice).exists()


@override_settings(WARPDRILL_MAX_SOURCE_LINES=100)
def test_a_source_with_too_many_lines_is_refused(problem, alice_api):  # noqa: F811
    """Over the line limit: 400 naming both counts, and nothing saved."""
    response = alice_api.post(SUBMIT.format(slug=problem.slug), {"source": SOURCE + "\n" * 200}, format="json")
    assert response.status_code == 400, response.content
    assert "more than 100" in response.json()["error"]
    assert not Submission.objects.exists()


def test_the_default_line_limit_refuses_a_source_of_blank_lines(problem, alice_api):  # noqa: F811
    """The reported source: 65,000 blank lines under 64 KiB."""
    response = alice_api.post(SUBMIT.format(slug=problem.slug), {"source": SOURCE + "\n" * 65000}, format="json")
    assert response.status_code == 400, response.content
    assert "lines" in response.json()["error"]


def test_a_summary_quoting_a_hidden_finding_loses_its_line():
    """The summary's '(line N)' after a hidden test's finding goes with it, unless a sample shows that line."""
    from grader.core.results import Diagnostic, JudgeResult, TestResult
    from grader.core.verdicts import DiagnosticKind, Verdict
    from grader.serializers import public_result

    hidden = Diagnostic(kind=DiagnosticKind.OUT_OF_BOUNDS, message="out-of-bounds read at index 77", line=9,
                        test="tail")
    result = JudgeResult(verdict=Verdict.MEMORY_ERROR, message="1/2 test cases passed. out-of-bounds read at index 77 "
                         "(line 9)", diagnostics=[hidden],
                         tests=[TestResult(name="small", sample=True, verdict=Verdict.ACCEPTED),
                                TestResult(name="tail", sample=False, verdict=Verdict.MEMORY_ERROR)])
    shown = public_result(result, full=False)
    assert "77" not in shown["message"] and "line 9" not in shown["message"], shown["message"]
    assert shown["diagnostics"][0]["line"] is None
    assert "line 9" in public_result(result, full=True)["message"]
