"""Run one kernel once, outside any problem: compile, launch with the declared arguments, report.

    run_playground(request, backend, target_cc="9.0") -> PlaygroundResult

Nothing is graded: there is no reference and no verdict. The run is made in the backend's checking
mode (the emulator's race pass, the GPU's sanitizers), so that every race, divergent barrier,
deadlock and out-of-bounds access is reported with its source lines. A student's failure is a
result; only platform faults raise (PlatformError, which the task retries).
"""
from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from grader.core.backends.base import Backend, RunRequest, RunStatus

from grader.core.kernel import LaunchConfig
from grader.core.errors import PlatformError
from grader.core.judge import MAX_DIAGNOSTICS
from grader.core.static_checks import DEFAULT_MAX_SOURCE_BYTES, static_check_reason
from grader.core.results import CompileMessage, CompileResult, Diagnostic, Resources

from .spec import ArgKind, ArgumentSpec, initial_value, kernel_spec

log = logging.getLogger(__name__)

TIME_LIMIT_S = 5.0  # wall clock of the run (the check pass may take a few times this)
PREVIEW_ROWS = 32  # rows of an output's table
PREVIEW_COLS = 16  # columns of an output's table (a 1-D array is shown in rows of this width)
CHECKS = ("racecheck", "synccheck", "memcheck")

# Called as progress(stage) with stage "compiling" | "running".
ProgressFn = Callable[[str], None]


@dataclass(frozen=True)
class PlaygroundRequest:
    """What to run: the source, the kernel's name, its arguments in order and the launch."""

    source: str
    kernel: str
    args: tuple[ArgumentSpec, ...]
    launch: LaunchConfig
    time_limit_s: float = TIME_LIMIT_S


@dataclass
class OutputPreview:
    """One output array after the run, cut to a table a page can show."""

    name: str
    dtype: str
    shape: list[int]  # [n] or [rows, cols]
    rows: list[list[str]]  # the table's cells, formatted; at most PREVIEW_ROWS x PREVIEW_COLS
    row_starts: list[int]  # 1-D: the flat index of each row's first cell; 2-D: the row index
    truncated: bool  # True when the table leaves elements out
    changed: int  # elements whose value differs from the initial one (bit for bit)
    nan_count: int = 0  # NaN elements (floats only)
    min: str = ""  # the smallest and largest finite element, formatted ("" when none)
    max: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class PlaygroundResult:
    """The run's outcome: every field is JSON-ready (to_dict / from_dict round-trip)."""

    ending: str  # "compile_error", or how the run ended: a RunStatus value ("ok", "fault", "deadlock", ...)
    compile: CompileResult | None = None
    outputs: list[OutputPreview] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    log: str = ""  # printf output, capped by the backend (with its note when cut)
    message: str = ""  # the backend's word on a fault ("cudaErrorIllegalAddress: ..."), else ""
    resources: Resources | None = None  # ptxas's report with the occupancy of this launch (None when unknown)
    time_s: float = 0.0  # seconds the kernel ran (compilation excluded)
    backend: str = ""  # "emulator" | "gpu" | "dummy"
    device: str = ""  # the GPU's name on the gpu backend
    # The outputs' write maps (grader.core.writemap.store.encode's dicts: which thread wrote each element),
    # when the backend records them; [] otherwise.
    writemaps: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "ending": self.ending,
            "compile": self.compile.to_dict() if self.compile else None,
            "outputs": [o.to_dict() for o in self.outputs],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "log": self.log,
            "message": self.message,
            "resources": self.resources.to_dict() if self.resources else None,
            "time_s": self.time_s,
            "backend": self.backend,
            "device": self.device,
            "writemaps": self.writemaps,
        }

    @classmethod
    def from_dict(cls, d: dict) -> PlaygroundResult:
        return cls(
            ending=d["ending"],
            compile=CompileResult.from_dict(d["compile"]) if d.get("compile") else None,
            outputs=[OutputPreview(**o) for o in d.get("outputs", [])],
            diagnostics=[Diagnostic.from_dict(x) for x in d.get("diagnostics", [])],
            log=d.get("log", ""),
            message=d.get("message", ""),
            resources=Resources.from_dict(d.get("resources")),
            time_s=d.get("time_s", 0.0),
            backend=d.get("backend", ""),
            device=d.get("device", ""),
            writemaps=list(d.get("writemaps") or []),
        )


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return str(value)


