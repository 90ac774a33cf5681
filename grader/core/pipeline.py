"""The judge: one short function of ordered stages that stops at the first failure.

    static checks -> launch -> compile -> resources/occupancy -> test cases -> check pass -> verdict

Plain Python (no Django): the Celery task, `manage.py judge` and `validate_problem` call it.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
import dataclasses
from dataclasses import dataclass
from typing import Callable

import numpy as np

from problems.core.package import ProblemPackage, TestCaseSpec

from . import coresidency
from . import messages as M
from .backends.base import ArgRole, Backend, Build, KernelSpec, LaunchConfig, RunOutcome, RunRequest, RunStatus
from .compare import compare_output
from .errors import LaunchConfigError, PlatformError, UnsupportedLaunchError
from .launch import (LaunchExpressionError, build_launch, cooperative_launch_problem, launch_problem,
                     parse_launch_comment)
from .results import CompileMessage, CompileResult, Diagnostic, JudgeResult, TestResult
from .verdicts import DIAGNOSTIC_VERDICT, HANGS, NOT_RUN, DiagnosticKind, Verdict, worst

log = logging.getLogger(__name__)

MAX_SOURCE_BYTES = 64 * 1024
MAX_DIAGNOSTICS = 30

# Called as progress(stage, done, total) with stage "compiling" | "running" | "checking".
ProgressFn = Callable[[str, int, int], None]


@dataclass(frozen=True)
class LaunchChoice:
    """A student's launch expressions (used only when the problem lets the student choose)."""

    block: str = ""
    grid: str = ""
    shared_bytes: str = ""


def case_seed(test: TestCaseSpec, slug: str, secret: str) -> int:
    """The RNG seed of a test case: the package's seed for samples, mixed with a secret for hidden cases."""
    if test.sample or not secret:
        return test.seed
    digest = hashlib.sha256(f"{secret}\0{slug}\0{test.name}\0{test.seed}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def launch_expressions(package: ProblemPackage, source: str, choice: LaunchChoice | None) -> tuple[str, str, str]:
    """(block, grid, shared_bytes) expressions: the problem's, or the student's where allowed.

    The student's choice comes from `choice` (form/API fields) or else a `// launch:` comment.
    """
    t = package.launch
    if not t.student_chooses:
        return t.block, t.grid, t.shared_bytes
    fields = {"block": "", "grid": "", "shared_bytes": ""}
    fields.update(parse_launch_comment(source))
    if choice:
        for key in fields:
            if getattr(choice, key):
                fields[key] = getattr(choice, key)
    return (fields["block"] or t.block, fields["grid"] or t.grid, fields["shared_bytes"] or t.shared_bytes)


def _fail(verdict: Verdict, template: str, params: dict, backend: str,
          compile_result: CompileResult | None = None) -> JudgeResult:
    return JudgeResult(verdict=verdict, compile=compile_result, backend=backend, message_template=template,
                       message_params=params)


def _refused(template: str, params: dict, backend: str) -> JudgeResult:
    """COMPILE_ERROR before compiling: the reason is the summary and the one compile message. The log
    stays empty: no compiler ran, and a log is shown as it is (it would be English on every page)."""
    message = CompileMessage(None, None, "error", "", message_template=template, message_params=params)
    return _fail(Verdict.COMPILE_ERROR, template, params, backend, CompileResult(ok=False, messages=[message]))


def static_check_reason(source: str) -> tuple[str, dict] | None:
    """Why the source is refused before compiling, as (template, params), or None."""
    if not source.strip():
        return M.SOURCE_EMPTY, {}
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return M.SOURCE_TOO_LARGE, {"kib": MAX_SOURCE_BYTES // 1024}
    if "\0" in source:
        return M.SOURCE_NUL, {}
    return None


def static_check(source: str) -> str | None:
    """Why the source is refused before compiling (English), or None."""
    reason = static_check_reason(source)
    return M.render(*reason) if reason else None


def run_case_verdict(outcome: RunOutcome, expected: dict[str, np.ndarray], atol: float, rtol: float):
    """(verdict, message, mismatch) of one run: a fault first, else diagnostics, else the comparison.

    The message explains the verdict: a SYNC_ERROR's is its finding, even when the output differs too
    (the mismatch is kept: the page shows it below as a consequence, not as the reason).
    """
    diag_verdicts = [DIAGNOSTIC_VERDICT[d.kind] for d in outcome.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind)]
    status_verdict = {
        RunStatus.DEADLOCK: Verdict.DEADLOCK,
        RunStatus.TIMEOUT: Verdict.TIME_LIMIT,
        RunStatus.LAUNCH_ERROR: Verdict.RUNTIME_ERROR,
    }.get(outcome.status)
    if outcome.status is RunStatus.FAULT:
        status_verdict = worst(v for v in diag_verdicts if v in (Verdict.MEMORY_ERROR, Verdict.RUNTIME_ERROR)) \
            if diag_verdicts else Verdict.RUNTIME_ERROR
        if status_verdict is Verdict.ACCEPTED:
            status_verdict = Verdict.RUNTIME_ERROR
    if status_verdict is not None:
        return worst([status_verdict, *diag_verdicts]), outcome.message, None
    mismatch = None
    for name, exp in expected.items():
        if name not in outcome.outputs:
            raise PlatformError(f"backend returned no output '{name}'")
        mismatch = compare_output(name, exp, outcome.outputs[name], atol, rtol)
        if mismatch:
            break
    verdict = worst([*diag_verdicts, Verdict.WRONG_ANSWER if mismatch else Verdict.ACCEPTED])
    message = ""
    if verdict is Verdict.SYNC_ERROR:
        message = next(d.message for d in outcome.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind) is verdict)
    elif mismatch:
        message = M.render(*_mismatch_message(mismatch))
    return verdict, message, mismatch


