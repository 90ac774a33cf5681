"""A playground run end to end: API -> database -> broker -> a real Celery worker process -> emulator.

The run goes on the grading queue like a submission, is never graded (no verdict, no Submission row)
and comes back with its outputs, printf output and diagnostics."""
import time

import pytest
from django.test import Client
from rest_framework.test import APIClient

from grader.models import Submission

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SOURCE = """\
#include <cstdio>
__global__ void square(const int* x, int* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
    if (i == 0) printf("n = %d\\n", n);
}
"""


def wait_for_run(client: APIClient, url: str, timeout: float = 150.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get(url).json()
        if data["state"] in ("DONE", "FAILED"):
            return data
        time.sleep(0.25)
    raise AssertionError(f"no result within {timeout} s: {data}")


def test_a_run_through_a_real_worker_returns_outputs_printf_and_is_never_a_submission(make_student,
                                                                                      celery_worker_process):
    alice = make_student("alice")
    client = APIClient()
    client.force_authenticate(alice)
    body = {"source": SOURCE, "launch": {"grid": "ceil_div(n, 4)", "block": 4},
            "args": [{"name": "x", "kind": "input", "dtype": "int32", "size": 10, "init": "range"},
                     {"name": "y", "kind": "output", "dtype": "int32", "size": 10, "init": "zeros"},
                     {"name": "n", "kind": "scalar", "dtype": "int32", "value": 10}]}
    response = client.post("/api/v1/playground/runs", body, format="json")
    assert response.status_code == 201, response.content
    data = wait_for_run(client, response.json()["url"])
    assert data["state"] == "DONE", (data, celery_worker_process.output()[-3000:])
    result = data["result"]
    assert result["ending"] == "ok" and result["backend"] == "emulator"
    assert result["outputs"][0]["rows"] == [["0", "1", "4", "9", "16", "25", "36", "49", "64", "81"]]
    assert "n = 10" in result["log"] and result["diagnostics"] == []
    assert not Submission.objects.exists()  # never graded, never an attempt
    # The write map of y: thread i wrote element i (blocks of 4), drawn on the run's page.
    assert [m["output"] for m in result["writemaps"]] == ["y"]
    browser = Client()
    browser.force_login(alice)
    page = browser.get(data["html_url"]).content.decode()
    assert "<svg" in page and "written by block (1, 0, 0), thread (1, 0, 0)" in page