def preview(arg: ArgumentSpec, before: np.ndarray, after: np.ndarray) -> OutputPreview:
    """The table of `after` (the array `arg` after the run; `before` its initial value).

    1-D arrays are cut into rows of PREVIEW_COLS; 2-D ones show their top-left corner."""
    after = np.asarray(after).reshape(arg.shape)
    if after.ndim == 1:
        shown = after[: PREVIEW_ROWS * PREVIEW_COLS]
        rows = [[_cell(v) for v in shown[i:i + PREVIEW_COLS].tolist()] for i in range(0, shown.size, PREVIEW_COLS)]
        starts = list(range(0, shown.size, PREVIEW_COLS))
        truncated = shown.size < after.size
    else:
        corner = after[:PREVIEW_ROWS, :PREVIEW_COLS]
        rows = [[_cell(v) for v in row] for row in corner.tolist()]
        starts = list(range(corner.shape[0]))
        truncated = corner.size < after.size
    flat_before = np.ascontiguousarray(before).reshape(before.size, -1).view(np.uint8)
    flat_after = np.ascontiguousarray(after, dtype=before.dtype).reshape(after.size, -1).view(np.uint8)
    changed = int(np.any(flat_before != flat_after, axis=1).sum())
    nan_count, low, high = 0, "", ""
    values = after.ravel()
    if values.dtype.kind == "f":
        nan_count = int(np.isnan(values).sum())
        values = values[np.isfinite(values)]
    if values.size:
        low, high = _cell(values.min()), _cell(values.max())
    return OutputPreview(arg.name, arg.dtype, list(after.shape), rows, starts, truncated, changed, nan_count, low, high)


def run_playground(request: PlaygroundRequest, backend: Backend, *, target_cc: str = "9.0",
                   progress: ProgressFn | None = None,
                   max_source_bytes: int = DEFAULT_MAX_SOURCE_BYTES) -> PlaygroundResult:
    """Compile `request.source` and run its kernel once, in checking mode, with the declared arguments.

    Returns a PlaygroundResult (a compile error, a fault, a deadlock are results). Raises
    PlatformError when the backend fails (the caller retries). `max_source_bytes`: the site's source
    size limit (grader/core/static_checks.py)."""
    progress = progress or (lambda stage: None)
    name = backend.name
    refusal = static_check_reason(request.source, max_source_bytes)
    if refusal:
        message = CompileMessage(None, None, "error", refusal)
        return PlaygroundResult("compile_error", CompileResult(ok=False, messages=[message]), backend=name)
    spec = kernel_spec(request.kernel, request.args)
    inputs = {a.name: initial_value(a) for a in request.args}
    progress("compiling")
    build = backend.compile(request.source, spec)
    try:
        if not build.compile.ok:
            return PlaygroundResult("compile_error", build.compile, backend=name)
        progress("running")
        started = time.monotonic()
        run = RunRequest(launch=request.launch, inputs=_fresh(inputs), time_limit_s=request.time_limit_s,
                         check=backend.supports_sanitizers, checks=CHECKS, test_name="playground")
        outcome = backend.run(build, run)
        if outcome.status is RunStatus.INTERNAL:
            raise PlatformError(outcome.message or "the playground run failed")
        if run.check and outcome.status is RunStatus.OK and not outcome.outputs:
            # The GPU's check pass (compute-sanitizer) reports findings only: the outputs and the
            # printf output come from one plain run (the emulator's check run returns both).
            outcome = _with_plain_run(backend, build, run, inputs, outcome)
        result = PlaygroundResult(str(outcome.status), build.compile, backend=name, log=outcome.log,
                                  message=outcome.message if outcome.status is not RunStatus.OK else "",
                                  time_s=round(outcome.time_s or time.monotonic() - started, 4),
                                  device=backend.device_name())
        seen = set()
        for d in outcome.diagnostics:
            key = (d.kind, d.line, d.message)
            if key not in seen and len(result.diagnostics) < MAX_DIAGNOSTICS:
                seen.add(key)
                d.test = None  # one run: no test to name
                result.diagnostics.append(d)
        if outcome.status is RunStatus.OK or outcome.outputs:
            for arg in request.args:
                if arg.kind is ArgKind.OUTPUT and arg.name in outcome.outputs:
                    result.outputs.append(preview(arg, inputs[arg.name], outcome.outputs[arg.name]))
        if outcome.status is not RunStatus.LAUNCH_ERROR:
            result.writemaps = _writemaps(request, backend, build, inputs)
        resources = build.resources or _ptxas_report(request.source, spec, target_cc, backend)
        result.resources = _with_occupancy(resources, request.launch, target_cc)
        return result
    finally:
        backend.close(build)


