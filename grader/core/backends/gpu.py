"""The `gpu` backend: kernels compiled by nvcc for this worker's GPU and run with PyCUDA in a child.

compile(): NVRTC in a warm compiler child (gpu/nvrtc.py: the same front end and ptxas as a
library, 20-60 ms instead of nvcc's 0.4-0.7 s of process starts), with nvcc -arch=sm_XX -cubin
-lineinfo -Xptxas -v in the sandbox as the fallback and the reference for compile errors
(gpu/nvcc.py); both through the compile cache; the ptxas report gives the resources. sm_XX is the worker GPU's compute
capability (asked of the warm child once) or WARPDRILL_GPU_ARCH.
run(): the job goes to a warm child process that already holds a CUDA context (gpu/pool.py,
gpu/child.py). A hang is ended by killing the child at the wall-clock limit; a sticky CUDA
error ends the child too; either way a fresh child is started at once (otherwise the warm
child serves submission after submission, buffers zeroed between jobs). Check runs (RunRequest
.check) go to warm children under compute-sanitizer, one per tool, the tools in parallel; each
child serves many checks, its log cut into per-job reports at fences (gpu/fence.py). This process
never imports PyCUDA and never touches CUDA: only the children do.
"""
from __future__ import annotations

import atexit
import logging
import os
import time
from dataclasses import dataclass

import numpy as np

from .. import messages as M
from ..errors import PlatformError
from ..gpu import fence, protocol
from ..gpu.cache import CompileCache
from ..gpu.cuda_errors import classify
from ..gpu.isolation import compute_sanitizer, gpu_nodes, sandboxed
from ..gpu.nvcc import TIME_LIMIT_S as COMPILE_LIMIT_S
from ..gpu.nvcc import NvccUnavailableError, arch_of, compile_cubin, nvcc_path
from ..gpu.nvrtc import CompileTimeout, NvrtcReply, compile_with_nvrtc
from ..gpu.nvrtc import available as nvrtc_available
from ..gpu.pool import ChildPool, ChildStartError
from ..gpu.sanitizer import Tool, parse_report
from ..resources import resources_of
from ..results import Diagnostic
from ..verdicts import DiagnosticKind
from .base import Backend, Build, RunOutcome, RunRequest, RunStatus
from ..kernel import ArgRole, KernelSpec

log = logging.getLogger(__name__)

TRANSFER_GRACE_S = 1.0  # on top of the time limit: copies in and out, a module load
TRANSFER_BYTES_PER_S = 2e9  # pessimistic host<->device copy rate, for large buffers
SANITIZER_EXIT_S = 10.0  # a sanitizer child asked to finish writes its summary and exits
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


def _env_tools() -> tuple[Tool, ...]:
    raw = os.environ.get("WARPDRILL_GPU_CHECKS", "memcheck,racecheck,synccheck")
    return tuple(Tool(t.strip()) for t in raw.split(",") if t.strip())


class NvrtcUnavailableError(PlatformError):
    """The compiler child cannot start or keeps dying: this worker compiles with nvcc instead."""


