"""Compile a student's kernel to a cubin with NVRTC in a warm compiler child; nvcc is the fallback.

nvcc spends about 0.4-0.7 s per kernel starting cudafe++, cicc and ptxas as processes; NVRTC
(the same front end and ptxas as a library) compiles the same kernel in 20-60 ms once loaded
(figures in ../shared/device/README.md and docs/gpu-validation.md). The library is loaded by a
long-lived compiler child (child.py --compiler, in the sandbox like every child), which answers
compile jobs over the same frames as the GPU children; a compile that runs past the limit is
ended by killing that child, exactly as a hung kernel ends a GPU child.

The translation unit is nvcc.translation_unit's (the student's lines as kernel.cu, then the
signature check), compiled with ``--gpu-architecture=sm_XX -lineinfo --ptxas-options=-v`` (and
``--minimal`` first, MINIMAL below); the ptxas report arrives in NVRTC's program log, in nvcc's format. NVRTC has no host headers: what
nvcc's implicit ones give a kernel (INFINITY, INT_MAX, M_PI), the headers students include out of
habit are given to it as nvrtc_headers.py says.

When NVRTC refuses a source (any compile error, a header it cannot find, host code it will not
take in JIT mode) or its log lacks the kernel's ptxas report, the judge compiles the source again
with nvcc and uses that result: nvcc's messages are the reference, and a source nvcc accepts is
never refused because NVRTC would not take it. Only successes are served from NVRTC.

The judge's side (compile_with_nvrtc) imports nothing of CUDA's; the child's side
(compile_in_process) imports cuda.bindings.nvrtc (the cuda-bindings package). At module level
this file imports only the standard library and its own folder, which is all a child's sandbox
holds of the project.
"""
from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from . import nvrtc_headers
from .cache import CompileCache, cache_key
from .ptxas import find_entry, parse_ptxas

if TYPE_CHECKING:
    from ..kernel import KernelSpec
    from .nvcc import CubinResult

PROGRAM_NAME = "tu.cu"


def options(arch: str) -> list[str]:
    """NVRTC's options for `arch` ("sm_90"): a cubin with line info and ptxas's resource report."""
    return [f"--gpu-architecture={arch}", "-lineinfo", "--ptxas-options=-v"]


def available() -> bool:
    """True when the cuda-bindings package is installed (the library itself is loaded by the child)."""
    try:
        return importlib.util.find_spec("cuda.bindings") is not None
    except (ImportError, ValueError):
        return False


class CompileTimeout(Exception):
    """The compiler child did not answer within the compile limit (it has been killed)."""


@dataclass
class NvrtcReply:
    """What the compiler child answered for one translation unit."""

    ok: bool  # NVRTC_SUCCESS
    log: str  # the program log (compiler messages and the ptxas report)
    cubin: bytes | None
    result: str  # the nvrtcResult's name
    version: str  # "13.0"
    time_s: float


# ---- the child's side ----

# NVRTC's --minimal leaves out what a kernel file rarely uses (texture and surface types, the device
# runtime's cuda* functions, device-side launches, the runtime's types and macros): ~10 % less time
# per compile, the same cubin byte for byte on the whole bank (tests/gpu/test_nvrtc.py). A source
# that needs what it leaves out is compiled again without it, so what compiles is unchanged.
MINIMAL = "--minimal"
_minimal_works: bool | None = None  # found out by the first compile (an NVRTC without the option: never)


def _compile_once(nvrtc, tu: str, arch: str, extra: list[str]):
    """(nvrtcResult, log bytes, cubin or None) of one NVRTC compile of `tu`."""
    given = nvrtc_headers.headers()
    err, prog = nvrtc.nvrtcCreateProgram(tu.encode(), PROGRAM_NAME.encode(), len(given),
                                         [text.encode() for text in given.values()], [h.encode() for h in given])
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        return err, f"nvrtcCreateProgram: {err.name}".encode(), None
    try:
        opts = [o.encode() for o in options(arch) + extra + nvrtc_headers.extra_options(tu)]
        (result,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
        _, size = nvrtc.nvrtcGetProgramLogSize(prog)
        buf = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, buf)
        cubin = None
        if result == nvrtc.nvrtcResult.NVRTC_SUCCESS:
            _, size = nvrtc.nvrtcGetCUBINSize(prog)
            cubin = b" " * size
            nvrtc.nvrtcGetCUBIN(prog, cubin)
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    return result, buf, cubin


