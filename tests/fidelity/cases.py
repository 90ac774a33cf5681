"""The fidelity cases: kernels written the way public CUDA code writes them, each with the verdict the
judge must give and what an H200 did with it.

A case is a folder under tests/fidelity/cases/: `kernel.cu` and `case.yaml`.

    shows: what the kernel is and why it is here (one sentence)
    kernel: k                       # the __global__ function's name
    args: [...]                     # as problem.yaml's kernel.args (name, role, dtype[, init])
    launch: {block, grid[, shared_bytes, cooperative, max_dynamic_shared_bytes]}   # problem.yaml's launch
    harness: map2x                  # tests/fidelity/harnesses/<name>.py: generate() and reference()
    harness_constants: {CHUNK: 12288}   # optional: module constants of that harness, set after it loads
    tests: [{n: 1000}, ...]         # sizes of each test case (all samples; seeds 101, 102, ...)
    time_s, tolerance, checks       # as problem.yaml (checks default to all three)
    expect:
      verdict: SYNC_ERROR           # what WarpDrill must give (docs/synchronization.md for barrier shapes)
      diagnostics: [race]           # kinds that must be among the result's diagnostics
      message_contains: [atomic]    # words the verdict's message (or a diagnostic's) must contain
      gpu: WRONG_ANSWER             # optional: what the GPU path gives instead, by design ...
      gpu_reason: "..."             # ... and why (bench/gpu_validate.py marks such rows explained)
    needs: "judger: ..."            # the feature of issue 11 it waits for; null when it must pass today
    h200: {...}                     # what the H200 did (tests/fidelity/observe_h200.py), for the reader;
                                    # or {unmeasured: "what to measure"} for a case written without a GPU,
                                    # whose verdict rests on documents (docs/gpu-validation.md lists them)

Plain Python (numpy, PyYAML and the judge's core): the emulator test module, the H200 observation
script and bench/gpu_validate.py all read the cases through this module.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
HARNESS_DIR = HERE / "harnesses"
ALL_CHECKS = ["memcheck", "racecheck", "synccheck"]


@dataclass(frozen=True)
class FidelityCase:
    """One case, as read from its folder."""

    slug: str  # the folder's name, also the package's slug
    source: str  # kernel.cu
    meta: dict  # case.yaml, as parsed
    verdict: str  # the verdict WarpDrill must give
    diagnostics: tuple[str, ...] = ()  # diagnostic kinds that must be present
    message_contains: tuple[str, ...] = ()  # lower-case words the messages must contain
    needs: str | None = None  # the feature this case waits for, or None
    folder: Path = field(default=CASES_DIR)

    @property
    def measured(self) -> bool:
        """Whether an H200 ran this case (its `h200:` block is an observation, not `unmeasured:`)."""
        record = self.meta.get("h200") or {}
        return bool(record) and "unmeasured" not in record

    @property
    def harness_source(self) -> str:
        """The harness file's text, with the case's constants appended (they win over the file's defaults)."""
        text = (HARNESS_DIR / f"{self.meta['harness']}.py").read_text()
        for name, value in (self.meta.get("harness_constants") or {}).items():
            text += f"\n{name} = {value!r}\n"
        return text

    def problem_yaml(self) -> dict:
        """The problem.yaml of a one-kernel package that judges this case (all tests are samples)."""
        m = self.meta
        return {
            "slug": self.slug, "title": {"en": self.slug}, "topic": "synchronization", "kind": "kernel",
            "difficulty": 3, "kernel": {"name": m.get("kernel", "k"), "args": m["args"]},
            "launch": dict(m["launch"]), "limits": {"time_s": m.get("time_s", 5)},
            "tolerance": m.get("tolerance", {"atol": 1.0e-5, "rtol": 1.0e-5}),
            "checks": m.get("checks", ALL_CHECKS),
            "tests": [{"name": f"t{k}", "params": dict(p), "seed": 101 + k, "sample": True}
                      for k, p in enumerate(m["tests"])],
        }

    def package_files(self) -> dict[str, str]:
        """{path: text} of that package, ready for problems.core.package.parse_package."""
        return {"problem.yaml": yaml.safe_dump(self.problem_yaml(), sort_keys=False), "statement.md": self.meta["shows"],
                "starter.cu": self.source, "solution.cu": self.source, "harness.py": self.harness_source}

    def package(self):
        """The parsed package (raises problems.core.package.PackageError where the format cannot say it yet)."""
        from problems.core.package import parse_package

        return parse_package(self.package_files())


def load_case(folder: Path) -> FidelityCase:
    """Read one case folder. Raises FileNotFoundError or yaml.YAMLError for a broken one."""
    meta = yaml.safe_load((folder / "case.yaml").read_text())
    expect = meta["expect"]
    return FidelityCase(slug=folder.name, source=(folder / "kernel.cu").read_text(), meta=meta,
                        verdict=expect["verdict"], diagnostics=tuple(expect.get("diagnostics") or ()),
                        message_contains=tuple(w.lower() for w in expect.get("message_contains") or ()),
                        needs=meta.get("needs"), folder=folder)


def load_cases() -> list[FidelityCase]:
    """Every case, sorted by slug."""
    return [load_case(f) for f in sorted(CASES_DIR.iterdir()) if (f / "case.yaml").exists()]
