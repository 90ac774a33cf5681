"""The kernel-problem catalogue the exams core validates and draws against, read from problems.models."""
from __future__ import annotations

from django.db.models import Q

from exams.core.template import KernelInfo
from problems.core.package import PackageError


def _info(problem) -> KernelInfo:
    version = problem.current_version
    error, variants, tags = "", None, ()
    if not problem.is_published:
        error = "it is not published"
    elif version is None:
        error = "it has no version"
    else:
        try:
            package = version.package()
        except PackageError as exc:
            error = str(exc)
        else:
            variants, tags = package.variants, package.tags
    return KernelInfo(problem.slug, version.pk if version else None, version.number if version else None,
                      problem.topic, tags, error, variants)


class DbCatalogue:
    """KernelCatalogue over the database's problems (kind 'kernel'). A problem 'validates' when it is
    published and its current version's package parses (import_problems validated it when imported).

    With a `course`, only the problems a template of that course may use: the course's own and the
    shipped bank's (course None); another course's problems are unknown to it. Without one (the
    CLI, a staff shell), every problem. Tags are the package's (problem.yaml's `tags`).
    """

    def __init__(self, course=None):
        self.course = course

    def _rows(self):
        from problems.models import Problem

        rows = Problem.objects.filter(kind="kernel").select_related("current_version")
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
