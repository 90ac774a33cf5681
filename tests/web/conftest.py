"""Fixtures of the web tests: a tiny problem imported from a package dict, users and clients."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from rest_framework.test import APIClient

from grader import actions
from grader import grading
from grader.core.backends.registry import get_backend
from grader.core.results import CompileMessage, CompileResult, Diagnostic, JudgeResult, Mismatch, Resources, TestResult
from grader.core.verdicts import DiagnosticKind, Verdict
from problems.core.package import parse_package
from tests.packages import PROBLEM_YAML, tiny_package_files

# A value that appears only in the hidden test's details: it must never reach a student.
HIDDEN_MARKER = "hidden-secret-31337"
# A line of the reference solution that no student page may show.
SOLUTION_MARKER = "reference-solution-marker"

# The tiny package with a 128-thread default launch that the student may replace.
CHOOSE_LAUNCH_YAML = (
    PROBLEM_YAML.replace("slug: tiny-add", "slug: tiny-choose")
    .replace("title: {en: Tiny add, ko: 작은 덧셈}", "title: {en: Tiny add with your launch}")
    .replace("difficulty: 1", "difficulty: 2")
    .replace('block: "256"\n  grid: "ceil_div(n, 256)"',
             'block: "128"\n  grid: "ceil_div(n, 128)"\n  student_chooses: true')
)


@pytest.fixture(autouse=True)
def forget_rendered_statements():
    """Problem pages cache their rendered statements in the process-wide LocMemCache: clear it after
    each test, so that a test counting cache entries (test_markdown) does not see earlier tests' pages."""
    yield
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """PBKDF2 costs most of a test's set-up time; the web tests do not test hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def import_files(files: dict[str, str]):
    """Import a package given as files through problems.services; returns the Problem."""
    from problems.models import Problem
    from problems.services import import_package

    package = parse_package(files)
    import_package(package)
    return Problem.objects.select_related("current_version").get(slug=package.slug)


@pytest.fixture
def problem(db):
    """The 'tiny-add' problem: one sample test (n=5) and one hidden (n=1025), with a Korean statement."""
    solution = tiny_package_files()["solution.cu"].replace("{", "{ // " + SOLUTION_MARKER, 1)
    return import_files(tiny_package_files(**{
        "statement.ko.md": "두 벡터를 더하세요: $c_i = a_i + b_i$.\n",
        "solution.cu": solution,
    }))


@pytest.fixture
def choose_problem(db):
    """'tiny-choose': the student picks block, grid and shared memory as expressions of n."""
    solution = "// launch: block=128 grid=ceil_div(n, 128)\n" + tiny_package_files()["solution.cu"]
    wrong = "// launch: block=128 grid=ceil_div(n, 128)\n" + tiny_package_files()["wrong/subtracts.cu"]
    return import_files(tiny_package_files(**{"problem.yaml": CHOOSE_LAUNCH_YAML, "solution.cu": solution,
                                              "wrong/subtracts.cu": wrong}))


def _user(username: str, group: str, is_staff: bool = False) -> User:
    user = User.objects.create_user(username=username, password="pass-1234-word", is_staff=is_staff)
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def alice(db):
    return _user("alice", "Student")


@pytest.fixture
def bob(db):
    return _user("bob", "Student")


@pytest.fixture
def instructor(db):
    return _user("ivy", "Instructor")


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def alice_api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def bob_api(bob):
    client = APIClient()
    client.force_authenticate(bob)
    return client


@pytest.fixture
def dummy_eager(settings):
    """Grade in-process with the dummy backend: tasks run eagerly when the transaction commits."""
    from config.celery import app

    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    get_backend.cache_clear()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager
    get_backend.cache_clear()


def graded_result(source_error_line: int | None = None) -> JudgeResult:
    """A WRONG_ANSWER result: sample 'small' passed with printf output, hidden 'tail' failed with a
    mismatch and message that contain HIDDEN_MARKER, a race diagnostic at line 3, and resources."""
    return JudgeResult(
        verdict=Verdict.WRONG_ANSWER,
        compile=CompileResult(ok=True),
        tests=[
            TestResult(name="small", sample=True, verdict=Verdict.ACCEPTED, time_s=0.0021, params={"n": 5},
                       output_log="hello from thread 0\n"),
            TestResult(name="tail", sample=False, verdict=Verdict.WRONG_ANSWER, time_s=0.003,
                       message=f"c[1024]: expected {HIDDEN_MARKER}", params={"n": 1025},
                       mismatch=Mismatch(output="c", index=[1024], expected=HIDDEN_MARKER, got="0.0", count=1),
                       output_log=f"printf {HIDDEN_MARKER}"),
        ],
        diagnostics=[
            Diagnostic(kind=DiagnosticKind.RACE, message="Two threads write c[i] without a barrier.", line=3,
                       block=(0, 0, 0), thread=(1, 0, 0), test="small", detail={"other_line": 2}),
            Diagnostic(kind=DiagnosticKind.OUT_OF_BOUNDS, message=f"Write of c[{HIDDEN_MARKER}] past its end.", line=3,
                       block=(4, 0, 0), thread=(0, 0, 0), test="tail", detail={"address": HIDDEN_MARKER}),
        ],
        resources=Resources(registers=32, shared_static_bytes=1024, shared_dynamic_bytes=0, spill_stores_bytes=0,
                            spill_loads_bytes=0, threads_per_block=256, compute_capability="8.6",
                            occupancy={"occupancy": 1.0, "blocks_per_sm": 6}),
        backend="dummy",
        message="1/2 test cases passed.",
    )


def compile_error_result() -> JudgeResult:
    """COMPILE_ERROR at line 2 of the student's source."""
    return JudgeResult(
        verdict=Verdict.COMPILE_ERROR,
        compile=CompileResult(ok=False, messages=[CompileMessage(2, 44, "error", "expected ';' before 'if'")],
                              log="kernel.cu:2:44: error: expected ';' before 'if'"),
        backend="dummy",
        message="Compilation failed (line 2).",
    )


SOURCE = ("__global__ void add(const float* a, const float* b, float* c, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i <= n) c[i] = a[i] + b[i];\n"
          "}\n")


@pytest.fixture
def make_submission(django_capture_on_commit_callbacks):
    """Create a submission through grader.actions (not run: the queue callback is captured), then
    optionally finish it with a given JudgeResult."""

    def make(user, problem, result: JudgeResult | None = None, source: str = SOURCE):
        with django_capture_on_commit_callbacks(execute=False):
            submission = actions.create_submission(user, problem, source)
        if result is not None:
            grading.start_grading(submission.pk, "dummy")
            grading.finish_grading(submission.pk, result)
            submission.refresh_from_db()
        return submission

    return make
