"""ProblemStats, the per-student, per-problem summary the dashboards read, equals a recount of the
submissions after gradings, rejudges, rejudge verdicts applied, platform faults and deletions."""
from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from django.contrib.auth.models import User

from authoring import dashboard, progress
from authoring.models import COUNTED_VERDICTS, ProblemStats, verdict_column
from grader import actions as grader
from grader.access import exam_work_q
from grader import grading as grader_grading
from grader import rejudging as grader_rejudging
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Purpose, Status, Submission

pytestmark = pytest.mark.django_db
FIELDS = ["attempts", "best_verdict", "first_at", "last_at", "first_accepted_at", "seconds_to_accepted"] + [
    verdict_column(v) for v in COUNTED_VERDICTS]


def recount() -> dict:
    """Every pair counted from the practice submissions themselves (what the dashboards counted before;
    exam work is the exam's)."""
    rows = defaultdict(list)
    for s in Submission.objects.filter(purpose=Purpose.STUDENT, status=Status.GRADED).exclude(
            verdict="INTERNAL_ERROR").exclude(exam_work_q()).order_by("created_at", "pk").select_related("problem_version"):
        rows[(s.user_id, s.problem_version.problem_id)].append(s)
    out = {}
    for pair, subs in rows.items():
        ok = [s.created_at for s in subs if s.verdict == "ACCEPTED"]
        out[pair] = {"attempts": len(subs), "best_verdict": "ACCEPTED" if ok else subs[-1].verdict,
                     "first_at": subs[0].created_at, "last_at": subs[-1].created_at,
                     "first_accepted_at": ok[0] if ok else None,
                     "seconds_to_accepted": (ok[0] - subs[0].created_at).total_seconds() if ok else None,
                     **{verdict_column(v): sum(1 for s in subs if s.verdict == v) for v in COUNTED_VERDICTS}}
    return out


def stored() -> dict:
    return {(r["user_id"], r["problem_id"]): {f: r[f] for f in FIELDS}
            for r in ProblemStats.objects.values("user_id", "problem_id", *FIELDS)}


def recount_details() -> tuple[Counter, Counter]:
    """Submissions per (user, problem, day) and per (user, problem, error), from the submissions' results."""
    from django.utils import timezone

    from authoring.core.stats import error_key

    days, errors = Counter(), Counter()
    for s in Submission.objects.filter(purpose=Purpose.STUDENT, status=Status.GRADED).exclude(
            verdict="INTERNAL_ERROR").exclude(exam_work_q()).select_related("problem_version"):
        pair = (s.user_id, s.problem_version.problem_id)
        days[pair + (timezone.localdate(s.created_at, timezone.get_default_timezone()),)] += 1
        result = s.result or {}
        if s.verdict == "COMPILE_ERROR" and (result.get("compile") or {}).get("messages"):
            from grader.core.messages import Message

            stored = result["compile"]["messages"][0]["message"]  # {"code", "params"}, or text stored before
            text = str(Message.from_dict(stored)) if isinstance(stored, dict) else stored
            errors[pair + ("compile", error_key(text))] += 1
        elif s.verdict not in ("ACCEPTED", "WRONG_ANSWER", "COMPILE_ERROR") and result.get("diagnostics"):
            first = result["diagnostics"][0]
            errors[pair + ("diagnostic", f"{first['kind']} (line {first['line']})")] += 1
    return days, errors


def stored_details() -> tuple[Counter, Counter]:
    from authoring.models import ProblemDay, ProblemError

    return (Counter({(r.user_id, r.problem_id, r.day): r.n for r in ProblemDay.objects.all()}),
            Counter({(r.user_id, r.problem_id, r.kind, r.text): r.n for r in ProblemError.objects.all()}))


def check() -> None:
    assert stored() == recount()
    assert stored_details() == recount_details()


def result_of(verdict: Verdict) -> JudgeResult:
    """A result with what the common-errors table reads: a compiler message or a first diagnostic."""
    from grader.core.results import CompileMessage, CompileResult, Diagnostic
    from grader.core.verdicts import DiagnosticKind

    result = JudgeResult(verdict=verdict)
    if verdict is Verdict.COMPILE_ERROR:
        result.compile = CompileResult(ok=False, messages=[CompileMessage(line=3, column=1, severity="error",
                                                                          message="'idx7' was not declared")])
    elif verdict in (Verdict.SYNC_ERROR, Verdict.MEMORY_ERROR, Verdict.DEADLOCK):
        result.diagnostics = [Diagnostic(kind=DiagnosticKind.DIVERGENT_BARRIER, line=11)]
    return result


def graded(user, version, verdict: Verdict, purpose=Purpose.STUDENT) -> Submission:
    """A submission through the grader's write path: saved QUEUED, then finish_grading."""
    s = Submission.objects.create(user=user, problem_version=version, source="x", purpose=purpose)
    grader_grading.start_grading(s.pk, "emulator", lock_held=True)
    assert grader_grading.finish_grading(s.pk, result_of(verdict))
    return Submission.objects.get(pk=s.pk)