class GpuBackend(Backend):
    """Grades on this worker's GPU (one per worker process: CUDA_VISIBLE_DEVICES picks it)."""

    name = "gpu"
    supports_sanitizers = True
    supports_cooperative_launch = True  # cuLaunchCooperativeKernel through cuda-bindings (gpu/child.py)
    warm_per_process = True  # its warm children belong to the process that grades
    hangs_need_explaining = True  # a killed child is a TIMEOUT: deadlock or slow, it cannot tell

    def __init__(self, *, arch: str | None = None, cache: CompileCache | None = None, pool: ChildPool | None = None,
                 fresh_child_per_submission: bool | None = None, checks: tuple[Tool, ...] | None = None,
                 memcheck_on_fault: bool = True, compiler: str | None = None):
        env_arch = os.environ.get("WARPDRILL_GPU_ARCH")
        self._arch = arch_of(arch or env_arch) if (arch or env_arch) else None
        self.cache = cache or CompileCache()
        self.pool = pool or ChildPool()
        if fresh_child_per_submission is None:
            # "worker" (default): the warm child serves submission after submission and is
            # replaced only after a hang or a sticky error; "submission": a fresh child each.
            fresh_child_per_submission = os.environ.get("WARPDRILL_GPU_CHILD_REUSE", "worker") == "submission"
        self.fresh_child_per_submission = fresh_child_per_submission
        self.checks = checks if checks is not None else _env_tools()
        self.memcheck_on_fault = memcheck_on_fault
        # "nvrtc": the warm compiler child, nvcc as fallback; "nvcc": nvcc only; "auto" (default):
        # nvrtc when the cuda-bindings package is installed.
        choice = compiler or os.environ.get("WARPDRILL_GPU_COMPILER", "auto")
        if choice not in ("auto", "nvrtc", "nvcc"):
            raise ValueError(f"WARPDRILL_GPU_COMPILER must be auto, nvrtc or nvcc, not {choice!r}")
        self.use_nvrtc = choice == "nvrtc" or (choice == "auto" and nvrtc_available())
        self.last_check: dict = {}  # timings of the last sanitizer pass, for benchmarks
        atexit.register(self.pool.close)

    # ---- compile ----

    def arch(self) -> str:
        """sm_XX of this worker's GPU: WARPDRILL_GPU_ARCH, else asked once of the warm child."""
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
        if self.use_nvrtc:
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
        self.pool.main_child()  # start the child now: its context is created while the compiler runs
        arch = self.arch()
        result = None
        if self.use_nvrtc:
            try:
                result = compile_with_nvrtc(source, spec, arch, self._nvrtc, version=self._nvrtc_version(),
                                            cache=self.cache, time_limit_s=COMPILE_LIMIT_S)
            except NvrtcUnavailableError as exc:
                log.warning("NVRTC is unavailable on this worker; compiling with nvcc from now on: %s", exc)
                self.use_nvrtc = False
        if result is None:
            result = compile_cubin(source, spec, arch, cache=self.cache)
        resources = resources_of(result)
        for m in result.compile.messages:  # ours (the signature check, limits) get a template; the compiler's stay
            if m.line is None and not m.message_template:
                m.message_template, m.message_params = M.compile_message(m.message)
        if not result.compile.ok:
            return Build(compile=result.compile, resources=None)
        handle = GpuHandle(source=source, spec=spec, cubin=np.frombuffer(result.cubin, dtype=np.uint8),
                           entry=result.entry, compiler=result.compiler,
                           shared_static_bytes=resources.shared_static_bytes if resources.source else None)
        return Build(compile=result.compile, resources=resources, handle=handle)

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

    def close(self, build: Build) -> None:
        """A submission is over. With a fresh child per submission (WARPDRILL_GPU_CHILD_REUSE=submission)
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
            return self._check(handle, request, job, arrays)
        for attempt in (1, 2):  # a child that died under us is replaced and the job sent once more
            try:
                child = self.pool.main_child()
                child.wait_ready()
            except ChildStartError as exc:
                self.pool.retire_main(restart=False)
                return RunOutcome(status=RunStatus.INTERNAL, message=str(exc))
            started = time.monotonic()
            try:
                reply, outputs = child.request(job, arrays, self._deadline(request.time_limit_s, arrays))
            except protocol.DeadlineError:
                self.pool.retire_main()
                return self._timeout(handle, request, time.monotonic() - started)
            except (EOFError, protocol.ProtocolError, OSError) as exc:
                why = f"the GPU child died ({type(exc).__name__}: {exc}); {child.stderr_tail()}"
                self.pool.retire_main()
                if attempt == 2:
                    return RunOutcome(status=RunStatus.INTERNAL, message=why)
                log.warning("%s; retrying once with a fresh child", why)
                continue
            outcome = self._outcome(reply, outputs, handle, request)
            if not child.alive() or reply.get("sticky") or outcome.status is RunStatus.INTERNAL:
                self.pool.retire_main()
            if (outcome.status is RunStatus.FAULT and self.memcheck_on_fault and not handle.faults_located
                    and not reply.get("grid_sync_line") and reply.get("error") in FAULTS_WORTH_MEMCHECK
                    and compute_sanitizer()):
                handle.faults_located = True  # once per submission: every later case faults the same way
                outcome.diagnostics += self._where_it_faulted(handle, request, job, arrays)
            return outcome
        raise AssertionError("unreachable")

    @staticmethod
    def _grid_sync_not_cooperative(line: int, **common) -> RunOutcome:
        """grid.sync() reached in an ordinary launch, as the emulator reports it: the GPU build's
        check at the call (gridsync.instrument) trapped (CUDA_ERROR_LAUNCH_FAILED, a RUNTIME_ERROR)
        after the child's mapped word got the call's line."""
        params = {"line": line}
        diag = Diagnostic(kind=DiagnosticKind.CUDA_ERROR, line=line, detail={"error": "CUDA_ERROR_LAUNCH_FAILED"},
                          message_template=M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE, message_params=params)
        return RunOutcome(status=RunStatus.FAULT, diagnostics=[diag], message=diag.message, **common)

    def _outcome(self, reply: dict, outputs: dict[str, np.ndarray], handle: GpuHandle, request: RunRequest) -> RunOutcome:
        """Turn the child's reply into a RunOutcome, checking the outputs it sent."""
        status = reply.get("status")
        log_text = reply.get("log", "")
        diagnostics = []
        if reply.get("log_dropped"):
            log_text += f"\n[printf output truncated: {reply['log_dropped']} more bytes dropped]"
            diagnostics.append(Diagnostic(kind=DiagnosticKind.NOTE, message_template=M.PRINTF_TRUNCATED_GPU))
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
            hint = err.hint if err else text
            message = f"{name}: {text.split(': ', 1)[-1]}" if text else name
            # The hint is one of ours (translated); an unknown error's text is the driver's own.
            said = {"message_template": M.CUDA_ERROR,
                    "message_params": {"error": name, "hint": M.text(err.hint) if err else text}}
            if status == "launch_error":
                launch = request.launch
                diagnostics.append(Diagnostic(kind=DiagnosticKind.LAUNCH_ERROR, message=f"{name}: {hint}",
                                              detail={"cuda_error": name, "grid": list(launch.grid),
                                                      "block": list(launch.block), "shared_bytes": launch.shared_bytes},
                                              **said))
                return RunOutcome(status=RunStatus.LAUNCH_ERROR, diagnostics=diagnostics, message=message, **common)
            diagnostics.append(Diagnostic(kind=DiagnosticKind.CUDA_ERROR, message=f"{name}: {hint}",
                                          detail={"cuda_error": name}, **said))
            return RunOutcome(status=RunStatus.FAULT, diagnostics=diagnostics, message=message, **common)
        return RunOutcome(status=RunStatus.INTERNAL, message=reply.get("message") or f"GPU child: {reply}", **common)

    # ---- hangs ----

    def _timeout(self, handle: GpuHandle, request: RunRequest, elapsed: float) -> RunOutcome:
        """The child was killed at the limit: a TIMEOUT, and only that. Whether the hang is a deadlock
        or a synchronisation error is the judge's question (judge.explain_hang asks the emulator)."""
        stopped = M.text(M.TIME_LIMIT_STOPPED, limit=f"{request.time_limit_s:g}")
        killed = M.render(stopped["template"], stopped["params"])
        timeout = Diagnostic(kind=DiagnosticKind.TIMEOUT, detail={"limit_s": request.time_limit_s},
                             message_template=stopped["template"], message_params=stopped["params"])
        return RunOutcome(status=RunStatus.TIMEOUT, diagnostics=[timeout], time_s=elapsed, message=killed)

    # ---- compute-sanitizer ----

    def _sanitize(self, tools: tuple[Tool, ...], job: dict, arrays: dict[str, np.ndarray], limit_s: float):
        """Run the job under each tool at once, each in the pool's warm child for that tool.

        Returns ({tool: (reply or None, this job's part of the tool's log)}, platform error or "").
        A late tool's child is killed (its reply is None, its log what it wrote). A child whose
        log could not be cut at this job's fence (no fence: it broke, or its print limit ran out)
        is finished and its whole remaining log read; it is replaced, as is one that has
        served its SANITIZER_JOBS jobs.
        """
        children = {}
        started = time.monotonic()
        try:
            for tool in tools:
                children[tool] = self.pool.sanitizer_child(tool)
            for child in children.values():
                child.wait_ready()
        except ChildStartError as exc:
            for tool in children:
                self.pool.retire_sanitizer(tool)
            return {}, str(exc)
        timings = {"ready_s": time.monotonic() - started}
        deadline = self._deadline(limit_s, arrays)
        results, error = {}, ""
        nonces = {tool: fence.new_nonce() for tool in children}
        sent = {}
        for tool, child in children.items():
            try:
                child.submit(dict(job, fence=nonces[tool]), arrays, deadline)
                sent[tool] = child
            except (protocol.ProtocolError, OSError) as exc:
                error = error or f"{tool}: could not send the job ({exc})"
                self.pool.retire_sanitizer(tool)
        for tool, child in sent.items():
            reply, text, keep = None, None, False
            try:
                reply, _ = child.answer(deadline)
                timings[f"{tool}_reply_s"] = time.monotonic() - started
                if reply.get("fenced"):
                    text = child.job_log(nonces[tool])
                    keep = text is not None
                if text is None:  # no fence: read the log to its end
                    child.finish(SANITIZER_EXIT_S)
                    text = child.rest_of_log()
                timings[f"{tool}_log_s"] = time.monotonic() - started
            except protocol.DeadlineError:
                text = child.rest_of_log()
            except (EOFError, protocol.ProtocolError, OSError) as exc:
                error = error or f"{tool}: the child died ({exc}); {child.stderr_tail()}"
                text = child.rest_of_log()
            results[tool] = (reply, text)
            if not keep:
                self.pool.retire_sanitizer(tool)
            elif child.jobs >= self.pool.sanitizer_jobs:
                self.pool.retire_sanitizer(tool)  # its successor starts now, not at the next check
        self.last_check = {k: round(v, 3) for k, v in timings.items()}
        return results, error

    def _check(self, handle: GpuHandle, request: RunRequest, job: dict, arrays: dict[str, np.ndarray]) -> RunOutcome:
        # The problem's own checks when the request names them (a `checks` field on RunRequest),
        # else every tool this worker runs (WARPDRILL_GPU_CHECKS).
        named = getattr(request, "checks", None)
        tools = tuple(Tool(str(c)) for c in named) if named else self.checks
        if Tool.RACECHECK in tools and handle.shared_static_bytes == 0 and not request.launch.shared_bytes:
            # racecheck looks for hazards on shared memory only: a kernel with none cannot have one.
            tools = tuple(t for t in tools if t is not Tool.RACECHECK)
        if not tools:
            return RunOutcome(status=RunStatus.OK)
        started = time.monotonic()
        results, error = self._sanitize(tools, job, arrays, request.time_limit_s)
        if error:
            return RunOutcome(status=RunStatus.INTERNAL, message=f"compute-sanitizer failed: {error}")
        diagnostics: list[Diagnostic] = []
        status = RunStatus.OK
        for tool, (reply, text) in results.items():
            report = parse_report(tool, text)
            if report.platform_error:
                return RunOutcome(status=RunStatus.INTERNAL, message=f"compute-sanitizer {tool}: {report.platform_error}")
            diagnostics += report.diagnostics
            if reply is None:
                diagnostics.append(Diagnostic(kind=DiagnosticKind.NOTE, message_template=M.SANITIZER_UNFINISHED,
                                              message_params={"tool": str(tool), "limit": f"{request.time_limit_s:g}"}))
                status = RunStatus.TIMEOUT
            elif reply.get("status") == "internal":
                return RunOutcome(status=RunStatus.INTERNAL, message=f"{tool}: {reply.get('message')}")
            elif reply.get("status") in ("fault", "launch_error") and status is RunStatus.OK:
                status = RunStatus.FAULT
            if reply and reply.get("grid_sync_line"):
                diagnostics += self._grid_sync_not_cooperative(int(reply["grid_sync_line"])).diagnostics
        return RunOutcome(status=status, diagnostics=diagnostics, time_s=time.monotonic() - started,
                          message="; ".join(sorted({d.message for d in diagnostics if d.kind is not DiagnosticKind.NOTE}))[:500])

    def _where_it_faulted(self, handle: GpuHandle, request: RunRequest, job: dict, arrays) -> list[Diagnostic]:
        """memcheck on the faulting case, for the line and thread of an illegal or misaligned access."""
        results, error = self._sanitize((Tool.MEMCHECK,), job, arrays, request.time_limit_s)
        if error or Tool.MEMCHECK not in results:
            log.info("memcheck after a fault gave nothing: %s", error)
            return []
        report = parse_report(Tool.MEMCHECK, results[Tool.MEMCHECK][1])
        return [] if report.platform_error else report.diagnostics

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
            sandboxed()
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
                "sandboxed": sandboxed(), "compute_sanitizer": compute_sanitizer(),
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

