"""The judge: one short function of ordered stages that stops at the first failure.

    static checks -> launch -> compile -> resources/occupancy -> test cases (a hang explained) -> check pass -> verdict

The stages' rules live in their own modules: static_checks.py (what is refused before compiling),
launch.py (what CUDA would refuse), verdicts.py (what a run means, what the submission's verdict is),
summary.py (what is said about it), explainer.py (who is asked when a backend hung), cases.py (a
test case's seed, inputs and expected outputs), ptxas_report.py (the resource report and occupancy),
writemap_stage.py (the write map of a failing test).
Plain Python (no Django): the Celery task, `manage.py judge` and `validate_problem` call it.
"""
from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Callable

from problems.core.package import ProblemPackage, TestCaseSpec

from . import coresidency
from . import messages as M
from .backends.base import Backend, Build, RunOutcome, RunRequest, RunStatus
from .cases import Case, case_inputs, prepare_case
from .errors import LaunchConfigError, PlatformError, UnsupportedLaunchError
from .budget import DEFAULT_FACTOR, RunBudget, spent_before
from .explainer import SYNC_FINDINGS, HangExplainer, explain_hang  # noqa: F401 (explain_hang: the judge's API)
from .kernel import KernelSpec, LaunchConfig
from .launch import (LaunchExpressionError, build_launch, cooperative_launch_problem, launch_problem,
                     parse_launch_comment)
from .ptxas_report import PtxasReport, judged_resources
from .results import CompileMessage, CompileResult, Diagnostic, JudgeResult, Resources, TestResult
from .static_checks import DEFAULT_MAX_SOURCE_BYTES, static_check_reason
from .summary import case_message, submission_summary
from .verdicts import HANGS, NOT_RUN, DiagnosticKind, Verdict, case_verdict, submission_verdict
from .writemap_stage import writemap_run, writemap_wanted

log = logging.getLogger(__name__)

MAX_DIAGNOSTICS = 30

# Called as progress(stage, done, total) with stage "compiling" | "running" | "checking".
ProgressFn = Callable[[str, int, int], None]


@dataclass(frozen=True)
class LaunchChoice:
    """A student's launch expressions (used only when the problem lets the student choose)."""

    block: str = ""
    grid: str = ""
    shared_bytes: str = ""


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


def _fail(verdict: Verdict, message: M.Message, backend: str,
          compile_result: CompileResult | None = None) -> JudgeResult:
    return JudgeResult(verdict=verdict, compile=compile_result, backend=backend, message=message)


