"""Students' variants drawn ahead of Start (issue 12's exam-start burst).

Drawing one student's exam (exams.core.draw) runs every question's generator: about 10-15 ms of
Python for a 7-question exam, and it used to run inside Start, while the whole room pressed Start in
the same minute. Here the variants are drawn when the exam is scheduled (a task on the `exam` queue,
`predraw_exam`), stored per (exam, student) in ExamDraw, and Start copies the stored items into the
attempt. The draw is the one Start would make: the same function, the same (exam secret, student)
seed, so it is deterministic per (exam, student) and differs between students; once copied, the
attempt's ExamItems hold params, prompt, answer and worked solution as before.

A stored draw is used only while what it was drawn from is unchanged: the exam's template data
(`spec_hash`), the course's target GPU (`target_cc`) and, for kernel items, each drawn version
still the problem's current version, published for a bank problem (one query at Start). Otherwise, and for a student
with no stored draw (enrolled after scheduling, or the task has not run yet), Start draws as before.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import JSONField, OuterRef, Q, Subquery

from exams.core.draw import draw_exam, repeats

from .catalogue import DbCatalogue
from .models import ExamAttempt, ExamDraw

log = logging.getLogger(__name__)
BATCH = 200  # draws written per INSERT


def spec_hash(exam) -> str:
    """A hash of the exam's template data as scheduled (64 hex digits)."""
    return hashlib.sha256(json.dumps(exam.spec, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class _MemoCatalogue:
    """A DbCatalogue that asks the database once per slug or (topic, tag) for a whole predraw."""

    def __init__(self, course):
        self.inner, self.got, self.matched = DbCatalogue(course), {}, {}

    def get(self, slug):
        if slug not in self.got:
            self.got[slug] = self.inner.get(slug)
        return self.got[slug]

    def matching(self, topic, tag):
        if (topic, tag) not in self.matched:
            self.matched[(topic, tag)] = self.inner.matching(topic, tag)
        return self.matched[(topic, tag)]


def draw_items(exam, user_id: int, catalogue=None) -> list[dict]:
    """The student's drawn items (exams.core.draw's dicts), drawn now. Raises DrawError."""
    from .actions.scheduling import spec_of

    return draw_exam(spec_of(exam), exam.secret, user_id, catalogue or DbCatalogue(exam.course),
                     exam.course.target_cc).items


def predraw_exam(exam_id: int) -> int:
    """Draw and store the variant of every student of the exam's course who has neither an attempt
    nor a current stored draw; stale draws (another template or target GPU) are replaced. Returns how
    many were drawn. Safe to run twice, and while students start (a draw someone else stored first
    is kept). A DrawError (a kernel problem not available) is logged and draws nothing: Start then
    draws, and reports it, as before."""
    from courses.models import Membership, Role
    from exams.core.draw import DrawError

    from .models import Exam

    exam = Exam.objects.select_related("course").filter(pk=exam_id).first()
    if exam is None:
        return 0
    digest, cc = spec_hash(exam), exam.course.target_cc or ""
    students = set(Membership.objects.filter(course=exam.course, role=Role.STUDENT).values_list("user_id", flat=True))
    started = set(ExamAttempt.objects.filter(exam=exam).values_list("user_id", flat=True))
    current = set(ExamDraw.objects.filter(exam=exam, spec_hash=digest, target_cc=cc).values_list("user_id", flat=True))
    todo = sorted(students - started - current)
    if not todo:
        return 0
    ExamDraw.objects.filter(exam=exam, user_id__in=todo).delete()  # stale ones
    catalogue = _MemoCatalogue(exam.course)
    drawn = 0
    for start in range(0, len(todo), BATCH):
        rows = []
        for user_id in todo[start:start + BATCH]:
            try:
                items = draw_items(exam, user_id, catalogue)
            except DrawError as exc:
                log.error("exam %s: cannot draw ahead: %s", exam.pk, exc)
                return drawn
            rows.append(ExamDraw(exam=exam, user_id=user_id, items=items, spec_hash=digest, target_cc=cc))
        ExamDraw.objects.bulk_create(rows, ignore_conflicts=True)
        drawn += len(rows)
    return drawn


@dataclass
class StartFacts:
    """What Start needs to know about one student, read in one query (start_facts)."""

    attempt_id: int | None  # their attempt, if they have started
    window: tuple  # (opens, closes, extra minutes): the exam's, or their accommodation's
    draw: tuple | None  # (items, spec_hash, target_cc) of their stored draw, if any


def start_facts(exam, user) -> StartFacts:
    """The student's attempt id, window and stored draw in one query (three subqueries on indexed
    (exam, user) pairs), where asking each would cost three round trips inside Start."""
    from .actions.scheduling import window_with  # it imports this module
    from .models import Accommodation, Exam

    mine = {"exam": OuterRef("pk"), "user": user}
    acc = Accommodation.objects.filter(**mine)
    draw = ExamDraw.objects.filter(**mine)
    row = Exam.objects.filter(pk=exam.pk).annotate(
        attempt_id=Subquery(ExamAttempt.objects.filter(**mine).values("pk")[:1]),
        acc_id=Subquery(acc.values("pk")[:1]), acc_extra=Subquery(acc.values("extra_minutes")[:1]),
        acc_opens=Subquery(acc.values("opens_at")[:1]), acc_closes=Subquery(acc.values("closes_at")[:1]),
        draw_items=Subquery(draw.values("items")[:1], output_field=JSONField()),
        draw_hash=Subquery(draw.values("spec_hash")[:1]), draw_cc=Subquery(draw.values("target_cc")[:1]),
    ).values("attempt_id", "acc_id", "acc_extra", "acc_opens", "acc_closes", "draw_items", "draw_hash",
             "draw_cc").get()
    own = None if row["acc_id"] is None else Accommodation(
        opens_at=row["acc_opens"], closes_at=row["acc_closes"], extra_minutes=row["acc_extra"])
    window = window_with(exam, own)
    draw_row = (row["draw_items"], row["draw_hash"], row["draw_cc"]) if row["draw_hash"] is not None else None
    return StartFacts(row["attempt_id"], window, draw_row)


def stored_items(exam, user) -> list[dict] | None:
    """The student's draw stored ahead, if it is still what Start would draw now; else None."""
    return current_items(exam, start_facts(exam, user))


def current_items(exam, facts: StartFacts) -> list[dict] | None:
    """The stored draw of `facts`, if it is still what Start would draw now; else None. Costs one
    query when the exam has kernel items (their drawn versions still published and current)."""
    from problems.models import Problem

    if facts.draw is None:
        return None
    items, digest, cc = facts.draw
    if cc != (exam.course.target_cc or "") or digest != spec_hash(exam) or not isinstance(items, list):
        return None
    if repeats(items):  # drawn before a draw avoided repeats: Start draws again
        return None
    versions = {i["kernel"]["version_id"] for i in items if i.get("kind") == "kernel"}
    usable = Q(is_published=True) | Q(course__isnull=False)  # as the catalogue: a course's problem may be hidden
    if versions and Problem.objects.filter(usable, current_version_id__in=versions).count() != len(versions):
        return None
    return items


def forget_closed(now=None) -> int:
    """Delete the stored draws of exams whose window has closed (a started student's draw is their
    attempt's items by then; a Start in an accommodation's later window draws again, the same
    items). Returns how many."""
    from django.utils import timezone

    deleted, _ = ExamDraw.objects.filter(exam__closes_at__lt=now or timezone.now()).delete()
    return deleted


def enqueue_predraw(exam) -> None:
    """Queue predraw_exam for the exam once the current transaction commits. A broker that is down
    loses nothing: Start draws whatever is not stored."""
    def send():
        from .tasks import predraw_exam as task

        try:
            task.delay(exam.pk)
        except Exception as exc:  # kombu/redis errors vary by transport; all mean "not sent now"
            log.warning("exam %s: variants not queued for drawing ahead (%s: %s); Start will draw them",
                        exam.pk, type(exc).__name__, exc)

    transaction.on_commit(send)
