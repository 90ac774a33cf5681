"""Fixtures of the GPU path's tests: a fake-child backend for CPU machines, the real one on a GPU."""
from __future__ import annotations

import os
import shutil

import pytest

from grader.core import sandbox


@pytest.fixture
def child_sandbox(monkeypatch):
    """Children run in bubblewrap where it works; elsewhere (the H200 machine) unsafe mode is allowed."""
    if not sandbox.box.DEFAULT.works():
        monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(allow_unsafe=True))


@pytest.fixture
def nvcc(monkeypatch):
    """Skip without nvcc. nvcc runs in the sandbox, or (no bubblewrap) in unsafe mode for the test."""
    if not shutil.which("nvcc") and not os.path.exists("/usr/local/cuda/bin/nvcc"):
        pytest.skip("nvcc is not installed")
    if not sandbox.box.DEFAULT.works():
        monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(allow_unsafe=True))
    return shutil.which("nvcc")


def require_gpu():
    """Skip unless PyCUDA and an NVIDIA device node exist. Creates no CUDA context here."""
    pytest.importorskip("pycuda.driver")
    from grader.core.gpu.isolation import gpu_nodes

    if not gpu_nodes():
        pytest.skip("no NVIDIA GPU on this machine")
