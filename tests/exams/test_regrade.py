"""An exam regrade that re-judges its kernel items: the instructor chooses the version to judge against,
shadow copies are graded at low priority (the submissions untouched), the page shows live progress and
a diff per student and item (old verdict -> new verdict, old points -> new points, total old -> new),
nothing in scores changes until the instructor applies it, applying is logged and keeps the old
results, and a platform fault while re-judging never lowers a score."""
from __future__ import annotations

import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt, submit_attempt, submit_kernel
from exams.models import EventKind, KernelRegrade
from grader import grading as grader_grading
from grader import rejudging as grader_rejudging
from grader.actions import LOW_PRIORITY
from grader.core.results import JudgeResult
from grader.core.results import TestResult as CaseResult
from grader.core.verdicts import Verdict
from grader.models import Purpose, Status, Submission
from problems.core.package import parse_package
from problems.services import import_package
from tests.packages import HARNESS, SOLUTION, tiny_package_files

from .conftest import client_for

pytestmark = pytest.mark.django_db

# Version 2 of tiny-add: its harness fixed (here: a comment), so that it is a new version.
FIXED_HARNESS = "# v2: the reference fixed\n" + HARNESS


def graded(sub, verdict, passed, total=2):
    tests = [CaseResult(name=f"t{i}", sample=False, verdict=Verdict.ACCEPTED if i < passed else Verdict.WRONG_ANSWER)
             for i in range(total)]
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=verdict, tests=tests, message="as graded"))


def ended_attempt_with(exam, student, verdict, passed, sent_tasks):
    """`student`'s attempt, submitted, whose kernel item has one submission graded `verdict`."""
    attempt = start_attempt(exam, student)
    item = attempt.items.get(kind="kernel")
    sub = submit_kernel(item, student, SOLUTION)
    graded(sub, verdict, passed)
    attempt = submit_attempt(attempt.pk, student)
    return attempt, item, Submission.objects.get(pk=sub.pk)


def fix_the_package():
    """Publish version 2 of tiny-add (the bank's import makes a changed package the current version)."""
    import_package(parse_package(tiny_package_files(**{"harness.py": FIXED_HARNESS})))


