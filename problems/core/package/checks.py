"""The checks of a package across its files: every test's launch under every variant, the wrong
solutions' declared verdicts, and the `// launch:` comment of each source where the student chooses."""
from __future__ import annotations

import re

from grader.core.errors import LaunchConfigError
from grader.core.launch import build_launch, parse_launch_comment
from grader.core.verdicts import Verdict

from ..variants import VariantSpec, render_template
from .model import LaunchTemplate, PackageError, TestCaseSpec, WrongSolution

VERDICT_LINE = re.compile(r"^\s*//\s*verdict\s*:\s*([A-Z_]+)\s*$", re.MULTILINE)
# Optional: what the GPU backend gives where it cannot see what the emulator sees (compute-sanitizer's
# racecheck sees shared memory only; a plain GPU run does not bounds-check), with the reason after it.
GPU_VERDICT_LINE = re.compile(r"^\s*//\s*gpu-verdict\s*:\s*([A-Z_]+)\b[^\n]*$", re.MULTILINE)


def check_launches(launch: LaunchTemplate, tests: tuple[TestCaseSpec, ...], variants: VariantSpec | None) -> None:
    """Every test case must give a launch the expressions can evaluate, under every variant (all of
    them up to 256 combinations, else the variants' validation set). Raises PackageError."""
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


def parse_wrong(files: dict[str, str]) -> tuple[WrongSolution, ...]:
    """The wrong/*.cu solutions, each with the verdict its `// verdict: NAME` line declares (never
    ACCEPTED) and an optional `// gpu-verdict: NAME (why)`. Raises PackageError."""
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
    return tuple(wrong)


def check_launch_comments(launch: LaunchTemplate, files: dict[str, str], variants: VariantSpec | None,
                          wrong: tuple[WrongSolution, ...]) -> None:
    """Where the student chooses the launch, the solution and every wrong solution (as the default
    variant renders them) say theirs in a `// launch: block=... grid=...` comment. Raises PackageError."""
    first = variants.default() if variants else {}
    for path in ("solution.cu", "starter.cu", *[f"wrong/{w.name}" for w in wrong]):
        if launch.student_chooses and not parse_launch_comment(render_template(files[path], first)) \
                and path != "starter.cu":
            raise PackageError(path, "this problem lets the student choose the launch: add `// launch: block=... grid=...`")


_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def code_lines(source: str) -> list[str]:
    """The lines of a CUDA source with its comments removed and blank lines dropped, each with its
    whitespace collapsed: what two sources that differ only in their comments share."""
    lines = (" ".join(line.split()) for line in _COMMENT.sub("", source).splitlines())
    return [line for line in lines if line]


def check_translated_starters(files: dict[str, str]) -> None:
    """A translated starter (starter.ko.cu) must be starter.cu with only its comments translated, so
    that every reader starts from the same kernel. Raises PackageError naming the first line that differs."""
    if "starter.ko.cu" not in files:
        return
    english, korean = code_lines(files["starter.cu"]), code_lines(files["starter.ko.cu"])
    for n, (a, b) in enumerate(zip(english, korean), start=1):
        if a != b:
            raise PackageError("starter.ko.cu", f"must be starter.cu with its comments translated: code line {n} "
                                                f"is {b!r} here and {a!r} in starter.cu")
    if len(english) != len(korean):
        raise PackageError("starter.ko.cu", f"must be starter.cu with its comments translated: it has {len(korean)} "
                                            f"lines of code, starter.cu {len(english)}")
