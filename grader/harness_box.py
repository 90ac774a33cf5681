"""A package's harness.py run in the sandbox, as student code is: for course-owned (uploaded) packages.

The bank's harnesses are reviewed code shipped with the platform and run in the judge's process
(problems.core.package.ProblemPackage.load_harness). A course's harness.py is written by its staff
in the browser: it runs here in a bubblewrap box (grader/core/sandbox/: no network, no project, no
database, read-only system) with a time and memory limit, one short-lived child per test case.
The child gets the case, the exact state of the judge's random generator (so the inputs are the
ones the in-process harness would make) and the variant; it calls generate() and then reference()
and hands back both through files in its work directory. A failure raises HarnessError, whose
message is for anyone and whose `author_detail` (the traceback, with harness.py's line numbers)
is for the problem's authors only.
"""
from __future__ import annotations

import inspect
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from grader.core import sandbox
from grader.core.backends import registry
from grader.core.errors import PlatformError
from problems.core.package.harness import takes_variant

# The defaults of settings.WARPDRILL_HARNESS_TIME_S and WARPDRILL_HARNESS_MEMORY_MB (harness_limits()).
HARNESS_TIME_S = 30.0  # wall clock of one generate() + reference() call pair
HARNESS_MEMORY_BYTES = 4 << 30  # address space of the child (NumPy maps a lot up front)
# The child stops itself at this share of its time limit, from a SIGALRM raised inside harness.py's
# frames, so that the author reads the line it was at; the wall clock kills it at the limit itself
# (a harness stuck inside one C call of NumPy never returns to Python to take the signal).
ALARM_SHARE = 0.85

# The child cannot import the project: the one rule for "does reference() take the variant" is
# embedded as its source, so the sandboxed and the in-process harness decide it alike.
RUNNER = r'''
import inspect, json, signal, sys, time, traceback
started = time.monotonic()
request = json.load(open("/box/request.json"))
sys.path.insert(0, request["site"])
import numpy as np

''' + inspect.getsource(takes_variant) + r'''

def encode(values):
    manifest, arrays = {}, {}
    for key, value in values.items():
        if isinstance(value, np.ndarray):
            manifest[key] = {"kind": "array"}
            arrays[key] = value
        elif isinstance(value, np.generic):
            manifest[key] = {"kind": "numpy", "dtype": value.dtype.str, "value": value.item()}
        elif isinstance(value, (bool, int, float)):
            manifest[key] = {"kind": type(value).__name__, "value": value}
        else:
            raise TypeError(f"{key!r}: a {type(value).__name__} (give NumPy arrays, NumPy scalars or numbers)")
    return manifest, arrays

def past_time_limit(signum, frame):
    raise TimeoutError("generate() and reference() of one test case ran past harness.py's time limit of "
                       f"{request['time_limit_s']:g} s")

signal.signal(signal.SIGALRM, past_time_limit)
signal.setitimer(signal.ITIMER_REAL, max(0.1, request["alarm_s"] - (time.monotonic() - started)))
try:
    module = {"__name__": "harness"}
    exec(compile(open("/box/harness.py").read(), "harness.py", "exec"), module)
    for name in ("generate", "reference"):
        if not callable(module.get(name)):
            raise NameError(f"harness.py must define a function {name}()")
    variant = request["variant"]
    rng = np.random.Generator(getattr(np.random, request["rng"]["bit_generator"])())
    rng.bit_generator.state = request["rng"]
    inputs = module["generate"]({**request["case"], **variant}, rng)
    if not isinstance(inputs, dict):
        raise TypeError("generate() must return a dict {argument name: value}")
    copy = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}
    reference = module["reference"]
    expected = reference(copy, dict(variant)) if variant and takes_variant(reference) else reference(copy)
    if not isinstance(expected, dict):
        raise TypeError("reference() must return a dict {output name: array}")
    out = {}
    for prefix, values in (("in", inputs), ("out", expected)):
        manifest, arrays = encode(values)
        out[prefix] = manifest
        np.savez(f"/box/{prefix}.npz", **arrays)
    signal.setitimer(signal.ITIMER_REAL, 0)
    json.dump(out, open("/box/manifest.json", "w"))
except BaseException as exc:
    signal.setitimer(signal.ITIMER_REAL, 0)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "harness.py"]
    line = frames[-1].lineno if frames else getattr(exc, "lineno", None)
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    if isinstance(exc, MemoryError):
        text += f" (past harness.py's memory limit of {request['memory_mib']} MiB)"
    stack = "".join(traceback.format_list(frames))
    json.dump({"error": text, "line": line, "traceback": stack}, open("/box/error.json", "w"))
    sys.exit(3)
'''


class HarnessError(PlatformError):
    """A course's harness.py failed in the sandbox. str(): safe for anyone (no code, no data);
    `author_detail`: the exception, harness.py's line and the traceback, for the problem's authors."""

    def __init__(self, author_detail: str, line: int | None = None):
        super().__init__("the problem's harness.py failed (a fault of the problem, not of the submitted code)")
        self.author_detail = author_detail
        self.line = line


def harness_limits() -> tuple[float, int]:
    """(seconds, bytes): the wall clock of one test case's generate() + reference() and the address
    space of the child, from settings.WARPDRILL_HARNESS_TIME_S and WARPDRILL_HARNESS_MEMORY_MB
    (HARNESS_TIME_S and HARNESS_MEMORY_BYTES where they are not set)."""
    from django.conf import settings

    time_s = float(getattr(settings, "WARPDRILL_HARNESS_TIME_S", HARNESS_TIME_S))
    memory_mib = int(getattr(settings, "WARPDRILL_HARNESS_MEMORY_MB", HARNESS_MEMORY_BYTES >> 20))
    return time_s, memory_mib << 20


