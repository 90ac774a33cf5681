"""One parser per section of problem.yaml: the kernel and its arguments, the launch, the limits and
tolerance, the test cases and the variants. Each raises PackageError naming the field."""
from __future__ import annotations

import re

from grader.core.kernel import C_TYPES, DEFAULT_DYNAMIC_SHARED_BYTES, ArgInit, ArgRole, ArgSpec, Check, KernelSpec

from ..variants import VariantDeclarationError, VariantSpec, parse_variants, placeholders
from .model import LaunchTemplate, PackageError, TestCaseSpec, is_template

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,62}$")
TAG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# The largest dynamic shared memory opt-in of any compute capability we know (cc 9.0: 227 KiB).
MAX_OPT_IN_SHARED_BYTES = 227 * 1024


def require(data: dict, key: str, file: str, expected: str, kind: type | tuple = object):
    """data[key], which must be present, not null and an instance of `kind`; PackageError naming
    `file`, `key` and the `expected` value (words, e.g. "a list of test cases") otherwise."""
    if key not in data or data[key] is None:
        raise PackageError(file, f"missing (expected {expected})", key)
    value = data[key]
    if not isinstance(value, kind):
        raise PackageError(file, f"expected {expected}, got {type(value).__name__} {value!r}", key)
    return value


def parse_kernel(data: dict) -> KernelSpec:
    """problem.yaml's `kernel`: its C name and its arguments (parse_args)."""
    kernel = require(data, "kernel", "problem.yaml", "{name, args}", dict)
    kname = str(kernel.get("name", ""))
    if not NAME_RE.match(kname):
        raise PackageError("problem.yaml", "must be a C identifier", "kernel.name")
    return KernelSpec(name=kname, args=parse_args(kernel))


def parse_args(kernel: dict) -> tuple[ArgSpec, ...]:
    """`kernel.args`: each a unique C identifier with a role, a dtype of C_TYPES and (out buffers only)
    an init; at least one."""
    raw = require(kernel, "args", "problem.yaml", "a list of {name, role, dtype}", list)
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


def parse_launch(data: dict) -> LaunchTemplate:
    """problem.yaml's `launch`: the block, grid and shared-memory expressions, whether the student chooses
    them, the dynamic shared memory opt-in (bytes, 48 KiB to 227 KiB) and cooperative launch."""
    launch_data = require(data, "launch", "problem.yaml", "{block, grid[, shared_bytes, student_chooses, "
                          "max_dynamic_shared_bytes, cooperative]}", dict)
    max_dynamic = launch_data.get("max_dynamic_shared_bytes", DEFAULT_DYNAMIC_SHARED_BYTES)
    if not isinstance(max_dynamic, int) or isinstance(max_dynamic, bool) or \
            not DEFAULT_DYNAMIC_SHARED_BYTES <= max_dynamic <= MAX_OPT_IN_SHARED_BYTES:
        raise PackageError("problem.yaml", f"must be a number of bytes from {DEFAULT_DYNAMIC_SHARED_BYTES} to "
                           f"{MAX_OPT_IN_SHARED_BYTES} (227 KiB, cc 9.0)", "launch.max_dynamic_shared_bytes")
    cooperative = launch_data.get("cooperative", False)
    if not isinstance(cooperative, bool):
        raise PackageError("problem.yaml", "must be true or false", "launch.cooperative")
    return LaunchTemplate(
        block=str(require(launch_data, "block", "problem.yaml", "an expression like '256'")),
        grid=str(require(launch_data, "grid", "problem.yaml", "an expression like 'ceil_div(n, 256)'")),
        shared_bytes=str(launch_data.get("shared_bytes", "0")),
        student_chooses=bool(launch_data.get("student_chooses", False)),
        max_dynamic_shared_bytes=max_dynamic,
        cooperative=cooperative,
    )


def parse_limits(data: dict) -> tuple[float, float, float, tuple[Check, ...]]:
    """(time limit in seconds per test case, atol, rtol, checks) from `limits`, `tolerance` and `checks`."""
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
    return float(time_limit), atol, rtol, checks


def parse_tests(data: dict) -> tuple[TestCaseSpec, ...]:
    """problem.yaml's `tests`: uniquely named cases whose params map size names to integers, each with a
    seed (default: its position), at least one of them a sample."""
    raw = require(data, "tests", "problem.yaml", "a list of test cases", list)
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


def parse_variant_spec(data: dict, files: dict[str, str], tests: tuple[TestCaseSpec, ...],
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
    for path in sorted(p for p in files if is_template(p)):
        unknown = sorted(placeholders(files[path]) - declared)
        if unknown:
            names = ", ".join("{{" + n + "}}" for n in unknown)
            why = f"declared in variants.params ({', '.join(sorted(declared))})" if declared else \
                "declared: the package has no variants"
            raise PackageError(path, f"{names} is not {why}")
    return variants
