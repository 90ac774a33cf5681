"""An exam kernel typed but never submitted was invisible to staff (the tester's shot 84): the timeline
said "Saved · Question 4" twice and the attempt page only "0 of 3 attempts used". Staff now read the
saved draft (read-only) on the attempt page, the timeline calls the save "Draft saved", and the
student's kernel page says that only submitted attempts are graded."""
import html as htmllib

import pytest
from django.urls import reverse

from exams.actions.attempts import autosave, save_answers, start_attempt, submit_attempt, submit_kernel

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
DRAFT = "__global__ void add(const float* a, const float* b, float* c, int n) {\n  // i < n && ...\n}\n"


def kernel_item(attempt):
    return attempt.items.get(kind="kernel")


def test_staff_read_an_unsubmitted_draft_and_the_timeline_calls_it_one(exam, people):
    alice = people["alice"]
    attempt = start_attempt(exam, alice)
    kernel = kernel_item(attempt)
    save_answers(attempt.pk, alice, {kernel.key: {"source": DRAFT}})
    autosave(exam.pk, alice, {kernel.key: {"source": DRAFT}})  # the page's fast path logs it too
    submit_attempt(attempt.pk, alice)
    url = reverse("exams:attempt_detail", args=[attempt.pk])
    page = client_for(people["ivy"]).get(url).content.decode()
    section = page[page.index(f'id="item-{kernel.number}"'):].split("</section>")[0]
    draft = section[section.index(f'id="draft-{kernel.number}"'):]
    assert "Saved draft (read-only)" in draft and "not submitted, so not graded" in draft
    assert htmllib.escape(DRAFT.strip(), quote=False).splitlines()[1] in draft and "<textarea" not in draft
    timeline = page[page.index('id="timeline"'):]
    rows = [r for r in timeline.split("<tr ")[1:] if 'data-kind="saved"' in r]
    assert len(rows) == 2 and all("<td>Draft saved</td>" in r for r in rows)
    korean = client_for(people["ivy"]).get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "저장된 초안 (읽기 전용)" in korean and "<td>초안 저장됨</td>" in korean


def test_a_save_of_answers_and_a_draft_says_both(exam, people):
    alice = people["alice"]
    attempt = start_attempt(exam, alice)
    question = attempt.items.filter(kind="question").first()
    save_answers(attempt.pk, alice, {question.key: {}, kernel_item(attempt).key: {"source": DRAFT}})
    save_answers(attempt.pk, alice, {question.key: {}})
    page = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk])).content.decode()
    assert "<td>Answers and a kernel draft saved</td>" in page and "<td>Saved</td>" in page


def test_a_draft_that_was_submitted_is_named_as_that_attempt(exam, people):
    alice = people["alice"]
    attempt = start_attempt(exam, alice)
    kernel = kernel_item(attempt)
    save_answers(attempt.pk, alice, {kernel.key: {"source": DRAFT}})
    submit_kernel(kernel, alice, DRAFT)
    page = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk])).content.decode()
    draft = page[page.index(f'id="draft-{kernel.number}"'):].split("</details>")[0]
    assert "the same code as attempt 1" in draft and " open>" not in draft.split("\n")[0]


def test_no_draft_no_box(exam, people):
    attempt = start_attempt(exam, people["alice"])
    page = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk])).content.decode()
    assert 'id="draft-' not in page


@pytest.mark.parametrize("lang, words", [
    ("en", "a draft is never graded: only the attempts you submit count"),
    ("ko", "초안은 채점되지 않습니다. 제출한 시도만 점수에 들어갑니다.")])
def test_the_student_is_told_a_draft_is_not_graded(exam, people, lang, words):
    attempt = start_attempt(exam, people["alice"])
    kernel = kernel_item(attempt)
    alice = client_for(people["alice"])
    page = alice.get(reverse("exams:kernel", args=[exam.pk, kernel.number]), HTTP_ACCEPT_LANGUAGE=lang)
    assert words in page.content.decode()
    overview = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'class="small draft-note"' in overview
