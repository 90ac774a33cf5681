"""What a problem package parses into (PackageError when it cannot), and what a parsed package does:
give the package one variant sees, load its harness, pick the smallest test."""
from __future__ import annotations

import dataclasses
import hashlib
import types
from dataclasses import dataclass, field
from typing import Any, Callable

from grader.core.kernel import DEFAULT_DYNAMIC_SHARED_BYTES, Check, KernelSpec
from grader.core.errors import WarpDrillError
from grader.core.verdicts import Verdict

from ..topics import Topic
from ..variants import VariantSpec, VariantValue, render_template
from .harness import Harness, harness_for_variant


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
    starter: str  # starter.cu: what the editor opens with (comments in English)
    solution: str
    wrong: tuple[WrongSolution, ...]
    harness_source: str
    files: dict[str, str] = field(default_factory=dict)  # every file of the package, by relative path
    variants: VariantSpec | None = None  # declared variant parameters (None: one task for everyone)
    tags: tuple[str, ...] = ()  # problem.yaml's optional `tags: [shared-memory, ...]`: exam pools draw by them
    # Language code -> starter source: "en" is starter.cu; "ko" when the package ships starter.ko.cu, the
    # same code with its comments in Korean (checks.check_translated_starters).
    starters: dict[str, str] = field(default_factory=dict)
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
        text = {path: render_template(body, variant) for path, body in self.files.items() if is_template(path)}
        statement = {lang: text["statement.md" if lang == "en" else f"statement.{lang}.md"] for lang in self.statement}
        starters = {lang: text[starter_path(lang)] for lang in self.starters}
        wrong = tuple(dataclasses.replace(w, source=text[f"wrong/{w.name}"]) for w in self.wrong)
        return dataclasses.replace(self, tests=tests, statement=statement, starter=text["starter.cu"], starters=starters,
                                   solution=text["solution.cu"], wrong=wrong, variant=dict(variant))

    def starter_in(self, language: str | None) -> str:
        """The starter a reader of `language` ("ko", "en-us", None) opens the editor with: starter.ko.cu
        for Korean when the package ships one, else starter.cu."""
        if (language or "").startswith("ko") and "ko" in self.starters:
            return self.starters["ko"]
        return self.starter

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
        return harness_for_variant(harness, self.variant) if self.variant else harness

    def smallest_test(self) -> TestCaseSpec:
        """The test case with the fewest elements (product of its sizes): used for checks."""
        return min(self.tests, key=case_elements)

    def smallest_sample_test(self) -> TestCaseSpec:
        """The sample test case with the fewest elements (as smallest_test measures them): the one a
        student may be shown, since a hidden test's sizes and seed are not. Every package has a sample
        (sections.py refuses one without); should none be there, the smallest test."""
        samples = [t for t in self.tests if t.sample]
        return min(samples, key=case_elements) if samples else self.smallest_test()


def case_elements(test: TestCaseSpec) -> int:
    """The elements of `test`: the product of its sizes, each counted as at least 1."""
    total = 1
    for v in test.params.values():
        total *= max(int(v), 1)
    return total


def starter_path(language: str) -> str:
    """The package file of the starter in `language`: starter.cu (English) or starter.<language>.cu."""
    return "starter.cu" if language == "en" else f"starter.{language}.cu"


def is_template(path: str) -> bool:
    """Whether a package file is rendered per variant: the statements and the CUDA sources."""
    return path in ("starter.cu", "starter.ko.cu", "solution.cu") or path.startswith("wrong/") or \
        (path.startswith("statement") and path.endswith(".md"))
