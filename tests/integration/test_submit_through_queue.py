"""End to end through the real queue: API -> database -> broker -> Celery worker process -> emulator.

In CI this runs against PostgreSQL and Redis (DATABASE_URL, CELERY_BROKER_URL set by .ci/run);
locally against SQLite and the embedded broker. The worker is a separate OS process.
"""
import time

import pytest
from rest_framework.test import APIClient

from problems.core.package import parse_package
from problems.services import import_package
from tests.packages import tiny_package_files

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def wait_for_verdict(client: APIClient, url: str, timeout: float = 120.0) -> dict:
    """Poll the API until the submission is graded; return its JSON."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get(url).json()
        if data["status"] == "GRADED":
            return data
        time.sleep(0.25)
    raise AssertionError(f"no verdict within {timeout} s: {data}")


@pytest.fixture
def tiny_problem():
    import_package(parse_package(tiny_package_files()))


@pytest.fixture
def alice(make_student):
    client = APIClient()
    client.force_authenticate(make_student("alice"))
    return client


def submit(client: APIClient, source: str) -> dict:
    response = client.post("/api/v1/problems/tiny-add/submissions", {"source": source}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_solution_wrong_and_syntax_error_get_their_verdicts(tiny_problem, alice, celery_worker_process):
    """A correct kernel is ACCEPTED, a wrong one WRONG_ANSWER, a syntax error COMPILE_ERROR at its line."""
    files = tiny_package_files()
    accepted = submit(alice, files["solution.cu"])
    wrong = submit(alice, files["wrong/subtracts.cu"])
    syntax = submit(alice, "__global__ void add(const float* a, const float* b, float* c, int n) {\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x\n"
                           "    if (i < n) c[i] = a[i] + b[i];\n}\n")

    got = wait_for_verdict(alice, accepted["url"])
    assert got["verdict"] == "ACCEPTED", (got, celery_worker_process.output()[-3000:])
    assert [t["verdict"] for t in got["tests"]] == ["ACCEPTED", "ACCEPTED"]

    got = wait_for_verdict(alice, wrong["url"])
    assert got["verdict"] == "WRONG_ANSWER"
    sample = got["tests"][0]
    assert sample["mismatch"]["output"] == "c"

    got = wait_for_verdict(alice, syntax["url"])
    assert got["verdict"] == "COMPILE_ERROR"
    lines = [m["line"] for m in got["compile"]["messages"] if m["severity"] == "error"]
    assert 2 in lines or 3 in lines, got["compile"]  # g++ reports the missing ';' at the end of line 2 or on line 3


def test_another_student_cannot_read_a_submission(tiny_problem, alice, make_student):
    """Bob gets 404 for Alice's submission through the API, as for an id that does not exist."""
    created = submit(alice, tiny_package_files()["solution.cu"])
    bob = APIClient()
    bob.force_authenticate(make_student("bob"))
    assert bob.get(created["url"]).status_code == 404
    assert alice.get(created["url"]).status_code == 200
