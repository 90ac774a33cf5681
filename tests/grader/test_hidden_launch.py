"""A launch the student chose that CUDA would refuse only on a hidden test case: the student reads that
the launch does not fit a hidden test case, with none of its sizes (n, the grid it implies) on the
submission page or in the API's JSON, in English and Korean; staff read CUDA's reason with the sizes.
A sample test's refusal is shown as it always was.

The results come from the real pipeline on the emulator (tiny-add: samples n = 5 and 300, hidden n = 1025).
"""
from __future__ import annotations

import html as html_lib
import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from grader.core import messages as M
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from problems.core.package import parse_package
from tests.grader.test_result_page import THREE_TESTS_YAML
from tests.packages import tiny_package_files
from tests.web.conftest import (  # noqa: F401 (fixtures)
    alice,
    alice_api,
    alice_client,
    fast_password_hasher,
    import_files,
    instructor,
    make_submission,
)

CHOOSING_YAML = THREE_TESTS_YAML.replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(n, 256)"\n  student_chooses: true')
FILES = tiny_package_files(**{"problem.yaml": CHOOSING_YAML})
FILES["solution.cu"] = "// launch: block=256 grid=ceil_div(n, 256)\n" + FILES["solution.cu"]
FILES["wrong/subtracts.cu"] += "// launch: block=256 grid=ceil_div(n, 256)\n"
PACKAGE = parse_package(FILES)

BODY = ("__global__ void add(const float* a, const float* b, float* c, int n) {\n"
        "    int i = blockIdx.y * gridDim.x + blockIdx.x;\n"
        "    if (i < n) c[i] = a[i] + b[i];\n}\n")
# One block per element along y: gridDim.y = 100 n fits the samples (500, 30000) but not the hidden
# test (102500 > 65535); 1000 n does not fit the sample mid either (300000).
HIDDEN_ONLY = "// launch: block=1 grid=1, n*100\n" + BODY
SAMPLE_TOO = "// launch: block=1 grid=1, n*1000\n" + BODY

# What the hidden test's refusal would say of its sizes: n itself, and the grid it implies.
HIDDEN_SIZES = ("102500", "1025")


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    if backend.check():
        pytest.skip("the emulator cannot run here: " + "; ".join(backend.check()))
    return backend


@pytest.fixture(scope="module")
def judged(emulator):
    cache = {}

    def get(source):
        if source not in cache:
            cache[source] = judge(PACKAGE, source, emulator, run_checks=False)
        return cache[source]

    return get


@pytest.fixture
def choosing(db):
    return import_files(FILES)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client, submission, language: str = "en") -> str:
    response = client.get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def api_json(user, submission) -> str:
    api = APIClient()
    api.force_authenticate(user)
    response = api.get(reverse("api:submission", args=[submission.pk]))
    assert response.status_code == 200
    return json.dumps(response.json(), ensure_ascii=False)


def test_the_judge_records_the_hidden_refusal_with_its_sizes(judged):
    """The stored result keeps CUDA's reason with the grid (staff read it): the student's view drops it."""
    result = judged(HIDDEN_ONLY)
    assert result.verdict is Verdict.RUNTIME_ERROR
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED, Verdict.RUNTIME_ERROR, Verdict.ACCEPTED]
    assert result.message == "Test tail: cudaErrorInvalidConfiguration: gridDim.y = 102500 exceeds 65535"


def test_student_reads_that_the_launch_does_not_fit_a_hidden_test_without_its_sizes(
        judged, choosing, alice, alice_client, make_submission):
    """The page (English and Korean) and the API say the launch does not fit a hidden test case, and
    neither n = 1025 nor the grid 102500 appears anywhere in them."""
    submission = make_submission(alice, choosing, judged(HIDDEN_ONLY), source=HIDDEN_ONLY)
    english, korean = page(alice_client, submission, "en"), page(alice_client, submission, "ko")
    assert "The launch does not fit a hidden test case" in english
    assert "이 실행 구성은 숨겨진 테스트 케이스에 맞지 않습니다" in korean
    body = api_json(alice, submission)
    assert "The launch does not fit a hidden test case" in body
    assert json.loads(body)["message_params"]["reason"]["template"] == M.LAUNCH_HIDDEN
    for text in (english, korean, body):
        for size in HIDDEN_SIZES:
            assert size not in text
        assert "gridDim.y =" not in text and "cudaErrorInvalidConfiguration" not in text


def test_staff_read_the_hidden_refusal_with_its_sizes(judged, choosing, alice, instructor, make_submission):
    """An instructor reads CUDA's reason for the hidden test, the grid 102500 included, on the page and
    in the API."""
    submission = make_submission(alice, choosing, judged(HIDDEN_ONLY), source=HIDDEN_ONLY)
    html = page(client_for(instructor), submission)
    assert "gridDim.y = 102500 exceeds 65535" in html
    assert "The launch does not fit a hidden test case" not in html
    body = json.loads(api_json(instructor, submission))
    assert "gridDim.y = 102500 exceeds 65535" in body["message"]
    assert body["diagnostics"][0]["detail"]["grid"] == [1, 102500, 1]


