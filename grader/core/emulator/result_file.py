"""The emulator's result file, read as untrusted input.

`result.json` is written by the runtime, but the runtime shares its process with the student's
code, and code that gets past the static checks can write the file itself. So nothing in it is
believed beyond a strict schema:

- the file is at most MAX_BYTES, its JSON nests at most MAX_DEPTH deep (checked before parsing,
  so a 65,535-deep file never reaches the parser's recursion);
- `status` is one the runtime writes for a finished run (ok, fault, deadlock, timeout). The
  runtime's "internal" (it could not map memory) is a fault of a process the student's code
  shared, so it is the student's runtime error, never the platform's "not graded";
- `time_s` is a finite number, clamped to [0, the wall clock the worker measured];
- every line (`line`, and `*_line` in `detail`) is null/0 or within the student's source;
- `block`/`thread` ids are three small non-negative integers within the launch;
- strings and lists are capped; `detail` holds only JSON scalars, lists and objects, as does a
  diagnostic's `params` (beside its `code`, the message as data: jobs.runtime_said);

A file that breaks any rule raises ResultFileError; the backend turns it into the student's
RUNTIME_ERROR with the reason (messages.RESULT_FILE_INVALID), never a platform fault.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..verdicts import DiagnosticKind

MAX_BYTES = 1 << 20  # the runtime writes at most 50 diagnostics of a few hundred bytes each
MAX_DEPTH = 8  # result -> diagnostics -> diagnostic -> detail -> waiting -> group -> ids
MAX_DIAGNOSTICS = 64  # the runtime keeps 50
MAX_STRING = 4000  # characters of any one string
MAX_LIST = 256  # items of any one list
MAX_DETAIL_KEYS = 32
MAX_ID = 1 << 31  # block and thread ids: CUDA's grid limit is 2^31 - 1 blocks in x
STATUSES = frozenset({"ok", "fault", "deadlock", "timeout", "internal"})
# What the runtime says when it cannot map its own memory (src/memory.cpp, src/fiber.cpp).
INTERNAL_REASONS = frozenset({"cannot map shared memory", "cannot map a fiber stack"})
FAULT_SIGNALS = frozenset({"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGTRAP", "SIGABRT"})
_PC = re.compile(r"0x[0-9a-fA-F]{1,16}")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class ResultFileError(ValueError):
    """result.json breaks the schema; str() says which rule (English, for the student and the log)."""


@dataclass(frozen=True)
class Bounds:
    """What a genuine result can name: the student's lines, the launch, the measured wall clock."""

    source_lines: int  # lines of the student's source (diagnostic lines are 1..this, or none)
    grid: tuple[int, int, int]  # blocks per dimension of the launch
    block: tuple[int, int, int]  # threads per block per dimension
    wall_s: float  # seconds the worker measured from starting the box to its end


def read(workdir: Path, bounds: Bounds) -> dict | None:
    """The validated result of a run, or None when the binary wrote no result.json.

    Returns {"status", "message", "time_s", "diagnostics": [...], "fault"?} with every value
    checked against `bounds`. Raises ResultFileError when the file is there but breaks the schema.
    """
    path = workdir / "result.json"
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ResultFileError(f"result.json cannot be read ({exc.strerror})") from None
    return parse(raw, bounds)


