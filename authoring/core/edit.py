"""Editing a package as the browser's editor sees it: named fields in, package files out.

The editor shows the titles, the statements, the CUDA sources, harness.py and problem.yaml's
raw text; `files_from_fields` folds them back into the package's files (keeping any file the
editor does not show) and `field_of` says which field a parser error belongs to.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from grader.core.verdicts import Verdict

# problem.yaml's top-level `title:` entry with its indented continuation lines.
TITLE_BLOCK = re.compile(r"^title:[^\n]*\n(?:[ \t]+[^\n]*\n|[ \t]*\n)*", re.MULTILINE)
VERDICT_LINE = re.compile(r"^\s*//\s*verdict\s*:\s*[A-Z_]*\s*$\n?", re.MULTILINE)
WRONG_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,60}$")

# The verdicts a wrong solution may promise (everything but ACCEPTED and the platform's own fault).
WRONG_VERDICTS = tuple(v for v in Verdict if v not in (Verdict.ACCEPTED, Verdict.INTERNAL_ERROR))

# Which editor field shows each package file (wrong solutions are "wrong:<name>").
FILE_FIELDS = {
    "problem.yaml": "problem_yaml",
    "statement.md": "statement_en",
    "statement.ko.md": "statement_ko",
    "starter.cu": "starter",
    "starter.ko.cu": "starter_ko",
    "solution.cu": "solution",
    "harness.py": "harness",
}


@dataclass(frozen=True)
class WrongField:
    """One wrong solution in the editor: its file name (without wrong/ and .cu), verdict and source."""

    name: str
    verdict: str
    source: str


def set_title(yaml_text: str, title_en: str, title_ko: str) -> str:
    """problem.yaml's text with its `title:` entry replaced by these titles (JSON strings are YAML),
    every other line and comment kept. Appended when there is no top-level title yet."""
    block = "title:\n  en: " + json.dumps(title_en.strip(), ensure_ascii=False) + "\n"
    if title_ko.strip():
        block += "  ko: " + json.dumps(title_ko.strip(), ensure_ascii=False) + "\n"
    text = yaml_text if yaml_text.endswith("\n") or not yaml_text else yaml_text + "\n"
    if TITLE_BLOCK.search(text):
        return TITLE_BLOCK.sub(lambda _: block, text, count=1)
    return text + block


def with_verdict(source: str, verdict: str) -> str:
    """A wrong solution's source with exactly one `// verdict: NAME` line, first."""
    body = VERDICT_LINE.sub("", source)
    return f"// verdict: {verdict}\n{body}"


def verdict_of(source: str) -> str:
    """The verdict a wrong solution declares ("" when none)."""
    match = re.search(r"^\s*//\s*verdict\s*:\s*([A-Z_]+)\s*$", source, re.MULTILINE)
    return match.group(1) if match else ""


def wrong_fields(files: dict[str, str]) -> list[WrongField]:
    """The package's wrong solutions as the editor shows them, by name."""
    out = []
    for path in sorted(p for p in files if p.startswith("wrong/") and p.endswith(".cu")):
        source = files[path]
        out.append(WrongField(path[len("wrong/"):-len(".cu")], verdict_of(source), VERDICT_LINE.sub("", source)))
    return out


def files_from_fields(previous: dict[str, str], fields: dict[str, str], wrong: list[WrongField]) -> dict[str, str]:
    """The package's files after an edit: the editor's fields over `previous`'s files.

    `fields` holds problem_yaml, title_en, title_ko, statement_en, statement_ko, starter, starter_ko,
    solution and harness (text with the browser's CRLF line ends made LF). An empty Korean statement
    or Korean starter removes statement.ko.md or starter.ko.cu. `wrong` replaces every wrong/*.cu.
    Other files are kept as they were.
    """
    def text(name: str) -> str:
        return (fields.get(name) or "").replace("\r\n", "\n")

    files = {p: t for p, t in previous.items() if not p.startswith("wrong/")}
    files["problem.yaml"] = set_title(text("problem_yaml"), text("title_en"), text("title_ko"))
    for path, name in FILE_FIELDS.items():
        if name != "problem_yaml":
            files[path] = text(name)
    for optional in ("statement.ko.md", "starter.ko.cu"):
        if not files[optional].strip():
            files.pop(optional)
    for w in wrong:
        files[f"wrong/{w.name}.cu"] = with_verdict(w.source.replace("\r\n", "\n"), w.verdict)
    return files


def field_of(file: str) -> str:
    """The editor field that shows `file` (a PackageError's file); "wrong:<name>" for wrong solutions."""
    if file.startswith("wrong/"):
        return "wrong:" + file[len("wrong/"):].removesuffix(".cu")
    return FILE_FIELDS.get(file, "problem_yaml")


def rename_slug(yaml_text: str, slug: str) -> str:
    """problem.yaml's text with its top-level `slug:` set to `slug` (a course's copy of a bank problem)."""
    return re.sub(r"^slug:[^\n]*$", f"slug: {slug}", yaml_text, count=1, flags=re.MULTILINE)


def skeleton(slug: str, title_en: str, title_ko: str = "") -> dict[str, str]:
    """A small valid kernel package to start from: scale a vector by a constant (one sample test, one
    hidden), with a solution and one wrong solution that forgets the bounds check."""
    yaml_text = f"""slug: {slug}
title:
  en: x
topic: indexing
kind: kernel
difficulty: 1
kernel:
  name: scale
  args:
    - {{name: x, role: in, dtype: float32}}
    - {{name: y, role: out, dtype: float32}}
    - {{name: a, role: scalar, dtype: float32}}
    - {{name: n, role: scalar, dtype: int32}}
launch:
  block: "256"
  grid: "ceil_div(n, 256)"
limits:
  time_s: 5
tolerance:
  atol: 1.0e-5
  rtol: 1.0e-5
checks: [memcheck]
tests:
  - {{name: small, params: {{n: 1000}}, seed: 1, sample: true}}
  - {{name: tail, params: {{n: 4099}}, seed: 2}}
"""
    return {
        "problem.yaml": set_title(yaml_text, title_en, title_ko),
        "statement.md": "Write `scale` so that $y_i = a \\cdot x_i$ for every $0 \\le i < n$.\n\n"
                        "The grid has $\\lceil n / 256 \\rceil$ blocks of 256 threads.\n",
        "starter.cu": "__global__ void scale(const float* x, float* y, float a, int n) {\n    // your code\n}\n",
        "solution.cu": "__global__ void scale(const float* x, float* y, float a, int n) {\n"
                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "    if (i < n) y[i] = a * x[i];\n}\n",
        "wrong/no_bounds_check.cu": "// verdict: MEMORY_ERROR\n"
                                    "__global__ void scale(const float* x, float* y, float a, int n) {\n"
                                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "    y[i] = a * x[i];\n}\n",
        "harness.py": "import numpy as np\n\n\n"
                      "def generate(case, rng):\n"
                      "    n = case[\"n\"]\n"
                      "    return {\"x\": rng.standard_normal(n, dtype=np.float32), \"y\": np.zeros(n, np.float32),\n"
                      "            \"a\": np.float32(1.5), \"n\": n}\n\n\n"
                      "def reference(inputs):\n"
                      "    return {\"y\": inputs[\"a\"] * inputs[\"x\"]}\n",
    }
