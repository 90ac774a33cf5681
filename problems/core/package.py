"""Problem packages: a folder (or its files as a dict) parsed into a ProblemPackage.

Layout (DESIGN.md "Problem packages"):

    problem.yaml       metadata, kernel signature, launch, limits, tolerance, checks, test cases
    statement.md       English statement (Markdown with $math$); statement.ko.md optional
    starter.cu         what the editor opens with
    solution.cu        reference solution: must be ACCEPTED
    wrong/*.cu         known-bad solutions; the first line says `// verdict: NAME` (and, where the GPU
                       backend cannot see the fault, a `// gpu-verdict: NAME (why)` line may follow)
    harness.py         generate(case, rng) -> inputs; reference(inputs) -> expected outputs

A package may declare variant parameters (problems/core/variants.py): `with_variant(v)` gives the
package one student sees, its texts rendered and its tests and harness given the variant.

Every error names the file, the field and what is expected (PackageError).
"""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import re
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from grader.core.errors import LaunchConfigError, WarpDrillError
from grader.core.kernel import C_TYPES, DEFAULT_DYNAMIC_SHARED_BYTES, ArgInit, ArgRole, ArgSpec, Check, KernelSpec
from grader.core.launch import build_launch, parse_launch_comment
from grader.core.verdicts import Verdict

from .topics import Topic  # noqa: F401  (problem.yaml's topic; re-exported)
from .variants import VariantDeclarationError, VariantSpec, VariantValue, parse_variants, placeholders, render_template

MAX_FILE_BYTES = 256 * 1024
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,62}$")
TAG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
VERDICT_LINE = re.compile(r"^\s*//\s*verdict\s*:\s*([A-Z_]+)\s*$", re.MULTILINE)
# Optional: what the GPU backend gives where it cannot see what the emulator sees (compute-sanitizer's
# racecheck sees shared memory only; a plain GPU run does not bounds-check), with the reason after it.
GPU_VERDICT_LINE = re.compile(r"^\s*//\s*gpu-verdict\s*:\s*([A-Z_]+)\b[^\n]*$", re.MULTILINE)


# The largest dynamic shared memory opt-in of any compute capability we know (cc 9.0: 227 KiB).
MAX_OPT_IN_SHARED_BYTES = 227 * 1024


class PackageError(WarpDrillError):
    """A problem package is malformed. The message names the file and field."""

    def __init__(self, file: str, message: str, field: str | None = None):
        self.file, self.field = file, field
        where = f"{file}: {field}: " if field else f"{file}: "
        super().__init__(where + message)


@dataclass(frozen=True)
class TestCaseSpec:
    """One test case: its sizes and seed. Hidden seeds are mixed with a server secret."""

    name: str
    params: dict[str, int]  # sizes, e.g. {"n": 1025}; also the names launch expressions see
    seed: int
    sample: bool  # sample cases show inputs/outputs details to the student


@dataclass(frozen=True)
class LaunchTemplate:
    """Launch expressions. When `student_chooses`, the student's expressions replace them."""

    block: str
    grid: str
    shared_bytes: str = "0"
    student_chooses: bool = False
    # The opt-in above 48 KiB (cudaFuncAttributeMaxDynamicSharedMemorySize), up to 227 KiB (cc 9.0).
    max_dynamic_shared_bytes: int = DEFAULT_DYNAMIC_SHARED_BYTES
    cooperative: bool = False  # launched with cudaLaunchCooperativeKernel: every block co-resident, grid.sync()

    def options(self) -> dict:
        """The keyword arguments of build_launch that come from the problem, not the expressions."""
        return {"max_dynamic_shared_bytes": self.max_dynamic_shared_bytes, "cooperative": self.cooperative}


@dataclass(frozen=True)
class WrongSolution:
    """A known-bad solution and the verdict it must get."""

    name: str  # file name under wrong/, e.g. "missing_bounds_check.cu"
    source: str
    verdict: Verdict
    gpu_verdict: Verdict | None = None  # `// gpu-verdict: NAME (why)`: the GPU backend's, where it differs

    def expected_on(self, backend_name: str) -> Verdict:
        """The verdict this source must get from the backend named `backend_name` ("gpu" or "emulator")."""
        return self.gpu_verdict if backend_name == "gpu" and self.gpu_verdict is not None else self.verdict


