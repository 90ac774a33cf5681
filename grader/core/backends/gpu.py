"""The `gpu` backend: kernels compiled by nvcc for this worker's GPU and run with PyCUDA in a child.

compile(): gpu/compiler.py's GpuCompiler: NVRTC in a warm compiler child (gpu/nvrtc.py: the same
front end and ptxas as a library, 20-60 ms instead of nvcc's 0.4-0.7 s of process starts), with nvcc
-arch=sm_XX -cubin -lineinfo -Xptxas -v in the sandbox as the fallback and the reference for compile
errors (gpu/nvcc.py); both through the compile cache; the ptxas report gives the resources. sm_XX is the worker GPU's compute
capability (asked of the warm child once) or the `arch` option (WARPDRILL_GPU_ARCH).
run(): the job goes to a warm child process that already holds a CUDA context (gpu/pool.py,
gpu/child.py). A hang is ended by killing the child at the wall-clock limit; a sticky CUDA
error ends the child too; either way a fresh child is started at once (otherwise the warm
child serves submission after submission, buffers zeroed between jobs). Check runs (RunRequest
.check) go to gpu/sanitizer_pass.py's SanitizerPass: warm children under compute-sanitizer, one per
tool, the tools in parallel, each serving many checks. With the shared_children option those children
(and the main child too) are one per worker, shared by its pool processes (gpu/shared.py). This process
never imports PyCUDA and never touches CUDA: only the children do.
"""
from __future__ import annotations

import atexit
import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import messages as M
from ..errors import PlatformError
from ..gpu import protocol
from ..gpu.cache import CompileCache, default_cache_dir
from ..gpu.child_settings import ChildSettings
from ..gpu.cuda_errors import classify
from ..gpu.isolation import compute_sanitizer, gpu_nodes
from ..gpu.nvcc import TIME_LIMIT_S as COMPILE_LIMIT_S
from ..gpu.compiler import GpuCompiler, NvrtcUnavailableError  # noqa: F401  (NvrtcUnavailableError: re-exported)
from ..gpu.nvcc import NvccUnavailableError, arch_of, nvcc_path
from ..gpu.nvrtc import available as nvrtc_available
from ..gpu.pool import SANITIZER_JOBS, START_TIMEOUT_S, ChildPool, ChildStartError
from ..gpu.sanitizer import Tool
from ..gpu.sanitizer_pass import SanitizerPass
from ..gpu.shared import SharedChildren, default_shared_dir, slots_of
from ..resources import resources_of
from ..sandbox import Sandbox
from ..results import Diagnostic
from ..verdicts import DiagnosticKind
from .base import Backend, Build, RunOutcome, RunRequest, RunStatus
from ..kernel import ArgRole, KernelSpec

log = logging.getLogger(__name__)

TRANSFER_GRACE_S = 1.0  # on top of the time limit: copies in and out, a module load
TRANSFER_BYTES_PER_S = 2e9  # pessimistic host<->device copy rate, for large buffers
FAULTS_WORTH_MEMCHECK = {"CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_MISALIGNED_ADDRESS"}


@dataclass
class GpuHandle:
    """What a Build carries for this backend."""

    source: str  # the student's source
    spec: KernelSpec
    cubin: np.ndarray  # uint8
    entry: str  # the kernel's symbol
    compiler: str = "nvcc"  # "nvrtc" or "nvcc": which compiler made the cubin
    shared_static_bytes: int | None = None  # ptxas's static __shared__ bytes (None: unknown)
    faults_located: bool = False  # memcheck already ran after a fault of this build


DEFAULT_CHECKS = (Tool.MEMCHECK, Tool.RACECHECK, Tool.SYNCCHECK)


def tools_of(checks: str | tuple | list) -> tuple[Tool, ...]:
    """The sanitizer tools named by `checks`: Tools, names, or one comma-separated string
    ("memcheck,racecheck"). Raises ValueError for an unknown name."""
    names = checks.split(",") if isinstance(checks, str) else checks
    return tuple(Tool(str(t).strip()) for t in names if str(t).strip())