def _fresh(inputs: dict) -> dict:
    """A copy of the initial values for one run (a backend may write into the arrays it is given)."""
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}


def _with_plain_run(backend: Backend, build, run: RunRequest, inputs: dict, checked):
    """`checked` (a check pass's outcome without outputs) completed by a plain run: its outputs, log,
    status and message, the findings of both. Raises PlatformError when the plain run fails."""
    plain = backend.run(build, RunRequest(launch=run.launch, inputs=_fresh(inputs), time_limit_s=run.time_limit_s,
                                          test_name=run.test_name))
    if plain.status is RunStatus.INTERNAL:
        raise PlatformError(plain.message or "the playground run failed")
    plain.diagnostics = [*plain.diagnostics, *checked.diagnostics]
    return plain


def _writemaps(request: PlaygroundRequest, backend: Backend, build, inputs: dict) -> list[dict]:
    """The encoded write map of every output (grader.core.writemap.store.encode), from one more run of the
    backend's write-map variant; [] when the backend records none or that run fails (a picture is
    information: it never fails the run)."""
    if not getattr(backend, "supports_writemap", False):
        return []
    try:
        from grader.core.writemap.store import encode
    except ImportError:  # a checkout without the stored form of write maps
        return []
    run = RunRequest(launch=request.launch, inputs=_fresh(inputs), time_limit_s=request.time_limit_s * 4,
                     test_name="playground")
    try:
        outcome = backend.run_writemap(build, run)
    except PlatformError as exc:
        log.warning("playground write map not recorded: %s", exc)
        return []
    maps = []
    for arg in request.args:
        wm = outcome.writemaps.get(arg.name)
        if arg.kind is ArgKind.OUTPUT and wm is not None:
            stored = encode(wm, test="", sample=True, got=outcome.outputs.get(arg.name))
            if stored is not None:
                maps.append(stored)
    return maps


def _ptxas_report(source: str, spec, cc: str, backend: Backend) -> Resources | None:
    """ptxas's report (the emulator has none of its own); None when nvcc is missing or fails."""
    if not backend.wants_ptxas_report:
        return None
    try:
        from grader.core.resources import ptxas_resources

        report = ptxas_resources(source, spec, cc)
        return report if report.source else None
    except Exception as exc:  # the report is information, never a failure
        log.info("no ptxas resource report for a playground run: %s", exc)
        return None


def _with_occupancy(res: Resources | None, launch: LaunchConfig, cc: str) -> Resources | None:
    if res is None:
        return None
    res.threads_per_block = launch.threads_per_block
    res.shared_dynamic_bytes = launch.shared_bytes
    res.compute_capability = res.compute_capability or cc
    if res.registers is not None:
        try:
            from problems.core.occupancy import occupancy_for_resources

            res.occupancy = occupancy_for_resources(res)
        except Exception as exc:
            log.info("occupancy not computed for a playground run: %s", exc)
    return res