def _refused(message: M.Message, backend: str) -> JudgeResult:
    """COMPILE_ERROR before compiling: the reason is the summary and the one compile message. The log
    stays empty: no compiler ran, and a log is shown as it is (it would be English on every page)."""
    compile_message = CompileMessage(None, None, "error", message)
    return _fail(Verdict.COMPILE_ERROR, message, backend, CompileResult(ok=False, messages=[compile_message]))


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
    max_source_bytes: int = DEFAULT_MAX_SOURCE_BYTES,
    explainer: HangExplainer | None = None,
    writemaps: bool = True,
    budget_factor: float | None = DEFAULT_FACTOR,
) -> JudgeResult:
    """Judge `source` for `package` on `backend`.

    `target_cc` ("9.0") and `target_gpu` (a key of problems.core.gpus, e.g. "h200"; default: a GPU of
    that compute capability) are the course's GPU: its per-block shared memory limit and, for a
    cooperative launch, how many blocks fit on it at once.
    `variant` is the student's stored variant of a package that declares variant parameters: its
    integers join each test's sizes (launch expressions read them) and the harness receives it
    (ProblemPackage.with_variant); None judges the package's bound or default variant.
    `max_source_bytes` is the site's source size limit (static_checks.py). `explainer` is asked to
    re-run a case that hung `backend` (see explain_hang); None: a hang stays what the backend said.
    `writemaps`: on a backend with supports_writemap, record the write map of one WRONG_ANSWER or
    MEMORY_ERROR test (a sample's when a sample fails) in JudgeResult.writemaps: one more build and run.
    `budget_factor`: all the runs together (tests, the check pass, the write map) may use this many times
    the per-test limit (budget.py; the site's WARPDRILL_RUN_BUDGET_FACTOR; None: no such bound); a run
    that passes what is left is TIME_LIMIT and judging stops there.

    Returns a JudgeResult; a student's failure is a verdict. Raises PlatformError (and only
    that) when the platform fails, so the caller can retry without charging the student;
    UnsupportedLaunchError (a PlatformError) when the backend cannot make a cooperative launch.
    """
    package = package.with_variant(variant)
    progress = progress or (lambda stage, done, total: None)
    name = backend.name
    refusal = static_check_reason(source, max_source_bytes)
    if refusal:
        return _refused(refusal, name)

    launches, unevaluated, refusal = evaluate_launches(package, launch_expressions(package, source, launch_choice))
    if refusal is not None:
        return _refused(refusal, name)

    progress("compiling", 0, len(package.tests))
    # Backends without a ptxas report (the emulator) get one before any harness call, collected at the end
    # (ptxas_report.py): nvcc's starts now, beside the compile and the test cases; NVRTC's ("auto") is made
    # at once, so only once the source compiled (a source stopped at a compile limit costs it no more).
    early = backend.wants_ptxas_report and not backend.ptxas_report_late
    report = PtxasReport(source, package.kernel, target_cc, backend) \
        if early and backend.ptxas_compiler != "auto" else None
    try:
        build = backend.compile(source, package.kernel)
    except BaseException:
        _close(report)
        raise
    try:
        if not build.compile.ok:
            first = next((m for m in build.compile.messages if m.severity == "error"), None)
            if first and first.message.template in M.COMPILE_LIMITS:  # stopped at a limit: say which
                return _fail(Verdict.COMPILE_ERROR, first.message, name, build.compile)
            if first and first.line:
                return _fail(Verdict.COMPILE_ERROR, M.COMPILATION_FAILED_AT(line=first.line), name, build.compile)
            return _fail(Verdict.COMPILE_ERROR, M.COMPILATION_FAILED(), name, build.compile)
        if early and report is None:
            report = PtxasReport(source, package.kernel, target_cc, backend)
        checking = bool(run_checks and package.checks and backend.supports_sanitizers)
        check_test = package.smallest_test()
        check_index = package.tests.index(check_test)
        if package.launch.cooperative:
            if not backend.supports_cooperative_launch:
                raise UnsupportedLaunchError(f"the {name} backend cannot make a cooperative launch")
            if build.resources is None and backend.wants_ptxas_report:
                # Whether the grid fits at once depends on the registers: ptxas's report is needed
                # before the cases (made now, on this thread, when the late report was asked for).
                build.resources = report.wait() if report is not None \
                    else PtxasReport.compute_now(source, package.kernel, target_cc, backend)
        gpu = _target_gpu(target_cc, target_gpu)
        registers = build.resources.registers if build.resources else None
        static = build.resources.shared_static_bytes if build.resources else None
        refusals = [why or launch_problem(launch, target_cc) or cooperative_launch_problem(launch, gpu, registers, static)
                    for launch, why in zip(launches, unevaluated)]
        coresidency.check_capacity(backend, package.launch.cooperative, launches, refusals)
        # Every call into harness.py happens here, on this thread, with no thread of the judge's
        # beside it: a fork from another thread (a sandboxed nvcc as root: `user=` rules out vfork,
        # so pthread_atfork handlers run) while a multi-threaded OpenBLAS call runs (a reference
        # using `@` or np.linalg) hangs in OpenBLAS's at-fork handler for good (issue 11;
        # tests/grader/test_blas_fork.py). The ptxas report's nvcc was started above, on this
        # thread. The cost: every case's inputs and expected outputs are held at once.
        progress("running", 0, len(package.tests))  # generating the inputs is part of running the cases
        harness = package.load_harness()
        cases = [prepare_case(package, harness, test, launch, refused, seed_secret)
                 for test, launch, refused in zip(package.tests, launches, refusals)]
        check_inputs = case_inputs(package, harness, check_test, seed_secret) \
            if checking and refusals[check_index] is None else None
        if build.resources is None and backend.wants_ptxas_report and report is None:
            # The late report (the backend's ptxas_report_late, for comparisons): started only now.
            report = PtxasReport(source, package.kernel, target_cc, backend)
        result = JudgeResult(verdict=Verdict.ACCEPTED, compile=build.compile, backend=name)
        budget = RunBudget.for_limit(package.time_limit_s, budget_factor)
        hung = None
        mapped: Case | None = None  # the failing case whose write map is drawn (writemap_case)
        resident = None  # the co-resident launch an inter-block spin barrier needed (coresidency.py)
        for k, case in enumerate(cases):
            progress("running", k, len(package.tests))
            if budget.spent:  # the tests before it used the whole budget: this one is not started
                result.tests.append(spent_before(case.test, budget, package.time_limit_s))
                hung = result.tests[-1]
                break
            test_result, coresident, stopped = _run_case(package, backend, build, case, result, source, explainer,
                                                         gpu, _resources_of(build, report), budget)
            resident = resident or coresident
            if writemaps and writemap_wanted(backend, test_result, mapped):
                mapped = case  # its inputs stay: the write-map run below reuses them
            cases[k] = None  # its inputs and expected outputs are no longer needed
            result.tests.append(test_result)
            if stopped or test_result.verdict in HANGS:
                # The remaining cases would only wait for the same hang: also when the explainer found
                # what made it hang (a divergent barrier: the case is a SYNC_ERROR, the run still hung).
                hung = test_result
                break
        progress("running", len(result.tests), len(package.tests))
        if hung is not None:
            result.tests += [_not_run(test, hung) for test in package.tests[len(result.tests):]]
        if checking and hung is None and check_inputs is not None:
            progress("checking", len(package.tests), len(package.tests))
            test, launch = check_test, launches[check_index]
            if resident is not None:  # the check pass would only wait for the spinning blocks again
                launch = dataclasses.replace(launch, coresident=True)
            _add_diagnostics(result, _check_pass(package, backend, build, test, launch, check_inputs, budget), test.name)
        if mapped is not None and hung is None and not budget.spent:
            limit, _cut = budget.limit(package.time_limit_s * 4)
            result.writemaps = writemap_run(package, backend, build, mapped, limit, budget)
        if build.resources is None and report is not None:
            build.resources = report.wait()
        result.resources = judged_resources(build, _card_launch(package, launches), target_cc)
        result.limits = budget.report(package.time_limit_s, backend.time_limit_clock)
        result.verdict = submission_verdict(result.tests, result.diagnostics)
        result.message = submission_summary(result)
        result.device = backend.device_name()
        return result
    finally:
        _close(report)
        backend.close(build)


