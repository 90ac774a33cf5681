"""compute-sanitizer: the command line of each pass and the parser of its report.

Each tool prints records that start with ``========= `` and continue with more indented lines::

    ========= Invalid __global__ write of size 4 bytes
    =========     at vector_add(const float *, const float *, float *, int)+0x90 in /box/kernel.cu:7
    =========     by thread (31,0,0) in block (4,0,0)
    =========     Address 0x7f... is out of bounds
    ========= Error: Race reported between Write access at 0x1f0 in /box/kernel.cu:12:k(float *)
    =========     and Read access at 0x200 in /box/kernel.cu:14:k(float *) [4 hazards]
    ========= Barrier error detected. Divergent thread(s) in warp
    =========     at 0x150 in /box/kernel.cu:5:k(float *)
    =========     by thread (1,0,0) in block (0,0,0)

Lines come from -lineinfo; the translation unit starts with ``#line 1 "kernel.cu"`` so a location
in ``kernel.cu`` is a line of the student's source. Racecheck warnings count as races (the
volatile-free warp-synchronous reduction is reported only as a warning).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import messages as M
from ..kernel import Check
from ..results import Diagnostic
from . import fence
from ..verdicts import DiagnosticKind
from .nvcc import STUDENT_FILE


# The compute-sanitizer tools the GPU backend runs: one per check a problem may ask for, so one
# enum (grader/core/kernel.py's Check), named here for what it is to this module.
Tool = Check


# Records one job may print. memcheck reports each faulting thread's access until the kernel is ended; racecheck
# prints one analysis record per pair of racing instructions; synccheck one per thread at a
# divergent barrier, so a few blocks' worth.
JOB_RECORDS = {Tool.MEMCHECK: 100, Tool.RACECHECK: 100, Tool.SYNCCHECK: 1024}
# Records one fence makes (fence.py), measured on an H200: memcheck's failed API call, one;
# racecheck's race, one analysis record; synccheck's barrier, one per thread (two).
FENCE_RECORDS = {Tool.MEMCHECK: 1, Tool.RACECHECK: 1, Tool.SYNCCHECK: 2}
# The fewest records a warm child must still be able to print for a job (pool.Child.has_room_for_a_job):
# enough to name the lines of a report (one record decides the verdict; a longer report may be cut,
# its fence then missing, and the child is replaced after it). Records past the limit are never
# printed: a job that starts with no room at all would pass a racy kernel.
MIN_REPORT_RECORDS = 16


def print_limit(tool: Tool, jobs: int = 1) -> int:
    """compute-sanitizer's --print-limit for a child that serves `jobs` jobs under `tool`.

    The limit counts every record of the process's life, fences included: it leaves the last
    of `jobs` jobs JOB_RECORDS of its own. A job that prints more uses up the limit; its fence
    is then never printed, and the judge reads its report to the end of the log instead.
    """
    return JOB_RECORDS[tool] + FENCE_RECORDS[tool] * max(1, jobs)


def tool_options(tool: Tool, log_file: str, jobs: int = 1, memcheck_on_error: str = "kernel") -> list[str]:
    """compute-sanitizer's options for `tool`, writing its report to `log_file` (see print_limit); memcheck
    ends what `memcheck_on_error` says on a precise error ("kernel" or "context": child_settings.py)."""
    options = ["--tool", str(tool), "--log-file", log_file, "--print-limit", str(print_limit(tool, jobs)),
               "--show-backtrace", "no"]
    if tool is Tool.MEMCHECK:
        # "kernel": a precise error ends the kernel only, and the warm child serves on (child_settings.py).
        options += ["--destroy-on-device-error", memcheck_on_error]
    if tool is Tool.RACECHECK:
        # One record per pair of racing instructions with both lines ("analysis"), not one per
        # hazardous byte and thread pair ("all": thousands for one racy block, which would use
        # up the print limit of a long-lived child at once).
        options += ["--racecheck-report", "analysis"]
    return options


def count_records(log: str) -> int:
    """How many records begin in `log` (the tool's own header line included)."""
    return sum(1 for line in log.splitlines() if _RECORD_START.match(line))


_RECORD_START = re.compile(r"^========= (?=\S)(.*)$")
_CONTINUATION = re.compile(r"^=========\s{2,}(.*)$")
_LOCATION = re.compile(r"(?:^|[\s/])" + re.escape(STUDENT_FILE) + r":(\d+)")
_ANY_LOCATION = re.compile(r"in (\S+?):(\d+)")
_THREAD = re.compile(r"[Tt]hread \((\d+),\s*(\d+),\s*(\d+)\)")
_BLOCK = re.compile(r"block \((\d+),\s*(\d+),\s*(\d+)\)")
_INVALID_ACCESS = re.compile(r"Invalid (__\w+__) (read|write|atomic)\w* of size (\d+) bytes?")
_RACE_ACCESS = re.compile(r"\b(Read|Write|Atomic)\w* (?:access|Thread)")
_NEAREST = re.compile(r"is (\d+) bytes (before|after) the nearest allocation at \S+ of size (\d+) bytes")

# Records that echo a failure the judge already reports, or are summaries.
_IGNORED = ("Program hit", "ERROR SUMMARY", "COMPUTE-SANITIZER", "LEAK SUMMARY", "RACECHECK SUMMARY",
            "Target application returned an error", "SYNCCHECK SUMMARY", "No CUDA-capable")
# Records that mean the sanitizer itself could not work: the platform's fault.
_PLATFORM = ("Device not supported", "Internal Sanitizer Error", "Target application terminated before first",
             "Unable to find injection library", "Failed to create", "Error: Unable", "Error: Unknown")


@dataclass
class Record:
    """One report of a tool: its first line and its continuation lines."""

    head: str
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join([self.head, *self.lines])


@dataclass
class SanitizerReport:
    """What one tool reported."""

    tool: Tool
    diagnostics: list[Diagnostic]
    platform_error: str = ""  # non-empty when the sanitizer could not check (not the student's fault)
    records: int = 0  # records parsed, ignored ones included


def _spans(log: str):
    """(start, end, head, text) of each record in `log`: character offsets of its lines (its first
    line and the lines up to the next record's), its first line without the prefix, all its lines.
    Lines before the first record (the tail of a fence cut earlier) belong to no record."""
    start, head, lines, position = -1, "", [], 0
    for line in log.splitlines(keepends=True):
        if m := _RECORD_START.match(line.rstrip("\n")):
            if start >= 0:
                yield start, position, head, "".join(lines)
            start, head, lines = position, m.group(1).strip(), []
        if start >= 0:
            lines.append(line)
        position += len(line)
    if start >= 0:
        yield start, position, head, "".join(lines)


def cut_job(tool: Tool, log: str, nonce: str) -> tuple[str, int] | None:
    """Cut one job's report off the front of a long-lived child's log (fence.py).

    `log` is what the tool wrote since the previous cut; `nonce` names this job's fence. Returns
    (the text before the fence, how many characters of `log` the cut consumed: through the
    fence's lines seen so far), or None while the fence is not (completely) in `log`. Only
    complete lines are looked at: the tool may be writing the last one. (memcheck's fence is
    complete with its first line; a kernel fence is known by the kernel's name on its first or
    second line, so a fence seen at the end of the text is already recognisable.)
    """
    complete = log[:log.rfind("\n") + 1]
    for start, end, head, text in _spans(complete):
        if fence.is_fence(str(tool), head, text, nonce):
            return log[:start], end
    return None


def drop_fences(tool: Tool, log: str, nonces: tuple[str, ...]) -> str:
    """`log` without the records of the fences named by `nonces` (a fence can make several
    records, and the rest of an earlier job's fence starts the next job's text)."""
    kept = "".join(text for _, _, head, text in _spans(log)
                   if not any(fence.is_fence(str(tool), head, text, nonce) for nonce in nonces if nonce))
    return kept if not kept or kept.endswith("\n") else kept + "\n"


def split_records(log: str) -> list[Record]:
    records: list[Record] = []
    for line in log.splitlines():
        if m := _CONTINUATION.match(line):
            if records:
                records[-1].lines.append(m.group(1).strip())
        elif m := _RECORD_START.match(line):
            records.append(Record(head=m.group(1).strip()))
    return records


def _ids(text: str, pattern: re.Pattern) -> tuple[int, int, int] | None:
    m = pattern.search(text)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def _where(text: str) -> tuple[int | None, list[int], str]:
    """(first student line, every student line, first location of any file) in a record."""
    lines = [int(x) for x in _LOCATION.findall(text)]
    other = _ANY_LOCATION.search(text)
    return (lines[0] if lines else None), lines, (f"{other.group(1)}:{other.group(2)}" if other else "")


def _memcheck(record: Record) -> Diagnostic | None:
    text = record.text
    line, _, where = _where(text)
    common = dict(line=line, block=_ids(text, _BLOCK), thread=_ids(text, _THREAD))
    access = _INVALID_ACCESS.search(record.head)
    lowered = text.lower()
    if access:
        space, verb, size = access.group(1), access.group(2), int(access.group(3))
        detail = {"space": space, "access": verb, "size": size, "tool": "memcheck"}
        if where and line is None:
            detail["location"] = where
        params = {"space": space, "access": M.word(verb), "size": size}
        if "misaligned" in lowered:
            return Diagnostic(kind=DiagnosticKind.MISALIGNED, message=M.MISALIGNED(**params),
                              detail=detail, **common)
        template = M.OUT_OF_BOUNDS
        if near := _NEAREST.search(text):
            detail.update(distance=int(near.group(1)), side=near.group(2), allocation=int(near.group(3)))
            template = M.OUT_OF_BOUNDS_NEAR
            params.update(distance=int(near.group(1)), side=M.OUT_OF_BOUNDS_NEAR_SIDE[near.group(2)](),
                          allocation=int(near.group(3)))
        return Diagnostic(kind=DiagnosticKind.OUT_OF_BOUNDS, message=template(**params),
                          detail=detail, **common)
    if "stack overflow" in lowered:
        return Diagnostic(kind=DiagnosticKind.STACK_OVERFLOW, message=M.STACK_OVERFLOW(),
                          detail={"tool": "memcheck"}, **common)
    if "misaligned" in lowered:
        return Diagnostic(kind=DiagnosticKind.MISALIGNED, message=record.head, detail={"tool": "memcheck"}, **common)
    if "address" in lowered and ("out of" in lowered or "illegal" in lowered):
        return Diagnostic(kind=DiagnosticKind.OUT_OF_BOUNDS, message=record.head, detail={"tool": "memcheck"}, **common)
    return None


def _racecheck(record: Record) -> Diagnostic | None:
    text = record.text
    if "Race reported" not in text and "hazard" not in text.lower():
        return None
    line, lines, _ = _where(text)
    severity = "warning" if record.head.lower().startswith("warn") else "error"
    accesses = [a.lower() for a in _RACE_ACCESS.findall(text)]
    hazard = re.search(r"\b(RAW|WAR|WAW)\b", text)
    if len(accesses) >= 2 and len(lines) >= 2:
        template, params = M.SHARED_RACE_LINES, {"access": M.word(accesses[0]), "line": lines[0],
                                                 "other_access": M.word(accesses[1]), "other_line": lines[1]}
    elif hazard:
        template, params = M.SHARED_HAZARD, {"hazard": hazard.group(1)}
    else:
        template, params = M.SHARED_RACE, {}
    detail = {"tool": "racecheck", "severity": severity, "lines": lines}
    if hazard:
        detail["hazard"] = hazard.group(1)
    if m := re.search(r"\[(\d+) hazards?\]", text):
        detail["hazards"] = int(m.group(1))
    return Diagnostic(kind=DiagnosticKind.RACE, message=template(**params), line=line,
                      block=_ids(text, _BLOCK), thread=_ids(text, _THREAD), detail=detail)


def _synccheck(record: Record) -> Diagnostic | None:
    text = record.text
    if "Barrier error" not in text and "barrier" not in text.lower() and "mask" not in text.lower():
        return None
    line, _, _ = _where(text)
    common = dict(line=line, block=_ids(text, _BLOCK), thread=_ids(text, _THREAD))
    if "Invalid arguments" in text or "mask" in text.lower():
        return Diagnostic(kind=DiagnosticKind.WARP_MASK, message=M.WARP_SYNC_ERROR(sanitizer=record.head),
                          detail={"tool": "synccheck"}, **common)
    template = M.DIVERGENT_BARRIER_WARP if "in warp" in text else M.DIVERGENT_BARRIER_BLOCK
    return Diagnostic(kind=DiagnosticKind.DIVERGENT_BARRIER, message=template(),
                      detail={"tool": "synccheck", "sanitizer": record.head}, **common)


_PARSERS = {Tool.MEMCHECK: _memcheck, Tool.RACECHECK: _racecheck, Tool.SYNCCHECK: _synccheck}


def parse_report(tool: Tool, log: str, limit: int = 10) -> SanitizerReport:
    """The diagnostics in one tool's log, unique by (kind, line), at most `limit`.

    Duplicates (the same fault in many threads) are counted in detail["count"].
    """
    records = split_records(log)
    diagnostics: dict[tuple, Diagnostic] = {}
    platform_error = ""
    for record in records:
        if any(marker in record.head for marker in _IGNORED):
            continue
        if any(marker in record.text for marker in _PLATFORM):
            platform_error = platform_error or record.head
            continue
        diag = _PARSERS[tool](record)
        if diag is None:
            continue
        key = (diag.kind, diag.line)
        if key in diagnostics:
            kept = diagnostics[key]
            kept.detail["count"] = kept.detail.get("count", 1) + 1
        elif len(diagnostics) < limit:
            diagnostics[key] = diag
    return SanitizerReport(tool=tool, diagnostics=list(diagnostics.values()), platform_error=platform_error,
                           records=len(records))
