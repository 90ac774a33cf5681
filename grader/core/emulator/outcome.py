"""What a finished emulator run says: its box's exit and the files the runtime wrote, read as a RunOutcome.

The runtime shares its process with the student's code, so nothing it leaves is believed blindly:
the result file is checked (result_file.py), outputs are read only after an ok (jobs.py), and a run
that ended without a result is the student's runtime error, never the platform's retry. Plain Python
(no Django); the backend (backends/emulator.py) calls read_outcome after every run.
"""
from __future__ import annotations

import logging
import signal
from pathlib import Path
from typing import Callable

from .. import messages as M
from ..backends.base import Build, RunOutcome, RunRequest, RunStatus
from ..escape import escape_untrusted
from ..results import Diagnostic
from ..sandbox import SandboxResult
from ..verdicts import DiagnosticKind
from . import jobs, result_file
from .run_limits import input_bytes, rss_limit_bytes

logger = logging.getLogger(__name__)

# The result file's status -> the run's (result_file.py checks the file's values).
STATUS = {
    "ok": RunStatus.OK,
    "fault": RunStatus.FAULT,
    "deadlock": RunStatus.DEADLOCK,
    "timeout": RunStatus.TIMEOUT,
}

# Signals that end a run whose own code crashed (the runtime's handlers normally report these).
FAULT_SIGNALS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT, signal.SIGTRAP)
LOG_READ_CAP = 128 * 1024  # the runtime caps printf at 64 KiB; a larger file was not written by it


