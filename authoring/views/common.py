"""What every authoring page does first: find the course for its staff, and a problem among that
course's own problems.

Every view asks courses.access for a TA or instructor role first (Http404 for anyone else, students
included, exactly as for a course that does not exist), then finds the problem among that course's
own problems only, so staff of course A never reach course B's problems, files or runs.
"""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from courses import access
from problems.models import Problem


def staff_course(request, code: str):
    """(course, role) for a TA or instructor of the course with code `code`; Http404 for everyone else."""
    return access.course_for(request.user, code, *access.MANAGERS)


def course_problem(course, slug: str) -> Problem:
    """The problem `slug` of `course` itself (never another course's, nor the bank's); Http404 if none."""
    return get_object_or_404(Problem.objects.select_related("current_version"), course=course, slug=slug)


def report_save(request, version, created: bool) -> None:
    """Tell the user what a save did: a new version `version` (`created`), or none because the files are
    those of `version` already (actions.save_version's answer)."""
    if created:
        messages.success(request, _("Saved as version %(n)d.") % {"n": version.number})
    else:
        messages.info(request, _("No changes: the files are those of version %(n)d.") % {"n": version.number})
