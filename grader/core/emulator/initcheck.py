"""The shared-memory initcheck (check mode): run the `initcheck` build and report reads of
`__shared__` memory that no thread of the block had written, like compute-sanitizer's initcheck.

The emulator poisons shared memory with 0xFF bytes at each block's start, so such a read shows up in
the output as -2 / 4294967294 / NaN with nothing to say where it came from. The initcheck variant
(src/initcheck.cpp) instruments every load and store of the student's code, keeps one written flag
per shared byte of the running block and reports the first unwritten read of each array at each
instruction, with its address; here the address becomes the student's line (addr2line).

The finding is an UNINITIALIZED diagnostic, whose verdict is None (verdicts.DIAGNOSTIC_VERDICT): a
kernel whose output is right is not failed for it (docs/synchronization.md); a wrong output is
explained by it. Like the race check it runs only in the check pass, on the smallest test.
"""
from __future__ import annotations

from .. import messages as M
from ..backends.base import RunStatus
from ..results import Diagnostic
from ..verdicts import DiagnosticKind

MAX_REPORTS = 5  # per run: the first reads, one per array and line


def check_uninitialized(backend, build, request) -> list[Diagnostic]:
    """Build the initcheck variant if needed, run `request` under it, and return its UNINITIALIZED
    diagnostics (line = the student's line of the read; detail: array, space, index, declared_line), at
    most MAX_REPORTS, one per array and line. A variant that does not build or a run that does not end
    ok gives one NOTE instead (the plain run already passed: the student's code is not at fault)."""
    handle = build.handle
    test = request.test_name or None
    if "initcheck" not in handle.binaries:
        ok, _messages, _log, _cached = backend._build_variant(handle, "initcheck")
        if not ok:
            return [Diagnostic(DiagnosticKind.NOTE, test=test, check=True, message=M.INITCHECK_NOT_BUILT())]
    outcome = backend._run_once(build, request, "initcheck", start_aligned=False)
    if outcome.status is not RunStatus.OK:
        return [Diagnostic(DiagnosticKind.NOTE, test=test, check=True,
                           message=M.INITCHECK_UNFINISHED(status=str(outcome.status)))]
    found: dict[tuple, Diagnostic] = {}
    for d in outcome.diagnostics:
        if d.kind is not DiagnosticKind.UNINITIALIZED:
            continue
        line = backend.addr2line(handle.binaries["initcheck"], str(d.detail.get("pc", "0x0")), build.workdir)
        array, index = str(d.detail.get("array", "")), int(d.detail.get("index", 0))
        if line is None or (array, line) in found:
            continue  # a read in our own code (a library call) or a second element on the same line
        detail = {"array": array, "space": "shared", "index": index,
                  "declared_line": int(d.detail.get("declared_line", 0) or 0)}
        found[(array, line)] = Diagnostic(
            DiagnosticKind.UNINITIALIZED, line=line, block=d.block, thread=d.thread, test=test, check=True,
            detail=detail, message=M.SHARED_UNINITIALIZED_READ(array=array, index=index, line=line))
        if len(found) >= MAX_REPORTS:
            break
    return sorted(found.values(), key=lambda d: (d.line, d.detail["array"]))
