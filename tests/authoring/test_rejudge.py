"""Rejudge with a preview: copies are graded again first, the page shows which verdicts would change,
and only applying it changes the submissions, keeping their old results and logging who applied it."""
from __future__ import annotations

import pytest
from django.urls import reverse

from authoring.models import RejudgeItem, RejudgeRun
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Purpose, Status, Submission
from grader.core.results import stored_message

pytestmark = pytest.mark.django_db


def _graded(user, version, verdict):
    s = Submission.objects.create(user=user, problem_version=version, source="// mine", status=Status.QUEUED)
    grader_grading.finish_grading(s.pk, JudgeResult(verdict=verdict, message="old"))
    return Submission.objects.get(pk=s.pk)


def test_preview_then_apply(client_for, problem, people):
    v1 = problem.versions.get()
    a = _graded(people["stu"], v1, Verdict.WRONG_ANSWER)
    b = _graded(people["stu"], v1, Verdict.ACCEPTED)
    client = client_for("prof")
    response = client.post(reverse("authoring:rejudge", args=["PP-A", problem.slug]), {"scope": "all", "against": "1"})
    run = RejudgeRun.objects.get()
    assert response["Location"] == reverse("authoring:rejudge-run", args=["PP-A", problem.slug, run.pk])
    items = {i.original_id: i for i in run.items.select_related("copy")}
    assert set(items) == {a.pk, b.pk}
    assert all(i.copy.purpose == Purpose.REJUDGE and i.copy.source == "// mine" for i in items.values())
    page = client.get(response["Location"]).content.decode()
    assert "every 2s" in page and 'id="apply-rejudge"' not in page  # still grading: nothing to apply
    # Applying too early is refused.
    client.post(response["Location"])
    assert RejudgeRun.objects.get().applied_at is None
    grader_grading.finish_grading(items[a.pk].copy_id, JudgeResult(verdict=Verdict.ACCEPTED))
    grader_grading.finish_grading(items[b.pk].copy_id, JudgeResult(verdict=Verdict.ACCEPTED))
    page = client.get(response["Location"]).content.decode()
    assert "1 of 2 verdicts would change." in page and page.count('data-changed="1"') == 1
    a.refresh_from_db()
    assert a.verdict == "WRONG_ANSWER"  # the preview changed nothing
    client.post(response["Location"])
    a.refresh_from_db()
    run.refresh_from_db()
    assert a.verdict == "ACCEPTED" and run.applied_by == people["prof"] and run.applied_at is not None
    kept = RejudgeItem.objects.get(original=a)
    assert kept.old_verdict == "WRONG_ANSWER" and stored_message(kept.old_result) == "old"
    # Applied once only.
    client.post(response["Location"])
    assert RejudgeRun.objects.get().applied_at == run.applied_at


def test_a_scope_with_nothing_to_rejudge_is_refused(client_for, problem):
    client_for("prof").post(reverse("authoring:rejudge", args=["PP-A", problem.slug]), {"scope": "course", "against": "1"})
    assert RejudgeRun.objects.count() == 0


@pytest.mark.parametrize("who", ["stu", "tom", "bea", "nobody"])
def test_only_the_courses_staff_rejudge(client_for, problem, people, who):
    _graded(people["stu"], problem.versions.get(), Verdict.WRONG_ANSWER)
    client = client_for(who)
    assert client.get(reverse("authoring:rejudge", args=["PP-A", problem.slug])).status_code == 404
    assert client.post(reverse("authoring:rejudge", args=["PP-A", problem.slug]),
                       {"scope": "all", "against": "1"}).status_code == 404
    assert RejudgeRun.objects.count() == 0


