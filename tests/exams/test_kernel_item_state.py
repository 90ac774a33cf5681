"""A kernel item says where it stands during the exam, as far as its feedback setting allows: solved and
its points (Submit disabled: the best attempt counts, a later one could not earn more), the latest
verdict on the exam's overview, the points so far; with feedback "none", nothing about verdicts."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt, submit_kernel
from exams.models import Feedback
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.results import TestResult as CaseResult
from grader.core.verdicts import Verdict
from grader.models import Submission

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"

# The fixture's kernel has partial credit, which "verdict only" keeps back: attempt 1 (worth 10) may
# have earned more than accepted attempt 2's 7, so the points are "at least".
SOLVED = {"en": ["Solved: attempt 2 was accepted.", "At least 7 of 10 points", "a later one could earn at most 5 points"],
          "ko": ["해결: 2번째 시도가 정답입니다.", "10점 중 최소 7점", "최대 5점"]}
OVERVIEW = {"en": ["Solved", "Attempt 2 was accepted:", "at least 7 of 10 points."],
            "ko": ["해결", "2번째 시도가 정답입니다:", "10점 중 최소 7점."]}


def graded(item, user, verdict, passed=0, total=4):
    sub = submit_kernel(item, user, SOURCE)
    tests = [CaseResult(name=f"t{i}", sample=i == 0, verdict=Verdict.ACCEPTED if i < passed else Verdict.WRONG_ANSWER)
             for i in range(total)]
    grader_grading.start_grading(sub.pk, "emulator")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=verdict, tests=tests))
    return sub


def kernel_page(client, exam, item, language="en"):
    return client.get(reverse("exams:kernel", args=[exam.pk, item.number]), HTTP_ACCEPT_LANGUAGE=language)


def with_feedback(exam, feedback):
    exam.feedback = feedback
    exam.save(update_fields=["feedback"])
    return exam


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_accepted_item_says_solved_with_its_points_and_takes_no_more_submissions(exam, people, language):
    """The tester's page said "This is your last attempt" with Submit enabled after ACCEPTED on attempt 2."""
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    graded(item, people["alice"], Verdict.WRONG_ANSWER)
    graded(item, people["alice"], Verdict.ACCEPTED, 4)
    alice = client_for(people["alice"])
    page = kernel_page(alice, exam, item, language)
    html = page.content.decode()
    for text in SOLVED[language]:
        assert text in html, text
    assert 'id="last-attempt"' not in html
    assert page.context["state"].can_submit is False
    assert 'id="submit-button" data-exam-control disabled' in html
    overview = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    card = overview.split(f'id="item-{item.number}"')[1].split("</section>")[0]
    for text in OVERVIEW[language]:
        assert text in card, text
    assert "attempts left" not in card and "last attempt" not in card
    refused = alice.post(reverse("exams:kernel", args=[exam.pk, item.number]), {"source": SOURCE},
                         HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 400
    assert ("This question is solved" if language == "en" else "이미 해결한 문항") in refused.content.decode()
    assert Submission.objects.filter(exam_item=item).count() == 2


@pytest.mark.parametrize("language, texts", [
    ("en", ["Verdicts are shown with the results.", "Your best attempt counts."]),
    ("ko", ["판정은 결과와 함께 공개됩니다.", "가장 좋은 시도의 점수가 반영됩니다."]),
])
def test_with_no_feedback_nothing_says_solved_and_submit_stays(exam, people, language, texts):
    """Feedback "none": the student may not learn that an attempt was accepted, so neither page says
    it and Submit stays; the page says the best attempt counts, so another cannot lower the score."""
    with_feedback(exam, Feedback.NONE)
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    graded(item, people["alice"], Verdict.ACCEPTED, 4)
    alice = client_for(people["alice"])
    html = kernel_page(alice, exam, item, language).content.decode()
    for text in texts:
        assert text in html, text
    assert 'id="item-solved"' not in html and "verdict-accepted" not in html and "Accepted" not in html
    assert 'id="submit-button" data-exam-control >' in html
    overview = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    card = overview.split(f'id="item-{item.number}"')[1].split("</section>")[0]
    assert "pill-solved" not in card and texts[0] in card and "verdict-accepted" not in card
    assert alice.post(reverse("exams:kernel", args=[exam.pk, item.number]), {"source": SOURCE}).status_code == 302


@pytest.mark.parametrize("language, latest", [("en", "Latest verdict:"), ("ko", "최근 판정:")])
def test_the_overview_shows_each_kernel_items_latest_verdict(exam, people, language, latest):
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    graded(item, people["alice"], Verdict.WRONG_ANSWER, 1)
    alice = client_for(people["alice"])
    card = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode() \
        .split(f'id="item-{item.number}"')[1].split("</section>")[0]
    assert latest in card and "verdict-wrong-answer" in card
    assert ("So far: 0 of 10 points." if language == "en" else "지금까지 10점 중 0점.") not in card  # partial credit
    submit_kernel(item, people["alice"], SOURCE)
    card = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode() \
        .split(f'id="item-{item.number}"')[1].split("</section>")[0]
    assert ("1 submission is being graded." if language == "en" else "1건을 채점하고 있습니다.") in card


def test_full_feedback_shows_the_points_so_far_with_partial_credit(exam, people):
    """The fixture's kernel has partial credit: 3 of 4 tests on attempt 1 of [10, 7, 5] is 7.5 so far."""
    with_feedback(exam, Feedback.FULL)
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    graded(item, people["alice"], Verdict.WRONG_ANSWER, 3)
    html = kernel_page(client_for(people["alice"]), exam, item).content.decode()
    assert "So far: 7.5 of 10 points." in html and 'id="item-solved"' not in html


def test_the_submit_row_is_fetched_again_when_a_verdict_arrives(exam, people):
    """The live row's graded answer tells the page (HX-Trigger) to fetch its Submit row again, which
    then says solved and has Submit disabled, without a reload."""
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    sub = submit_kernel(item, people["alice"], SOURCE)
    alice = client_for(people["alice"])
    page = kernel_page(alice, exam, item).content.decode()
    state_url = reverse("exams:kernel_state", args=[exam.pk, item.number])
    assert f'hx-get="{state_url}"' in page and 'hx-trigger="exam-verdict from:body"' in page
    live = reverse("exams:kernel_live", args=[exam.pk, item.number, sub.pk])
    assert "HX-Trigger" not in alice.get(live)
    grader_grading.start_grading(sub.pk, "emulator")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.ACCEPTED))
    assert alice.get(live)["HX-Trigger"] == "exam-verdict"
    part = alice.get(state_url).content.decode()
    assert "Solved: attempt 1 was accepted." in part and "10 of 10 points." in part and "disabled" in part
    assert client_for(people["bob"]).get(state_url).status_code == 404


def test_without_partial_credit_verdict_feedback_tells_the_exact_points(course, people, kernel_problem):
    """No partial credit: a failed attempt is 0 points so far, an accepted attempt 2 exactly 7 of 10."""
    from datetime import timedelta

    from django.utils import timezone

    from exams.actions.scheduling import save_template, schedule_exam

    from .conftest import TEMPLATE

    zones = [{"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempt_points": [10, 7, 5]}]}]
    template = save_template(course, people["ivy"], dict(TEMPLATE, zones=zones))
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1),
                         duration_minutes=30)
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    alice = client_for(people["alice"])
    graded(item, people["alice"], Verdict.WRONG_ANSWER, 3)
    for language, said in (("en", "So far: 0 of 10 points."), ("ko", "지금까지 10점 중 0점.")):
        assert said in kernel_page(alice, exam, item, language).content.decode()
    graded(item, people["alice"], Verdict.ACCEPTED, 4)
    for language, said in (("en", "7 of 10 points."), ("ko", "10점 중 7점.")):
        html = kernel_page(alice, exam, item, language).content.decode()
        solved = html.split('id="item-solved"')[1].split("</div>")[0]
        assert said in solved and "At least" not in solved and "최소" not in solved
