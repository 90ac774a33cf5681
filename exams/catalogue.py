"""The kernel-problem catalogue the exams core validates and draws against, read from problems.models."""
from __future__ import annotations

from exams.core.template import KernelInfo
from problems.core.package import PackageError


def _info(problem) -> KernelInfo:
    version = problem.current_version
    error, variants = "", None
    if not problem.is_published:
        error = "it is not published"
    elif version is None:
        error = "it has no version"
    else:
        try:
            variants = version.package().variants
        except PackageError as exc:
            error = str(exc)
    return KernelInfo(problem.slug, version.pk if version else None, version.number if version else None,
                      problem.topic, (), error, variants)


class DbCatalogue:
    """KernelCatalogue over the database's problems (kind 'kernel'). A problem 'validates' when it is
    published and its current version's package parses (import_problems validated it when imported)."""

    def get(self, slug: str) -> KernelInfo | None:
        from problems.models import Problem

        problem = Problem.objects.filter(slug=slug).select_related("current_version").first()
        return _info(problem) if problem else None

    def matching(self, topic: str | None, tag: str | None) -> list[KernelInfo]:
        from problems.models import Problem

        rows = Problem.objects.filter(kind="kernel").select_related("current_version").order_by("slug")
        if topic:
            rows = rows.filter(topic=topic)
        if tag:  # packages carry no tags yet: a tag matches nothing
            return []
        return [i for i in map(_info, rows) if not i.error]