def _mismatch_message(mismatch) -> tuple[str, dict]:
    """(template, params) of a mismatch: a 2-D index names its axes ([row 0, col 1]); a float output
    says the tolerance at that element and how far off the value was."""
    tolerance = mismatch.allowed is not None and mismatch.error is not None
    if tolerance:
        template = M.MISMATCH_ONE_TOLERANCE if mismatch.count == 1 else M.MISMATCH_MANY_TOLERANCE
    else:
        template = M.MISMATCH_ONE if mismatch.count == 1 else M.MISMATCH_MANY
    index = M.text(M.INDEX_ROW_COL, row=mismatch.index[0], col=mismatch.index[1]) \
        if len(mismatch.index) == 2 else str(mismatch.index)
    params = {"output": mismatch.output, "index": index, "expected": mismatch.expected, "got": mismatch.got,
              "count": mismatch.count}
    if tolerance:
        params.update(allowed=mismatch.allowed, error=mismatch.error)
    return template, params


def _case_message(message: str, outcome: RunOutcome, mismatch) -> tuple[str, dict]:
    """(template, params) of a test case's message: a mismatch, a diagnostic's own message (maybe after a
    CUDA error name), or one of the backends' short outcome messages. ("", {}) when it is none of ours."""
    if not message:
        return "", {}
    # With a mismatch, run_case_verdict's message is a SYNC_ERROR's finding or else the mismatch.
    if mismatch is not None and not any(d.message == message for d in outcome.diagnostics):
        return _mismatch_message(mismatch)
    for d in outcome.diagnostics:
        if not d.message_template:
            continue
        if d.message == message:
            return d.message_template, d.message_params
        error, _, rest = message.partition(": ")
        if rest == d.message and error.replace("_", "").isalnum():
            return M.ERROR_PREFIXED, {"error": error, "message": M.text(d.message_template, **d.message_params)}
    found = M.recognise(message, (M.OUTCOME_TIME_LIMIT, M.OUTCOME_KILLED, M.OUTCOME_DEADLOCK, *M.LAUNCH_REASONS))
    return found or ("", {})