def _binds() -> tuple[dict[str, str], str]:
    """Read-only binds that give the box this Python and NumPy (only NumPy of the site-packages),
    at their own paths; and the folder to put on sys.path."""
    binds = {}
    prefix = os.path.realpath(sys.base_prefix)
    if not prefix.startswith("/usr/"):
        binds[prefix] = prefix
    numpy_dir = os.path.dirname(os.path.realpath(np.__file__))
    site = os.path.dirname(numpy_dir)
    binds[numpy_dir] = numpy_dir
    if os.path.isdir(numpy_dir + ".libs"):
        binds[numpy_dir + ".libs"] = numpy_dir + ".libs"
    return binds, site


def _decode(manifest: dict, arrays) -> dict:
    out = {}
    for key, meta in manifest.items():
        kind = meta["kind"]
        if kind == "array":
            out[key] = arrays[key]
        elif kind == "numpy":
            out[key] = np.dtype(meta["dtype"]).type(meta["value"])
        else:
            out[key] = {"bool": bool, "int": int, "float": float}[kind](meta["value"])
    return out


def run_case(harness_source: str, case: dict, rng: np.random.Generator, variant: dict,
             time_s: float | None = None, memory_bytes: int | None = None) -> tuple[dict, dict]:
    """(inputs, expected outputs) of one test case from `harness_source` run in the sandbox, within
    `time_s` seconds of wall clock and `memory_bytes` of address space (None: harness_limits()).

    `rng`'s state is handed to the child, which draws from an identical generator; `rng` itself is
    left as it was. Raises HarnessError (the harness raised, returned the wrong types, ran past its
    time or memory limit: the author's detail names the limit and, where the child could still say
    it, harness.py's line) or SandboxUnavailableError.
    """
    default_time_s, default_memory = harness_limits()
    time_s = default_time_s if time_s is None else time_s
    memory_bytes = default_memory if memory_bytes is None else memory_bytes
    binds, site = _binds()
    work = Path(tempfile.mkdtemp(prefix="wd-harness-"))
    try:
        (work / "harness.py").write_text(harness_source, encoding="utf-8")
        (work / "runner.py").write_text(RUNNER, encoding="utf-8")
        (work / "request.json").write_text(json.dumps({
            "case": case, "variant": variant, "site": site, "rng": rng.bit_generator.state,
            "time_limit_s": time_s, "alarm_s": time_s * ALARM_SHARE, "memory_mib": memory_bytes >> 20}),
            encoding="utf-8")
        python = os.path.realpath(sys.executable)
        result = registry.configured_sandbox().run(
            [python, "-S", "-E", "-B", f"{sandbox.WORK_PATH}/runner.py"], work,
            sandbox.Limits(time_s, memory_bytes), ro_binds=binds,
            env={"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
        error = work / "error.json"
        if error.exists():
            data = json.loads(error.read_text(encoding="utf-8"))
            where = f"harness.py line {data['line']}: " if data.get("line") else "harness.py: "
            raise HarnessError(f"{where}{data['error']}\n{data.get('traceback', '')}".strip(), data.get("line"))
        if result.timed_out:
            raise HarnessError(f"harness.py: generate() and reference() of one test case ran past harness.py's "
                               f"time limit of {time_s:g} s (stopped inside a call that never returned to Python: "
                               f"no line to show)")
        manifest = work / "manifest.json"
        if result.memory_exceeded:
            raise HarnessError(f"harness.py: stopped past harness.py's memory limit of {memory_bytes >> 20} MiB")
        if result.returncode != 0 or not manifest.exists():
            tail = (result.stderr or "")[-1500:]
            raise HarnessError(f"harness.py: the harness process ended with status {result.returncode}\n{tail}".strip())
        meta = json.loads(manifest.read_text(encoding="utf-8"))
        with np.load(work / "in.npz", allow_pickle=False) as ins, np.load(work / "out.npz", allow_pickle=False) as outs:
            return _decode(meta["in"], ins), _decode(meta["out"], outs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


class SandboxedHarness:
    """A Harness (generate, reference) whose calls run harness.py in the sandbox.

    generate(case, rng) runs generate() and reference() together in one child and keeps the
    expected outputs; the reference(inputs) call the judge makes next for that case returns them.
    (The judge always calls reference right after generate for a case; a reference call without a
    generate before it is refused.) Variant parameters join `case` and reach a two-argument reference().
    """

    def __init__(self, harness_source: str, variant: dict | None = None):
        self.source = harness_source
        self.variant = dict(variant or {})
        self._expected: dict | None = None

    def generate(self, case: dict, rng) -> dict:
        inputs, self._expected = run_case(self.source, dict(case), rng, self.variant)
        return inputs

    def reference(self, inputs: dict) -> dict:
        if self._expected is None:
            raise PlatformError("the sandboxed harness's reference() was called before generate()")
        expected, self._expected = self._expected, None
        return expected


def sandboxed_loader(package) -> SandboxedHarness:
    """ProblemPackage.harness_loader for course-owned packages."""
    return SandboxedHarness(package.harness_source, package.variant)
