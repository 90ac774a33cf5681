"""The plain runs of one build, kept so that the check pass need not run the same case again.

The judge runs every test case plain, then the check pass runs the smallest one again: plain,
page-aligned and under its checkers (checkplan.py). Its plain run is the test's run once more: the
same binary, launch and inputs, only a longer time limit (the emulator is deterministic, so a run
that ended ok under the shorter limit ends the same under the longer one). `key` names such a run;
the backend keeps the ok outcomes of small cases under it (EmulatorHandle.plain_runs) and the check
pass takes a copy instead of running again. Inputs above MAX_BYTES are not hashed (the check pass
runs the smallest case, and hashing a large one would cost more than it saves).
"""
from __future__ import annotations

import copy
import hashlib
from typing import Any, Mapping

from ..backends.base import RunStatus

MAX_BYTES = 1 << 20  # inputs (bytes, all buffers together) of a run worth keeping


def key(launch: Any, inputs: Mapping[str, Any]) -> str | None:
    """A digest of `launch` (a LaunchConfig: its repr names every field) and `inputs` (name -> a NumPy
    array or a scalar: names, dtypes, shapes and bytes), or None when the buffers together hold
    more than MAX_BYTES."""
    if sum(int(getattr(v, "nbytes", 0)) for v in inputs.values()) > MAX_BYTES:
        return None
    h = hashlib.sha256(repr(launch).encode())
    for name in sorted(inputs):
        value = inputs[name]
        h.update(f"\0{name}\0{getattr(value, 'dtype', type(value).__name__)}\0{getattr(value, 'shape', '')}\0".encode())
        h.update(value.tobytes() if hasattr(value, "tobytes") else repr(value).encode())
    return h.hexdigest()


def plain_run(backend, build, request, reuse: bool = True):
    """The plain ("fast", end-aligned) run of `request` on `build` (a Build of the emulator backend):
    for a check request a copy of the ok outcome an earlier plain run of the same case left in
    `build.handle.plain_runs` when `reuse`, else a fresh run, whose ok outcome a plain request keeps
    there (a copy: the judge fills in the diagnostics of what it is given)."""
    handle = build.handle
    found = key(request.launch, request.inputs)
    if request.check and reuse and found in handle.plain_runs:
        return copy.deepcopy(handle.plain_runs[found])
    outcome = backend._run_once(build, request, "fast", start_aligned=False)
    if not request.check and found is not None and outcome.status is RunStatus.OK:
        handle.plain_runs[found] = copy.deepcopy(outcome)
    return outcome