def test_a_sample_tests_refusal_reads_as_before(judged, choosing, alice, alice_client, make_submission):
    """A launch refused on the sample mid (n = 300) is quoted with its grid for the student, as before;
    the hidden test's refusal (the summary names it, the first to fail) shows no grid."""
    submission = make_submission(alice, choosing, judged(SAMPLE_TOO), source=SAMPLE_TOO)
    english = page(alice_client, submission)
    assert "cudaErrorInvalidConfiguration: gridDim.y = 300000 exceeds 65535" in english
    assert "1025000" not in english and "Test #2: The launch does not fit a hidden test case" in english
    korean = page(alice_client, submission, "ko")
    assert "gridDim.y = 300000" in korean and "1025000" not in korean


# Launch expressions that cannot be evaluated at a hidden test's sizes: 1 / (n - 1025) divides by zero
# at the hidden n = 1025 only (C division: 0 * (1 / -1020) is 0 for the samples n = 5 and 300).
HIDDEN_EXPRESSION = "// launch: block=256 grid=ceil_div(n, 256) + 0 * (1 / (n - 1025))\n" + FILES["solution.cu"]
# ... at the sample mid's (n = 300).
SAMPLE_EXPRESSION = "// launch: block=256 grid=ceil_div(n, 256) + 0 * (1 / (n - 300))\n" + FILES["solution.cu"]


def test_expressions_failing_only_on_a_hidden_test_are_graded_not_refused(judged):
    """No free refusal (a compile error costs no attempt) that would tell a hidden size apart: the source
    compiles, the samples run and pass, the hidden test is a RUNTIME_ERROR whose stored reason (for staff)
    is the expression's error."""
    result = judged(HIDDEN_EXPRESSION)
    assert result.compile.ok
    assert result.verdict is Verdict.RUNTIME_ERROR
    assert [(t.name, t.verdict) for t in result.tests] == [
        ("small", Verdict.ACCEPTED), ("tail", Verdict.RUNTIME_ERROR), ("mid", Verdict.ACCEPTED)]
    (diag,) = result.diagnostics
    assert diag.test == "tail" and diag.detail == {}
    assert diag.message.code == M.INVALID_LAUNCH.code
    assert "division by zero" in str(diag.message)


def test_expressions_failing_on_a_sample_or_on_every_test_are_still_refused_for_free(judged):
    """A sample's sizes are public, and failing everywhere says nothing of one test: refused before compiling."""
    for source in (SAMPLE_EXPRESSION, "// launch: block=256 grid=ceil_div(m, 256)\n" + FILES["solution.cu"]):
        result = judged(source)
        assert result.verdict is Verdict.COMPILE_ERROR and not result.tests
        assert result.message.code == M.INVALID_LAUNCH.code


def test_submitting_checks_only_what_the_judge_would_refuse_for_free(choosing):
    """validate_submission (before anything is saved) lets the hidden-only failure through to be graded,
    and refuses the sample's with the expression's reason."""
    from grader.actions import validate_submission
    from grader.core.errors import LaunchConfigError

    validate_submission(choosing, HIDDEN_EXPRESSION, None)
    with pytest.raises(LaunchConfigError, match="division by zero"):
        validate_submission(choosing, SAMPLE_EXPRESSION, None)


def test_student_reads_that_the_expressions_fail_on_a_hidden_test_without_its_sizes(
        judged, choosing, alice, alice_client, instructor, make_submission):
    """The student's page (English and Korean) and API say the expressions cannot be evaluated for a hidden
    test case, without the expression's reason (which, beside the student's own expression, tells the
    hidden size); staff read the reason."""
    submission = make_submission(alice, choosing, judged(HIDDEN_EXPRESSION), source=HIDDEN_EXPRESSION)
    english, korean = page(alice_client, submission, "en"), page(alice_client, submission, "ko")
    assert "The launch expressions cannot be evaluated for a hidden test case" in english
    assert "숨겨진 테스트 케이스에서는 실행 구성 식을 계산할 수 없습니다" in korean
    body = api_json(alice, submission)
    assert json.loads(body)["message_params"]["reason"]["template"] == M.LAUNCH_EXPRESSION_HIDDEN
    for text in (english, korean, body):
        # The student's own source spells n - 1025; the reason would confirm it is the hidden size.
        assert "division by zero" not in text and "0으로 나눴습니다" not in text
    staff = json.loads(api_json(instructor, submission))
    assert "division by zero" in staff["message"]


def test_the_resource_card_describes_a_sample_tests_launch(emulator):
    """The card's threads per block come from the first sample test's launch, not from a hidden test
    listed first (block = min(n, 1024) is 1024 at the hidden n = 1025, 5 at the first sample)."""
    yaml = CHOOSING_YAML.replace("  - {name: small, params: {n: 5}, seed: 1, sample: true}\n", "").replace(
        "  - {name: tail, params: {n: 1025}, seed: 2}\n",
        "  - {name: tail, params: {n: 1025}, seed: 2}\n  - {name: small, params: {n: 5}, seed: 1, sample: true}\n")
    package = parse_package(dict(FILES, **{"problem.yaml": yaml}))
    assert [t.name for t in package.tests][0] == "tail"
    source = "// launch: block=min(n, 1024) grid=ceil_div(n, min(n, 1024))\n" + FILES["solution.cu"]
    result = judge(package, source, emulator, run_checks=False)
    assert result.verdict is Verdict.ACCEPTED
    assert result.resources.threads_per_block == 5