@dataclass
class Harness:
    """The package's harness.py, loaded. Instructors are trusted: it runs in the judge process."""

    generate: Callable[[dict, Any], dict]  # (case params, numpy Generator) -> {arg name: value}
    reference: Callable[[dict], dict]  # (inputs) -> {output arg name: expected ndarray}


@dataclass
class ProblemPackage:
    """A parsed, validated problem package."""

    slug: str
    title: dict[str, str]  # language code -> title; "en" always present
    topic: Topic
    kind: str  # "kernel" for now
    difficulty: int  # 1 (warm-up) .. 5 (exam-hard)
    kernel: KernelSpec
    launch: LaunchTemplate
    time_limit_s: float  # per test case, wall clock
    atol: float
    rtol: float
    checks: tuple[Check, ...]
    tests: tuple[TestCaseSpec, ...]
    statement: dict[str, str]  # language code -> Markdown
    starter: str
    solution: str
    wrong: tuple[WrongSolution, ...]
    harness_source: str
    files: dict[str, str] = field(default_factory=dict)  # every file of the package, by relative path
    variants: VariantSpec | None = None  # declared variant parameters (None: one task for everyone)
    tags: tuple[str, ...] = ()  # problem.yaml's optional `tags: [shared-memory, ...]`: exam pools draw by them
    variant: dict[str, VariantValue] = field(default_factory=dict)  # the bound variant ({}: not bound)
    # Loads the harness somewhere other than this process: grader.harness_box.sandboxed_loader for
    # course-owned packages (staff code, run in the sandbox); None runs harness.py here (the bank).
    harness_loader: Callable[["ProblemPackage"], Any] | None = None

    @property
    def content_hash(self) -> str:
        """SHA-256 over every file (path and content): a changed package gets a new version."""
        digest = hashlib.sha256()
        for path in sorted(self.files):
            digest.update(path.encode() + b"\0" + self.files[path].encode() + b"\0")
        return digest.hexdigest()

    def with_variant(self, variant: dict | None = None) -> "ProblemPackage":
        """This package as one variant sees it: statements, starter, solution and wrong solutions with
        their {{NAME}} placeholders filled in, every test case's params holding the variant's integer
        parameters (so launch expressions read them), and a harness that receives the variant.

        `variant` None (or {}) means the bound variant, or else the default (each parameter's first value).
        A package without variants is returned as it is. The files and content_hash are unchanged:
        a variant is stored beside the package version, never as a version of its own.
        Raises PackageError when `variant` is not one of the declared combinations.
        """
        if self.variants is None:
            if variant:
                raise PackageError("problem.yaml", f"declares no variants, so it cannot be judged as {variant!r}",
                                   "variants")
            return self
        if not variant:  # None or {} (what a submission without a stored variant holds)
            if self.variant:
                return self
            variant = self.variants.default()
        try:
            variant = self.variants.check(variant)
        except ValueError as exc:
            raise PackageError("problem.yaml", str(exc), "variants") from None
        if variant == self.variant:
            return self
        ints = {k: v for k, v in variant.items() if isinstance(v, int)}
        tests = tuple(dataclasses.replace(t, params={**{k: v for k, v in t.params.items() if k not in variant},
                                                     **ints}) for t in self.tests)
        text = {path: render_template(body, variant) for path, body in self.files.items() if _is_template(path)}
        statement = {lang: text["statement.md" if lang == "en" else f"statement.{lang}.md"] for lang in self.statement}
        wrong = tuple(dataclasses.replace(w, source=text[f"wrong/{w.name}"]) for w in self.wrong)
        return dataclasses.replace(self, tests=tests, statement=statement, starter=text["starter.cu"],
                                   solution=text["solution.cu"], wrong=wrong, variant=dict(variant))

    def load_harness(self) -> Harness:
        """Execute harness.py in a fresh module. Raises PackageError if it lacks the functions.

        For a bound variant, generate(case, rng) sees the variant's parameters in `case` (beside the
        test's sizes), and reference(inputs, variant) gets it as its second argument when it takes one.
        """
        if self.harness_loader is not None:
            return self.harness_loader(self)  # it hands the variant to the harness itself
        module = types.ModuleType(f"warpdrill_harness_{self.slug.replace('-', '_')}")
        try:
            exec(compile(self.harness_source, f"{self.slug}/harness.py", "exec"), module.__dict__)
        except Exception as exc:  # an instructor's bug: name it precisely
            raise PackageError("harness.py", f"fails to load: {type(exc).__name__}: {exc}") from exc
        for name in ("generate", "reference"):
            if not callable(getattr(module, name, None)):
                raise PackageError("harness.py", f"must define a function {name}()")
        harness = Harness(generate=module.generate, reference=module.reference)
        return _harness_for(harness, self.variant) if self.variant else harness

    def smallest_test(self) -> TestCaseSpec:
        """The test case with the fewest elements (product of its sizes): used for checks."""
        def size(t: TestCaseSpec) -> int:
            total = 1
            for v in t.params.values():
                total *= max(int(v), 1)
            return total
        return min(self.tests, key=size)