def evaluate_launches(package: ProblemPackage, exprs: tuple[str, str, str]) -> tuple[list, list, M.Message | None]:
    """Each test case's launch from the (block, grid, shared_bytes) expressions `exprs` (launch_expressions):
    (launches, unevaluated, refusal). An expression that cannot be evaluated for a test leaves that test's
    launch None and its reason in `unevaluated` (M.INVALID_LAUNCH). `refusal` (the first such reason, else
    None) refuses the whole submission before compiling, for free (no attempt), only where that says
    nothing a student may not know: the expressions fail on a sample test (whose sizes are public) or on
    every test. Failing only on hidden tests is those tests' RUNTIME_ERROR, as a launch CUDA refuses there:
    a free refusal would be a free probe of the hidden sizes (`1 << (n - K)` fails while n < K)."""
    launches: list[LaunchConfig | None] = []
    unevaluated: list[M.Message | None] = []
    for test in package.tests:
        try:
            launches.append(build_launch(*exprs, test.params, **package.launch.options()))
            unevaluated.append(None)
        except LaunchExpressionError as exc:
            launches.append(None)
            unevaluated.append(M.INVALID_LAUNCH(error=exc.message))
        except LaunchConfigError as exc:  # raised elsewhere without a message: quoted as its English text
            launches.append(None)
            unevaluated.append(M.INVALID_LAUNCH(error=str(exc)))
    failed = [(test, why) for test, why in zip(package.tests, unevaluated) if why is not None]
    free = next((why for test, why in failed if test.sample), None)
    if free is None and failed and len(failed) == len(package.tests):
        free = failed[0][1]
    return launches, unevaluated, free


