"""The GPU backend's check pass: a check run (RunRequest.check) goes to warm children under
compute-sanitizer, one per tool, the tools in parallel; each child serves many checks, its log cut into
per-job reports at fences (gpu/fence.py). After a fault worth it, memcheck on the faulting case names
the line and thread of the access."""
from __future__ import annotations

import logging
import time

import numpy as np

from .. import messages as M
from ..backends.base import RunOutcome, RunRequest, RunStatus
from ..results import Diagnostic
from ..verdicts import DiagnosticKind
from . import fence, protocol
from .pool import ChildPool, ChildStartError
from .sanitizer import Tool, parse_report

log = logging.getLogger("grader.core.backends.gpu")

SANITIZER_EXIT_S = 10.0  # a sanitizer child asked to finish writes its summary and exits


class SanitizerPass:
    """compute-sanitizer's tools over one job, in the pool's warm children. `checks`: the tools this
    worker runs (a check run's request naming others gets only these; one naming none gets all of
    them); `deadline(limit_s, arrays)`: when a job's answer is late."""

    def __init__(self, pool: ChildPool, checks: tuple[Tool, ...], deadline, recheck_located_faults: bool = False):
        """`recheck_located_faults`: a check pass runs memcheck even where memcheck already located this
        build's fault (where_it_faulted; False leaves it out there: see check)."""
        self.pool = pool
        self.checks = checks
        self.recheck_located_faults = recheck_located_faults
        self._deadline = deadline
        self.last_check: dict = {}  # timings of the last pass, for benchmarks

    def _sanitize(self, tools: tuple[Tool, ...], job: dict, arrays: dict[str, np.ndarray], limit_s: float):
        """Run the job under each tool at once, each in the pool's warm child for that tool.

        Returns ({tool: (reply or None, this job's part of the tool's log)}, platform error or "").
        A late tool's child is killed (its reply is None, its log what it wrote). A child whose
        log could not be cut at this job's fence (no fence: it broke, or its print limit ran out)
        is finished and its whole remaining log read; it is replaced, as is one that has
        served the pool's sanitizer_jobs jobs. Shared children are held for the whole pass.
        """
        try:
            with self.pool.holding(tuple(str(t) for t in tools)):
                return self._sanitize_held(tools, job, arrays, limit_s)
        except ChildStartError as exc:  # a shared child's lock not had in time
            return {}, str(exc)

    def _sanitize_held(self, tools: tuple[Tool, ...], job: dict, arrays: dict[str, np.ndarray], limit_s: float):
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
            except (ChildStartError, protocol.ProtocolError, OSError) as exc:
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
            elif child.jobs >= self.pool.sanitizer_jobs or not child.has_room_for_a_job():
                self.pool.retire_sanitizer(tool)  # its successor starts now, not at the next check
        self.last_check = {k: round(v, 3) for k, v in timings.items()}
        return results, error

    def check(self, handle, request: RunRequest, job: dict, arrays: dict[str, np.ndarray]) -> RunOutcome:
        """The check run of one test case (`handle`: the build's GpuHandle; `job`, `arrays`: the run's job):
        the findings of every tool asked for, a TIMEOUT note for a tool that ran out, INTERNAL for a
        platform error (the submission is retried)."""
        # The problem's own checks when the request names them (a `checks` field on RunRequest) that this
        # worker runs (the checks option, every tool by default), else every tool this worker runs.
        named = getattr(request, "checks", None)
        tools = tuple(t for t in (Tool(str(c)) for c in named) if t in self.checks) if named else self.checks
        if Tool.RACECHECK in tools and handle.shared_static_bytes == 0 and not request.launch.shared_bytes:
            # racecheck looks for hazards on shared memory only: a kernel with none cannot have one.
            tools = tuple(t for t in tools if t is not Tool.RACECHECK)
        if Tool.MEMCHECK in tools and handle.faults_located and not self.recheck_located_faults:
            # A test case faulted and memcheck already named the access (where_it_faulted): the submission
            # is a MEMORY_ERROR with its line whatever memcheck finds here, and a second faulting run
            # under memcheck would only cost its child again (issue 17). The other tools still look.
            tools = tuple(t for t in tools if t is not Tool.MEMCHECK)
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
                diagnostics.append(Diagnostic(kind=DiagnosticKind.NOTE, message=M.SANITIZER_UNFINISHED(
                    tool=str(tool), limit=f"{request.time_limit_s:g}")))
                status = RunStatus.TIMEOUT
            elif reply.get("status") == "internal":
                return RunOutcome(status=RunStatus.INTERNAL, message=f"{tool}: {reply.get('message')}")
            elif reply.get("status") in ("fault", "launch_error") and status is RunStatus.OK:
                status = RunStatus.FAULT
            if reply and reply.get("grid_sync_line") and not any(d.message.template == M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE
                                                                 for d in diagnostics):
                line = int(reply["grid_sync_line"])  # grid.sync() reached in an ordinary launch (gridsync.py)
                diagnostics.append(Diagnostic(kind=DiagnosticKind.CUDA_ERROR, line=line,
                                              detail={"error": "CUDA_ERROR_LAUNCH_FAILED"},
                                              message=M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE(line=line)))
        return RunOutcome(status=status, diagnostics=diagnostics, time_s=time.monotonic() - started,
                          message="; ".join(sorted({d.message for d in diagnostics if d.kind is not DiagnosticKind.NOTE}))[:500])

    def where_it_faulted(self, handle, request: RunRequest, job: dict, arrays) -> list[Diagnostic]:
        """memcheck on the faulting case, for the line and thread of an illegal or misaligned access."""
        results, error = self._sanitize((Tool.MEMCHECK,), job, arrays, request.time_limit_s)
        if error or Tool.MEMCHECK not in results:
            log.info("memcheck after a fault gave nothing: %s", error)
            return []
        report = parse_report(Tool.MEMCHECK, results[Tool.MEMCHECK][1])
        return [] if report.platform_error else report.diagnostics
