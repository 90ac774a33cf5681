"""The entry points: a package folder read into {relative path: text}, and those files parsed into a
ProblemPackage, section by section (sections.py) and then across files (checks.py)."""
from __future__ import annotations

from pathlib import Path

import yaml

from ..topics import Topic
from .checks import check_launch_comments, check_launches, check_translated_starters, parse_wrong
from .model import PackageError, ProblemPackage
from .sections import (SLUG_RE, TAG_RE, parse_kernel, parse_launch, parse_limits, parse_tests, parse_variant_spec,
                       require)

MAX_FILE_BYTES = 256 * 1024  # the largest file a package may hold


def read_package_dir(path: str | Path) -> dict[str, str]:
    """Read a package folder into {relative path: text}. Raises PackageError for bad files."""
    root = Path(path)
    if not root.is_dir():
        raise PackageError(str(path), "is not a folder")
    files: dict[str, str] = {}
    for p in sorted(root.rglob("*")):
        if not p.is_file() or "__pycache__" in p.parts or p.name.startswith("."):
            continue
        rel = p.relative_to(root).as_posix()
        if p.stat().st_size > MAX_FILE_BYTES:
            raise PackageError(rel, f"is larger than {MAX_FILE_BYTES // 1024} KiB")
        try:
            files[rel] = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise PackageError(rel, "is not UTF-8 text") from None
    return files


def load_package(path: str | Path) -> ProblemPackage:
    """Parse the package folder at `path`; its folder name must equal its slug."""
    root = Path(path)
    package = parse_package(read_package_dir(root))
    if package.slug != root.name:
        raise PackageError("problem.yaml", f"slug '{package.slug}' must equal the folder name '{root.name}'", "slug")
    return package


def parse_package(files: dict[str, str]) -> ProblemPackage:
    """Parse a package given as {relative path: text}. Raises PackageError on any problem."""
    for required in ("problem.yaml", "statement.md", "starter.cu", "solution.cu", "harness.py"):
        if required not in files:
            raise PackageError(required, "is missing from the package")
    try:
        data = yaml.safe_load(files["problem.yaml"])
    except yaml.YAMLError as exc:
        raise PackageError("problem.yaml", f"is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise PackageError("problem.yaml", "must be a mapping of fields")

    slug = str(require(data, "slug", "problem.yaml", "a slug like 'vector-add'", str))
    if not SLUG_RE.match(slug):
        raise PackageError("problem.yaml", "use lowercase letters, digits and '-' (2-63 chars)", "slug")
    title = require(data, "title", "problem.yaml", "{en: ..., ko: ...}", (dict, str))
    title = {"en": title} if isinstance(title, str) else {str(k): str(v) for k, v in title.items()}
    if "en" not in title:
        raise PackageError("problem.yaml", "an English title ('en') is required", "title")
    try:
        topic = Topic(require(data, "topic", "problem.yaml", "a topic", str))
    except ValueError:
        raise PackageError("problem.yaml", f"must be one of {', '.join(t.value for t in Topic)}", "topic") from None
    kind = data.get("kind", "kernel")
    if kind != "kernel":
        raise PackageError("problem.yaml", "only 'kernel' packages are supported", "kind")
    difficulty = data.get("difficulty", 1)
    if not isinstance(difficulty, int) or not 1 <= difficulty <= 5:
        raise PackageError("problem.yaml", "must be an integer from 1 to 5", "difficulty")
    tags = data.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and TAG_RE.match(t) for t in tags):
        raise PackageError("problem.yaml", "must be a list of tags like 'shared-memory' (lowercase letters, digits, '-')",
                           "tags")

    spec = parse_kernel(data)
    launch = parse_launch(data)
    time_limit, atol, rtol, checks = parse_limits(data)
    tests = parse_tests(data)
    variants = parse_variant_spec(data, files, tests, spec)
    check_launches(launch, tests, variants)
    wrong = parse_wrong(files)
    check_launch_comments(launch, files, variants, wrong)

    statement = {"en": files["statement.md"]}
    if "statement.ko.md" in files:
        statement["ko"] = files["statement.ko.md"]
    check_translated_starters(files)
    starters = {"en": files["starter.cu"]}
    if "starter.ko.cu" in files:
        starters["ko"] = files["starter.ko.cu"]

    return ProblemPackage(
        slug=slug, title=title, topic=topic, kind=kind, difficulty=difficulty, kernel=spec, launch=launch,
        time_limit_s=float(time_limit), atol=atol, rtol=rtol, checks=checks, tests=tests, statement=statement,
        starter=files["starter.cu"], solution=files["solution.cu"], wrong=wrong,
        harness_source=files["harness.py"], files=dict(files), variants=variants,
        tags=tuple(dict.fromkeys(tags)), starters=starters,
    )