def judge(
    package: ProblemPackage,
    source: str,
    backend: Backend,
    *,
    launch_choice: LaunchChoice | None = None,
    seed_secret: str = "",
    progress: ProgressFn | None = None,
    run_checks: bool = True,
    target_cc: str = "9.0",
    target_gpu: str = "",
    variant: dict | None = None,
) -> JudgeResult:
    """Judge `source` for `package` on `backend`.

    `target_cc` ("9.0") and `target_gpu` (a key of problems.core.gpus, e.g. "h200"; default: a GPU of
    that compute capability) are the course's GPU: its per-block shared memory limit and, for a
    cooperative launch, how many blocks fit on it at once.
    `variant` is the student's stored variant of a package that declares variant parameters: its
    integers join each test's sizes (launch expressions read them) and the harness receives it
    (ProblemPackage.with_variant); None judges the package's bound or default variant.

    Returns a JudgeResult; a student's failure is a verdict. Raises PlatformError (and only
    that) when the platform fails, so the caller can retry without charging the student;
    UnsupportedLaunchError (a PlatformError) when the backend cannot make a cooperative launch.
    """
    package = package.with_variant(variant)
    progress = progress or (lambda stage, done, total: None)
    name = backend.name
    refusal = static_check_reason(source)
    if refusal:
        return _refused(*refusal, name)

    exprs = launch_expressions(package, source, launch_choice)
    launches: list[LaunchConfig] = []
    try:
        for test in package.tests:
            launches.append(build_launch(*exprs, test.params, **package.launch.options()))
    except LaunchExpressionError as exc:
        return _refused(M.INVALID_LAUNCH, {"error": M.text(exc.message_template, **exc.message_params)}, name)
    except LaunchConfigError as exc:  # raised elsewhere without a template: quoted as its English text
        return _refused(M.INVALID_LAUNCH, {"error": str(exc)}, name)

    progress("compiling", 0, len(package.tests))
    build = backend.compile(source, package.kernel)
    try:
        if not build.compile.ok:
            first = next((m for m in build.compile.messages if m.severity == "error"), None)
            if first and first.line:
                return _fail(Verdict.COMPILE_ERROR, M.COMPILATION_FAILED_AT, {"line": first.line}, name, build.compile)
            return _fail(Verdict.COMPILE_ERROR, M.COMPILATION_FAILED, {}, name, build.compile)
        checking = bool(run_checks and package.checks and backend.supports_sanitizers)
        check_test = package.smallest_test()
        check_index = package.tests.index(check_test)
        if package.launch.cooperative:
            if not backend.supports_cooperative_launch:
                raise UnsupportedLaunchError(f"the {name} backend cannot make a cooperative launch")
            if build.resources is None and backend.wants_ptxas_report:
                # Whether the grid fits at once depends on the registers: ptxas's report is needed
                # before the cases, so it is made here, on this thread (see below why not on another).
                build.resources = _PtxasReport.compute_now(source, package.kernel, target_cc)
        gpu = _target_gpu(target_cc, target_gpu)
        registers = build.resources.registers if build.resources else None
        static = build.resources.shared_static_bytes if build.resources else None
        refusals = [launch_problem(launch, target_cc) or cooperative_launch_problem(launch, gpu, registers, static)
                    for launch in launches]
        # Every call into harness.py happens here, before the report thread exists. That thread
        # forks (a sandboxed nvcc; as root `user=` rules out vfork, so pthread_atfork handlers
        # run), and a fork while another thread is inside a multi-threaded OpenBLAS call (a
        # reference using `@` or np.linalg) hangs in OpenBLAS's at-fork handler for good
        # (issue 11; tests/grader/test_blas_fork.py). The cost: every case's inputs and
        # expected outputs are held at once.
        harness = package.load_harness()
        cases = [_prepare_case(package, harness, test, launch, refused, seed_secret)
                 for test, launch, refused in zip(package.tests, launches, refusals)]
        check_inputs = _inputs(package, harness, check_test, seed_secret) \
            if checking and refusals[check_index] is None else None
        # Backends without a ptxas report (the emulator) get one from nvcc, computed while the
        # test cases run: every submission shows its resources and occupancy, GPU or not.
        report = _PtxasReport(source, package.kernel, target_cc) if build.resources is None and backend.wants_ptxas_report else None
        result = JudgeResult(verdict=Verdict.ACCEPTED, compile=build.compile, backend=name)
        hung = None
        resident = None  # the co-resident launch an inter-block spin barrier needed (coresidency.py)
        for k, case in enumerate(cases):
            progress("running", k, len(package.tests))
            test_result, coresident = _run_case(package, backend, build, case, result, gpu, registers, static)
            resident = resident or coresident
            cases[k] = None  # its inputs and expected outputs are no longer needed
            result.tests.append(test_result)
            if test_result.verdict in HANGS:
                hung = test_result  # the remaining cases would only wait for the same hang
                break
        progress("running", len(result.tests), len(package.tests))
        if hung is not None:
            result.tests += [_not_run(test, hung) for test in package.tests[len(result.tests):]]
        if checking and hung is None:
            progress("checking", len(package.tests), len(package.tests))
            test, launch = check_test, launches[check_index]
            if resident is not None:  # the check pass would only wait for the spinning blocks again
                launch = dataclasses.replace(launch, coresident=True)
            if check_inputs is not None:
                outcome = backend.run(build, RunRequest(launch=launch, inputs=check_inputs, check=True,
                                                        checks=tuple(str(c) for c in package.checks),
                                                        time_limit_s=package.time_limit_s * 4, test_name=test.name))
                if outcome.status is RunStatus.INTERNAL:
                    raise PlatformError(outcome.message or "check pass failed")
                for d in outcome.diagnostics:  # whatever the backend named them: found by the check pass
                    d.test, d.check = test.name, True
                _add_diagnostics(result, outcome.diagnostics, test.name)
        if report is not None:
            build.resources = report.wait()
        result.resources = _resources(build, launches[0], target_cc)
        verdicts = [t.verdict for t in result.tests if t.verdict is not NOT_RUN]
        verdicts += [DIAGNOSTIC_VERDICT[d.kind] for d in result.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind)]
        result.verdict = worst(verdicts)
        result.message_template, result.message_params = _summary(result)
        result.message = M.render(result.message_template, result.message_params) if result.message_template else ""
        result.device = backend.device_name()
        return result
    finally:
        backend.close(build)