class GpuBackend(Backend):
    """Grades on this worker's GPU (one per worker process: CUDA_VISIBLE_DEVICES picks it)."""

    name = "gpu"
    supports_sanitizers = True
    supports_cooperative_launch = True  # cuLaunchCooperativeKernel through cuda-bindings (gpu/child.py)
    warm_per_process = True  # its warm children belong to the process that grades
    hangs_need_explaining = True  # a killed child is a TIMEOUT: deadlock or slow, it cannot tell
    wants_ptxas_report = False  # every successful build carries its compiler's report (resources_of)

    def __init__(self, *, arch: str | None = None, cache: CompileCache | None = None, pool: ChildPool | None = None,
                 fresh_child_per_submission: bool = False, checks: str | tuple | list = DEFAULT_CHECKS,
                 memcheck_on_fault: bool = True, compiler: str = "auto", cache_root: str | Path | None = None,
                 sandbox: Sandbox | dict | None = None, start_timeout_s: float = START_TIMEOUT_S,
                 sanitizer_jobs: int = SANITIZER_JOBS, nvcc_time_limit_s: float = COMPILE_LIMIT_S,
                 shared_children: str = "off", shared_dir: str | Path | None = None, shared_instances: int = 4,
                 recheck_located_faults: bool = False, sync: str = "blocking", memcheck_on_error: str = "kernel"):
        """Every option comes from the shell (config/settings.py's WARPDRILL_JUDGE, from WARPDRILL_GPU_*):

        `arch` ("sm_90" or "9.0"; None: asked of the warm child); `cache` (default a CompileCache in
        `cache_root`/gpu, the site's cache folder); `pool` (default a ChildPool of children in
        `sandbox`, each waited for up to `start_timeout_s` s, a sanitizer child serving `sanitizer_jobs`
        jobs); `fresh_child_per_submission` (False: the warm child serves submission after submission
        and is replaced only after a hang or a sticky error; True: a fresh child each); `checks` (the
        sanitizer tools this worker runs: a problem's check whose tool is not among them is not run here, for
        comparisons; a check run naming no tools gets all of them; see tools_of); `compiler` ("nvrtc":
        the warm compiler child, nvcc as fallback; "nvcc": nvcc only; "auto": nvrtc when the
        cuda-bindings package is installed); `nvcc_time_limit_s` (seconds an nvcc compile may take);
        `shared_children` ("off": every pool process has its own children; "sanitizers": `shared_instances`
        children per sanitizer tool for all pool processes of the worker; "all": the main child too;
        gpu/shared.py), their run folder `shared_dir` (default: one per worker, named after the prefork parent's pid, in
        the temporary folder); `recheck_located_faults` (the check pass runs memcheck even after memcheck
        located a test case's fault, as before: for comparisons; sanitizer_pass.py); `sync` and
        `memcheck_on_error` (how the children wait for a kernel, what memcheck ends on a precise error:
        gpu/child_settings.py). Raises ValueError for an unknown compiler, tool, architecture or
        shared_children, and for a shared main child with fresh_child_per_submission.
        """
        self._arch = arch_of(arch) if arch else None
        settings = ChildSettings(sync=sync, memcheck_on_error=memcheck_on_error)
        self.sandbox = Sandbox.of(sandbox)
        self.cache_root = Path(cache_root) if cache_root else None
        self.cache = cache or CompileCache(default_cache_dir(cache_root))
        shared_slots = slots_of(shared_children)
        if fresh_child_per_submission and "main" in shared_slots:
            raise ValueError("a fresh child per submission cannot be a main child shared by the worker's processes")
        if pool is None:
            shared = SharedChildren(shared_dir or default_shared_dir(), shared_slots, jobs=sanitizer_jobs,
                                    box=self.sandbox, start_timeout_s=start_timeout_s,
                                    instances=shared_instances, settings=settings) if shared_slots else None
            pool = ChildPool(sanitizer_jobs=sanitizer_jobs, sandbox=self.sandbox, start_timeout_s=start_timeout_s,
                             shared=shared, settings=settings)
        self.pool = pool
        self.fresh_child_per_submission = fresh_child_per_submission
        self.checks = tools_of(checks)
        self.memcheck_on_fault = memcheck_on_fault
        if compiler not in ("auto", "nvrtc", "nvcc"):
            raise ValueError(f"the GPU backend's compiler must be auto, nvrtc or nvcc, not {compiler!r}")
        self.compiler = GpuCompiler(self.pool, self.cache, self.sandbox, nvcc_time_limit_s,
                                    use_nvrtc=compiler == "nvrtc" or (compiler == "auto" and nvrtc_available()))
        self.sanitizers = SanitizerPass(self.pool, self.checks, self._deadline, recheck_located_faults)
        atexit.register(self.pool.close)

    @property
    def use_nvrtc(self) -> bool:
        """True while this worker compiles with NVRTC first (the compiler option; off once it fails)."""
        return self.compiler.use_nvrtc

    @use_nvrtc.setter
    def use_nvrtc(self, value: bool) -> None:
        self.compiler.use_nvrtc = value

    @property
    def last_check(self) -> dict:
        """Timings of the last sanitizer pass, for benchmarks."""
        return self.sanitizers.last_check

    @last_check.setter
    def last_check(self, value: dict) -> None:
        self.sanitizers.last_check = value

    # ---- compile ----

    def arch(self) -> str:
        """sm_XX of this worker's GPU: the `arch` option, else asked once of the warm child."""
        if self._arch is None:
            try:
                info = self.pool.main_child().wait_ready()
            except ChildStartError as exc:
                self.pool.retire_main(restart=False)
                raise PlatformError(str(exc)) from None
            self._arch = arch_of(info["cc"])
        return self._arch

    def prepare(self) -> None:
        """Start the warm children (GPU context, NVRTC, one per sanitizer tool) at worker start,
        not at the first submission."""
        self.pool.main_child()
        if self.compiler.use_nvrtc:
            self.pool.compiler_child()
        if compute_sanitizer():
            for tool in self.checks:
                try:
                    self.pool.sanitizer_child(tool)
                except ChildStartError as exc:  # reported again, as a platform fault, by the first check
                    log.warning("no warm %s child: %s", tool, exc)

    def compile(self, source: str, spec: KernelSpec) -> Build:
        """NVRTC in the compiler child, or nvcc when NVRTC refuses the source or is unavailable.

        Raises PlatformError (no GPU child, no nvcc, no sandbox): the submission is retried.
        """
        started = time.monotonic()
        self.pool.main_child()  # start the child now: its context is created while the compiler runs
        arch = self.arch()
        asked = time.monotonic()
        result = self.compiler.compile(source, spec, arch)
        stages = {"compile_child": asked - started, "compile_call": time.monotonic() - asked}
        if result.compiler_s is not None:
            stages["compile_nvrtc"] = result.compiler_s
        resources = resources_of(result)
        if not result.compile.ok:
            return Build(compile=result.compile, resources=None, stages=stages)
        handle = GpuHandle(source=source, spec=spec, cubin=np.frombuffer(result.cubin, dtype=np.uint8),
                           entry=result.entry, compiler=result.compiler,
                           shared_static_bytes=resources.shared_static_bytes if resources.source else None)
        return Build(compile=result.compile, resources=resources, handle=handle, stages=stages)

    def close(self, build: Build) -> None:
        """A submission is over. With a fresh child per submission (the fresh_child_per_submission option)
        its child goes and the next submission's starts now; by default the warm child stays."""
        if self.fresh_child_per_submission and self.pool.main is not None and self.pool.main.jobs:
            self.pool.retire_main()

    # ---- run ----

    @staticmethod
    def _job(handle: GpuHandle, request: RunRequest) -> tuple[dict, dict[str, np.ndarray]]:
        launch = request.launch
        args, scalars, arrays = [], {}, {"__cubin__": handle.cubin}
        for arg in handle.spec.args:
            args.append({"name": arg.name, "role": str(arg.role), "dtype": arg.dtype, "init": str(arg.init)})
            value = request.inputs[arg.name]
            if arg.role is ArgRole.SCALAR:
                scalars[arg.name] = value.item() if isinstance(value, np.generic) else value
            else:
                arrays[arg.name] = np.ascontiguousarray(value, dtype=np.dtype(arg.dtype))
        job = {"op": "run", "entry": handle.entry, "args": args, "scalars": scalars,
               "grid": list(launch.grid), "block": list(launch.block), "shared": launch.shared_bytes,
               "cooperative": launch.cooperative}
        return job, arrays

    @staticmethod
    def _deadline(limit_s: float, arrays: dict[str, np.ndarray]) -> float:
        """When a job's answer is late: the run's limit plus time to copy its buffers both ways."""
        moved = sum(a.nbytes for a in arrays.values()) * 2
        return time.monotonic() + limit_s + TRANSFER_GRACE_S + moved / TRANSFER_BYTES_PER_S

    def run(self, build: Build, request: RunRequest) -> RunOutcome:
        handle: GpuHandle = build.handle
        job, arrays = self._job(handle, request)
        if request.check:
            return self.sanitizers.check(handle, request, job, arrays)
        try:
            with self.pool.holding(("main",)):  # a shared main child serves one job at a time
                outcome, reply = self._run_once(handle, request, job, arrays)
        except ChildStartError as exc:  # a shared child's lock not had in time
            return RunOutcome(status=RunStatus.INTERNAL, message=str(exc))
        if (outcome.status is RunStatus.FAULT and self.memcheck_on_fault and not handle.faults_located
                and not reply.get("grid_sync_line") and reply.get("error") in FAULTS_WORTH_MEMCHECK
                and compute_sanitizer()):
            handle.faults_located = True  # once per submission: every later case faults the same way
            outcome.diagnostics += self.sanitizers.where_it_faulted(handle, request, job, arrays)
        return outcome

    def _run_once(self, handle: GpuHandle, request: RunRequest, job: dict, arrays) -> tuple[RunOutcome, dict]:
        """One run in the main child: (its outcome, the child's reply or {})."""
        for attempt in (1, 2):  # a child that died under us is replaced and the job sent once more
            try:
                child = self.pool.main_child()
                child.wait_ready()
            except ChildStartError as exc:
                self.pool.retire_main(restart=False)
                return RunOutcome(status=RunStatus.INTERNAL, message=str(exc)), {}
            started = time.monotonic()
            try:
                reply, outputs = child.request(job, arrays, self._deadline(request.time_limit_s, arrays))
            except protocol.DeadlineError:
                self.pool.retire_main()
                return self._timeout(handle, request, time.monotonic() - started), {}
            except (EOFError, ChildStartError, protocol.ProtocolError, OSError) as exc:
                why = f"the GPU child died ({type(exc).__name__}: {exc}); {child.stderr_tail()}"
                self.pool.retire_main()
                if attempt == 2:
                    return RunOutcome(status=RunStatus.INTERNAL, message=why), {}
                log.warning("%s; retrying once with a fresh child", why)
                continue
            outcome = self._outcome(reply, outputs, handle, request)
            if not child.alive() or reply.get("sticky") or outcome.status is RunStatus.INTERNAL:
                self.pool.retire_main()
            return outcome, reply
        raise AssertionError("unreachable")

    @staticmethod
    def _grid_sync_not_cooperative(line: int, **common) -> RunOutcome:
        """grid.sync() reached in an ordinary launch, as the emulator reports it: the GPU build's
        check at the call (gridsync.instrument) trapped (CUDA_ERROR_LAUNCH_FAILED, a RUNTIME_ERROR)
        after the child's mapped word got the call's line."""
        diag = Diagnostic(kind=DiagnosticKind.CUDA_ERROR, line=line, detail={"error": "CUDA_ERROR_LAUNCH_FAILED"},
                          message=M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE(line=line))
        return RunOutcome(status=RunStatus.FAULT, diagnostics=[diag], message=diag.message, **common)

    def _outcome(self, reply: dict, outputs: dict[str, np.ndarray], handle: GpuHandle, request: RunRequest) -> RunOutcome:
        """Turn the child's reply into a RunOutcome, checking the outputs it sent."""
        status = reply.get("status")
        log_text = reply.get("log", "")
        diagnostics = []
        if reply.get("log_dropped"):
            log_text += f"\n[printf output truncated: {reply['log_dropped']} more bytes dropped]"
            diagnostics.append(Diagnostic(kind=DiagnosticKind.NOTE, message=M.PRINTF_TRUNCATED_GPU()))
        common = dict(log=log_text, time_s=float(reply.get("time_s", 0.0)))
        if status == "fault" and reply.get("grid_sync_line"):
            return self._grid_sync_not_cooperative(int(reply["grid_sync_line"]), **common)
        if status == "ok":
            for arg in handle.spec.args:
                if arg.role in (ArgRole.OUT, ArgRole.INOUT):
                    sent = request.inputs[arg.name]
                    got = outputs.get(arg.name)
                    if got is None or got.dtype != np.dtype(arg.dtype) or got.size != np.size(sent):
                        return RunOutcome(status=RunStatus.INTERNAL, message=f"the GPU child sent a bad output '{arg.name}'")
            return RunOutcome(status=RunStatus.OK, outputs=dict(outputs), diagnostics=diagnostics, **common)
        if status in ("fault", "launch_error"):
            err = classify(reply.get("error", "") or reply.get("message", ""))
            name = err.name if err else (reply.get("error") or "CUDA error")
            text = reply.get("message", "")
            message = M.Message.verbatim(f"{name}: {text.split(': ', 1)[-1]}" if text else name)
            # The hint is one of ours (translated); an unknown error's text is the driver's own.
            said = M.CUDA_ERROR(error=name, hint=M.CUDA_HINT[err.name]() if err else text)
            if status == "launch_error":
                launch = request.launch
                diagnostics.append(Diagnostic(kind=DiagnosticKind.LAUNCH_ERROR, message=said,
                                              detail={"cuda_error": name, "grid": list(launch.grid),
                                                      "block": list(launch.block), "shared_bytes": launch.shared_bytes}))
                return RunOutcome(status=RunStatus.LAUNCH_ERROR, diagnostics=diagnostics, message=message, **common)
            diagnostics.append(Diagnostic(kind=DiagnosticKind.CUDA_ERROR, message=said, detail={"cuda_error": name}))
            return RunOutcome(status=RunStatus.FAULT, diagnostics=diagnostics, message=message, **common)
        return RunOutcome(status=RunStatus.INTERNAL, message=reply.get("message") or f"GPU child: {reply}", **common)

    # ---- hangs ----

    def _timeout(self, handle: GpuHandle, request: RunRequest, elapsed: float) -> RunOutcome:
        """The child was killed at the limit: a TIMEOUT, and only that. Whether the hang is a deadlock
        or a synchronisation error is the judge's question (judge.explain_hang asks the emulator)."""
        stopped = M.TIME_LIMIT_STOPPED(limit=f"{request.time_limit_s:g}")
        timeout = Diagnostic(kind=DiagnosticKind.TIMEOUT, detail={"limit_s": request.time_limit_s}, message=stopped)
        return RunOutcome(status=RunStatus.TIMEOUT, diagnostics=[timeout], time_s=elapsed, message=stopped)

    # ---- system checks ----

    def check(self) -> list[str]:
        """What stops this worker from grading on its GPU. Imports nothing of CUDA's."""
        import importlib.util

        problems = []
        try:
            nvcc_path()
        except NvccUnavailableError as exc:
            problems.append(str(exc))
        if importlib.util.find_spec("pycuda") is None:
            problems.append("PyCUDA is not installed: the gpu backend cannot run kernels")
        if not gpu_nodes():
            problems.append("no /dev/nvidia* device nodes: this machine has no usable NVIDIA GPU")
        if compute_sanitizer() is None:
            problems.append("compute-sanitizer is not installed: race/sync/memory checks will fail")
        try:
            self.sandbox.sandboxed()
        except PlatformError as exc:
            problems.append(str(exc))
        return problems

    def smoke_test(self) -> dict:
        """Compile and run a tiny kernel on this worker's GPU; the figures of each step.

        Raises PlatformError when anything fails (no context, nvcc, sandbox, a wrong result).
        """
        from ..kernel import ArgSpec, LaunchConfig

        spec = KernelSpec("twice", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                                    ArgSpec("n", ArgRole.SCALAR, "int32")))
        source = ("__global__ void twice(const float* x, float* y, int n)\n{\n"
                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = 2.0f * x[i];\n}\n")
        started = time.monotonic()
        try:
            info = self.pool.main_child().wait_ready()
        except ChildStartError as exc:
            raise PlatformError(str(exc)) from None
        self._arch = self._arch or arch_of(info["cc"])
        ready = time.monotonic()
        build = self.compile(source, spec)
        if not build.compile.ok:
            raise PlatformError(f"nvcc failed on the smoke-test kernel: {build.compile.log[:500]}")
        compiled = time.monotonic()
        x = np.arange(1000, dtype=np.float32)
        outcome = self.run(build, RunRequest(launch=LaunchConfig((4, 1, 1), (256, 1, 1)),
                                             inputs={"x": x, "y": np.empty_like(x), "n": 1000}, time_limit_s=10))
        self.close(build)
        if outcome.status is not RunStatus.OK or not np.array_equal(outcome.outputs["y"], 2 * x):
            raise PlatformError(f"the smoke-test kernel did not run correctly: {outcome.status} {outcome.message}")
        return {"device": info.get("device"), "cc": info.get("cc"), "arch": self._arch, "compiler": build.handle.compiler,
                "sandboxed": self.sandbox.sandboxed(), "compute_sanitizer": compute_sanitizer(),
                "child_start_s": round(ready - started, 3), "compile_s": round(compiled - ready, 3),
                "run_s": round(time.monotonic() - compiled, 3), "registers": build.resources.registers}

    def device_name(self) -> str:
        """The GPU's name from the warm child's hello ("" before a child has started)."""
        main = self.pool.main
        info = main.info if main is not None else None
        return str(info.get("device") or "") if info else ""

    def shutdown(self) -> None:
        """Kill every child (tests, worker shutdown)."""
        self.pool.close()

