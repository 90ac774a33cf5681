"""An explainer backend: a second backend asked to re-run a test case that hung the first one.

A GPU cannot tell a deadlock from a slow kernel: its child is killed at the time limit and the
backend reports a TIMEOUT, nothing more. The judge (judge.explain_hang) may then ask the CPU
emulator to run the same case: what the emulator proves (a barrier that can never complete, a
divergent barrier, a warp-mask error) is what the judge grades. The backends report; the judge decides.

Plain Python (no Django). The shell builds one per process (backends.registry.hang_explainer).
"""
from __future__ import annotations

import logging
from typing import Callable

from . import messages as M
from .backends.base import Backend, RunOutcome, RunRequest, RunStatus
from .kernel import KernelSpec
from .results import Diagnostic
from .verdicts import DiagnosticKind

log = logging.getLogger(__name__)

# How long the emulator may look for a deadlock after a hang: it needs a couple of seconds of
# spinning threads making no progress before it calls a wait hopeless (seconds: at least, at most).
PROOF_LIMITS_S = (2.0, 10.0)


class HangExplainer:
    """Runs a hung test case on another backend, built on first use by `factory` (e.g. the emulator).

    Where that backend cannot be built or compile here (no g++ or Boost.Context), it is asked no
    more: hangs stay TIME_LIMIT on this worker.
    """

    def __init__(self, factory: Callable[[], Backend]):
        self._factory = factory
        self._backend: Backend | None | bool = None  # None: not built yet; False: unavailable here

    def explain(self, source: str, spec: KernelSpec, request: RunRequest) -> RunOutcome | None:
        """The explainer backend's outcome on `request` (the case that hung), with its time limit
        clamped to PROOF_LIMITS_S; None where it cannot run or does not compile the source."""
        if self._backend is False:
            return None
        try:
            if self._backend is None:
                self._backend = self._factory()
            build = self._backend.compile(source, spec)
        except Exception as exc:  # no emulator here: hangs stay TIMEOUTs
            log.warning("the emulator cannot prove deadlocks on this worker: %s", exc)
            self._backend = False
            return None
        try:
            if not build.compile.ok:
                return None
            low, high = PROOF_LIMITS_S
            probe = RunRequest(launch=request.launch, inputs=request.inputs, test_name=request.test_name,
                               time_limit_s=min(max(request.time_limit_s, low), high))
            return self._backend.run(build, probe)
        except Exception as exc:
            log.info("no emulator proof of a deadlock: %s", exc)
            return None
        finally:
            self._backend.close(build)


# What an explainer may find on a case that hung and that explains the hang.
SYNC_FINDINGS = {DiagnosticKind.DIVERGENT_BARRIER, DiagnosticKind.WARP_MASK}


def explain_hang(outcome: RunOutcome, explainer: HangExplainer | None, source: str, spec: KernelSpec,
                 request: RunRequest) -> RunOutcome:
    """The outcome to grade for a run that `outcome` reports: when it is a TIMEOUT and an explainer is
    given, the explainer re-runs the case. A deadlock it proves makes the run a DEADLOCK (its findings,
    and a note that the backend was stopped); a divergent barrier or warp-mask error it finds is
    attached to the TIMEOUT (the case is then graded SYNC_ERROR, which explains the hang); otherwise,
    or without an explainer, `outcome` is returned as it is."""
    if explainer is None or outcome.status is not RunStatus.TIMEOUT:
        return outcome
    proof = explainer.explain(source, spec, request)
    if proof is None:
        return outcome
    stopped = M.TIME_LIMIT_STOPPED(limit=f"{request.time_limit_s:g}")
    if proof.status is RunStatus.DEADLOCK:
        note = Diagnostic(kind=DiagnosticKind.NOTE, message=M.GPU_DEADLOCK_PROVEN(killed=stopped))
        return RunOutcome(status=RunStatus.DEADLOCK, diagnostics=[*proof.diagnostics, note], time_s=outcome.time_s,
                          message=proof.message or "deadlock", log=proof.log)
    found = [d for d in proof.diagnostics if d.kind in SYNC_FINDINGS]
    if not found:
        return outcome
    note = Diagnostic(kind=DiagnosticKind.NOTE, message=M.GPU_SYNC_FOUND(killed=stopped))
    return RunOutcome(status=RunStatus.TIMEOUT, diagnostics=[*outcome.diagnostics, *found, note],
                      time_s=outcome.time_s, message=outcome.message)