def _card_launch(package: ProblemPackage, launches: list) -> LaunchConfig | None:
    """The launch the resource card describes (threads per block, dynamic shared memory, occupancy): the
    first sample test's, else the first test's that could be evaluated. A sample's: a hidden test's
    launch follows from its sizes, which a student does not see."""
    evaluated = [(test, launch) for test, launch in zip(package.tests, launches) if launch is not None]
    return next((launch for test, launch in evaluated if test.sample), evaluated[0][1] if evaluated else None)


def _close(report: PtxasReport | None) -> None:
    if report is not None:
        report.close()


def _resources_of(build: Build, report: PtxasReport | None) -> Callable[[], Resources | None]:
    """The build's resource report when asked for: its own, else the ptxas report's (waited for then)."""
    def resources():
        if build.resources is None and report is not None:
            build.resources = report.wait()
        return build.resources
    return resources


def _run_case(package, backend, build: Build, case: Case, result: JudgeResult, source: str,
              explainer: HangExplainer | None, gpu=None,
              resources: Callable[[], Resources | None] = lambda: None,
              budget: RunBudget | None = None) -> tuple[TestResult, LaunchConfig | None, bool]:
    """One test case's row; the co-resident launch when its blocks needed one to complete (an
    inter-block spin barrier whose grid fits on `gpu` at once: a SYNC_ERROR, coresidency.py, which
    asks `resources()` for the registers only then), else None; and whether the run was stopped at its
    limit or proven deadlocked (True whatever verdict the explainer then gave it). The run gets the
    per-test limit or what is left of `budget` if less, and its seconds are charged to it."""
    budget = budget or RunBudget.for_limit(package.time_limit_s, None)
    started = time.monotonic()
    test, launch = case.test, case.launch
    refused = case.refused
    if refused:  # a launch CUDA would refuse, or expressions that cannot be evaluated for it (launch None)
        detail = {"grid": list(launch.grid), "block": list(launch.block), "shared_bytes": launch.shared_bytes} \
            if launch is not None else {}
        diag = Diagnostic(kind=DiagnosticKind.LAUNCH_ERROR, message=refused, test=test.name, detail=detail)
        _add_diagnostics(result, [diag], test.name)
        return TestResult(name=test.name, sample=test.sample, verdict=Verdict.RUNTIME_ERROR, message=refused,
                          params=dict(test.params)), None, False
    limit, cut = budget.limit(package.time_limit_s)
    request = RunRequest(launch=launch, inputs=case.inputs, time_limit_s=limit, test_name=test.name)
    outcome = backend.run(build, request)
    budget.charge(outcome)
    if outcome.status is RunStatus.INTERNAL:
        raise PlatformError(outcome.message or f"backend failed on test {test.name}")
    resident = None
    if gpu is not None:
        first = outcome
        outcome, resident = coresidency.explain(backend, build, request, outcome, gpu, resources)
        if outcome is not first:  # run again co-resident
            budget.charge(outcome)
        if outcome.status is RunStatus.INTERNAL:
            raise PlatformError(outcome.message or f"backend failed on test {test.name}")
    if budget.ran_out(outcome, cut):  # the limit it ran past is what the budget had left: say so, not that figure
        budget.restate(outcome, package.time_limit_s)
    else:
        outcome = explain_hang(outcome, explainer, source, package.kernel, request)
    verdict, message, mismatch = case_verdict(outcome, case.expected, package.atol, package.rtol)
    _add_diagnostics(result, outcome.diagnostics, test.name)
    seconds = outcome.cpu_s if outcome.cpu_s is not None else (outcome.time_s or time.monotonic() - started)
    return TestResult(name=test.name, sample=test.sample, verdict=verdict, message=case_message(message, outcome),
                      mismatch=mismatch, time_s=round(seconds, 4),
                      params=dict(test.params), output_log=outcome.log, time_limit_s=package.time_limit_s), \
        resident, outcome.status in (RunStatus.TIMEOUT, RunStatus.DEADLOCK)