def parse(raw: bytes, bounds: Bounds) -> dict:
    """Validate the bytes of a result file (see the module docstring); raises ResultFileError."""
    if len(raw) > MAX_BYTES:
        raise ResultFileError(f"result.json is larger than {MAX_BYTES >> 10} KiB")
    text = raw.decode("utf-8", errors="replace")
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise ResultFileError(f"result.json nests deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ResultFileError(f"result.json is not valid JSON ({str(exc)[:100]})") from None
    if not isinstance(data, dict):
        raise ResultFileError("result.json is not an object")
    status = data.get("status")
    if status not in STATUSES:
        raise ResultFileError(f"unknown status {_show(status)}")
    message = _string(data.get("message", ""), "message")
    if status == "internal" and message not in INTERNAL_REASONS:
        raise ResultFileError("status 'internal' with an unknown reason")
    time_s = data.get("time_s", 0.0)
    if isinstance(time_s, bool) or not isinstance(time_s, (int, float)) or not math.isfinite(time_s) or time_s < 0:
        raise ResultFileError(f"time_s {_show(time_s)} is not a finite, non-negative number")
    diagnostics = data.get("diagnostics", [])
    if not isinstance(diagnostics, list) or len(diagnostics) > MAX_DIAGNOSTICS:
        raise ResultFileError(f"diagnostics must be a list of at most {MAX_DIAGNOSTICS}")
    out = {"status": status, "message": message, "time_s": min(float(time_s), max(bounds.wall_s, 0.0)),
           "diagnostics": [_diagnostic(d, bounds) for d in diagnostics]}
    if "fault" in data:
        out["fault"] = _fault(data["fault"])
    return out


def nesting_depth(text: str) -> int:
    """How deep brackets nest in JSON text, strings skipped; linear time, no recursion."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str):
    raise ResultFileError(f"{name} is not a number")


def _show(value) -> str:
    """A value for an error message: a number's JSON spelling (at most 60 characters), or only what it is.

    Text from the file is never quoted back: the message is shown as the judge's, and a forged file
    must not put its own words in it."""
    if isinstance(value, str):
        return "(a string)"
    if isinstance(value, (list, dict)):
        return f"(a {'list' if isinstance(value, list) else 'JSON object'})"
    try:
        shown = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        shown = type(value).__name__
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _string(value, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_STRING:
        raise ResultFileError(f"{what} must be a string of at most {MAX_STRING} characters")
    return value


def _line(value, what: str, bounds: Bounds) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= bounds.source_lines:
        raise ResultFileError(f"{what} {_show(value)} is not a line of the source (1-{bounds.source_lines})")
    return value or None


def _ids(value, what: str, limit: tuple[int, int, int]) -> tuple[int, int, int] | None:
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < min(lim, MAX_ID)
                    for v, lim in zip(value, limit))):
        raise ResultFileError(f"{what} {_show(value)} is not an id within the launch {list(limit)}")
    return tuple(value)


def _diagnostic(d, bounds: Bounds) -> dict:
    if not isinstance(d, dict):
        raise ResultFileError("a diagnostic is not an object")
    kind = d.get("kind")
    try:
        DiagnosticKind(kind)
    except ValueError:
        raise ResultFileError(f"unknown diagnostic kind {_show(kind)}") from None
    detail = d.get("detail") or {}
    if not isinstance(detail, dict) or len(detail) > MAX_DETAIL_KEYS:
        raise ResultFileError(f"a diagnostic's detail must be an object of at most {MAX_DETAIL_KEYS} keys")
    out = {
        "kind": kind,
        "message": _string(d.get("message", ""), "a diagnostic's message"),
        "line": _line(d.get("line"), "line", bounds),
        "block": _ids(d.get("block"), "block", bounds.grid),
        "thread": _ids(d.get("thread"), "thread", bounds.block),
        "detail": {_string(k, "a detail's key"): _detail_value(k, v, bounds) for k, v in detail.items()},
    }
    if "code" in d:  # the message as a code and parameters (jobs.runtime_said checks the code is the runtime's)
        params = d.get("params")
        if not isinstance(params, dict) or len(params) > MAX_DETAIL_KEYS:
            raise ResultFileError(f"a diagnostic's params must be an object of at most {MAX_DETAIL_KEYS} keys")
        out["code"] = _string(d["code"], "a diagnostic's code")
        out["params"] = _params(params, "a diagnostic's params")
    return out


def _params(value, what: str):
    """A message's parameters: strings (capped), integers and nested messages ({"code", "params"}) or
    lists of them; keys are not read for meaning (a "thread" here is text, not ids)."""
    if isinstance(value, bool) or value is None:
        raise ResultFileError(f"{what}: not a string, number or message")
    if isinstance(value, int):
        return _int(value, what)
    if isinstance(value, str):
        return _string(value, what)
    if isinstance(value, list):
        return [_params(v, what) for v in _capped_list(value, what)]
    if isinstance(value, dict):
        return {_string(k, what): _params(v, what) for k, v in _capped_dict(value, what).items()}
    raise ResultFileError(f"{what}: not a string, number or message")


def _int(value: int, what: str) -> int:
    """An integer that fits a signed 64-bit word (what the runtime writes); raises ResultFileError."""
    if abs(value) >= 1 << 63:
        raise ResultFileError(f"{what}: integer out of range")
    return value


def _capped_list(value: list, what: str) -> list:
    if len(value) > MAX_LIST:
        raise ResultFileError(f"{what}: a list longer than {MAX_LIST}")
    return value


def _capped_dict(value: dict, what: str) -> dict:
    if len(value) > MAX_DETAIL_KEYS:
        raise ResultFileError(f"{what}: an object of more than {MAX_DETAIL_KEYS} keys")
    return value


def _detail_value(key: str, value, bounds: Bounds):
    """A detail's value: lines within the source, thread ids within the block, other JSON capped."""
    if key.endswith("line"):
        return _line(value, key, bounds) or 0
    if key.endswith("thread"):
        return list(_ids(value, key, bounds.block) or []) or None
    return _json_value(value, key, bounds)


def _json_value(value, what: str, bounds: Bounds):
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _int(value, what)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ResultFileError(f"{what}: not a finite number")
        return value
    if isinstance(value, str):
        return _string(value, what)
    if isinstance(value, list):
        return [_json_value(v, what, bounds) for v in _capped_list(value, what)]
    if isinstance(value, dict):
        return {_string(k, what): _detail_value(k, v, bounds) for k, v in _capped_dict(value, what).items()}
    raise ResultFileError(f"{what}: not a JSON value")


def _fault(value) -> dict:
    if not isinstance(value, dict):
        raise ResultFileError("fault is not an object")
    pc, sig = value.get("pc", "0x0"), value.get("signal", "")
    if not isinstance(pc, str) or not _PC.fullmatch(pc):
        raise ResultFileError(f"fault pc {_show(pc)} is not an address")
    if sig not in FAULT_SIGNALS:
        raise ResultFileError(f"fault signal {_show(sig)} is unknown")
    return {"pc": pc, "signal": sig}