def read_outcome(build: Build, request: RunRequest, workdir: Path, res: SandboxResult, outputs,
                 locate_fault: Callable[[Build, RunOutcome, dict], None]) -> RunOutcome:
    """The outcome of a finished run of `request`: what its box's exit (`res`, the sandbox's) and the
    files it left in `workdir` (the result file, printf.log, the outputs jobs.write_job named in
    `outputs`) say. A file the box wrote is believed only when the runtime could have finished it;
    a run ended by the student's own code is their fault (FAULT), one the machine starved is the
    platform's (INTERNAL). `locate_fault(build, outcome, fault)` maps a fault's PC to a line."""
    log = read_capped(workdir / "printf.log")
    if res.disk_exceeded:
        # Killed by the sandbox's disk watchdog: whatever result file is there is not believed.
        diag = Diagnostic(DiagnosticKind.CUDA_ERROR, test=request.test_name or None,
                          message=M.DISK_LIMIT(mib=jobs.disk_allowance(outputs) >> 20))
        return RunOutcome(RunStatus.FAULT, log=log, time_s=res.time_s, message=diag.message, diagnostics=[diag])
    if res.memory_exceeded:
        # Killed by the sandbox's resident-memory watchdog: the result file is not believed.
        mib = rss_limit_bytes(input_bytes(request)) >> 20
        diag = Diagnostic(DiagnosticKind.CUDA_ERROR, test=request.test_name or None,
                          message=M.MEMORY_LIMIT(mib=mib))
        return RunOutcome(RunStatus.FAULT, log=log, time_s=res.time_s, message=diag.message, diagnostics=[diag])
    bounds = result_file.Bounds(build.handle.source_lines, tuple(request.launch.grid), tuple(request.launch.block),
                                res.time_s)
    try:
        result = result_file.read(workdir, bounds)
    except result_file.ResultFileError as exc:
        if res.timed_out:
            result = None  # killed at the wall clock: a half-written file says nothing
        else:
            # Only code in the run's own process could have written it: the student's runtime error.
            diag = Diagnostic(DiagnosticKind.CUDA_ERROR, test=request.test_name or None,
                              message=M.RESULT_FILE_INVALID(reason=str(exc)))
            return RunOutcome(RunStatus.FAULT, log=log, time_s=res.time_s, message=diag.message, diagnostics=[diag])
    if res.timed_out and result is not None and result.get("status") != "timeout":
        # The binary never ended by itself: whatever result file is there, its own code did not
        # finish writing it (student code may have written one), so it is not believed.
        result = None
    if result is None:
        if res.timed_out and res.starved:
            # Stopped at the backstop before it had its CPU seconds: the machine was overloaded.
            return RunOutcome(RunStatus.INTERNAL, log=log, time_s=res.time_s,
                              message=f"the machine was too busy: test {request.test_name or '?'} got too little "
                                      f"CPU time in {res.time_s:.1f} s of wall time")
        if res.timed_out:
            # Stopped by the sandbox: at its CPU seconds (code that never reached the runtime's own check),
            # or at the wall-clock backstop while it used little CPU (it sleeps or blocks).
            limit = f"{request.time_limit_s:g}"
            said = M.TIME_LIMIT(limit=limit) if res.cpu_exceeded or res.cpu_s is None else \
                M.TIME_LIMIT_WALL(limit=limit, wall=f"{res.time_s:.0f}")
            diag = Diagnostic(DiagnosticKind.TIMEOUT, test=request.test_name or None, message=said)
            return RunOutcome(RunStatus.TIMEOUT, diagnostics=[diag], log=log, time_s=res.time_s,
                              message=M.OUTCOME_TIME_LIMIT() if res.cpu_exceeded else said)
        if res.returncode in (-9, 137):
            # Killed by the kernel's rlimits: memory or CPU time.
            return RunOutcome(RunStatus.TIMEOUT, log=log, time_s=res.time_s,
                              message=M.OUTCOME_KILLED(),
                              diagnostics=[Diagnostic(DiagnosticKind.TIMEOUT, test=request.test_name or None,
                                                      message=M.KILLED_CPU_OR_MEMORY())])
        killed = signal_of(res.returncode)
        if killed in (signal.SIGXCPU, signal.SIGXFSZ) or killed in FAULT_SIGNALS:
            # The box's rlimits or the student's own code (which shares the process) ended it
            # before the runtime could report: the student's fault, not the platform's.
            what = {signal.SIGXCPU: M.KILLED_BY["cpu"](), signal.SIGXFSZ: M.KILLED_BY["file"]()}.get(
                killed) or M.KILLED_BY["signal"](signal=killed.name)
            status = RunStatus.TIMEOUT if killed is signal.SIGXCPU else RunStatus.FAULT
            kind = DiagnosticKind.TIMEOUT if killed is signal.SIGXCPU else DiagnosticKind.CUDA_ERROR
            diag = Diagnostic(kind, test=request.test_name or None, message=M.KILLED_BEFORE_REPORT(what=what))
            return RunOutcome(status, log=log, time_s=res.time_s, message=diag.message, diagnostics=[diag])
        # The run ended by itself without a result. Its process was shared with the student's code,
        # which can end it (or remove the file) at will: the student's runtime error, never the
        # platform's retry. The box's stderr goes to the log escaped, for a bug of ours to be seen.
        logger.warning("emulator run ended with status %s and no result; stderr: %s", res.returncode,
                       escape_untrusted(res.stderr[-1000:]))
        diag = Diagnostic(DiagnosticKind.CUDA_ERROR, test=request.test_name or None,
                          message=M.RUN_ENDED_WITHOUT_RESULT(status=res.returncode))
        return RunOutcome(RunStatus.FAULT, log=log, time_s=res.time_s, message=diag.message, diagnostics=[diag])
    if result["status"] == "internal":
        # The runtime could not map its own memory: in a process the student's code shared, so theirs.
        diag = Diagnostic(DiagnosticKind.CUDA_ERROR, test=request.test_name or None,
                          message=M.RUNTIME_OUT_OF_MEMORY(what=result["message"]))
        return RunOutcome(RunStatus.FAULT, log=log, time_s=result["time_s"], message=diag.message, diagnostics=[diag])
    status = STATUS[result["status"]]
    diags = jobs.diagnostics_from(result, request.test_name)
    # The run's message is its fatal diagnostic's (the same words, one Message).
    said = next((d.message for d in diags if d.message == result["message"]), None)
    outcome = RunOutcome(status, diagnostics=diags, log=log, time_s=result["time_s"],
                         message=said or result["message"])
    if status is RunStatus.OK:
        try:
            outcome.outputs = jobs.read_outputs(workdir, outputs)
        except jobs.OutputFileError as exc:
            # The runtime writes every output before it reports ok: code in its process ended it first.
            diag = Diagnostic(DiagnosticKind.CUDA_ERROR, test=request.test_name or None,
                              message=M.OUTPUT_FILE_INVALID(name=str(exc)))
            return RunOutcome(RunStatus.FAULT, log=log, time_s=res.time_s, message=diag.message, diagnostics=[diag])
    elif status is RunStatus.FAULT and result.get("fault"):
        locate_fault(build, outcome, result["fault"])
    if "output truncated" in log[-100:]:
        outcome.diagnostics.append(Diagnostic(DiagnosticKind.NOTE, test=request.test_name or None,
                                              message=M.PRINTF_TRUNCATED()))
    return outcome


def signal_of(returncode: int) -> signal.Signals | None:
    """The signal that ended a sandboxed run (bubblewrap reports 128+N, a direct child -N)."""
    number = -returncode if returncode < 0 else returncode - 128 if 128 < returncode < 128 + 65 else 0
    try:
        return signal.Signals(number) if number else None
    except ValueError:
        return None


def read_capped(path: Path) -> str:
    """The start of a file the box wrote ("" when absent), never more than LOG_READ_CAP bytes."""
    try:
        with path.open("rb") as f:
            return f.read(LOG_READ_CAP).decode("utf-8", errors="replace")
    except OSError:
        return ""
