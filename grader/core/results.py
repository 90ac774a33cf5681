"""Typed results of the judge: compile -> test cases -> judge result.

Everything here is plain data that round-trips through JSON (`to_dict` / `from_dict`), so the
same objects are stored on a submission, returned by the API and printed by `manage.py judge --json`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .messages import Message, as_message
from .verdicts import NOT_RUN, DiagnosticKind, NotRun, Verdict

# Every message below is a messages.Message (a code and its parameters; as a str, its English), stored
# as {"code", "params"}. A plain str given to a constructor is text we cannot name (Message.verbatim).
# Results stored in the older forms (English with a template and parameters; codes since retired)
# were converted by grader's migrations 0009 and 0010.


class _MessageField:
    """A dataclass field that holds a Message: a str given or set (text we cannot name) becomes verbatim."""

    def __set_name__(self, owner, name):
        self._name = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return Message.verbatim("")  # the field's default
        return getattr(obj, self._name)

    def __set__(self, obj, value):
        setattr(obj, self._name, as_message(value))


def stored_message(d: dict) -> Message:
    """The message of a stored dict: {"message": {"code", "params"}}; a plain str there (a test's row
    written by hand, a playground result's backend text) is text we cannot name, shown verbatim."""
    message = d.get("message")
    if isinstance(message, dict):
        return Message.from_dict(message)
    return Message.verbatim(message or "")


@dataclass
class Diagnostic:
    """One finding about the student's code, located in the student's source."""

    kind: DiagnosticKind  # what was found
    message: Message = _MessageField()  # one or two sentences a student can act on
    line: int | None = None  # 1-based line in the student's source, when known
    block: tuple[int, int, int] | None = None  # blockIdx of (one of) the threads involved
    thread: tuple[int, int, int] | None = None  # threadIdx of (one of) the threads involved
    test: str | None = None  # name of the test case it was found on
    detail: dict[str, Any] = field(default_factory=dict)  # kind-specific: other line, threads, address
    # True when the check pass found it (the smallest test run again under racecheck/synccheck/memcheck,
    # or the emulator's race pass), not a test run: that test's row does not show it.
    check: bool = False

    def to_dict(self) -> dict:
        d = asdict(self)
        d["kind"] = str(self.kind)
        d["message"] = self.message.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Diagnostic:
        d = dict(d)
        d["kind"] = DiagnosticKind(d["kind"])
        d["message"] = stored_message(d)
        for key in ("block", "thread"):
            if d.get(key) is not None:
                d[key] = tuple(d[key])
        return cls(**d)


@dataclass
class CompileMessage:
    """One compiler error or warning, mapped to the student's source."""

    line: int | None  # 1-based line in the student's source; None when it is in our code
    column: int | None
    severity: str  # "error" | "warning" | "note"
    message: Message = _MessageField()  # ours, or the compiler's words (verbatim)

    def to_dict(self) -> dict:
        return {"line": self.line, "column": self.column, "severity": self.severity,
                "message": self.message.to_dict()}

    @classmethod
    def from_dict(cls, d: dict) -> CompileMessage:
        return cls(d.get("line"), d.get("column"), d.get("severity", "error"), stored_message(d))


@dataclass
class CompileResult:
    """The compile stage: success, messages and the (truncated) raw log."""

    ok: bool
    messages: list[CompileMessage] = field(default_factory=list)
    log: str = ""  # compiler output, truncated with a note of how much was dropped
    time_s: float = 0.0  # wall-clock seconds spent compiling
    cached: bool = False  # True when the build came from the compile cache

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "messages": [m.to_dict() for m in self.messages],
            "log": self.log,
            "time_s": self.time_s,
            "cached": self.cached,
        }

    @classmethod
    def from_dict(cls, d: dict) -> CompileResult:
        return cls(
            ok=d["ok"],
            messages=[CompileMessage.from_dict(m) for m in d.get("messages", [])],
            log=d.get("log", ""),
            time_s=d.get("time_s", 0.0),
            cached=d.get("cached", False),
        )