def test_package_fix_preview_then_apply(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    """A WRONG_ANSWER judged on v1 is re-judged against the fixed v2 and is ACCEPTED: the diff shows
    alice WRONG_ANSWER -> ACCEPTED, 0 -> 10 points, total 0 -> 10; her score, submission and item change
    only when the instructor applies it, which is logged; the old result stays readable."""
    attempt, item, sub = ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    v1 = item.data["kernel"]["version_id"]
    assert attempt.total == 0.0
    fix_the_package()
    ivy, url = client_for(people["ivy"]), reverse("exams:regrade", args=[exam.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = ivy.post(url, {"action": "rejudge", "against": "current"})
    assert response.status_code == 302
    run = KernelRegrade.objects.get(exam=exam)
    [record] = run.items.select_related("copy__problem_version", "version")
    copy = record.copy
    # A shadow copy, graded at low priority on the practice queues, kept apart from the real submission.
    assert (copy.purpose, copy.user, copy.exam_item_id, copy.source) == (Purpose.REJUDGE, people["ivy"], None, sub.source)
    assert copy.problem_version.number == 2 and record.version == copy.problem_version
    assert (copy.pk, LOW_PRIORITY, False) in sent_tasks.calls

    page = ivy.get(url).content.decode()
    assert 'hx-trigger="every 2s"' in page and 'data-running="1"' in page
    assert "0 of 1 submission re-judged" in page and 'id="apply-regrade" disabled' in page
    ivy.post(url, {"action": "apply"})  # too early: refused
    run.refresh_from_db()
    assert run.applied_at is None

    with django_capture_on_commit_callbacks(execute=True):
        graded(copy, Verdict.ACCEPTED, 2)  # the worker grades the copy against v2
    attempt.refresh_from_db()
    sub.refresh_from_db()
    assert attempt.total == 0.0 and sub.verdict == "WRONG_ANSWER"  # nothing changed yet
    page = ivy.get(url).content.decode()
    assert "every 2s" not in page and "1 of 1 submission re-judged" in page
    row = page[page.index('data-student="alice"'):]
    row = row[:row.index("</tr>")]
    assert "Wrong answer" in row and "Accepted" in row and "version 2" in row
    assert "0 → 10" in row and 'class="total">0 → 10' in row
    fingerprint = page.split('name="fingerprint" value="')[1].split('"')[0]

    with django_capture_on_commit_callbacks(execute=True):
        assert ivy.post(url, {"action": "apply", "fingerprint": fingerprint})["Location"] == reverse(
            "exams:results", args=[exam.pk])
    attempt.refresh_from_db()
    sub.refresh_from_db()
    item.refresh_from_db()
    run.refresh_from_db()
    assert attempt.total == 10.0 and item.points == 10.0 and item.status == "correct"
    assert sub.verdict == "ACCEPTED" and sub.problem_version.number == 2  # the version the verdict came from
    assert item.data["kernel"]["version_id"] == v1  # the variant keeps what it was drawn with
    assert run.applied_by == people["ivy"] and run.applied_at is not None
    assert run.applied_diff["changes"][0]["student"] == "alice"
    event = attempt.events.get(kind=EventKind.REGRADED)
    assert event.by == people["ivy"] and (event.data["old"], event.data["new"]) == (0.0, 10.0)
    assert event.data["verdicts"] == [[item.key, sub.pk, "WRONG_ANSWER", "ACCEPTED", "changed", 2]]
    assert event.data["kernel_regrade"] == run.pk
    timeline = ivy.get(reverse("exams:attempt_detail", args=[attempt.pk])).content.decode()
    assert "Regraded" in timeline and "0 → 10" in timeline
    # The old result stays: in the record, and readable as the submission page shows a result.
    record.refresh_from_db()
    assert record.old_verdict == "WRONG_ANSWER" and record.old_version_id == v1
    old = ivy.get(reverse("exams:kernel_regrade_old_result", args=[exam.pk, run.pk, record.pk])).content.decode()
    assert "Wrong answer" in old and "before the regrade" in old and "version 1" in old
    log = ivy.get(reverse("exams:kernel_regrade", args=[exam.pk, run.pk])).content.decode()
    assert "Applied by ivy" in log and 'data-student="alice"' in log
    # Applied once: the regrade page previews nothing any more.
    assert KernelRegrade.objects.get().applied_at == run.applied_at
    assert 'id="no-changes"' in ivy.get(url).content.decode()


def test_internal_error_while_re_judging_never_lowers_a_score(exam, people, sent_tasks,
                                                              django_capture_on_commit_callbacks):
    """An ACCEPTED submission whose copy ends INTERNAL_ERROR shows as not re-judged; applying keeps its
    verdict and its 10 points."""
    attempt, item, sub = ended_attempt_with(exam, people["alice"], Verdict.ACCEPTED, 2, sent_tasks)
    ivy, url = client_for(people["ivy"]), reverse("exams:regrade", args=[exam.pk])
    with django_capture_on_commit_callbacks(execute=True):
        ivy.post(url, {"action": "rejudge", "against": "own"})
    record = KernelRegrade.objects.get().items.get()
    assert record.copy.problem_version_id == sub.problem_version_id  # "own": the version it was graded on
    with django_capture_on_commit_callbacks(execute=True):
        grader_grading.give_up(record.copy_id, "the worker died")
    page = ivy.get(url).content.decode()
    assert "not re-judged" in page and "a platform fault" in page and "1 not re-judged" in page
    fingerprint = page.split('name="fingerprint" value="')[1].split('"')[0]
    with django_capture_on_commit_callbacks(execute=True):
        ivy.post(url, {"action": "apply", "fingerprint": fingerprint})
    attempt.refresh_from_db()
    sub.refresh_from_db()
    assert attempt.total == 10.0 and sub.verdict == "ACCEPTED" and sub.result is not None


def test_apply_refuses_a_diff_that_moved(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    """The page sends the diff it showed; a different one (here: a stale fingerprint) applies nothing."""
    attempt, item, sub = ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    fix_the_package()
    ivy, url = client_for(people["ivy"]), reverse("exams:regrade", args=[exam.pk])
    with django_capture_on_commit_callbacks(execute=True):
        ivy.post(url, {"action": "rejudge", "against": "current"})
        graded(KernelRegrade.objects.get().items.get().copy, Verdict.ACCEPTED, 2)
    response = ivy.post(url, {"action": "apply", "fingerprint": "0" * 16}, follow=True)
    assert "nothing was applied" in response.content.decode()
    attempt.refresh_from_db()
    assert attempt.total == 0.0 and KernelRegrade.objects.get().applied_at is None


def test_discard_and_only_one_running(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    ivy, url = client_for(people["ivy"]), reverse("exams:regrade", args=[exam.pk])
    ivy.post(url, {"action": "rejudge", "against": "current"})
    ivy.post(url, {"action": "rejudge", "against": "current"})  # refused: the first is still running
    assert KernelRegrade.objects.count() == 1
    ivy.post(url, {"action": "discard"})
    assert KernelRegrade.objects.get().discarded_at is not None
    assert "Discarded (not applied)" in ivy.get(url).content.decode()


def test_a_verdict_given_by_a_rejudge_rescores_nothing_by_itself(exam, people, sent_tasks,
                                                                 django_capture_on_commit_callbacks):
    """Only a submission's first verdict re-scores an ended attempt; a verdict copied in by a rejudge
    waits for the regrade's apply. An in-place rejudge never takes an exam's submission."""
    attempt, item, sub = ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    copy = grader_rejudging.create_rejudge_copy(people["ivy"], sub.problem_version, sub)
    graded(copy, Verdict.ACCEPTED, 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert grader_rejudging.apply_rejudge(sub.pk, Submission.objects.get(pk=copy.pk))
    attempt.refresh_from_db()
    assert Submission.objects.get(pk=sub.pk).verdict == "ACCEPTED" and attempt.total == 0.0
    assert grader_rejudging.rejudge([sub.pk]) == 0
    assert Submission.objects.get(pk=sub.pk).status == Status.GRADED


@pytest.mark.parametrize("who", ["tom", "alice", "eve"])
def test_only_the_courses_instructors_regrade(exam, people, sent_tasks, who):
    ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    ivy = client_for(people["ivy"])
    ivy.post(reverse("exams:regrade", args=[exam.pk]), {"action": "rejudge", "against": "current"})
    run = KernelRegrade.objects.get()
    record = run.items.get()
    other = client_for(people[who])
    assert other.post(reverse("exams:regrade", args=[exam.pk]), {"action": "discard"}).status_code == 404
    for name, args in (("exams:kernel_regrade", [exam.pk, run.pk]),
                       ("exams:kernel_regrade_old_result", [exam.pk, run.pk, record.pk])):
        assert other.get(reverse(name, args=args)).status_code == 404
        assert ivy.get(reverse(name, args=args)).status_code == 200
    assert KernelRegrade.objects.get().discarded_at is None


def test_regrade_pages_in_korean(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    ivy, url = client_for(people["ivy"]), reverse("exams:regrade", args=[exam.pk])
    ko = {"HTTP_ACCEPT_LANGUAGE": "ko"}
    with django_capture_on_commit_callbacks(execute=True):
        ivy.post(url, {"action": "rejudge", "against": "current"})
        grader_grading.give_up(KernelRegrade.objects.get().items.get().copy_id, "the worker died")
    page = ivy.get(url, **ko).content.decode()
    assert "재채점" in page and "다시 채점하지 못함" in page
    run = KernelRegrade.objects.get()
    assert "다시 채점" in ivy.get(reverse("exams:kernel_regrade", args=[exam.pk, run.pk]), **ko).content.decode()


@pytest.mark.parametrize("lang, words", [
    ("en", {"banner": "Exam re-judging against version 2", "crumbs": ["Midterm", "Regrade", "Kernel re-judging"],
            "copy": "submission #{id}</a> by alice"}),
    ("ko", {"banner": "버전 2 기준 시험 커널 다시 채점", "crumbs": ["중간고사", "재채점", "커널 다시 채점"],
            "copy": "alice의 <a href=\"/submissions/{id}/\">제출 #{id}</a>"}),
])
def test_a_regrade_copys_page_leads_back_to_the_exams_kernel_regrade(exam, people, sent_tasks,
                                                                    django_capture_on_commit_callbacks, lang, words):
    """The copy a kernel regrade grades again is saved under the instructor's name; its page said "My
    submissions / #N" with "Edit and resubmit". It leads back to the exam's re-judging and names the
    student's submission it copies."""
    import re

    _attempt, _item, sub = ended_attempt_with(exam, people["alice"], Verdict.WRONG_ANSWER, 0, sent_tasks)
    fix_the_package()
    ivy = client_for(people["ivy"])
    with django_capture_on_commit_callbacks(execute=True):
        ivy.post(reverse("exams:regrade", args=[exam.pk]), {"action": "rejudge", "against": "current"})
    run = KernelRegrade.objects.get(exam=exam)
    copy = run.items.get().copy
    html = ivy.get(copy.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    nav = re.search(r'<nav class="breadcrumbs"[^>]*>(.*?)</nav>', html, re.S).group(1)
    links = re.findall(r'<a href="([^"]*)">([^<]*)</a>', nav)
    run_url = reverse("exams:kernel_regrade", args=[exam.pk, run.pk])
    assert [href for href, _text in links] == [reverse("exams:results", args=[exam.pk]),
                                               reverse("exams:regrade", args=[exam.pk]), run_url]
    assert all(want is None or text == want for (_href, text), want in zip(links, words["crumbs"])), links
    banner = html[html.index('id="run-origin"'):]
    banner = banner[:banner.index("</div>")]
    assert words["banner"] in banner and words["copy"].format(id=sub.pk) in banner and f'href="{run_url}"' in banner
    assert "Edit and resubmit" not in html and "고쳐서 다시 제출" not in html
