"""The kernel problems a template may draw, behind a small protocol: the Django shell looks them up in
problems.models (exams.catalogue.DbCatalogue); tests, the CLI and previews use StaticCatalogue, and a
template validated before is re-read with AnyCatalogue. No database here."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence


@dataclass(frozen=True)
class KernelInfo:
    """What the catalogue knows about one kernel problem."""

    slug: str
    version_id: int | None  # the current package version's id (None: no published version)
    version_number: int | None
    topic: str
    tags: tuple[str, ...] = ()
    error: str = ""  # non-empty: the problem does not validate (or has no version); why
    variants: Any = None  # the package's VariantSpec (problems/core/variants.py) when it varies per student


class KernelCatalogue(Protocol):
    """Where kernel problems are looked up (the Django shell queries problems.models)."""

    def get(self, slug: str) -> KernelInfo | None:
        """The problem with this slug, or None when there is none."""

    def matching(self, topic: str | None, tag: str | None) -> list[KernelInfo]:
        """Every usable problem of the topic and/or with the tag, sorted by slug."""


class StaticCatalogue:
    """A catalogue from a list of KernelInfo (tests, the CLI, previews)."""

    def __init__(self, infos: Sequence[KernelInfo] = ()):
        self.infos = {i.slug: i for i in infos}

    def get(self, slug: str) -> KernelInfo | None:
        return self.infos.get(slug)

    def matching(self, topic: str | None, tag: str | None) -> list[KernelInfo]:
        return sorted((i for i in self.infos.values() if not i.error
                       and (topic is None or i.topic == topic) and (tag is None or tag in i.tags)),
                      key=lambda i: i.slug)


class AnyCatalogue:
    """A catalogue that accepts every kernel problem and asks nothing (no database): to parse a
    template that was validated when it was saved or scheduled (an exam's stored spec, an export).
    Drawing checks the problems against the real catalogue."""

    lenient = True  # parse_template skips the checks that need real problems (pool sizes)

    def get(self, slug: str) -> KernelInfo | None:
        return KernelInfo(slug, 0, 0, "")

    def matching(self, topic: str | None, tag: str | None) -> list[KernelInfo]:
        return [KernelInfo("any", 0, 0, topic or "", (tag,) if tag else ())]