def _inputs(package: ProblemPackage, harness, test: TestCaseSpec, secret: str) -> dict:
    rng = np.random.default_rng(case_seed(test, package.slug, secret))
    inputs = harness.generate(dict(test.params), rng)
    missing = [a.name for a in package.kernel.args if a.name not in inputs]
    if missing:
        raise PlatformError(f"{package.slug}/harness.py: generate() gave no value for {', '.join(missing)}")
    return inputs


@dataclass
class _Case:
    """A test case ready to run: its launch, and its inputs and expected outputs from the harness
    (both None when CUDA would refuse the launch: the case is not run)."""

    test: TestCaseSpec
    launch: LaunchConfig
    refused: str | None  # why CUDA would refuse the launch (launch.launch_problem's words), or None
    inputs: dict | None
    expected: dict[str, np.ndarray] | None


def _prepare_case(package: ProblemPackage, harness, test: TestCaseSpec, launch: LaunchConfig, refused: str | None,
                  secret: str) -> _Case:
    """The case's inputs (seeded) and the reference's outputs for them. Raises PlatformError when the
    harness gives the wrong set of outputs."""
    if refused:
        return _Case(test, launch, refused, None, None)
    inputs = _inputs(package, harness, test, secret)
    expected = harness.reference({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()})
    wanted = {a.name for a in package.kernel.args if a.role in (ArgRole.OUT, ArgRole.INOUT)}
    if set(expected) != wanted:
        raise PlatformError(f"{package.slug}/harness.py: reference() must return exactly {sorted(wanted)}")
    return _Case(test, launch, None, inputs, expected)


