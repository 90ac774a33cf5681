"""The resource report of a kernel: what ptxas says it uses per thread and per block.

    ptxas_resources(source, spec, cc="9.0") -> Resources

The same report for every backend: nvcc exists on CPU machines too, so a student practising on
the emulator sees the registers, shared memory, spills and stack frame the real compiler gives
for the course's GPU. The source is compiled with ``nvcc -arch=sm_XX -cubin -lineinfo -Xptxas
-v`` inside the sandbox, with a time limit, through the compile cache (gpu/nvcc.py), and the
kernel's line of the ptxas report is found by its name whatever the mangling (gpu/ptxas.py).
Imports nothing of PyCUDA's.
"""
from __future__ import annotations

from .kernel import KernelSpec
from .gpu.cache import CompileCache, default_cache_dir
from .gpu.nvcc import CubinResult, PendingCubin, arch_of, cc_of, start_cubin
from .results import Resources

_default_caches: dict[str, CompileCache] = {}  # per cache root: one per process


def resources_of(result: CubinResult) -> Resources:
    """The Resources of a compilation: the kernel's ptxas figures, or an empty report when unknown.

    An empty report (`source == ""`, every figure None) means the kernel did not compile with
    nvcc or ptxas printed nothing for it; the launch's figures are filled in by the judge.
    """
    kernel = result.kernel
    if not result.compile.ok or kernel is None:
        return Resources(compute_capability=cc_of(result.arch))
    return Resources(
        registers=kernel.registers,
        shared_static_bytes=kernel.shared_static_bytes,
        local_bytes=kernel.stack_frame_bytes,
        spill_stores_bytes=kernel.spill_stores_bytes,
        spill_loads_bytes=kernel.spill_loads_bytes,
        barriers=kernel.barriers,
        compute_capability=cc_of(result.arch),
        source="ptxas",
    )


def ptxas_resources(source: str, spec: KernelSpec, cc: str = "9.0", *, cache: CompileCache | None = None,
                    sandbox=None, cache_root=None) -> Resources:
    """Registers/thread, static shared memory, stack frame, spills and barriers of `spec`'s kernel
    compiled for compute capability `cc` ("9.0", "8.6", ...; nvcc 13 knows 7.5 and newer), nvcc in
    `sandbox` (a sandbox.Sandbox; None: sandbox.box.DEFAULT), cached in `cache` (default: one per process in
    `cache_root`/gpu, the site's cache folder).

    Returns an empty report (see resources_of) when the source does not compile with nvcc.
    Raises NvccUnavailableError (a PlatformError) without nvcc, ValueError for a malformed `cc`.
    """
    return resources_of(start_ptxas(source, spec, cc, cache=cache, sandbox=sandbox, cache_root=cache_root).result())


def start_ptxas(source: str, spec: KernelSpec, cc: str = "9.0", *, cache: CompileCache | None = None,
                sandbox=None, cache_root=None, time_limit_s: float | None = None) -> PendingCubin:
    """ptxas_resources's nvcc (same arguments and errors; `time_limit_s`: its CPU seconds, None: nvcc's
    default), started on the calling thread and left running: resources_of(pending.result()) is its
    report; pending.cancel() stops it."""
    limit = {} if time_limit_s is None else {"time_limit_s": time_limit_s}
    return start_cubin(source, spec, arch_of(cc), cache=cache or default_cache(cache_root), sandbox=sandbox, **limit)


def default_cache(cache_root=None) -> CompileCache:
    """This process's compile cache in `cache_root`/gpu (None: the checkout's var/cache)."""
    return _default_caches.setdefault(str(cache_root), CompileCache(default_cache_dir(cache_root)))