def compile_in_process(tu: str, arch: str) -> NvrtcReply:
    """Compile `tu` for `arch` with NVRTC in this process: with --minimal first (MINIMAL), again
    without it when that fails. The reply's time_s is both compiles' seconds. Raises
    ImportError/OSError when NVRTC cannot be loaded (the child then reports itself unable to start)."""
    global _minimal_works
    from cuda.bindings import nvrtc

    started = time.perf_counter()
    _, major, minor = nvrtc.nvrtcVersion()
    result = None
    if _minimal_works is not False:
        result, buf, cubin = _compile_once(nvrtc, tu, arch, [MINIMAL])
        if _minimal_works is None:  # an NVRTC that does not know the option refuses every program with it
            _minimal_works = result == nvrtc.nvrtcResult.NVRTC_SUCCESS or b"--minimal" not in buf
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        result, buf, cubin = _compile_once(nvrtc, tu, arch, [])
    log = buf.replace(b"\0", b"").decode("utf-8", "replace").strip()
    return NvrtcReply(result == nvrtc.nvrtcResult.NVRTC_SUCCESS, log, cubin, result.name, f"{major}.{minor}",
                      time.perf_counter() - started)


def warm_up(arch: str = "sm_90") -> str:
    """Load NVRTC and compile a trivial kernel once (the first compile costs ~0.5 s; it also finds out
    whether this NVRTC takes --minimal); its version."""
    reply = compile_in_process('extern "C" __global__ void warm_up(int* p) { if (p) *p = 1; }\n', arch)
    return reply.version


# ---- the judge's side ----

Compiler = Callable[[str, str, float], NvrtcReply]  # (translation unit, arch, limit_s) -> reply


def compile_with_nvrtc(source: str, spec: KernelSpec, arch: str, compiler: Compiler, *, version: str,
                       cache: CompileCache | None = None, time_limit_s: float = 30.0) -> CubinResult | None:
    """A successful compilation of `source` by NVRTC, or None when NVRTC refused it or gave no
    ptxas report for the kernel (the caller then compiles with nvcc). A compile past
    `time_limit_s` is a compile error saying so (CompileTimeout from `compiler`).

    `compiler(tu, arch, limit_s)` runs NVRTC (the pool's compiler child); `version` is its
    NVRTC version, part of the cache key. Other errors of `compiler` (a PlatformError when the
    child cannot start) propagate.
    """
    from .. import messages as M
    from ..results import CompileMessage, CompileResult
    from .nvcc import CubinResult, _from_meta, _meta, translation_unit

    started = time.monotonic()
    tu = translation_unit(source, spec)
    flags = " ".join([MINIMAL, *options(arch), *nvrtc_headers.extra_options(tu)])  # --minimal tried first
    key = cache_key(tu, "nvrtc " + flags, version, spec.name,
                    nvrtc_headers.digest())
    if cache is not None and (hit := cache.get(key)):
        meta, cubin = hit
        result = _from_meta(meta, cubin, arch)
        result.compile.cached = True
        result.compile.time_s = round(time.monotonic() - started, 4)
        result.compiler = "nvrtc"
        return result
    try:
        reply = compiler(tu, arch, time_limit_s)
    except CompileTimeout:  # the warm child's answer is timed on the wall clock
        msg = M.COMPILE_WALL_LIMIT(wall=f"{time_limit_s:g}", limit=f"{time_limit_s:g}")
        return CubinResult(CompileResult(ok=False, messages=[CompileMessage(None, None, "error", msg)], log=str(msg),
                                         time_s=round(time.monotonic() - started, 4)), arch, compiler="nvrtc")
    if not reply.ok or not reply.cubin or len(find_entry(parse_ptxas(reply.log), spec.name)) != 1:
        return None
    meta = _meta(reply.log, True, spec)
    if not meta["ok"]:
        return None
    if cache is not None:
        cache.put(key, meta, reply.cubin)
    result = _from_meta(meta, reply.cubin, arch)
    result.compile.time_s = round(time.monotonic() - started, 4)
    result.compiler = "nvrtc"
    result.compiler_s = reply.time_s
    return result
