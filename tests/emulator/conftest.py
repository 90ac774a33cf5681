"""Fixtures for the emulator tests: one backend per session (the runtime is built once and cached)."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest
from grader.core.backends.emulator import EmulatorBackend


@pytest.fixture(scope="session")
def backend():
    return EmulatorBackend()


def spec(name: str, *args: tuple[str, str, str]) -> KernelSpec:
    """KernelSpec from (name, role, dtype) triples."""
    return KernelSpec(name, tuple(ArgSpec(n, ArgRole(r), d) for n, r, d in args))


@pytest.fixture
def run(backend):
    """Compile `source` for `kspec` and run it once; returns (build, outcome)."""
    builds = []

    def _run(source, kspec, grid, block, inputs, shared=0, check=False, time_limit_s=10.0):
        build = backend.compile(source, kspec)
        builds.append(build)
        assert build.compile.ok, build.compile.log
        req = RunRequest(LaunchConfig(tuple(grid), tuple(block), shared), inputs, time_limit_s=time_limit_s, check=check,
                         test_name="t")
        return backend.run(build, req)

    yield _run
    for b in builds:
        backend.close(b)


def kinds(outcome) -> list[str]:
    return [str(d.kind) for d in outcome.diagnostics]


__all__ = ["spec", "kinds", "np"]
