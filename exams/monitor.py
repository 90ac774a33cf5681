"""The reads of the live exam monitor (exams.core.monitor): every refresh is two aggregate queries,
whatever the number of students.

1. The exam's attempts with their student's name, each grouped over its items and their kernel
   submissions: items, answered items, submissions being graded, graded ones per verdict.
2. The course's students with no attempt at this exam.

A question counts as answered when one of its saved fields is not blank, as the attempt page counts
it; that test reads the saved answer inside the database (AnswerHasText), so no answer or kernel
draft is sent to Python.
"""
from __future__ import annotations

from django.db.models import BooleanField, Count, F, Func, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from exams.core.monitor import VERDICT_ORDER, AttemptFacts, Monitor, age_parts, build_monitor

from .models import Exam, ExamAttempt

GRADING = ("QUEUED", "COMPILING", "RUNNING", "CHECKING", "RETRYING")  # grader.models.Status before GRADED


class AnswerHasText(Func):
    """True when the saved answer (a JSON object of field texts) has a value that is not blank."""

    output_field = BooleanField()
    arity = 1

    def as_sql(self, compiler, connection, **extra):  # SQLite (JSON1), the development database
        sql, params = compiler.compile(self.source_expressions[0])
        return f"EXISTS (SELECT 1 FROM json_each({sql}) f WHERE trim(CAST(f.value AS TEXT)) <> '')", params

    def as_postgresql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"EXISTS (SELECT 1 FROM jsonb_each_text({sql}) f WHERE btrim(f.value) <> '')", params


def _verdict_key(verdict: str) -> str:
    return f"v_{verdict.lower()}"


def attempt_facts(exam: Exam) -> list[AttemptFacts]:
    """Every attempt of `exam` as the monitor reads it, in one grouped query."""
    subs = "items__submissions"
    answered_question = Q(items__kind="question") & Q(AnswerHasText(F("items__answer")))
    rows = (ExamAttempt.objects.filter(exam=exam)
            .values("pk", "user__username", "state", "close_reason", "started_at", "deadline", "ended_at",
                    "last_saved_at")
            .annotate(n_items=Count("items", distinct=True),
                      n_questions_answered=Count("items", filter=answered_question, distinct=True),
                      n_kernels_answered=Count(f"{subs}__exam_item", distinct=True),
                      n_grading=Count(subs, filter=Q(**{f"{subs}__status__in": GRADING}), distinct=True),
                      **{_verdict_key(v): Count(subs, filter=Q(**{f"{subs}__status": "GRADED",
                                                                 f"{subs}__verdict": v}), distinct=True)
                         for v in VERDICT_ORDER})
            .order_by())
    return [AttemptFacts(r["pk"], r["user__username"], r["state"], r["started_at"], r["deadline"], r["ended_at"],
                         r["last_saved_at"], r["n_items"], r["n_questions_answered"] + r["n_kernels_answered"],
                         r["n_grading"], {v: r[_verdict_key(v)] for v in VERDICT_ORDER if r[_verdict_key(v)]},
                         r["close_reason"])
            for r in rows]


def not_started(exam: Exam) -> list[str]:
    """Usernames of the course's students who have not started `exam`, in one query."""
    from courses.models import Membership, Role

    return list(Membership.objects.filter(course_id=exam.course_id, role=Role.STUDENT)
                .exclude(user__exam_attempts__exam=exam).order_by().values_list("user__username", flat=True))


def monitored_exam(pk: int) -> Exam | None:
    """The exam with its course and `own_close`, the latest close of an accommodation's own window
    (None without one), in one query."""
    return (Exam.objects.select_related("course").annotate(own_close=Max("accommodations__closes_at"))
            .filter(pk=pk).first())


def read_monitor(exam: Exam, now=None) -> Monitor:
    """The monitor of `exam` (from monitored_exam) at `now` (default: the current time): two queries."""
    now = now or timezone.now()
    own = getattr(exam, "own_close", None)
    closes = max(exam.closes_at, own) if own else exam.closes_at
    return build_monitor(attempt_facts(exam), not_started(exam), now, closes)


def ago_text(seconds: int) -> str:
    """An age for a person to read, in the active language: "12 s ago", "3 min ago", "1 h 5 min ago"."""
    hours, minutes, secs = age_parts(seconds)
    if hours:
        return _("%(h)d h %(m)d min ago") % {"h": hours, "m": minutes}
    if minutes:
        return _("%(m)d min ago") % {"m": minutes}
    return _("%(s)d s ago") % {"s": secs}
