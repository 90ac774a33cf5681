"""A backend for tests of the judge and the queue: no compiler, no processes.

It "compiles" any source that does not contain `#error`, and runs by calling `run_fn`
(by default: copies every OUT/INOUT input back unchanged, which is a wrong answer for most
problems). Tests inject `run_fn` to produce the outcome they need.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..results import CompileMessage, CompileResult
from .base import Backend, Build, RunOutcome, RunRequest, RunStatus
from ..kernel import KernelSpec


class DummyBackend(Backend):
    """Test double of a judge backend."""

    name = "dummy"
    wants_ptxas_report = False

    def __init__(self, run_fn: Callable[[str, KernelSpec, RunRequest], RunOutcome] | None = None):
        self.run_fn = run_fn

    def compile(self, source: str, spec: KernelSpec) -> Build:
        for number, line in enumerate(source.splitlines(), start=1):
            if line.strip().startswith("#error"):
                msg = CompileMessage(number, 2, "error", line.strip())
                return Build(compile=CompileResult(ok=False, messages=[msg], log=line))
        return Build(compile=CompileResult(ok=True), handle=(source, spec))

    def run(self, build: Build, request: RunRequest) -> RunOutcome:
        source, spec = build.handle
        if self.run_fn:
            return self.run_fn(source, spec, request)
        outputs = {a.name: np.asarray(request.inputs[a.name]).copy() for a in spec.args if a.is_buffer}
        return RunOutcome(status=RunStatus.OK, outputs=outputs)