def _run_case(package, backend, build: Build, case: _Case, result: JudgeResult, gpu=None, registers: int | None = None,
              shared_static_bytes: int | None = None) -> tuple[TestResult, LaunchConfig | None]:
    """One test case's row, and the co-resident launch when its blocks needed one to complete (an
    inter-block spin barrier whose grid fits on `gpu` at once: a SYNC_ERROR, coresidency.py), else None."""
    started = time.monotonic()
    test, launch = case.test, case.launch
    refused = case.refused
    if refused:
        reason = M.launch_reason(refused)
        template, params = (reason["template"], reason["params"]) if isinstance(reason, dict) else ("", {})
        diag = Diagnostic(kind=DiagnosticKind.LAUNCH_ERROR, message=refused, test=test.name,
                          detail={"grid": list(launch.grid), "block": list(launch.block),
                                  "shared_bytes": launch.shared_bytes},
                          message_template=template, message_params=params)
        _add_diagnostics(result, [diag], test.name)
        return TestResult(name=test.name, sample=test.sample, verdict=Verdict.RUNTIME_ERROR, message=refused,
                          params=dict(test.params), message_template=template, message_params=params), None
    request = RunRequest(launch=launch, inputs=case.inputs, time_limit_s=package.time_limit_s, test_name=test.name)
    outcome = backend.run(build, request)
    if outcome.status is RunStatus.INTERNAL:
        raise PlatformError(outcome.message or f"backend failed on test {test.name}")
    resident = None
    if gpu is not None:
        outcome, resident = coresidency.explain(backend, build, request, outcome, gpu, registers, shared_static_bytes)
        if outcome.status is RunStatus.INTERNAL:
            raise PlatformError(outcome.message or f"backend failed on test {test.name}")
    verdict, message, mismatch = run_case_verdict(outcome, case.expected, package.atol, package.rtol)
    template, params = _case_message(message, outcome, mismatch)
    _add_diagnostics(result, outcome.diagnostics, test.name)
    return TestResult(name=test.name, sample=test.sample, verdict=verdict, message=message, mismatch=mismatch,
                      time_s=round(outcome.time_s or time.monotonic() - started, 4), params=dict(test.params),
                      output_log=outcome.log, message_template=template, message_params=params,
                      time_limit_s=package.time_limit_s), resident


def _not_run(test: TestCaseSpec, hung: TestResult) -> TestResult:
    """The row of a test case not run because `hung` (an earlier case) hung: it names that case."""
    return TestResult(name=test.name, sample=test.sample, verdict=NOT_RUN, params=dict(test.params),
                      message_template=M.NOT_RUN_AFTER[str(hung.verdict)], message_params={"test": hung.name})


def _add_diagnostics(result: JudgeResult, diagnostics: list[Diagnostic], test_name: str) -> None:
    """Keep diagnostics unique by (kind, line, message) and capped."""
    seen = {(d.kind, d.line, d.message) for d in result.diagnostics}
    for d in diagnostics:
        key = (d.kind, d.line, d.message)
        if key in seen or len(result.diagnostics) >= MAX_DIAGNOSTICS:
            continue
        seen.add(key)
        d.test = d.test or test_name
        result.diagnostics.append(d)


class _PtxasReport:
    """ptxas's resource report of the kernel, computed on a background thread (None when unavailable)."""

    def __init__(self, source: str, spec: KernelSpec, cc: str):
        self._value = None
        self._thread = threading.Thread(target=self._compute, args=(source, spec, cc), daemon=True)
        self._thread.start()

    def _compute(self, source, spec, cc):
        self._value = self.compute_now(source, spec, cc)

    @staticmethod
    def compute_now(source: str, spec: KernelSpec, cc: str):
        """The report, computed on the calling thread (None when unavailable)."""
        try:
            from .resources import ptxas_resources

            value = ptxas_resources(source, spec, cc)
            return value if value.source else None
        except Exception as exc:  # nvcc missing or failing: the report is information, never a failure
            log.info("no ptxas resource report: %s", exc)
            return None

    def wait(self, timeout: float = 60.0):
        self._thread.join(timeout)
        return self._value