def _is_template(path: str) -> bool:
    """Whether a package file is rendered per variant: the statements and the CUDA sources."""
    return path in ("starter.cu", "solution.cu") or path.startswith("wrong/") or \
        (path.startswith("statement") and path.endswith(".md"))


def _takes_variant(fn: Callable) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)


def _harness_for(harness: Harness, variant: dict[str, VariantValue]) -> Harness:
    """`harness` with the variant handed to it: in generate()'s case dict, and to a two-argument reference()."""
    generate, reference = harness.generate, harness.reference
    frozen = dict(variant)

    def generate_variant(case: dict, rng):
        return generate({**case, **frozen}, rng)

    if _takes_variant(reference):
        def reference_variant(inputs: dict):
            return reference(inputs, dict(frozen))
    else:
        reference_variant = reference
    return Harness(generate=generate_variant, reference=reference_variant)


def _parse_variant_spec(data: dict, files: dict[str, str], tests: tuple[TestCaseSpec, ...],
                        spec: KernelSpec) -> VariantSpec | None:
    """problem.yaml's `variants`, checked against the names tests and arguments use and the placeholders
    of the package's texts (an unknown {{NAME}} is a typo that would reach a student)."""
    try:
        variants = parse_variants(data.get("variants"))
    except VariantDeclarationError as exc:
        raise PackageError("problem.yaml", str(exc), exc.field) from None
    declared = set(variants.names) if variants else set()
    if variants:
        sizes = {name for t in tests for name in t.params}
        clash = sorted(declared & (sizes | {a.name for a in spec.args}))
        if clash:
            raise PackageError("problem.yaml", f"{', '.join(clash)} is both a variant parameter and a test size "
                                               "or kernel argument: rename one", "variants.params")
    for path in sorted(p for p in files if _is_template(p)):
        unknown = sorted(placeholders(files[path]) - declared)
        if unknown:
            names = ", ".join("{{" + n + "}}" for n in unknown)
            why = f"declared in variants.params ({', '.join(sorted(declared))})" if declared else \
                "declared: the package has no variants"
            raise PackageError(path, f"{names} is not {why}")
    return variants


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


def _require(data: dict, key: str, file: str, expected: str, kind: type | tuple = object):
    if key not in data or data[key] is None:
        raise PackageError(file, f"missing (expected {expected})", key)
    value = data[key]
    if not isinstance(value, kind):
        raise PackageError(file, f"expected {expected}, got {type(value).__name__} {value!r}", key)
    return value


