"""The write map through the real pipeline and on the verdict page: which test is drawn, who sees it.

tiny-add with three tests: small (n = 5) and mid (n = 300) are samples, tail (n = 1025) is hidden.
"""
from __future__ import annotations

import html as html_lib
import re

import numpy as np
import pytest

from grader.core.judge import judge
from grader.core.verdicts import Verdict
from grader.core.writemap.store import decode
from tests.grader.test_result_page import FILES, KERNELS, PACKAGE
from tests.web.conftest import (  # noqa: F401 (fixtures)
    alice,
    alice_client,
    fast_password_hasher,
    import_files,
    instructor,
    make_submission,
)

# Forgets blockIdx: right for one block (small), wrong past 256 elements: block 1 writes 0-255 again
# and nothing writes 256 on.
NO_BLOCK_INDEX = """__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


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

    def get(source: str):
        if source not in cache:
            cache[source] = judge(PACKAGE, source, emulator, run_checks=False)
        return cache[source]

    return get


@pytest.fixture
def three_tests(db):
    return import_files(FILES)


def _page(client, submission, language="en") -> str:
    response = client.get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_failing_samples_map_shows_the_collision_and_the_gap(judged):
    result = judged(NO_BLOCK_INDEX)
    assert result.verdict is Verdict.WRONG_ANSWER
    assert [m["test"] for m in result.writemaps] == ["mid"]  # the failing sample, not the hidden tail
    wm, expected, got, wrong = decode(result.writemaps[0])
    assert wm.shape == (300,) and wm.grid == (2, 1, 1) and wm.block == (256, 1, 1)
    assert (wm.hits[:256] == 2).all() and (wm.hits[256:] == 0).all()
    assert wrong[256:].all() and not wrong[:256].any()
    assert all(wm.thread_of(int(w))[1][0] == i for i, w in enumerate(wm.writer[:256]))
    assert expected is not None and got[256] == "nan"  # the poison, kept as the title prints it


def test_an_accepted_submission_records_no_map(judged):
    assert judged(KERNELS["solution"]).writemaps == []


def test_the_student_sees_a_samples_map_in_both_languages(judged, three_tests, alice, alice_client, make_submission):
    submission = make_submission(alice, three_tests, judged(NO_BLOCK_INDEX), source=NO_BLOCK_INDEX)
    english = _page(alice_client, submission)
    assert 'id="writemap"' in english and english.count("<svg") >= 1
    svg = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="writemap".*?</svg>', english, re.S).group(0)
    titles = [html_lib.unescape(t) for t in re.findall(r"<g><title>(.*?)</title>", svg)]
    assert len(titles) == 300
    assert titles[3].startswith("c[3]: written by block (1, 0, 0), thread (3, 0, 0); 2 threads wrote it")
    assert titles[299].startswith("c[299]: never written; expected ")
    korean = html_lib.unescape(_page(alice_client, submission, "ko"))
    assert "어느 thread가 각 원소를 썼나" in korean and "아무도 쓰지 않음" in korean


def test_a_hidden_tests_map_is_for_staff_only(judged, three_tests, alice, alice_client, instructor, make_submission):
    result = judged(KERNELS["hidden_wrong"])
    assert [(m["test"], m["sample"]) for m in result.writemaps] == [("tail", False)]
    submission = make_submission(alice, three_tests, result, source=KERNELS["hidden_wrong"])
    student = _page(alice_client, submission)
    assert 'id="writemap"' not in student and 'class="writemap"' not in student
    from django.test import Client

    staff = Client()
    staff.force_login(instructor)
    page = _page(staff, submission)
    assert 'class="writemap"' in page and "shown to staff only" in page


def test_an_answered_indexing_question_shows_the_picture_in_both_languages(client, django_user_model):
    """indexing.inverse: the write map appears with the worked solution, once answered, never before."""
    from django.urls import reverse

    from practice import actions as practice

    student = django_user_model.objects.create_user("stu", password="pw")
    client.force_login(student)
    v = practice.get_or_create_variant(student, "indexing.inverse", "wm", 2, seed=7)
    url = reverse("practice:question", args=[v.pk])
    before = client.get(url).content.decode()
    assert 'class="writemap"' not in before
    practice.submit_answer(v, {k: str(x) for k, x in v.answer["values"].items()})
    after = client.get(url).content.decode()
    assert after.count('class="writemap"') == 1 and "the element asked about" in after
    korean = client.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "질문한 원소" in korean
