"""A kernel that does not compile costs no exam attempt, and its compiler messages are shown on the
kernel question's page in every feedback mode (they say nothing of the hidden tests); the rate limit
on submissions still bounds how often a student can submit."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt
from exams.models import Feedback
from grader import grading as grader_grading
from grader.core.results import CompileMessage, CompileResult, JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Submission

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
BROKEN = "__global__ void add(const float* a, const float* b, float* c, int n) {\n    c[i] = a[i] + b[i];\n}\n"
COMPILER_SAYS = "identifier \"i\" is undefined"


def compile_error(sub):
    grader_grading.start_grading(sub.pk, "emulator")
    compiled = CompileResult(ok=False, messages=[CompileMessage(2, 5, "error", COMPILER_SAYS)],
                             log=f"kernel.cu(2): error: {COMPILER_SAYS}\n1 error detected")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.COMPILE_ERROR, compile=compiled))


def submit(client, exam, item):
    return client.post(reverse("exams:kernel", args=[exam.pk, item.number]), {"source": BROKEN})


@pytest.mark.parametrize("feedback", [Feedback.NONE, Feedback.VERDICT, Feedback.FULL])
@pytest.mark.parametrize("language, texts", [
    ("en", ["Compile error", "No attempt used: fix it and submit again.", "3 of 3 attempts left.",
            "A kernel that does not compile costs no attempt", "Full compiler output"]),
    ("ko", ["컴파일 오류", "시도 횟수는 차감되지 않았습니다", "시도 3번 중 3번 남았습니다.",
            "컴파일되지 않는 커널은 시도 횟수를 차감하지 않습니다", "컴파일러 출력 전체"]),
])
def test_a_compile_error_shows_the_compiler_and_costs_no_attempt(exam, people, feedback, language, texts):
    """The tester's compile error used an attempt ("2 of 3 left") and, with "verdict only", showed no
    compiler output. Now all 3 attempts are left and the row quotes the compiler with the student's
    line, whatever the feedback; the row is "Submission", not "Attempt 1"."""
    exam.feedback = feedback
    exam.save(update_fields=["feedback"])
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    alice = client_for(people["alice"])
    assert submit(alice, exam, item).status_code == 302
    sub = Submission.objects.get(exam_item=item)
    compile_error(sub)
    page = alice.get(reverse("exams:kernel", args=[exam.pk, item.number]), HTTP_ACCEPT_LANGUAGE=language)
    html = page.content.decode()
    assert page.status_code == 200 and page.context["attempts_left"] == 3
    for text in texts:
        assert text in html, text
    row = html.split(f'id="exam-sub-{sub.pk}"')[1].split("</li>\n</ul>")[0]
    assert COMPILER_SAYS.replace('"', "&quot;") in row and "c[i] = a[i] + b[i];" in row
    assert ("Attempt 1" if language == "en" else "1번째 시도") not in row
    live = alice.get(reverse("exams:kernel_live", args=[exam.pk, item.number, sub.pk]),
                     HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert COMPILER_SAYS.replace('"', "&quot;") in live and texts[1] in live
    overview = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert texts[2] in overview


def test_the_next_submission_after_a_compile_error_is_attempt_1_and_earns_its_points(exam, people):
    """A compile error, then an accepted kernel: the accepted one is attempt 1 and earns attempt 1's
    10 points (of [10, 7, 5]) when the exam ends."""
    from exams.actions.attempts import submit_attempt

    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    alice = client_for(people["alice"])
    submit(alice, exam, item)
    compile_error(Submission.objects.get(exam_item=item))
    submit(alice, exam, item)
    second = Submission.objects.filter(exam_item=item).order_by("-pk").first()
    grader_grading.start_grading(second.pk, "emulator")
    grader_grading.finish_grading(second.pk, JudgeResult(verdict=Verdict.ACCEPTED))
    html = alice.get(reverse("exams:kernel", args=[exam.pk, item.number])).content.decode()
    assert "Attempt 1" in html.split(f'id="exam-sub-{second.pk}"')[1].split("</li>")[0]
    submit_attempt(attempt.pk, people["alice"])
    item.refresh_from_db()
    assert item.points == 10.0


def test_the_rate_limit_still_bounds_submissions_that_do_not_compile(exam, people, settings):
    """Compile errors cost no attempt, so the rate limit is what bounds them: with 2 a minute, a third
    submission within the minute is refused on the page (nothing saved, no attempt used)."""
    settings.WARPDRILL_SUBMISSIONS_PER_MINUTE = 2
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    alice = client_for(people["alice"])
    for _ in range(2):
        assert submit(alice, exam, item).status_code == 302
        compile_error(Submission.objects.filter(exam_item=item).order_by("-pk").first())
    for language, said in (("en", "You can submit 2 times a minute."), ("ko", "1분에 2번")):
        refused = submit(alice, exam, item) if language == "en" else alice.post(
            reverse("exams:kernel", args=[exam.pk, item.number]), {"source": BROKEN}, HTTP_ACCEPT_LANGUAGE="ko")
        assert refused.status_code == 400 and said in refused.content.decode()
    assert Submission.objects.filter(exam_item=item).count() == 2
    assert refused.context["attempts_left"] == 3


def test_staff_see_the_compile_error_as_no_attempt(exam, people):
    """The attempt's page for staff lists the compile error as a submission that used no attempt."""
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    submit(client_for(people["alice"]), exam, item)
    sub = Submission.objects.get(exam_item=item)
    compile_error(sub)
    for language, said in (("en", "no attempt used"), ("ko", "시도 횟수 차감 없음")):
        html = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk]),
                                             HTTP_ACCEPT_LANGUAGE=language).content.decode()
        row = html.split(f'id="result-sub-{sub.pk}"')[1].split("</li>")[0]
        assert said in row and ("Attempt 1" if language == "en" else "1번째 시도") not in row