def test_every_counted_verdict_has_its_column():
    assert set(COUNTED_VERDICTS) == {v.value for v in Verdict if v.is_final_for_student}
    names = {f.name for f in ProblemStats._meta.fields}
    assert all(verdict_column(v) in names for v in COUNTED_VERDICTS)


def test_the_summary_equals_a_recount_after_gradings_rejudges_and_deletions(problem, bank_problem, people,
                                                                            django_capture_on_commit_callbacks):
    stu, tara = people["stu"], people["tara"]
    bob = User.objects.create_user("bob")
    v1, v2 = problem.versions.get(), bank_problem.current_version
    subs = [graded(stu, v1, Verdict.COMPILE_ERROR), graded(stu, v1, Verdict.WRONG_ANSWER),
            graded(stu, v1, Verdict.ACCEPTED), graded(stu, v1, Verdict.SYNC_ERROR),
            graded(stu, v2, Verdict.MEMORY_ERROR), graded(bob, v2, Verdict.DEADLOCK),
            graded(bob, v2, Verdict.ACCEPTED)]
    graded(tara, v1, Verdict.ACCEPTED, purpose=Purpose.VALIDATION)  # never counted
    grader_grading.give_up(Submission.objects.create(user=bob, problem_version=v1, source="x").pk, "worker lost")  # nor this
    check()
    assert len(stored()) == 3 and len(stored_details()[1]) >= 2
    assert stored()[(stu.pk, problem.pk)]["attempts"] == 4
    assert stored()[(stu.pk, problem.pk)]["best_verdict"] == "ACCEPTED"

    # A rejudge takes the submission out of the count until its new verdict arrives.
    grader_rejudging.rejudge([subs[2].pk])
    check()
    assert stored()[(stu.pk, problem.pk)]["first_accepted_at"] is None
    assert grader_grading.finish_grading(subs[2].pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    check()
    assert stored()[(stu.pk, problem.pk)]["best_verdict"] == "SYNC_ERROR"

    # A rejudge preview's copy applied to the original (the copy itself is not a student's).
    copy = graded(people["prof"], v1, Verdict.ACCEPTED, purpose=Purpose.REJUDGE)
    assert grader_rejudging.apply_rejudge(subs[0].pk, copy)
    check()
    assert stored()[(stu.pk, problem.pk)]["n_accepted"] == 1

    # Deletions (each pair recomputed once the deletion commits): one submission, then a pair's
    # last one, then a whole user.
    with django_capture_on_commit_callbacks(execute=True):
        subs[3].delete()
    check()
    with django_capture_on_commit_callbacks(execute=True):
        subs[4].delete()
    check()
    assert (stu.pk, bank_problem.pk) not in stored()
    with django_capture_on_commit_callbacks(execute=True):
        bob.delete()
    check()
    assert len(stored()) == 1


def test_rebuild_recounts_what_was_written_around_the_signals(problem, people):
    v1 = problem.versions.get()
    graded(people["stu"], v1, Verdict.WRONG_ANSWER)
    Submission.objects.filter(user=people["stu"]).update(verdict="ACCEPTED")  # no signal
    assert stored() != recount()
    assert progress.rebuild() == 1
    check()


def test_the_dashboard_reads_the_summary(problem, people, courses):
    """Counting a course's dashboard reads the summary rows, not the submissions, for its verdicts,
    stuck students and times to a first ACCEPTED."""
    from courses.models import Membership, Role

    v1 = problem.versions.get()
    bob = User.objects.create_user("bob")
    Membership.objects.create(course=courses["A"], user=bob, role=Role.STUDENT)
    for _ in range(5):
        graded(bob, v1, Verdict.WRONG_ANSWER)
    graded(people["stu"], v1, Verdict.ACCEPTED)
    d = dashboard.build(courses["A"])
    assert dict(d.verdicts) == {"WRONG_ANSWER": 5, "ACCEPTED": 1} and d.total == 6
    assert d.stuck == [("bob", problem.slug, 5)]
    assert [(slug, n) for slug, n, _median in d.first_accepted] == [(problem.slug, 1)]
    Submission.objects.all().update(verdict="TIME_LIMIT")  # around the signals: the summary still says what it said
    assert dict(dashboard.build(courses["A"]).verdicts) == {"WRONG_ANSWER": 5, "ACCEPTED": 1}


def test_the_migration_stores_seconds_to_a_first_accepted_for_pairs_summed_before(problem, people):
    """Pairs summed before seconds_to_accepted existed get first_accepted_at - first_at in seconds."""
    import importlib
    from datetime import timedelta

    from django.apps import apps

    v1 = problem.versions.get()
    graded(people["stu"], v1, Verdict.WRONG_ANSWER)
    graded(people["stu"], v1, Verdict.ACCEPTED)
    row = ProblemStats.objects.get()
    ProblemStats.objects.update(first_accepted_at=row.first_at + timedelta(seconds=90.5), seconds_to_accepted=None)
    migration = importlib.import_module("authoring.migrations.0004_problemstats_seconds_to_accepted")
    migration.backfill(apps, None)
    assert ProblemStats.objects.get().seconds_to_accepted == 90.5