@dataclass
class Mismatch:
    """The first element that differs from the reference in one output."""

    output: str  # argument name of the output buffer
    index: list[int]  # multi-dimensional index of the element (flat index for 1-D)
    expected: str  # reference value, formatted
    got: str  # the kernel's value, formatted
    count: int = 1  # how many elements differ in this output in all
    # Float outputs with both values finite: the difference allowed at this element,
    # atol + rtol * |expected|, and the one found, |got - expected|, both as "9.9e-03" (else None).
    allowed: str | None = None
    error: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class TestResult:
    """The outcome of one test case."""

    name: str  # test case name from problem.yaml
    sample: bool  # sample cases show their details; hidden ones show only the verdict
    verdict: Verdict | NotRun  # NOT_RUN: skipped after an earlier case hung (its message says which)
    time_s: float = 0.0  # seconds of the run on the limit's clock (JudgeResult.limits: CPU or the kernel's own), compilation excluded
    message: Message = _MessageField()  # short explanation for a failure
    mismatch: Mismatch | None = None
    params: dict[str, Any] = field(default_factory=dict)  # the case's sizes, e.g. {"n": 1025}
    output_log: str = ""  # the kernel's printf output, capped
    # The per-test limit of the run, seconds (None when it did not run, and in older results). A
    # TIME_LIMIT row shows "> limit": its time_s includes stopping the run and is no measure of the kernel.
    time_limit_s: float | None = None

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "sample": self.sample,
            "verdict": str(self.verdict),
            "time_s": self.time_s,
            "message": self.message.to_dict(),
            "mismatch": self.mismatch.to_dict() if self.mismatch else None,
            "params": self.params,
            "output_log": self.output_log,
            "time_limit_s": self.time_limit_s,
        }

    @classmethod
    def from_dict(cls, d: dict) -> TestResult:
        return cls(
            name=d["name"],
            sample=d["sample"],
            verdict=NOT_RUN if d["verdict"] == NOT_RUN else Verdict(d["verdict"]),
            time_s=d.get("time_s", 0.0),
            message=stored_message(d),
            mismatch=Mismatch(**d["mismatch"]) if d.get("mismatch") else None,
            params=d.get("params", {}),
            output_log=d.get("output_log", ""),
            time_limit_s=d.get("time_limit_s"),
        )

    def public_dict(self) -> dict:
        """What a student may see: hidden cases lose everything but name and verdict. A hidden case
        that was not run keeps its message too: it names only the earlier case that hung, which is
        public; one that ran past its time limit keeps the limit (the problem's, also public).

        Its time is not shown (None): the student's code chooses how long it runs, so a time to the
        tenth of a millisecond is a channel out of the hidden inputs (one decoded a[0] to 16 levels)."""
        if self.sample:
            return self.to_dict()
        public = {"name": self.name, "sample": False, "verdict": str(self.verdict), "time_s": None}
        if self.verdict is Verdict.TIME_LIMIT:
            public["time_limit_s"] = self.time_limit_s
        if self.verdict is NOT_RUN:
            public["message"] = self.message.to_dict()
        return public


@dataclass
class Resources:
    """What the kernel uses per thread and per block (from ptxas -v or the emulator)."""

    registers: int | None = None  # registers per thread
    shared_static_bytes: int | None = None  # static shared memory per block, bytes
    shared_dynamic_bytes: int | None = None  # dynamic shared memory of the launch, bytes
    local_bytes: int | None = None  # local memory (stack frame) per thread, bytes
    spill_stores_bytes: int | None = None
    spill_loads_bytes: int | None = None
    barriers: int | None = None  # named barriers used
    threads_per_block: int | None = None  # of the launch that was judged
    compute_capability: str | None = None  # e.g. "9.0"
    occupancy: dict[str, Any] | None = None  # the occupancy model's result as a dict
    source: str = ""  # "ptxas" or "" when unknown

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict | None) -> Resources | None:
        return cls(**d) if d else None


def diagnostic_lines(diagnostic: dict) -> list[int]:
    """Every source line a diagnostic (as a dict: Diagnostic.to_dict or the site's public form) names:
    its own line, then the other access of a race (`other_line`, a sanitizer's `lines`), the groups
    of a deadlock (`waiting`, `spinning`, `spin_line`); each once, in that order, 0 and None dropped."""
    detail = diagnostic.get("detail") or {}
    found = [diagnostic.get("line"), detail.get("other_line"), detail.get("spin_line"), *(detail.get("lines") or [])]
    for key in ("waiting", "spinning"):
        found += [group.get("line") for group in detail.get(key) or [] if isinstance(group, dict)]
    lines: list[int] = []
    for line in found:
        if isinstance(line, int) and not isinstance(line, bool) and line > 0 and line not in lines:
            lines.append(line)
    return lines


@dataclass
class JudgeResult:
    """The judge's answer for one submission."""

    verdict: Verdict
    compile: CompileResult | None = None
    tests: list[TestResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    resources: Resources | None = None
    backend: str = ""  # "emulator" | "gpu" | "dummy"
    device: str = ""  # the GPU that ran the kernel ("NVIDIA H200"); "" on the emulator or when unknown
    message: Message = _MessageField()  # the summary (the quoted diagnostic nested), or what broke
    # Write maps of one failing test's outputs (grader.core.writemap.store.encode's dicts; at most one test).
    writemaps: list[dict] = field(default_factory=list)
    # The limits the runs were judged under (budget.RunBudget.report): {"per_test_s", "budget_s" (all the
    # runs together; None: none), "used_s", "clock" ("cpu" | "kernel")}; {} in older results.
    limits: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "verdict": str(self.verdict),
            "compile": self.compile.to_dict() if self.compile else None,
            "tests": [t.to_dict() for t in self.tests],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "resources": self.resources.to_dict() if self.resources else None,
            "backend": self.backend,
            "device": self.device,
            "message": self.message.to_dict(),
            **({"writemaps": self.writemaps} if self.writemaps else {}),  # absent when none (older results)
            **({"limits": self.limits} if self.limits else {}),
        }

    @classmethod
    def from_dict(cls, d: dict) -> JudgeResult:
        return cls(
            verdict=Verdict(d["verdict"]),
            compile=CompileResult.from_dict(d["compile"]) if d.get("compile") else None,
            tests=[TestResult.from_dict(t) for t in d.get("tests", [])],
            diagnostics=[Diagnostic.from_dict(x) for x in d.get("diagnostics", [])],
            resources=Resources.from_dict(d.get("resources")),
            backend=d.get("backend", ""),
            device=d.get("device", ""),
            writemaps=list(d.get("writemaps") or []),
            limits=dict(d.get("limits") or {}),
            message=stored_message(d),
        )
