"""Fixtures of the access tests: a problem full of canaries, graded for real, and four kinds of user.

The 'canary-add' package hides a marker in every place a student must never see: the reference
solution, the wrong solutions, the harness, the hidden test's size and seed. Submissions are graded
by the real judge on the emulator (once per session, then stored through grader.actions), so the
results carry the diagnostics, mismatches and printf output the emulator really produces on the
hidden test.
"""
from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client
from rest_framework.test import APIClient

from grader import actions
from grader import grading
from grader.core.backends.registry import get_backend
from grader.core.judge import judge
from grader.core.results import JudgeResult
from problems.core.package import parse_package
from problems.services import import_package
from tests.packages import tiny_package_files

SOLUTION_CANARY = "canary-reference-solution-7f3a"
WRONG_CANARY = "canary-wrong-solution-91bd"
HARNESS_CANARY = "canary-harness-c0de"
HIDDEN_N = 48611  # the hidden test's size: no student page or JSON may contain it
HIDDEN_SEED = 9172634  # the hidden test's seed in problem.yaml
HIDDEN_NAME = "canary-big-n48611"  # the hidden test's name: it says its size, so it is staff-only too
# What the printf_on_hidden kernel prints on the hidden test only (not a literal of its source).
PRINTF_CANARY = f"v={HIDDEN_N * 3 + 7}"

CANARY_YAML = f"""\
slug: canary-add
title: {{en: Canary add, ko: 카나리아 덧셈}}
topic: indexing
kind: kernel
difficulty: 1
kernel:
  name: add
  args:
    - {{name: a, role: in, dtype: float32}}
    - {{name: b, role: in, dtype: float32}}
    - {{name: c, role: out, dtype: float32}}
    - {{name: n, role: scalar, dtype: int32}}
launch:
  block: "256"
  grid: "ceil_div(n, 256)"
limits: {{time_s: 5}}
tolerance: {{atol: 1.0e-6, rtol: 1.0e-6}}
tests:
  - {{name: small, params: {{n: 5}}, seed: 1, sample: true}}
  - {{name: {HIDDEN_NAME}, params: {{n: {HIDDEN_N}}}, seed: {HIDDEN_SEED}}}
"""

CANARY_FILES = tiny_package_files(**{
    "problem.yaml": CANARY_YAML,
    "solution.cu": f"// {SOLUTION_CANARY}\n" + tiny_package_files()["solution.cu"],
    "wrong/subtracts.cu": tiny_package_files()["wrong/subtracts.cu"] + f"// {WRONG_CANARY}\n",
    "harness.py": f"# {HARNESS_CANARY}\n" + tiny_package_files()["harness.py"],
})

HEAD = "__global__ void add(const float* a, const float* b, float* c, int n) {\n"
# Each of these passes the sample test and fails (or prints) only on the hidden one.
SOURCES = {
    "wrong_on_hidden": HEAD + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    if (i < n) c[i] = i < 1000 ? a[i] + b[i] : 0.0f;\n}\n",
    "out_of_bounds_on_hidden": HEAD + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "    if (i < n) c[i] = a[i] + b[i];\n"
                                      "    if (n > 1000 && i == n) c[i] = 0.0f;\n}\n",
    "printf_on_hidden": HEAD + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (n > 1000 && i == 0) printf(\"v=%d\\n\", n * 3 + 7);\n"
                               "    if (i < n) c[i] = a[i] + b[i];\n}\n",
}

# What a student may never receive, in any page or JSON.
NEVER_FOR_STUDENTS = [SOLUTION_CANARY, WRONG_CANARY, HARNESS_CANARY, str(HIDDEN_N), str(HIDDEN_SEED), PRINTF_CANARY,
                      HIDDEN_NAME]
# What nobody receives through the site (instructors read packages elsewhere).
NEVER_FOR_ANYONE = [SOLUTION_CANARY, WRONG_CANARY, HARNESS_CANARY, str(HIDDEN_SEED)]


@pytest.fixture(scope="session")
def judged() -> dict[str, JudgeResult]:
    """The real emulator's results for SOURCES (graded once per test session)."""
    package = parse_package(CANARY_FILES)
    backend = get_backend("emulator")
    return {name: judge(package, source, backend, seed_secret=settings.WARPDRILL_SEED_SECRET,
                        target_cc=settings.WARPDRILL_TARGET_CC) for name, source in SOURCES.items()}


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def clear_cache_after():
    """Leave the cache as we found it (rendered statements are cached by version id, which the next
    test's database reuses)."""
    yield
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def canary(db):
    """The 'canary-add' problem."""
    from problems.models import Problem

    import_package(parse_package(CANARY_FILES))
    return Problem.objects.get(slug="canary-add")


def make_user(username: str, group: str | None = None, is_staff: bool = False) -> User:
    user = User.objects.create_user(username=username, password="pass-1234-word", is_staff=is_staff)
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def users(db) -> dict[str, User]:
    """alice and bob (students), ivy (Instructor group, not staff), sam (staff, no group)."""
    return {"alice": make_user("alice", "Student"), "bob": make_user("bob", "Student"),
            "ivy": make_user("ivy", "Instructor"), "sam": make_user("sam", is_staff=True)}


@pytest.fixture
def page(users):
    """page(name) -> a logged-in django.test.Client (page(None): anonymous)."""

    def make(name: str | None) -> Client:
        client = Client()
        if name:
            client.force_login(users[name])
        return client

    return make


@pytest.fixture
def api(users):
    """api(name) -> an APIClient authenticated as that user (api(None): anonymous)."""

    def make(name: str | None) -> APIClient:
        client = APIClient()
        if name:
            client.force_authenticate(users[name])
        return client

    return make


@pytest.fixture
def graded(canary, users, judged, django_capture_on_commit_callbacks):
    """alice's submissions of SOURCES, stored with their real results: {name: Submission}."""
    subs = {}
    for name, source in SOURCES.items():
        with django_capture_on_commit_callbacks(execute=False):
            sub = actions.create_submission(users["alice"], canary, source)
        grading.start_grading(sub.pk, "emulator")
        grading.finish_grading(sub.pk, judged[name])
        sub.refresh_from_db()
        subs[name] = sub
    return subs


def body(response) -> str:
    return response.content.decode()


def leaks(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s in text]
