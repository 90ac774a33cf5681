"""Services of the problems app: importing packages as problem versions, and reading them back parsed."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.core.cache import caches
from django.db import transaction

from problems.core.package import PackageError, ProblemPackage, load_package, parse_package

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


# The cache alias of parsed packages (settings.CACHES): bounded, per process.
PACKAGE_CACHE = "packages"
# Bump when ProblemPackage's fields change, so pickles of the old class are not read back.
PACKAGE_CACHE_FORMAT = 1


def version_package(version: ProblemVersion) -> ProblemPackage:
    """The parsed package of `version`, parsed once and then read from the package cache.

    Parsing problem.yaml costs milliseconds per request; a ProblemVersion never changes once
    imported, and a changed package becomes a new version with a new content hash, so the key
    (version id and content hash) never goes stale and nothing needs invalidating. The cache
    (`settings.CACHES["packages"]`, Django's local-memory backend) is bounded and hands every
    caller its own unpickled copy: a caller that changes the package changes nobody else's.
    """
    key = f"package:f{PACKAGE_CACHE_FORMAT}:{version.pk}:{version.content_hash}"
    cache = caches[PACKAGE_CACHE]
    package = cache.get(key)
    if package is None:
        package = parse_package(version.files)
        cache.set(key, package)
    return package


def practice_variant(user, package: ProblemPackage) -> dict:
    """The variant a user practises a package with ({} when it declares none): drawn from the user's id,
    so it is the same on every visit and device, and differs between students. Anonymous visitors read
    the default variant. (An exam attempt draws and stores its own; see exams.)"""
    if package.variants is None:
        return {}
    if not getattr(user, "is_authenticated", False):
        return package.variants.default()
    return package.variants.draw(f"practice/{user.pk}", salt=package.slug)


def published_course_problems(course) -> list[Problem]:
    """The published problems of `course` that have a version (what its members may open), in the
    problems' own order (topic, difficulty, slug). The bank's problems are not among them."""
    return list(Problem.objects.filter(course=course, is_published=True, current_version__isnull=False))


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
        return version_package(problem.current_version)
    raise PackageError(path_or_slug, "no package folder or problem with this slug")
