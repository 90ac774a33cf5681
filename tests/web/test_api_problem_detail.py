"""GET /api/v1/problems/<slug>: one problem's statement and starter, for the student CLI (`warpdrill get`)."""
import json

import pytest
from rest_framework.test import APIClient

from .conftest import SOLUTION_MARKER

pytestmark = pytest.mark.django_db


def test_problem_detail_has_statement_starter_and_samples(problem, alice_api):
    """The English statement's Markdown, the starter kernel, the launch, and the sample tests only."""
    response = alice_api.get("/api/v1/problems/tiny-add")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["slug"] == "tiny-add" and body["language"] == "en"
    assert body["statement"] == problem.current_version.files["statement.md"]
    assert body["starter"] == problem.current_version.files["starter.cu"]
    assert body["kernel"] == "__global__ void add(const float* a, const float* b, float* c, int n)"
    assert body["launch"] == {"block": "256", "grid": "ceil_div(n, 256)", "shared_bytes": "0"}
    assert [t["name"] for t in body["sample_tests"]] == ["small"]
    assert body["sample_tests"][0]["params"] == {"n": 5}
    assert body["submissions_url"].endswith("/api/v1/problems/tiny-add/submissions")
    # Nothing of the reference solution nor of the hidden test's sizes.
    text = json.dumps(body)
    assert SOLUTION_MARKER not in text and "1025" not in text


def test_problem_detail_in_korean(problem, alice_api):
    """Accept-Language: ko gives the Korean statement, and says so."""
    body = alice_api.get("/api/v1/problems/tiny-add", HTTP_ACCEPT_LANGUAGE="ko").json()
    assert body["language"] == "ko"
    assert body["statement"].startswith("두 벡터를 더하세요")


def test_problem_detail_needs_login_and_a_visible_problem(problem, alice_api):
    """Anonymous callers get 401; an unknown or unpublished slug is the same JSON 404."""
    assert APIClient().get("/api/v1/problems/tiny-add").status_code == 401
    missing = alice_api.get("/api/v1/problems/no-such-problem")
    assert missing.status_code == 404 and missing.json() == {"error": "Not found."}
    problem.is_published = False
    problem.save()
    assert alice_api.get("/api/v1/problems/tiny-add").json() == {"error": "Not found."}