def _parse_args(kernel: dict) -> tuple[ArgSpec, ...]:
    raw = _require(kernel, "args", "problem.yaml", "a list of {name, role, dtype}", list)
    args, seen = [], set()
    for i, item in enumerate(raw):
        where = f"kernel.args[{i}]"
        if not isinstance(item, dict):
            raise PackageError("problem.yaml", "expected a mapping {name, role, dtype}", where)
        name = str(item.get("name", ""))
        if not NAME_RE.match(name) or name in seen:
            raise PackageError("problem.yaml", f"name {name!r} must be a unique C identifier", where)
        seen.add(name)
        try:
            role = ArgRole(item.get("role"))
        except ValueError:
            raise PackageError("problem.yaml", f"role must be one of {', '.join(r.value for r in ArgRole)}", where) from None
        dtype = item.get("dtype")
        if dtype not in C_TYPES:
            raise PackageError("problem.yaml", f"dtype must be one of {', '.join(C_TYPES)}", where)
        try:
            init = ArgInit(item.get("init", ArgInit.POISON.value))
        except ValueError:
            raise PackageError("problem.yaml", f"init must be one of {', '.join(i.value for i in ArgInit)}", where) from None
        if init is not ArgInit.POISON and role is not ArgRole.OUT:
            raise PackageError("problem.yaml", "init applies to out buffers only (an inout buffer starts as "
                               "generate() made it)", where)
        args.append(ArgSpec(name=name, role=role, dtype=dtype, init=init))
    if not args:
        raise PackageError("problem.yaml", "a kernel needs at least one argument", "kernel.args")
    return tuple(args)