def test_a_platform_fault_while_rejudging_is_never_applied(client_for, problem, people):
    """A copy that ends INTERNAL_ERROR shows "not re-judged" and applying keeps the submission's verdict."""
    a = _graded(people["stu"], problem.versions.get(), Verdict.ACCEPTED)
    client = client_for("prof")
    response = client.post(reverse("authoring:rejudge", args=["PP-A", problem.slug]), {"scope": "all", "against": "1"})
    item = RejudgeRun.objects.get().items.get()
    grader_grading.give_up(item.copy_id, "the worker died")
    page = client.get(response["Location"]).content.decode()
    assert "not re-judged" in page and "0 of 1 verdicts would change." in page
    client.post(response["Location"])
    a.refresh_from_db()
    assert a.verdict == "ACCEPTED" and stored_message(a.result) == "old"
    assert RejudgeRun.objects.get().applied_at is not None


def _applied_run(client, problem, people):
    """A rejudge of two submissions (WRONG_ANSWER -> ACCEPTED, ACCEPTED -> ACCEPTED), applied; its page URL."""
    v1 = problem.versions.get()
    _graded(people["stu"], v1, Verdict.WRONG_ANSWER)
    _graded(people["stu"], v1, Verdict.ACCEPTED)
    response = client.post(reverse("authoring:rejudge", args=["PP-A", problem.slug]), {"scope": "all", "against": "1"})
    for item in RejudgeRun.objects.get().items.all():
        grader_grading.finish_grading(item.copy_id, JudgeResult(verdict=Verdict.ACCEPTED))
    client.post(response["Location"])
    return response["Location"]


@pytest.mark.parametrize("lang, applied, wrong", [
    ("en", "1 of 2 verdicts changed: those submissions now have the verdict under After", "would change"),
    ("ko", "판정 2건 중 1건이 바뀌었습니다.", "건이 바뀝니다.")])
def test_an_applied_rejudge_says_what_changed_not_what_would(client_for, problem, people, lang, applied, wrong):
    """The tester read "1 of 2 verdicts would change. Applied by …" after pressing Apply."""
    client = client_for("prof")
    url = _applied_run(client, problem, people)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    summary = page[page.index('id="rejudge-summary"'):].split("</p>")[0]
    assert applied in summary and wrong not in summary and 'id="rejudge-applied"' in summary


def test_my_submissions_leaves_out_validation_runs_and_rejudge_copies(client_for, problem, people):
    """The instructor's My submissions filled with unlabelled rejudge copies and validation runs: they are
    left out unless asked for, and labelled then."""
    client = client_for("prof")
    _applied_run(client, problem, people)
    v1 = problem.versions.get()
    own = Submission.objects.create(user=people["prof"], problem_version=v1, source="// own try", status=Status.QUEUED)
    Submission.objects.create(user=people["prof"], problem_version=v1, source="// solution.cu",
                              purpose=Purpose.VALIDATION, status=Status.QUEUED)
    copies = list(Submission.objects.filter(user=people["prof"], purpose=Purpose.REJUDGE).values_list("pk", flat=True))
    assert len(copies) == 2

    def listed(html):
        import re
        return {int(n) for n in re.findall(r'<td><a href="/submissions/(\d+)/">#', html)}

    page = client.get(reverse("grader:list")).content.decode()
    assert listed(page) == {own.pk} and 'id="runs-hidden"' in page and 'id="toggle-runs"' in page
    page = client.get(reverse("grader:list") + "?runs=1").content.decode()
    assert listed(page) == set(Submission.objects.filter(user=people["prof"]).values_list("pk", flat=True))
    assert page.count('class="badge purpose-rejudge"') == 2 and page.count('class="badge purpose-validation"') == 1
    assert "Rejudge preview" in page and "Validation" in page
    korean = client.get(reverse("grader:list") + "?runs=1", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "재채점 미리 보기" in korean and "검증 실행과 재채점 사본 숨기기" in korean
    # Everyone's list too, and a student, who has no such runs, sees no switch.
    page = client.get(reverse("grader:list") + "?all=1").content.decode()
    assert not listed(page) & (set(copies) | {s.pk for s in Submission.objects.filter(purpose=Purpose.VALIDATION)})
    student = client_for("stu").get(reverse("grader:list")).content.decode()
    assert 'id="toggle-runs"' not in student and len(listed(student)) == 2