def _check_pass(package, backend: Backend, build: Build, test: TestCaseSpec, launch: LaunchConfig, inputs: dict,
                budget: RunBudget) -> list[Diagnostic]:
    """The check pass's findings on `test` (the smallest), each marked as the check pass's. Each of its
    runs gets four times the per-test limit, all of them together at most what is left of the budget; a
    check pass the budget stops, or one with no budget left, is a TIME_LIMIT finding saying so."""
    if budget.spent:
        return [budget.finding(package.time_limit_s, test.name)]
    limit, cut = budget.limit(package.time_limit_s * 4)
    outcome = backend.run(build, RunRequest(launch=launch, inputs=inputs, check=True, time_limit_s=limit,
                                            checks=tuple(str(c) for c in package.checks), test_name=test.name,
                                            budget_s=budget.left_s))
    budget.charge(outcome)
    if outcome.status is RunStatus.INTERNAL:
        raise PlatformError(outcome.message or "check pass failed")
    if budget.ran_out(outcome, cut or budget.spent):
        budget.restate(outcome, package.time_limit_s)
    for d in outcome.diagnostics:  # whatever the backend named them: found by the check pass
        d.test, d.check = test.name, True
    return outcome.diagnostics


def _not_run(test: TestCaseSpec, hung: TestResult) -> TestResult:
    """The row of a test case not run because `hung` (an earlier case) hung: it names that case."""
    why = M.NOT_RUN_BUDGET if hung.message.code == "RUN_BUDGET_SPENT" \
        else M.NOT_RUN_AFTER.get(str(hung.verdict), M.NOT_RUN_AFTER["SYNC_ERROR"])  # any other: "… hung"
    return TestResult(name=test.name, sample=test.sample, verdict=NOT_RUN, params=dict(test.params),
                      message=why(test=hung.name))


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


def _target_gpu(target_cc: str, key: str = ""):
    """The course's GPU (problems.core.gpus.GPU): `key` when given, else the H200 for cc 9.0 and the
    first listed GPU of other compute capabilities."""
    from problems.core import gpus

    if key:
        return gpus.gpu(key)
    named = gpus.gpus_for(target_cc)
    return next((g for g in named if g.key == "h200"), named[0] if named else gpus.gpu("h200"))


def judge_bare(source: str, spec: KernelSpec, launch: LaunchConfig, inputs: dict, backend: Backend,
               time_limit_s: float = 5.0, check: bool = False,
               explainer: HangExplainer | None = None) -> tuple[Build, RunOutcome | None]:
    """Run a kernel without a problem (the playground): compile, run once, return the outcome (a hang
    explained as in explain_hang)."""
    build = backend.compile(source, spec)
    try:
        if not build.compile.ok:
            return build, None
        request = RunRequest(launch=launch, inputs=inputs, time_limit_s=time_limit_s, check=check)
        return build, explain_hang(backend.run(build, request), explainer, source, spec, request)
    finally:
        backend.close(build)
