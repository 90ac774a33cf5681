"""The kernel-problem catalogue the exams core validates and draws against, read from problems.models."""
from __future__ import annotations

from django.db.models import Q

from exams.core.catalogue import KernelInfo
from problems.core.package import PackageError


# What drawing needs of a version's package (its variant spec and tags, or why it does not parse),
# per process and per (version id, content hash): versions never change, so this is never stale,
# and a room pressing Start does not unpickle the package once per student.
_VERSION_FACTS: dict[tuple[int, str], tuple[str, object, tuple[str, ...]]] = {}
_MAX_VERSION_FACTS = 2048


def _version_facts(version) -> tuple[str, object, tuple[str, ...]]:
    """(error, variants, tags) of a saved ProblemVersion's package."""
    key = (version.pk, version.content_hash)
    facts = _VERSION_FACTS.get(key)
    if facts is None:
        try:
            package = version.package()
        except PackageError as exc:
            facts = (str(exc), None, ())
        else:
            facts = ("", package.variants, package.tags)
        if len(_VERSION_FACTS) >= _MAX_VERSION_FACTS:
            _VERSION_FACTS.clear()
        _VERSION_FACTS[key] = facts
    return facts


def _info(problem) -> KernelInfo:
    version = problem.current_version
    error, variants, tags = "", None, ()
    if problem.course_id is None and not problem.is_published:
        error = "it is not published"
    elif version is None:
        # A course's problem gets its version in use from authoring (publish, or "use in exams only"),
        # which both need a validation run that passed.
        error = "it has no version in use" if problem.course_id is None else NO_EXAM_VERSION
    else:
        error, variants, tags = _version_facts(version)
    return KernelInfo(problem.slug, version.pk if version else None, version.number if version else None,
                      problem.topic, tags, error, variants)


NO_EXAM_VERSION = ("it has no validated version in use: validate a version, then publish it or use it "
                   "in exams only (authoring)")


class DbCatalogue:
    """KernelCatalogue over the database's problems (kind 'kernel'). A problem 'validates' when its
    current version's package parses (import_problems validated it when imported; authoring makes a
    version current only after a validation run passed) and, for the shipped bank's, it is published.
    A course's own problem need not be published: an exam keeps it secret (exams.reservations), as
    exam platforms keep exam-only questions.

    With a `course`, only the problems a template of that course may use: the course's own and the
    shipped bank's (course None); another course's problems are unknown to it. Without one (the
    CLI, a staff shell), every problem. Tags are the package's (problem.yaml's `tags`).
    """

    def __init__(self, course=None):
        self.course = course

    def _rows(self):
        from problems.models import Problem

        # Not the version's files (every file of the package, as JSON): the package cache has the
        # parsed package, and a miss loads them then.
        rows = Problem.objects.filter(kind="kernel").select_related("current_version").defer("current_version__files")
        if self.course is not None:
            rows = rows.filter(Q(course__isnull=True) | Q(course=self.course))
        return rows

    def get(self, slug: str) -> KernelInfo | None:
        problem = self._rows().filter(slug=slug).first()
        return _info(problem) if problem else None

    def matching(self, topic: str | None, tag: str | None) -> list[KernelInfo]:
        """Every usable problem of the topic and/or with the tag, sorted by slug."""
        rows = self._rows().order_by("slug")
        if topic:
            rows = rows.filter(topic=topic)
        infos = [i for i in map(_info, rows) if not i.error]
        return [i for i in infos if not tag or tag in i.tags]
