"""What a submission that is nobody's attempt was made for, as its page names it: an author's validation
run (Purpose.VALIDATION) or the copy a rejudge preview grades again (Purpose.REJUDGE, of a problem's
rejudge or of an exam's kernel regrade). Its page leads back to that run, says what it is, and offers
no "Edit and resubmit". The app that made the run knows it (authoring.services, exams.services);
this module asks them."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .models import Purpose, Submission


class RunKind(enum.StrEnum):
    """Which run a submission that is nobody's attempt belongs to."""

    VALIDATION = "validation"  # an author's solution or wrong solution, run by Validate
    REJUDGE = "rejudge"  # a copy of a submission graded again by a problem's rejudge preview
    REGRADE = "regrade"  # a copy of an exam submission graded again by the exam's kernel regrade


@dataclass(frozen=True)
class RunOrigin:
    """The run a submission was made for, with what its page says of it (rendered by the template)."""

    kind: RunKind
    version: int  # the number of the problem version it was graded against
    run_url: str  # the run's page: the validation run, the rejudge, the exam's kernel regrade
    crumbs: list[tuple[str, str]] = field(default_factory=list)  # (label, url) from the top down to the run
    file: str = ""  # VALIDATION: "solution.cu" or "wrong/<name>.cu", a variant's values after " · "
    wrong_name: str = ""  # VALIDATION of a wrong solution: its name ("missing_syncthreads"), else ""
    declared: str = ""  # VALIDATION: the verdict the source must get (a Verdict's value)
    original_id: int | None = None  # REJUDGE, REGRADE: the submission it is a copy of
    original_url: str = ""  # and that submission's page
    original_user: str = ""  # and its author's username


def run_origin(submission: Submission) -> RunOrigin | None:
    """The run `submission` was made for; None for a student's own (Purpose.STUDENT), or when its run is gone."""
    if submission.purpose == Purpose.VALIDATION:
        from authoring.services import validation_origin

        return validation_origin(submission)
    if submission.purpose == Purpose.REJUDGE:
        from authoring.services import rejudge_origin
        from exams.services import regrade_origin

        return rejudge_origin(submission) or regrade_origin(submission)
    return None
