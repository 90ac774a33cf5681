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

from .backends.base import Backend, RunOutcome, RunRequest

from .kernel import KernelSpec

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
