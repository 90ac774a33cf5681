"""Tests' shorthand for one box: `run_box(argv, workdir, time_s, **limits and options)` runs in the
default sandbox as it is at the call (tests swap sandbox.box.DEFAULT for unsafe mode or another
bubblewrap), the keywords split into Limits fields and Sandbox.run's options."""
from __future__ import annotations

from dataclasses import fields

from grader.core import sandbox

RUN_OPTIONS = ("ro_binds", "env", "gpu")
LIMIT_FIELDS = {f.name for f in fields(sandbox.Limits)}


def run_box(argv, workdir, time_s: float, **kwargs) -> sandbox.SandboxResult:
    """Sandbox.run of `argv` over `workdir` with Limits(time_s, **the limit keywords)."""
    options = {k: kwargs.pop(k) for k in RUN_OPTIONS if k in kwargs}
    unknown = set(kwargs) - LIMIT_FIELDS
    if unknown:
        raise TypeError(f"neither a limit nor a run option: {sorted(unknown)}")
    return sandbox.box.DEFAULT.run(argv, workdir, sandbox.Limits(time_s, **kwargs), **options)
