"""Race checking (check mode): run the ThreadSanitizer build and turn its reports into RACE diagnostics.

The TSan variant instruments only the student's code; the runtime tells TSan about the
happens-before edges CUDA guarantees (barrier and warp-op generations, block boundaries), and every
CUDA thread is a TSan fiber named "block (x,y,z) thread (x,y,z)". Any remaining unordered pair of
accesses, one a write, is a race. The runtime writes an arena map (arenas.txt) so that a racing
address is named as array + index.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from enum import StrEnum
from pathlib import Path

from .. import messages as M
from ..backends.base import RunStatus
from ..results import Diagnostic
from ..verdicts import DiagnosticKind

MAX_RACES = 10
# How the race run's ThreadSanitizer reports. suppress_equal_addresses=0: a lost update (`h[i]++`)
# shows as a read-after-write AND a write-after-write on one address; TSan would otherwise report only
# the first (reports stay deduplicated by their pair of stacks, so their number is bounded by line
# pairs). atexit_sleep_ms=0: TSan's default sleeps a second at exit so that other threads' races at
# exit are seen; every CUDA thread here is a fiber of the one worker thread, which has finished the
# launch and written the result file by then, so the second was only waiting (1.0 of the 1.4 s the
# race run of a trivial kernel took, issue #17).
TSAN_OPTIONS = ("log_path=/box/tsan halt_on_error=0 exitcode=0 report_signal_unsafe=0 history_size=4 "
                "detect_deadlocks=0 report_thread_leaks=0 io_sync=0 suppress_equal_addresses=0 atexit_sleep_ms=0")

_ACCESS = re.compile(r"^\s*(?P<prev>Previous )?(?P<atomic>[Aa]tomic )?(?P<op>[Ww]rite|[Rr]ead) of size (?P<size>\d+) at "
                     r"(?P<addr>0x[0-9a-f]+) by (?P<who>.*?)(?: \(mutexes:.*)?:\s*$")
_FRAME = re.compile(r"^\s*#\d+ .*?(?P<file>[^\s:]+):(?P<line>\d+)")
_THREAD = re.compile(r"^\s*Thread (?P<id>T\d+) '(?P<name>[^']*)'")
_IDS = re.compile(r"block \((\d+),(\d+),(\d+)\) thread \((\d+),(\d+),(\d+)\)")


def _arenas(workdir: Path) -> list[tuple[str, str, int, int, int]]:
    path = workdir / "arenas.txt"
    out = []
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 5:
                out.append((parts[0], parts[1], int(parts[2]), int(parts[3]), int(parts[4])))
    return out


def _differing_stores(workdir: Path) -> set[int]:
    """Addresses whose racing stores wrote different values (stores.txt, written by tsan_watch.cpp)."""
    path = workdir / "stores.txt"
    out = set()
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] == "differs" and parts[0].isdigit():
                out.add(int(parts[0]))
    return out


def _locate(addr: int, arenas) -> dict:
    for space, name, lo, size, elem in arenas:
        if lo <= addr < lo + size:
            return {"space": space, "array": name, "index": (addr - lo) // max(elem, 1)}
    return {}


def parse_reports(text: str, arenas, student_file: str = "kernel.cu") -> list[dict]:
    """Races from a TSan log: [{first, second (accesses), address info}], in report order."""
    races = []
    for report in text.split("WARNING: ThreadSanitizer: ")[1:]:
        if not report.startswith("data race"):
            continue
        accesses: list[dict] = []
        names: dict[str, str] = {}
        current = None
        for raw in report.splitlines():
            m = _ACCESS.match(raw)
            if m:
                current = {"op": m["op"].lower(), "atomic": bool(m["atomic"]), "addr": int(m["addr"], 16),
                           "who": m["who"], "line": None}
                accesses.append(current)
                continue
            f = _FRAME.match(raw)
            if f and current is not None and current["line"] is None and Path(f["file"]).name == student_file:
                current["line"] = int(f["line"])
                continue
            t = _THREAD.match(raw)
            if t:
                names[t["id"]] = t["name"]
                current = None
        # The earlier access may come without a line: TSan cannot restore the stack of a thread
        # that was destroyed (an earlier block's, see kRetainedFibers in src/fiber.cpp).
        if len(accesses) < 2 or accesses[0]["line"] is None:
            continue
        for a in accesses[:2]:
            tid = re.search(r"T\d+", a["who"])
            ids = _IDS.search(names.get(tid.group() if tid else "", ""))
            a["block"] = tuple(int(v) for v in ids.groups()[:3]) if ids else None
            a["thread"] = tuple(int(v) for v in ids.groups()[3:]) if ids else None
        races.append({"now": accesses[0], "before": accesses[1], "where": _locate(accesses[0]["addr"], arenas)})
    return races


def _hazard(now: dict, before: dict) -> str:
    if now["op"] == "read":
        return "RAW"  # a read unordered with an earlier write
    return "WAW" if before["op"] == "write" else "WAR"


class RaceShape(StrEnum):
    """What a race is, which decides the advice its message gives."""

    UNORDERED = "unordered"  # two accesses of one block that no barrier orders: add a barrier
    LOST_UPDATE = "lost_update"  # threads read-modify-write one word on one line (`h[i]++`): use an atomic
    BETWEEN_BLOCKS = "between_blocks"  # one block writes global memory another reads or writes: atomics or two kernels
    SAME_LINE_WRITES = "same_line_writes"  # threads store one value to one word on one line, nobody reads it: a note
    DIFFERENT_VALUES = "different_values"  # threads store different values to one word on one line: a race


def _shape(pair: list[dict], differs: set[int] = frozenset()) -> RaceShape:
    """The shape of the races TSan reported for one line pair (the same pair is reported once per hazard);
    `differs`: the addresses whose racing stores wrote different values (tsan_watch.cpp)."""
    now, before = pair[0]["now"], pair[0]["before"]
    hazards = {_hazard(r["now"], r["before"]) for r in pair}
    if now["line"] == before["line"] and "WAW" in hazards:
        # Two threads write one address on the same line: with the read of a `+=`/`++` there, updates
        # are lost. (A tree reduction's `s[t] += s[t + k]` race is a read of another thread's slot,
        # never two writes of one.) With no read (`*found = 1;` by every thread that matches) it is
        # the policy's "same value to the same word" (docs/synchronization.md): racecheck reports no
        # hazard for it, so it is a note, unless the runtime saw the stores write different values.
        # A read of the word before a barrier is a race of its own pair (write line, read line).
        if hazards - {"WAW"}:
            return RaceShape.LOST_UPDATE
        if any(r["now"]["addr"] in differs for r in pair):
            return RaceShape.DIFFERENT_VALUES
        return RaceShape.SAME_LINE_WRITES
    if now.get("block") and before.get("block") and now["block"] != before["block"]:
        return RaceShape.BETWEEN_BLOCKS
    return RaceShape.UNORDERED


def to_diagnostics(races: list[dict], test: str, differs: set[int] = frozenset()) -> list[Diagnostic]:
    """RACE diagnostics, deduplicated by line pair and capped at MAX_RACES; each names its shape
    (detail["shape"], a RaceShape) and gives the advice for it (atomics for lost updates and races
    between blocks, a barrier otherwise). `differs`: addresses whose racing stores wrote different
    values; same-line stores to any other address are a NOTE (the same value, harmless)."""
    pairs: dict[tuple, list[dict]] = {}
    for r in races:
        pairs.setdefault(tuple(sorted((r["now"]["line"], r["before"]["line"] or 0))), []).append(r)
    diags = []
    for pair in pairs.values():
        r = pair[0]
        now, before, where = r["now"], r["before"], r["where"]
        shape = _shape(pair, differs)
        kind = _hazard(now, before)
        names = {"RAW": "read-after-write", "WAR": "write-after-read", "WAW": "write-after-write"}
        params = {"hazard": M.word(names[kind]), "line": now["line"], "access": M.word(now["op"]),
                  "other_line": before["line"], "other_access": M.word(before["op"])}
        if where:
            params.update(space=M.word(where["space"]), array=where["array"], index=where["index"])
        threads = bool(now.get("thread") and before.get("thread"))
        if threads:
            params.update(thread=str(now["thread"]), other_thread=str(before["thread"]), block=str(now["block"]))
        template = {(False, False): M.RACE, (True, False): M.RACE_ON, (False, True): M.RACE_THREADS,
                    (True, True): M.RACE_ON_THREADS}[(bool(where), threads)]
        if where and threads and shape in (RaceShape.LOST_UPDATE, RaceShape.BETWEEN_BLOCKS):
            params["other_block"] = str(before["block"])
            if shape is RaceShape.LOST_UPDATE:
                template = M.RACE_LOST_UPDATE
            else:
                template = M.RACE_BETWEEN_BLOCKS if before["line"] else M.RACE_BETWEEN_BLOCKS_NO_LINE
                params.pop("space", None)
        elif before["line"] is None:
            continue  # no second line and no threads to name: nothing a student could act on
        if shape is RaceShape.SAME_LINE_WRITES:
            diags.append(Diagnostic(
                DiagnosticKind.NOTE, line=now["line"], block=now.get("block"), thread=now.get("thread"),
                test=test or None, message=M.RACE_SAME_LINE_WRITES(line=now["line"]),
                detail={"hazard": kind, "shape": str(shape), "other_line": before["line"],
                        "other_thread": before.get("thread"), "other_block": before.get("block"), **where}))
            continue
        diags.append(Diagnostic(
            DiagnosticKind.RACE, line=now["line"], block=now.get("block"), thread=now.get("thread"),
            test=test or None, message=template(**params),
            detail={"hazard": kind, "shape": str(shape), "other_line": before["line"],
                    "other_thread": before.get("thread"), "other_block": before.get("block"), "access": now["op"],
                    "other_access": before["op"], **where},
        ))
        if len(diags) >= MAX_RACES:
            break
    return diags


def check_races(backend, build, request) -> list[Diagnostic]:
    """Build the TSan variant if needed, run the test case under it and return RACE diagnostics."""
    handle = build.handle
    if "tsan" not in handle.binaries:
        ok, _messages, log, _cached = backend._build_variant(handle, "tsan")
        if not ok:
            return [Diagnostic(DiagnosticKind.NOTE, test=request.test_name or None, detail={"log": log[-2000:]},
                               message=M.RACE_CHECK_NOT_BUILT())]
    outcome, workdir = backend._run_tsan(build, request, {"TSAN_OPTIONS": TSAN_OPTIONS})
    try:
        text = "".join(p.read_text(errors="replace") for p in sorted(workdir.glob("tsan*")))
        races = parse_reports(text, _arenas(workdir))
        diags = to_diagnostics(races, request.test_name, _differing_stores(workdir))
        if outcome.status is not RunStatus.OK and not races:
            # A race run that was killed or crashed proves nothing: say so rather than stay silent.
            diags.append(Diagnostic(DiagnosticKind.NOTE, test=request.test_name or None,
                                    message=M.RACE_CHECK_UNFINISHED(status=str(outcome.status),
                                                                    detail=outcome.message or "no detail")))
        if not races and "ThreadSanitizer" in text and "data race" not in text:
            diags.append(Diagnostic(DiagnosticKind.NOTE, test=request.test_name or None, detail={"log": text[:2000]},
                                    message=M.RACE_CHECK_INCOMPLETE()))
        return diags
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


__all__ = ["check_races", "parse_reports", "to_diagnostics", "tempfile"]
