"""Writes of the problems app: importing packages as problem versions."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from problems.core.package import PackageError, ProblemPackage, load_package

from .models import Problem, ProblemVersion


@dataclass
class ImportOutcome:
    """What importing one package did."""

    slug: str
    version: int
    action: str  # "created" (new problem), "updated" (new version), "unchanged"


@transaction.atomic
def import_package(package: ProblemPackage) -> ImportOutcome:
    """Create or update the problem for `package`.

    Idempotent: the same files give the same version ("unchanged"). Changed files make a new
    ProblemVersion that becomes current; submissions keep pointing at the version they used.
    """
    problem, created = Problem.objects.select_for_update().get_or_create(
        slug=package.slug,
        defaults={
            "title_en": package.title["en"],
            "title_ko": package.title.get("ko", ""),
            "topic": package.topic.value,
            "kind": package.kind,
            "difficulty": package.difficulty,
        },
    )
    digest = package.content_hash
    existing = problem.versions.filter(content_hash=digest).first()
    if existing:
        if problem.current_version_id != existing.pk:
            problem.current_version = existing
            problem.save(update_fields=["current_version", "updated_at"])
        return ImportOutcome(package.slug, existing.number, "unchanged")
    number = (problem.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    version = ProblemVersion.objects.create(problem=problem, number=number, content_hash=digest, files=package.files)
    problem.title_en = package.title["en"]
    problem.title_ko = package.title.get("ko", "")
    problem.topic = package.topic.value
    problem.kind = package.kind
    problem.difficulty = package.difficulty
    problem.current_version = version
    problem.save()
    return ImportOutcome(package.slug, number, "created" if created else "updated")


def import_bank(root: str | Path) -> list[ImportOutcome | PackageError]:
    """Import every package folder under `root` (folders holding a problem.yaml).

    A malformed package is reported (its PackageError in the list) and does not stop the others.
    """
    outcomes: list[ImportOutcome | PackageError] = []
    for folder in sorted(p.parent for p in Path(root).glob("*/problem.yaml")):
        try:
            outcomes.append(import_package(load_package(folder)))
        except PackageError as exc:
            exc.folder = folder.name
            outcomes.append(exc)
    return outcomes


def resolve_package(path_or_slug: str) -> ProblemPackage:
    """A package from a folder path, a slug under problems/bank/, or a slug in the database.

    Raises PackageError when nothing matches.
    """
    path = Path(path_or_slug)
    if path.is_dir():
        return load_package(path)
    bank = Path(__file__).resolve().parent / "bank" / path_or_slug
    if bank.is_dir():
        return load_package(bank)
    problem = Problem.objects.filter(slug=path_or_slug).select_related("current_version").first()
    if problem and problem.current_version:
        return problem.current_version.package()
    raise PackageError(path_or_slug, "no package folder or problem with this slug")
