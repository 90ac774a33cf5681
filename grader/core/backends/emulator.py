"""The `emulator` backend: CUDA C++ compiled by the host g++ and run on the CPU with CUDA semantics.

compile(): static checks and line-preserving rewriting (emulator/rewrite.py), then g++ inside the
sandbox against the emulator's light header, linked with the runtime library (emulator/toolchain.py).
Binaries are cached by a hash of the rewritten source, the flags and the runtime.
run(): one sandboxed child process per test case (emulator/jobs.py describes the files it reads and
writes). Check mode adds a run with start-aligned buffers (underflows fault), a ThreadSanitizer
run that reports shared/global races (emulator/races.py) and the shared-memory initcheck, the last two
only where the kernel's source and launch leave something to find (emulator/checkplan.py). What a
finished run says is read in emulator/outcome.py, the box's limits of a run come from
emulator/run_limits.py, and ptxas's static shared memory limit is checked by emulator/static_shared.py.
See docs/emulator.md.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import compile_limits, sandbox
from ..sandbox import Limits, Sandbox
from .. import messages as M
from ..emulator import checkplan, jobs, pch, runmemo, toolchain
from ..emulator.outcome import read_outcome
from ..emulator.rewrite import rewrite
from ..emulator.run_limits import MAX_CORESIDENT_THREADS, run_limits, shared_out
from ..emulator.static_shared import static_shared_problem
from ..emulator.tokens import tokenize
from ..errors import PlatformError
from ..escape import escape_untrusted
from ..launch import launch_problem
from ..linkerrors import undefined_references
from ..results import CompileMessage, CompileResult, Diagnostic
from ..verdicts import DiagnosticKind
from .base import Backend, Build, RunOutcome, RunRequest, RunStatus
from ..kernel import KernelSpec

logger = logging.getLogger(__name__)

STUDENT_FILE = "kernel.cu"
HARNESS_LINE = '\n#line 1 "<warpdrill harness>"\n'  # between the student's code and the harness
SANDBOX_BINARY = "/opt/kernel.bin"
# One compile of a student's source: CPU seconds (every process of the box together; the wall clock stops
# it at three times that plus 2 s) and address space per process (compile_limits.py says why these).
COMPILE_TIME_LIMIT_S = compile_limits.CPU_S
COMPILE_MEMORY_BYTES = compile_limits.MEMORY_BYTES
EXIT_RERUN_FIBERS = 3  # the fast path met a wait: rerun with fibers (src/runtime.hpp)
EXIT_RERUN_SERIAL = 5  # blocks on two worker threads updated one word without atomics: rerun on one


@dataclass
class EmulatorHandle:
    """What a Build carries for this backend."""

    spec: KernelSpec
    text: str  # the translation unit compiled (rewritten source + harness)
    needs_fibers: bool  # barriers or warp ops: start in fiber mode
    serial: bool  # atomics/volatile/fences: one worker thread
    binaries: dict[str, Path] = field(default_factory=dict)  # variant -> cached binary
    source_lines: int = 0  # lines of the student's source: a result's lines must lie within them
    vector_loads: bool = False  # 16-byte vector types: buffers start 16-byte aligned (jobs.write_job)
    facts: checkplan.KernelFacts = field(default_factory=checkplan.KernelFacts)  # what the check plan reads
    plain_runs: dict = field(default_factory=dict)  # runmemo.key -> an ok plain RunOutcome of a small case
    # The plain variant's translation unit when it has the kernel's coroutine copy (coro mode), else None.
    fast_text: str | None = None
    cpu_s: float = 0.0  # CPU seconds of every run of this build so far (their boxes', sampled)

    def text_of(self, variant: str) -> str:
        """The translation unit `variant` compiles: the check variants never get the coroutine copy."""
        return self.fast_text if variant == "fast" and self.fast_text is not None else self.text


class EmulatorBackend(Backend):
    """Runs kernels on the CPU; deterministic; proves deadlocks and divergent barriers."""

    name = "emulator"
    time_limit_clock = "cpu"  # a run's limit counts its process's CPU seconds (emulator/run_limits.py)
    supports_sanitizers = True
    supports_cooperative_launch = True  # LaunchConfig.cooperative: co-resident blocks, grid.sync() a grid barrier
    supports_coresident_launch = True  # LaunchConfig.coresident: co-resident blocks, grid.sync() still a launch failure
    # Every co-resident thread is a fiber with a guarded stack (two mappings): emulator/run_limits.py.
    max_coresident_threads = MAX_CORESIDENT_THREADS
    supports_writemap = True  # the writemap variant: every store of the kernel is recorded (src/writemap.cpp)

    def __init__(self, cache_dir: str | Path | None = None, workers: int | None = None, *,
                 cache_root: str | Path | None = None, cxx: str = toolchain.DEFAULT_CXX,
                 sandbox: Sandbox | dict | None = None, full_check_pass: bool = False,
                 ptxas_report_late: bool = False, coro: bool = True, ptxas_compiler: str = "auto"):
        """`cache_dir`: where runtimes and binaries are kept (default: `cache_root`/emulator, the site's
        cache folder, else toolchain.default_cache_dir()); `workers`: threads of one run (default: the
        CPUs, at most 8); `cxx`: the C++ compiler (under /usr: the sandbox sees only /usr); `sandbox`:
        how boxes are made (a Sandbox or its settings mapping; None: sandbox.box.DEFAULT);
        `full_check_pass`: every check pass compiles and runs the race and initcheck builds, whatever
        the kernel (emulator/checkplan.py decides otherwise); `ptxas_report_late`: the judge starts
        ptxas's report after the harness calls instead of before the compile; `coro`: plain runs of
        kernels whose only synchronisation is __syncthreads() in their body use coro mode
        (emulator/coro.py; False: fibers, as before it, for comparisons); `ptxas_compiler`: "auto"
        (NVRTC where installed, else nvcc) or "nvcc" makes the ptxas report (base.Backend). Raises
        ValueError for another compiler."""
        if ptxas_compiler not in ("auto", "nvcc"):
            raise ValueError(f"the emulator's ptxas_compiler must be auto or nvcc, not {ptxas_compiler!r}")
        self.cache_dir = Path(cache_dir) if cache_dir else toolchain.default_cache_dir(cache_root)
        self.cache_root = Path(cache_root) if cache_root else None
        self.cxx = cxx
        self.workers = workers or max(1, min(os.cpu_count() or 1, 8))
        self.sandbox = Sandbox.of(sandbox)
        self._runtimes: dict[str, toolchain.Runtime] = {}
        self.full_check_pass = full_check_pass
        self.coro = coro
        self.ptxas_report_late = ptxas_report_late
        self.ptxas_compiler = ptxas_compiler

    def prepare_process(self) -> None:
        """Start this process's NVRTC compiler child for ptxas's report (ptxas_report.nvrtc_compiler) when
        `ptxas_compiler` is "auto" and NVRTC is installed: the first grading does not wait ≈ 1 s for it."""
        from ..ptxas_report import nvrtc_compiler

        compiler = nvrtc_compiler(self.sandbox, self.cache_root) if self.ptxas_compiler == "auto" else None
        if compiler is not None:
            compiler.pool.compiler_child()

    # ---- compile ----

    def prepare(self) -> None:
        """Build the runtime library of every variant (≈ 15 s each on 2 cores, once per cache)."""
        for variant in toolchain.VARIANTS:
            self.runtime(variant)

    def runtime(self, variant: str = "fast") -> toolchain.Runtime:
        """The runtime library for `variant`, built once per worker and cache directory."""
        if variant not in self._runtimes:
            runtime = toolchain.build_runtime(self.cache_dir, variant, self.cxx)
            pch.build(self.sandbox, self.cache_dir, variant, runtime, self.cxx, 120.0)  # the platform's build, not a student's
            self._runtimes[variant] = runtime
        return self._runtimes[variant]

    def compile(self, source: str, spec: KernelSpec) -> Build:
        start = time.monotonic()
        rewritten = rewrite(source, spec.name)
        if rewritten.problems:
            messages = [CompileMessage(p.line, None, "error", p.message)
                        for p in rewritten.problems]
            log = "\n".join(f"{STUDENT_FILE}:{p.line}: error: {p.message}" for p in rewritten.problems)
            return Build(compile=CompileResult(ok=False, messages=messages, log=log, time_s=time.monotonic() - start))
        text = f'#line 1 "{STUDENT_FILE}"\n' + rewritten.text + HARNESS_LINE + jobs.harness_source(spec)
        handle = EmulatorHandle(spec, text, rewritten.needs_fibers, rewritten.serial,
                                source_lines=source.count("\n") + 1, vector_loads=rewritten.vector_loads,
                                facts=checkplan.kernel_facts(source, tokenize(source), spec.name))
        if rewritten.coro_text is not None and self.coro:  # the plain build gets the kernel's coroutine copy (coro.py)
            handle.fast_text = f'#line 1 "{STUDENT_FILE}"\n' + rewritten.coro_text + HARNESS_LINE + \
                jobs.harness_source(spec, coro=True)
        workdir = Path(tempfile.mkdtemp(prefix="wd-emu-"))
        build = Build(compile=CompileResult(ok=True), handle=handle, workdir=workdir)
        ok, messages, log, cached = self._build_variant(handle, "fast")
        if not ok and handle.fast_text is not None:
            # Without the copy, as before coro mode: the student's own errors, once each, and never a
            # failure of the copy's (our bug, logged) instead of a build.
            handle.fast_text = None
            ok, messages, log, cached = self._build_variant(handle, "fast")
            if ok:
                logger.warning("the coroutine copy of %s did not compile; it runs with fibers", spec.name)
        if ok and (too_much := static_shared_problem(handle.binaries["fast"].read_bytes(), rewritten.other_kernel_sites,
                                                     spec.name)):
            ok, messages = False, [too_much]
        build.compile = CompileResult(ok=ok, messages=messages, log=log, time_s=time.monotonic() - start, cached=cached)
        return build

    def _build_variant(self, handle: EmulatorHandle, variant: str) -> tuple[bool, list[CompileMessage], str, bool]:
        runtime = self.runtime(variant)
        key = hashlib.sha256(
            (handle.text_of(variant) + variant + repr(toolchain.compile_argv(variant, "k", "o", self.cxx)) + runtime.hash).encode()
        ).hexdigest()[:32]
        final = self.cache_dir / "bin" / key / "kernel.bin"
        if final.exists():
            handle.binaries[variant] = final
            return True, [], "", True
        missing = toolchain.missing_compiler(self.cxx)
        if missing:  # the runtime was built, then the compiler went away: the platform's fault
            raise PlatformError(missing)
        with tempfile.TemporaryDirectory(prefix="wd-cc-") as tmp:
            tmpdir = Path(tmp)
            (tmpdir / "kernel.cpp").write_text(handle.text_of(variant))
            res = self._compile_in_box(tmpdir, variant, runtime)
            log = toolchain.clean_log(res.stderr + res.stdout)
            # Stopped at a limit (CPU time, the wall clock, memory): the student's compile error, asked no further.
            stopped = compile_limits.compile_stopped(res, COMPILE_TIME_LIMIT_S, COMPILE_MEMORY_BYTES)
            if stopped is not None:
                return False, [CompileMessage(None, None, "error", stopped)], log, False
            if res.disk_exceeded:
                limit = f"{sandbox.DEFAULT_DISK_BYTES >> 20} MiB"
                return False, [CompileMessage(None, None, "error", M.COMPILE_DISK_LIMIT(limit=limit))], log, False
            if res.returncode != 0 or not (tmpdir / "kernel.bin").exists():
                messages = toolchain.parse_messages(res.stderr)
                messages += self._link_messages(handle, res.stderr + res.stdout)
                if not toolchain.names_student_line(messages) and not self._toolchain_works(variant, runtime):
                    raise PlatformError("the C++ compiler on this worker cannot build a trivial program; "
                                        "its toolchain is incomplete")
                if not messages:
                    messages = [CompileMessage(None, None, "error", M.COMPILE_FAILED_SEE_LOG())]
                return False, messages, log, False
            final.parent.mkdir(parents=True, exist_ok=True)
            staging = final.parent / f".kernel.bin.{os.getpid()}"
            shutil.copy2(tmpdir / "kernel.bin", staging)
            os.replace(staging, final)  # atomic: concurrent workers may race to store the same binary
        handle.binaries[variant] = final
        warnings = [m for m in toolchain.parse_messages(res.stderr) if m.severity == "warning" and m.line]
        return True, warnings, log, False

    @staticmethod
    def _link_messages(handle: EmulatorHandle, log: str) -> list[CompileMessage]:
        """The linker's undefined references as messages naming the function and the student's line
        (linkerrors.py). The harness's call of an undefined kernel names the kernel's declaration."""
        student = handle.text.split("\n", 1)[1].split(HARNESS_LINE, 1)[0]
        found = undefined_references(log, student, ("kernel.cpp", STUDENT_FILE), unplaced=(handle.spec.name,))
        return [CompileMessage(line, None, "error", message) for line, message in found]

    def _compile_in_box(self, workdir: Path, variant: str, runtime: toolchain.Runtime, source: str = "kernel.cpp",
                        output: str = "kernel.bin") -> sandbox.SandboxResult:
        """g++ on workdir/`source` inside the sandbox, linked with the runtime, to workdir/`output`."""
        return self.sandbox.run(
            toolchain.compile_argv(variant, source, output, self.cxx), workdir,
            compile_limits.compile_limits(COMPILE_TIME_LIMIT_S, COMPILE_MEMORY_BYTES),
            ro_binds={str(toolchain.INCLUDE_DIR): toolchain.SANDBOX_INCLUDE, str(runtime.lib_dir): toolchain.SANDBOX_LIB},
        )

    def _toolchain_works(self, variant: str, runtime: toolchain.Runtime) -> bool:
        """True when toolchain.PROBE_SOURCE compiles and links as a student's code would: asked when a
        failed compile names no line of the student's, to tell a broken toolchain from their error."""
        with tempfile.TemporaryDirectory(prefix="wd-probe-cc-") as tmp:
            (Path(tmp) / "probe.cpp").write_text(toolchain.PROBE_SOURCE)
            res = self._compile_in_box(Path(tmp), variant, runtime, "probe.cpp", "probe.bin")
            # A probe stopped at a compile limit (a machine busy enough) proves nothing broken.
            stopped = compile_limits.compile_stopped(res, COMPILE_TIME_LIMIT_S, COMPILE_MEMORY_BYTES)
            return stopped is not None or (res.returncode == 0 and (Path(tmp) / "probe.bin").exists())

    # ---- run ----

    def run(self, build: Build, request: RunRequest) -> RunOutcome:
        handle: EmulatorHandle = build.handle
        if not build.compile.ok or handle is None:
            raise PlatformError("run() needs a successful build")
        problem = launch_problem(request.launch)
        if problem:
            diag = Diagnostic(DiagnosticKind.LAUNCH_ERROR, test=request.test_name or None,
                              detail={"grid": list(request.launch.grid), "block": list(request.launch.block),
                                      "shared_bytes": request.launch.shared_bytes},
                              message=M.LAUNCH_REFUSED(reason=problem))
            return RunOutcome(RunStatus.LAUNCH_ERROR, diagnostics=[diag], message=problem)
        from ..emulator import prefetch  # the check's variants compile while the plain runs go

        plan = checkplan.plan(handle.facts, request.launch.grid, request.launch.block, self.full_check_pass)
        request = shared_out(request, plan)
        cpu_before = handle.cpu_s
        compiling = prefetch.start(self, handle, plan.variants) if request.check else []
        try:
            outcome = runmemo.plain_run(self, build, request, reuse=not self.full_check_pass)
            # Underflows only fault when buffers start at a page boundary.
            under = self._run_once(build, request, "fast", start_aligned=True) \
                if request.check and plan.aligned and outcome.status is RunStatus.OK else None
        finally:
            prefetch.wait(compiling)
        outcome.cpu_s = round(handle.cpu_s - cpu_before, 3)  # the races' and initcheck's runs added below
        if request.check and outcome.status is RunStatus.OK:
            if under is not None and under.status is not RunStatus.OK:
                under.cpu_s = outcome.cpu_s
                return under
            if plan.race:
                from ..emulator import races  # the race checker is only needed in check mode

                outcome.diagnostics.extend(races.check_races(self, build, request))
            if plan.initcheck:
                from ..emulator import initcheck  # reads of shared memory no thread wrote (src/initcheck.cpp)

                outcome.diagnostics.extend(initcheck.check_uninitialized(self, build, request))
            outcome.cpu_s = round(handle.cpu_s - cpu_before, 3)
        return outcome

    def run_writemap(self, build: Build, request: RunRequest) -> RunOutcome:
        """Run the writemap variant (built on first use): the outcome of the run, with
        `writemaps` {output: WriteMap} for every output within writemap.MAX_ELEMENTS whose side file
        is valid (one the student's code spoiled is dropped and logged). Faults keep the map up to
        the fault. Costs one compile of the variant plus a run a few times slower than the plain one."""
        handle: EmulatorHandle = build.handle
        if not build.compile.ok or handle is None:
            raise PlatformError("run_writemap() needs a successful build")
        if launch_problem(request.launch):
            return RunOutcome(RunStatus.LAUNCH_ERROR, message=launch_problem(request.launch))
        if "writemap" not in handle.binaries:
            ok, _messages, log, _cached = self._build_variant(handle, "writemap")
            if not ok:  # the plain build compiled: a failure here is ours
                raise PlatformError(f"the write-map build failed: {escape_untrusted(log[-500:])}")
        return self._run_once(build, request, "writemap", start_aligned=False)

    def _run_tsan(self, build: Build, request: RunRequest, env: dict) -> tuple[RunOutcome, Path]:
        """Run the ThreadSanitizer variant with fibers; the caller reads and removes the work dir."""
        kept: list[Path] = []
        outcome = self._run_once(build, request, "tsan", start_aligned=False, force_fibers=True, env=env, keep=kept)
        return outcome, kept[0]

    def _run_once(self, build: Build, request: RunRequest, variant: str, start_aligned: bool,
                  force_fibers: bool = False, env: dict | None = None, keep: list | None = None) -> RunOutcome:
        handle: EmulatorHandle = build.handle
        fibers = handle.needs_fibers or force_fibers or request.launch.coresident  # co-resident blocks are fibers
        # Coro mode for the plain variant's barrier kernels (coro.py); it reruns with fibers when irregular.
        coro = self.coro and fibers and variant == "fast" and handle.fast_text is not None and not force_fibers \
            and not request.launch.coresident and not request.launch.cooperative
        fibers = fibers and not coro
        runroot = build.workdir or Path(tempfile.mkdtemp(prefix="wd-emu-"))
        workdir = Path(tempfile.mkdtemp(prefix="run-", dir=runroot))
        # The write map's "last writer" of a word several blocks store is the last block in launch
        # order only when one worker thread runs them all.
        workers = 1 if handle.serial or variant in ("tsan", "writemap") else self.workers
        try:
            while True:
                outputs = jobs.write_job(
                    workdir, handle.spec, request.launch, request.inputs, fibers=fibers, coro=coro,
                    workers=workers,
                    start_aligned=start_aligned, vector_aligned=handle.vector_loads, time_limit_s=request.time_limit_s,
                    writemap=variant == "writemap",
                )
                limits = run_limits(request, variant, outputs)
                res = self.sandbox.run([SANDBOX_BINARY, f"{sandbox.WORK_PATH}/job.txt"], workdir, limits,
                                       ro_binds={str(handle.binaries[variant]): SANDBOX_BINARY}, env=env)
                if res.returncode == EXIT_RERUN_FIBERS and not fibers:
                    fibers, coro = True, False
                    continue
                if res.returncode == EXIT_RERUN_SERIAL and workers > 1:
                    workers = 1
                    continue
                break
            handle.cpu_s += res.cpu_s or 0.0
            outcome = read_outcome(build, request, workdir, res, outputs, self._locate_fault)
            outcome.cpu_s = res.cpu_s
            if variant == "writemap" and not (res.disk_exceeded or res.memory_exceeded):
                from ..emulator import writemap as wm

                outcome.writemaps, dropped = wm.read_all(workdir, outputs, request.launch)
                for why in dropped:
                    logger.warning("write map dropped: %s", why)
            return outcome
        finally:
            if keep is None:
                shutil.rmtree(workdir, ignore_errors=True)
            else:
                keep.append(workdir)

    def _locate_fault(self, build: Build, outcome: RunOutcome, fault: dict) -> None:
        """Map the faulting PC to the student's line with addr2line (inside the sandbox)."""
        handle: EmulatorHandle = build.handle
        line = self.addr2line(handle.binaries["fast"], fault.get("pc", "0"), build.workdir)
        if fault.get("signal") in ("SIGSEGV", "SIGBUS"):
            outcome.message = M.ERROR_PREFIXED(error="cudaErrorIllegalAddress", message=outcome.message)
        for d in outcome.diagnostics:
            if d.line is None and line:
                d.line = line  # shown beside the message; the message itself stays line-free

    def addr2line(self, binary: Path, pc: str, workdir: Path | None) -> int | None:
        tmp = Path(tempfile.mkdtemp(prefix="a2l-", dir=workdir))
        try:
            res = self.sandbox.run(["/usr/bin/addr2line", "-i", "-e", SANDBOX_BINARY, pc], tmp, Limits(20.0),
                                   ro_binds={str(binary): SANDBOX_BINARY})
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for raw in res.stdout.splitlines():
            m = re.match(r"^(.*):(\d+)", raw.strip())
            if m and os.path.basename(m.group(1)) == STUDENT_FILE:
                return int(m.group(2))
        return None

    def close(self, build: Build) -> None:
        if build.workdir:
            shutil.rmtree(build.workdir, ignore_errors=True)

    def check(self) -> list[str]:
        problems = []
        if not Path(self.cxx).exists():
            problems.append(f"the emulator needs {self.cxx}")
        if not Path("/usr/include/boost/context/fiber.hpp").exists():
            problems.append("the emulator needs Boost.Context (Debian: libboost-context-dev)")
        if not self.sandbox.works() and not self.sandbox.allow_unsafe:
            problems.append("the emulator needs bubblewrap (/usr/bin/bwrap) able to create namespaces")
        return problems
