"""problem.yaml as a form: the fields an author sets most (kernel signature and argument roles, the
launch, test cases, tolerance, checks, limits) read out of the YAML text and written back into it.

`fields_from_yaml` gives plain values a form shows; `yaml_from_fields` writes them into the original
document, keeping every key the form does not show (title, variants, anything new) in its place.
Writing from the form re-emits problem.yaml, so its comments are not kept (the raw view keeps them);
the result always goes through the package parser before it is saved, which names a bad field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

ROLES = ("in", "out", "inout", "scalar")
DTYPES = ("float32", "float64", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int16", "uint16",
          "float16")
INITS = ("", "zeros")  # "" = the parser's default (poisoned `out`)
CHECKS = ("memcheck", "racecheck", "synccheck", "initcheck")
PARAM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?\d+)\s*$")


class FormError(ValueError):
    """A form value that cannot be written as problem.yaml (the message names the field)."""


@dataclass
class ArgRow:
    """One kernel argument: name, role (in/out/inout/scalar), dtype, init ("" or "zeros")."""

    name: str
    role: str
    dtype: str
    init: str = ""


@dataclass
class TestRow:
    """One test case: its name, params as "n=1000, m=4" text (integers), seed, sample flag."""

    name: str
    params: str
    seed: int | None = None
    sample: bool = False


@dataclass
class Fields:
    """What the form shows. Units: time_s in seconds, shared_bytes in bytes (an expression string)."""

    topic: str = ""
    difficulty: int = 1
    kernel_name: str = ""
    args: list[ArgRow] = field(default_factory=list)
    block: str = ""
    grid: str = ""
    shared_bytes: str = ""
    student_chooses: bool = False
    cooperative: bool = False
    time_s: float | None = None
    atol: float | None = None
    rtol: float | None = None
    checks: list[str] = field(default_factory=list)
    tests: list[TestRow] = field(default_factory=list)


def params_text(params: dict) -> str:
    """{"n": 1000, "m": 4} -> "n=1000, m=4" (the form's one-line notation)."""
    return ", ".join(f"{k}={v}" for k, v in (params or {}).items())


def parse_params(text: str, where: str) -> dict[str, int]:
    """"n=1000, m=4" -> {"n": 1000, "m": 4}; FormError naming `where` for anything else."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        match = PARAM.match(part)
        if not match:
            raise FormError(f"{where}: '{part[:40]}' is not name=integer")
        out[match.group(1)] = int(match.group(2))
    return out


def _load(text: str) -> dict:
    try:
        data = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        raise FormError(f"problem.yaml is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise FormError("problem.yaml must be a mapping at the top level")
    return data


def fields_from_yaml(text: str) -> Fields:
    """The form's values read from problem.yaml's `text`; FormError when it is not a YAML mapping.
    Missing keys give empty fields (the parser says what is required when the form is saved)."""
    data = _load(text)
    kernel = data.get("kernel") or {}
    launch = data.get("launch") or {}
    limits = data.get("limits") or {}
    tolerance = data.get("tolerance") or {}
    f = Fields(topic=str(data.get("topic") or ""), difficulty=int(data.get("difficulty") or 1),
               kernel_name=str(kernel.get("name") or ""),
               block=str(launch.get("block") or ""), grid=str(launch.get("grid") or ""),
               shared_bytes=str(launch.get("shared_bytes") if launch.get("shared_bytes") is not None else ""),
               student_chooses=bool(launch.get("student_chooses")), cooperative=bool(launch.get("cooperative")),
               time_s=limits.get("time_s"), atol=tolerance.get("atol"), rtol=tolerance.get("rtol"),
               checks=[str(c) for c in data.get("checks") or []])
    f.args = [ArgRow(str(a.get("name", "")), str(a.get("role", "")), str(a.get("dtype", "")), str(a.get("init") or ""))
              for a in kernel.get("args") or [] if isinstance(a, dict)]
    f.tests = [TestRow(str(t.get("name", "")), params_text(t.get("params") or {}), t.get("seed"), bool(t.get("sample")))
               for t in data.get("tests") or [] if isinstance(t, dict)]
    return f


def _set(mapping: dict, key: str, value) -> None:
    """Set `key` (or drop it when `value` is empty), keeping its place in the mapping."""
    if value in (None, "", [], {}, False):
        mapping.pop(key, None)
    else:
        mapping[key] = value


def _row(value: dict) -> str:
    """One list row in flow style, as the bank writes them: {name: a, role: in, dtype: float32}."""
    return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, allow_unicode=True, width=10_000).strip()


def _block(key: str, value) -> str:
    return yaml.safe_dump({key: value}, default_flow_style=False, sort_keys=False, allow_unicode=True, width=200)


def _dump(data: dict) -> str:
    """YAML text of `data` in its key order: mappings in block style, rows of argument and test lists
    one per line in flow style."""
    out = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            out.append(f"{key}:\n" + "".join(f"  - {_row(v)}\n" for v in value))
        elif key == "kernel" and isinstance(value, dict) and value.get("args"):
            inner = {k: v for k, v in value.items() if k != "args"}
            text = _block(key, inner) if inner else f"{key}:\n"
            out.append(text + "  args:\n" + "".join(f"    - {_row(a)}\n" for a in value["args"]))
        else:
            out.append(_block(key, value))
    return "".join(out)


def yaml_from_fields(f: Fields, original: str) -> str:
    """problem.yaml's text with the form's values written into `original` (keys the form does not
    show are kept, in order). Raises FormError for a value that cannot be written (a role or dtype
    outside the lists, a params cell that is not name=integer)."""
    data = _load(original)
    for i, a in enumerate(f.args, 1):
        if a.role not in ROLES:
            raise FormError(f"argument {i} ({a.name}): role must be one of {', '.join(ROLES)}")
        if a.dtype not in DTYPES:
            raise FormError(f"argument {i} ({a.name}): dtype must be one of {', '.join(DTYPES)}")
        if a.init not in INITS:
            raise FormError(f"argument {i} ({a.name}): init must be empty or zeros")
    bad = [c for c in f.checks if c not in CHECKS]
    if bad:
        raise FormError(f"checks: unknown {', '.join(bad)} (known: {', '.join(CHECKS)})")
    _set(data, "topic", f.topic.strip())
    _set(data, "difficulty", int(f.difficulty) if f.difficulty else None)
    kernel = dict(data.get("kernel") or {})
    _set(kernel, "name", f.kernel_name.strip())
    args = []
    for a in f.args:
        row = {"name": a.name.strip(), "role": a.role, "dtype": a.dtype}
        if a.init:
            row["init"] = a.init
        args.append(row)
    _set(kernel, "args", args)
    _set(data, "kernel", kernel)
    launch = dict(data.get("launch") or {})
    _set(launch, "block", f.block.strip())
    _set(launch, "grid", f.grid.strip())
    shared = f.shared_bytes.strip()
    _set(launch, "shared_bytes", int(shared) if shared.isdigit() else shared)
    _set(launch, "student_chooses", f.student_chooses)
    _set(launch, "cooperative", f.cooperative)
    _set(data, "launch", launch)
    limits = dict(data.get("limits") or {})
    _set(limits, "time_s", f.time_s)
    _set(data, "limits", limits)
    tolerance = dict(data.get("tolerance") or {})
    for key, value in (("atol", f.atol), ("rtol", f.rtol)):
        if value is None:
            tolerance.pop(key, None)
        else:
            tolerance[key] = float(value)
    _set(data, "tolerance", tolerance)
    _set(data, "checks", list(f.checks))
    tests = []
    for i, t in enumerate(f.tests, 1):
        row: dict = {"name": t.name.strip(), "params": parse_params(t.params, f"test {i} ({t.name})")}
        if t.seed is not None:
            row["seed"] = int(t.seed)
        if t.sample:
            row["sample"] = True
        tests.append(row)
    _set(data, "tests", tests)
    return _dump(data)