def _target_gpu(target_cc: str, key: str = ""):
    """The course's GPU (problems.core.gpus.GPU): `key` when given, else the H200 for cc 9.0 and the
    first listed GPU of other compute capabilities."""
    from problems.core import gpus

    if key:
        return gpus.gpu(key)
    named = gpus.gpus_for(target_cc)
    return next((g for g in named if g.key == "h200"), named[0] if named else gpus.gpu("h200"))


def _resources(build: Build, launch: LaunchConfig, target_cc: str):
    """The build's resource report with the occupancy of the judged launch, when registers are known."""
    res = build.resources
    if res is None:
        return None
    res.threads_per_block = launch.threads_per_block
    res.shared_dynamic_bytes = launch.shared_bytes
    res.compute_capability = res.compute_capability or target_cc
    if res.registers is not None:
        try:
            from problems.core.occupancy import occupancy_for_resources

            res.occupancy = occupancy_for_resources(res)
        except Exception as exc:  # occupancy is information, never a reason to fail grading
            log.warning("occupancy not computed: %s", exc)
    return res


def _summary(result: JudgeResult) -> tuple[str, dict]:
    """(template, params) of the verdict's summary: the test case that explains the verdict and why
    (("", {}) for ACCEPTED). The count of passed cases is not repeated here: the page states it.

    The reason is the first diagnostic that implies the verdict, else the first case with the verdict,
    by its own message. A finding of the check pass says so (no test row shows it: the rows may all
    be ACCEPTED). The line is added only when the reason does not name it already. A hidden case's
    message is never quoted (it holds its values); a diagnostic is, as the site replaces a hidden
    case's diagnostic wherever it is quoted (grader/serializers.py).
    """
    if result.verdict is Verdict.ACCEPTED:
        return "", {}
    first = next((d for d in result.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind) == result.verdict), None)
    if first is not None:
        # A diagnostic without a template (text we cannot name) is quoted as its English text.
        reason = M.text(first.message_template, **first.message_params) if first.message_template else first.message
        add_line = first.line and not (first.message_template
                                       and M.names_param(first.message_template, first.message_params, "line"))
        params = {"test": first.test, "reason": reason, **({"line": first.line} if add_line else {})}
        if first.check:
            params["check"] = M.check_name(first.kind)
            return (M.SUMMARY_CHECK_AT_LINE if add_line else M.SUMMARY_CHECK), params
        return (M.SUMMARY_TEST_AT_LINE if add_line else M.SUMMARY_TEST), params
    case = next((t for t in result.tests if t.verdict is result.verdict), None)
    if case is None:
        return "", {}
    if not case.sample:
        return M.SUMMARY_HIDDEN_TEST, {"test": case.name}
    if not case.message:
        return M.SUMMARY_TEST_FAILED, {"test": case.name}
    reason = M.text(case.message_template, **case.message_params) if case.message_template else case.message
    return M.SUMMARY_TEST, {"test": case.name, "reason": reason}


def judge_bare(source: str, spec: KernelSpec, launch: LaunchConfig, inputs: dict, backend: Backend,
               time_limit_s: float = 5.0, check: bool = False) -> tuple[Build, RunOutcome | None]:
    """Run a kernel without a problem (the playground): compile, run once, return raw outcome."""
    build = backend.compile(source, spec)
    try:
        if not build.compile.ok:
            return build, None
        return build, backend.run(build, RunRequest(launch=launch, inputs=inputs, time_limit_s=time_limit_s,
                                                    check=check))
    finally:
        backend.close(build)
