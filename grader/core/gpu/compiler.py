"""The GPU backend's compiler: NVRTC in the pool's warm compiler child (gpu/nvrtc.py: the same front end
and ptxas as a library, 20-60 ms instead of nvcc's 0.4-0.7 s of process starts), with nvcc in the
sandbox as the fallback and the reference for compile errors (gpu/nvcc.py); both through the compile
cache."""
from __future__ import annotations

import logging
import time

from ..errors import PlatformError
from ..kernel import KernelSpec
from ..sandbox import Sandbox
from . import protocol
from .cache import CompileCache
from .nvcc import CubinResult, compile_cubin
from .nvrtc import CompileTimeout, NvrtcReply, compile_with_nvrtc
from .pool import ChildPool, ChildStartError

log = logging.getLogger("grader.core.backends.gpu")


class NvrtcUnavailableError(PlatformError):
    """The compiler child cannot start or keeps dying: this worker compiles with nvcc instead."""


class GpuCompiler:
    """Compiles a student's source to a cubin: NVRTC first when `use_nvrtc`, else (or when NVRTC
    refuses the source or is unavailable) nvcc in `sandbox`, each compile within `time_limit_s`."""

    def __init__(self, pool: ChildPool, cache: CompileCache, sandbox: Sandbox, time_limit_s: float, use_nvrtc: bool):
        self.pool, self.cache, self.sandbox = pool, cache, sandbox
        self.time_limit_s = time_limit_s
        self.use_nvrtc = use_nvrtc  # turned off for good once NVRTC proves unavailable on this worker

    def compile(self, source: str, spec: KernelSpec, arch: str) -> CubinResult:
        """The cubin of `source` for `arch` ("sm_90"), or its compile errors (a result).

        Raises PlatformError (no nvcc, no sandbox): the submission is retried.
        """
        result = self.compile_nvrtc(source, spec, arch)
        if result is None:
            result = compile_cubin(source, spec, arch, cache=self.cache, time_limit_s=self.time_limit_s,
                                   sandbox=self.sandbox)
        return result

    def compile_nvrtc(self, source: str, spec: KernelSpec, arch: str) -> CubinResult | None:
        """NVRTC's half of compile(): its result (a success, or a compile past the limit), or None
        when `use_nvrtc` is off or NVRTC refused the source (the caller then compiles with nvcc).
        NVRTC found unavailable turns `use_nvrtc` off for good (logged). Starts the compiler child
        on the calling thread when there is none."""
        if not self.use_nvrtc:
            return None
        try:
            return compile_with_nvrtc(source, spec, arch, self._nvrtc, version=self._nvrtc_version(),
                                      cache=self.cache, time_limit_s=self.time_limit_s)
        except NvrtcUnavailableError as exc:
            log.warning("NVRTC is unavailable on this worker; compiling with nvcc from now on: %s", exc)
            self.use_nvrtc = False
            return None

    def _nvrtc_version(self) -> str:
        try:
            return str(self.pool.compiler_child().wait_ready().get("nvrtc", ""))
        except ChildStartError as exc:
            self.pool.retire_compiler(restart=False)
            raise NvrtcUnavailableError(str(exc)) from None

    def _nvrtc(self, tu: str, arch: str, limit_s: float) -> NvrtcReply:
        """One compile job for the compiler child. Raises CompileTimeout past `limit_s` (the child
        is killed and replaced) and NvrtcUnavailableError when it cannot start. A child that dies
        on the job (a source that crashes NVRTC or exhausts its memory limit) is replaced and the
        reply says NVRTC failed, so the source goes to nvcc, which judges it with its own limits."""
        child = self.pool.compiler_child()
        try:
            child.wait_ready()
        except ChildStartError as exc:
            self.pool.retire_compiler(restart=False)
            raise NvrtcUnavailableError(str(exc)) from None
        try:
            reply, arrays = child.request({"op": "compile", "tu": tu, "arch": arch}, {}, time.monotonic() + limit_s)
        except protocol.DeadlineError:
            self.pool.retire_compiler()
            raise CompileTimeout() from None
        except (EOFError, protocol.ProtocolError, OSError) as exc:
            why = f"the compiler child died ({type(exc).__name__}: {exc}); {child.stderr_tail()}"
            log.warning("%s; this source goes to nvcc", why)
            self.pool.retire_compiler()
            return NvrtcReply(ok=False, log=why, cubin=None, result="child died", version="", time_s=0.0)
        cubin = arrays.get("cubin")
        return NvrtcReply(ok=reply.get("status") == "ok", log=str(reply.get("compile_log", "")),
                          cubin=cubin.tobytes() if cubin is not None else None, result=str(reply.get("result", "")),
                          version=str(reply.get("nvrtc", "")), time_s=float(reply.get("time_s", 0.0)))