def _parse_tests(data: dict) -> tuple[TestCaseSpec, ...]:
    raw = _require(data, "tests", "problem.yaml", "a list of test cases", list)
    tests, names = [], set()
    for i, item in enumerate(raw):
        where = f"tests[{i}]"
        if not isinstance(item, dict):
            raise PackageError("problem.yaml", "expected a mapping {name, params, seed, sample}", where)
        name = str(item.get("name", f"case{i + 1}"))
        if name in names:
            raise PackageError("problem.yaml", f"duplicate test name {name!r}", where)
        names.add(name)
        params = item.get("params", {})
        if not isinstance(params, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in params.values()):
            raise PackageError("problem.yaml", "params must map size names to integers", where)
        seed = item.get("seed", i + 1)
        if not isinstance(seed, int):
            raise PackageError("problem.yaml", "seed must be an integer", where)
        tests.append(TestCaseSpec(name=name, params=dict(params), seed=seed, sample=bool(item.get("sample", False))))
    if not tests:
        raise PackageError("problem.yaml", "at least one test case is required", "tests")
    if not any(t.sample for t in tests):
        raise PackageError("problem.yaml", "mark at least one test case `sample: true`", "tests")
    return tuple(tests)


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

    slug = str(_require(data, "slug", "problem.yaml", "a slug like 'vector-add'", str))
    if not SLUG_RE.match(slug):
        raise PackageError("problem.yaml", "use lowercase letters, digits and '-' (2-63 chars)", "slug")
    title = _require(data, "title", "problem.yaml", "{en: ..., ko: ...}", (dict, str))
    title = {"en": title} if isinstance(title, str) else {str(k): str(v) for k, v in title.items()}
    if "en" not in title:
        raise PackageError("problem.yaml", "an English title ('en') is required", "title")
    try:
        topic = Topic(_require(data, "topic", "problem.yaml", "a topic", str))
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

    kernel = _require(data, "kernel", "problem.yaml", "{name, args}", dict)
    kname = str(kernel.get("name", ""))
    if not NAME_RE.match(kname):
        raise PackageError("problem.yaml", "must be a C identifier", "kernel.name")
    spec = KernelSpec(name=kname, args=_parse_args(kernel))

    launch_data = _require(data, "launch", "problem.yaml", "{block, grid[, shared_bytes, student_chooses, "
                           "max_dynamic_shared_bytes, cooperative]}", dict)
    max_dynamic = launch_data.get("max_dynamic_shared_bytes", DEFAULT_DYNAMIC_SHARED_BYTES)
    if not isinstance(max_dynamic, int) or isinstance(max_dynamic, bool) or \
            not DEFAULT_DYNAMIC_SHARED_BYTES <= max_dynamic <= MAX_OPT_IN_SHARED_BYTES:
        raise PackageError("problem.yaml", f"must be a number of bytes from {DEFAULT_DYNAMIC_SHARED_BYTES} to "
                           f"{MAX_OPT_IN_SHARED_BYTES} (227 KiB, cc 9.0)", "launch.max_dynamic_shared_bytes")
    cooperative = launch_data.get("cooperative", False)
    if not isinstance(cooperative, bool):
        raise PackageError("problem.yaml", "must be true or false", "launch.cooperative")
    launch = LaunchTemplate(
        block=str(_require(launch_data, "block", "problem.yaml", "an expression like '256'")),
        grid=str(_require(launch_data, "grid", "problem.yaml", "an expression like 'ceil_div(n, 256)'")),
        shared_bytes=str(launch_data.get("shared_bytes", "0")),
        student_chooses=bool(launch_data.get("student_chooses", False)),
        max_dynamic_shared_bytes=max_dynamic,
        cooperative=cooperative,
    )

    limits = data.get("limits", {}) or {}
    time_limit = limits.get("time_s", 5)
    if not isinstance(time_limit, (int, float)) or not 0 < time_limit <= 60:
        raise PackageError("problem.yaml", "must be a number of seconds in (0, 60]", "limits.time_s")
    tol = data.get("tolerance", {}) or {}
    try:
        atol, rtol = float(tol.get("atol", 0.0)), float(tol.get("rtol", 0.0))
    except (TypeError, ValueError):
        raise PackageError("problem.yaml", "atol and rtol must be numbers", "tolerance") from None
    try:
        checks = tuple(Check(c) for c in data.get("checks", []) or [])
    except ValueError:
        raise PackageError("problem.yaml", f"each must be one of {', '.join(c.value for c in Check)}", "checks") from None
    tests = _parse_tests(data)
    variants = _parse_variant_spec(data, files, tests, spec)

    # Every test case must give a launch the expressions can evaluate, under every variant.
    variant_list = (variants.combinations() if variants.count() <= 256 else variants.validation_set()) \
        if variants else [{}]
    for variant in variant_list:
        ints = {k: v for k, v in variant.items() if isinstance(v, int)}
        for t in tests:
            try:
                build_launch(launch.block, launch.grid, launch.shared_bytes, {**t.params, **ints},
                             **launch.options())
            except LaunchConfigError as exc:
                under = f" (variant {variant})" if variant else ""
                raise PackageError("problem.yaml", f"test {t.name!r}{under}: {exc}", "launch") from None

    wrong = []
    for path in sorted(p for p in files if p.startswith("wrong/")):
        if not path.endswith(".cu"):
            raise PackageError(path, "wrong solutions must be .cu files")
        match = VERDICT_LINE.search(files[path])
        if not match:
            raise PackageError(path, "must declare its verdict on a line like `// verdict: WRONG_ANSWER`")
        try:
            verdict = Verdict(match.group(1))
        except ValueError:
            raise PackageError(path, f"unknown verdict {match.group(1)!r}") from None
        if verdict is Verdict.ACCEPTED:
            raise PackageError(path, "a wrong solution cannot expect ACCEPTED")
        gpu_verdict = None
        if gpu_match := GPU_VERDICT_LINE.search(files[path]):
            try:
                gpu_verdict = Verdict(gpu_match.group(1))
            except ValueError:
                raise PackageError(path, f"unknown gpu-verdict {gpu_match.group(1)!r}") from None
        wrong.append(WrongSolution(name=path.removeprefix("wrong/"), source=files[path], verdict=verdict,
                                   gpu_verdict=gpu_verdict))

    first = variants.default() if variants else {}
    for path in ("solution.cu", "starter.cu", *[f"wrong/{w.name}" for w in wrong]):
        if launch.student_chooses and not parse_launch_comment(render_template(files[path], first)) \
                and path != "starter.cu":
            raise PackageError(path, "this problem lets the student choose the launch: add `// launch: block=... grid=...`")

    statement = {"en": files["statement.md"]}
    if "statement.ko.md" in files:
        statement["ko"] = files["statement.ko.md"]

    return ProblemPackage(
        slug=slug, title=title, topic=topic, kind=kind, difficulty=difficulty, kernel=spec, launch=launch,
        time_limit_s=float(time_limit), atol=atol, rtol=rtol, checks=checks, tests=tests, statement=statement,
        starter=files["starter.cu"], solution=files["solution.cu"], wrong=tuple(wrong),
        harness_source=files["harness.py"], files=dict(files), variants=variants,
        tags=tuple(dict.fromkeys(tags)),
    )
