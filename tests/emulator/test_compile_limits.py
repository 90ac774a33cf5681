"""A compile is bounded in CPU time, wall-clock time and memory (grader/core/compile_limits.py), and a
source stopped at a limit is the student's COMPILE_ERROR naming it, in English and Korean, never a
platform fault. The security tester's template bomb (A<440,440>: 5 s of CPU and a gigabyte in g++)
compiled for 15-28 s of a loaded worker's wall clock before its tests ran."""
from __future__ import annotations

import shutil

import pytest
from django.utils import translation
from django.utils.translation import gettext

from grader.core import compile_limits, sandbox
from grader.core import messages as M
from grader.core.judge import judge
from grader.core.sandbox import SandboxResult
from grader.core.verdicts import Verdict
from problems.core.package import parse_package
from tests.packages import tiny_package_files

needs_sandbox = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason="no sandbox here")

BOMB = """template<int N, int M> struct A { static constexpr unsigned long v = A<N-1,M>::v + A<N,M-1>::v; };
template<int M> struct A<0,M> { static constexpr unsigned long v = 1; };
template<int N> struct A<N,0> { static constexpr unsigned long v = 1; };
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + (float)(A<440,440>::v & 0);
}
"""
PACKAGE = parse_package(tiny_package_files())


def result(**fields) -> SandboxResult:
    base = dict(returncode=0, stdout="", stderr="", timed_out=False, time_s=1.0, cpu_s=1.0)
    return SandboxResult(**{**base, **fields})


def test_a_compile_is_bounded_in_cpu_wall_clock_and_memory():
    limits = compile_limits.compile_limits(4.0, 1 << 30)
    assert limits.charged_s == 4.0 and limits.time_s == 14.0 and limits.memory_bytes == 1 << 30
    assert limits.cpu_s == 5.0  # RLIMIT_CPU per process, past the box's clock


@pytest.mark.parametrize("fields,says", [
    (dict(timed_out=True, cpu_exceeded=True, returncode=137, cpu_s=4.05), "more than 4 s of CPU time"),
    (dict(timed_out=True, returncode=137, time_s=14.2, cpu_s=0.3), "did not finish within 14 s"),
    (dict(memory_exceeded=True, returncode=137), "more than 1024 MiB of memory"),
    (dict(returncode=1, stderr="cc1plus: out of memory allocating 65536 bytes after a total of 1069506560 bytes"),
     "more than 1024 MiB of memory"),
    (dict(returncode=1, stderr="virtual memory exhausted: Cannot allocate memory"), "more than 1024 MiB of memory"),
])
def test_what_a_compile_stopped_at_a_limit_says(fields, says):
    said = compile_limits.compile_stopped(result(**fields), 4.0, 1 << 30)
    assert said is not None and says in said and said.template in M.COMPILE_LIMITS


def test_a_compile_that_ended_by_itself_was_not_stopped():
    assert compile_limits.compile_stopped(result(returncode=1, stderr="kernel.cu:3:1: error: expected ';'")) is None
    assert compile_limits.compile_stopped(result()) is None


def test_the_limit_messages_are_korean_too():
    for message in (M.COMPILE_TIME_LIMIT(limit="4"), M.COMPILE_MEMORY_LIMIT(mib=1024),
                    M.COMPILE_WALL_LIMIT(wall="14", limit="4")):
        with translation.override("ko"):
            korean = message.render(gettext)
        assert korean != str(message) and "컴파일" in korean


@needs_sandbox
def test_the_testers_template_bomb_is_a_compile_error_at_the_cpu_limit():
    """Through the real emulator backend: COMPILE_ERROR whose summary is the limit, no test run, no
    platform fault (judge would raise PlatformError)."""
    from grader.core.backends.emulator import EmulatorBackend

    result = judge(PACKAGE, BOMB, EmulatorBackend(workers=2))
    assert result.verdict is Verdict.COMPILE_ERROR and result.tests == []
    assert str(result.message).startswith("Compilation took more than 4 s of CPU time and was stopped")
    assert [str(m.message) for m in result.compile.messages] == [str(result.message)]


@needs_sandbox
def test_a_compile_past_its_memory_limit_is_a_compile_error_naming_it(monkeypatch):
    """With the address-space limit lowered to 256 MiB the same bomb runs out of memory first: the
    message says memory, and the toolchain is not probed (its own compile would be wasted)."""
    from grader.core.backends import emulator
    from grader.core.backends.emulator import EmulatorBackend

    monkeypatch.setattr(emulator, "COMPILE_MEMORY_BYTES", 256 << 20)
    backend = EmulatorBackend(workers=2)
    monkeypatch.setattr(backend, "_toolchain_works", lambda *a: pytest.fail("the toolchain was probed"))
    result = judge(PACKAGE, BOMB.replace("& 0", "& 0 /* memory */"), backend)
    assert result.verdict is Verdict.COMPILE_ERROR
    assert "more than 256 MiB of memory" in str(result.message), result.compile.log[-2000:]


@pytest.mark.skipif(shutil.which("nvcc") is None and not __import__("os").path.exists("/usr/local/cuda/bin/nvcc"),
                    reason="no nvcc here")
@needs_sandbox
def test_nvcc_is_bounded_the_same_way():
    """The GPU backend's and the resource report's compiler, on the corpus's macro bomb (10^10 tokens),
    with a 1 s CPU limit."""
    from grader.core.gpu.nvcc import compile_cubin
    from tests.hostile.test_hostile import CASES

    bomb = next(c for c in CASES if c.name == "compile_bomb_macros").text
    built = compile_cubin(bomb, PACKAGE.kernel, "sm_90", time_limit_s=1.0)
    assert not built.compile.ok
    assert [m.message.template for m in built.compile.messages] == [M.COMPILE_TIME_LIMIT]
