"""Print runs in the background: a set of forms takes seconds to minutes to typeset (about 1.3 s of
CPU per form with a kernel problem, 0.5 s without; bench/exam_print.py), longer than a web request may
last, so the view asks for a run and a `cpu` worker writes the PDF.

A run is named by a digest of everything its PDF depends on (the exam, its template and secret, the
choices, and for per-student forms the roster and the stored attempts), so asking again for the same
thing finds the finished file, and a change (a reset, a new student) makes a new run. Files live under
VAR_DIR/prints/exam-<id>/, readable only through the staff-only view.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.db import transaction

from exams.core.printing import Part

from .models import Exam, ExamItem
from .printing import PrintSet, exam_pdf

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PrintRun:
    """One requested PDF: its choices and where it is written."""

    exam_id: int
    which: PrintSet
    lang: str  # "en" | "ko"
    part: Part
    count: int  # lettered forms; ignored for per-student runs
    digest: str  # of everything the PDF depends on

    @property
    def path(self) -> Path:
        return Path(settings.VAR_DIR) / "prints" / f"exam-{self.exam_id}" / f"{self.digest}.pdf"

    @property
    def pending_marker(self) -> Path:
        return self.path.with_suffix(".pending")

    @property
    def error_file(self) -> Path:
        return self.path.with_suffix(".error")

    def ready(self) -> bool:
        return self.path.is_file()

    def failed(self) -> str:
        """The reason the last try failed ("" when it did not)."""
        return self.error_file.read_text(encoding="utf-8") if self.error_file.is_file() else ""

    def pending(self) -> bool:
        return self.pending_marker.is_file()


def print_run(exam: Exam, which: PrintSet, lang: str, part: Part, count: int) -> PrintRun:
    """The run for these choices, named by the digest of what its PDF would contain."""
    digest = hashlib.sha256()
    digest.update(json.dumps([exam.pk, exam.secret, exam.title, exam.spec, str(which), lang, str(part),
                              count if which is PrintSet.FORMS else 0], sort_keys=True, default=str).encode())
    if which is PrintSet.STUDENTS:
        from courses.models import Membership, Role

        roster = Membership.objects.filter(course=exam.course, role=Role.STUDENT).order_by("user_id")
        digest.update(json.dumps(list(roster.values_list("user_id", "user__username", "user__first_name",
                                                         "user__last_name"))).encode())
        for data in ExamItem.objects.filter(attempt__exam=exam).order_by("pk").values_list("data", flat=True):
            digest.update(json.dumps(data, sort_keys=True).encode())
    return PrintRun(exam.pk, which, lang, part, count, digest.hexdigest()[:32])


def start(run: PrintRun) -> None:
    """Mark the run pending and queue it once the current transaction commits (a no-op when it is
    already pending or done). A failed run is tried again."""
    if run.ready() or run.pending():
        return
    run.path.parent.mkdir(parents=True, exist_ok=True)
    run.error_file.unlink(missing_ok=True)
    run.pending_marker.write_text("queued", encoding="utf-8")
    transaction.on_commit(lambda: print_exam.delay(run.exam_id, str(run.which), run.lang, str(run.part), run.count,
                                                   run.digest))


@shared_task(acks_late=True, soft_time_limit=1800, time_limit=1900)
def print_exam(exam_id: int, which: str, lang: str, part: str, count: int, digest: str) -> str:
    """Typeset the run and write its PDF atomically (a temporary file renamed into place). Idempotent:
    a run already written returns at once. A failure is written beside it for the page to show."""
    run = PrintRun(exam_id, PrintSet(which), lang, Part(part), count, digest)
    if run.ready():
        return str(run.path)
    exam = Exam.objects.select_related("course").filter(pk=exam_id).first()
    if exam is None:
        run.pending_marker.unlink(missing_ok=True)
        return ""
    try:
        pdf, _name = exam_pdf(exam, run.which, lang, run.part, count)
    except Exception as exc:  # a platform fault (KaTeX missing, a broken package): say it on the page
        log.exception("print run %s of exam %s failed", digest, exam_id)
        run.error_file.write_text(f"{type(exc).__name__}: {exc}", encoding="utf-8")
        run.pending_marker.unlink(missing_ok=True)
        return ""
    partial = run.path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(pdf)
    partial.replace(run.path)
    run.pending_marker.unlink(missing_ok=True)
    return str(run.path)
