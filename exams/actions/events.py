"""The attempt's timeline: every write of exams.actions logs what it did as an AttemptEvent."""
from __future__ import annotations

from ..models import AttemptEvent, EventKind, ExamAttempt


def log_event(attempt: ExamAttempt, kind: EventKind, by=None, **data) -> None:
    """Add one event of `kind` to `attempt`'s timeline, done by user `by` (None: the server), with `data`
    (JSON-serialisable values) as its details. Precondition: inside the caller's transaction, if any."""
    AttemptEvent.objects.create(attempt=attempt, kind=kind, by=by, data=data)
