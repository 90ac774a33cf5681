"""The judge's closed sets (verdicts, diagnostic kinds) and its two rules: what one run means
(`case_verdict`) and what a whole submission's verdict is (`submission_verdict`)."""
from enum import StrEnum


class Verdict(StrEnum):
    """The outcome of one test case or of a whole submission."""

    ACCEPTED = "ACCEPTED"  # every output matched the reference and no check found a fault
    WRONG_ANSWER = "WRONG_ANSWER"  # an output differs from the reference beyond tolerance
    COMPILE_ERROR = "COMPILE_ERROR"  # the source did not compile (or failed a static check)
    RUNTIME_ERROR = "RUNTIME_ERROR"  # a CUDA error: illegal address, invalid configuration, trap, ...
    TIME_LIMIT = "TIME_LIMIT"  # the run exceeded its wall-clock limit
    DEADLOCK = "DEADLOCK"  # threads parked at a barrier that can never complete
    SYNC_ERROR = "SYNC_ERROR"  # divergent barrier, warp-mask mismatch or shared-memory race
    MEMORY_ERROR = "MEMORY_ERROR"  # out-of-bounds or misaligned access
    INTERNAL_ERROR = "INTERNAL_ERROR"  # the platform's fault: never charged, retried

    @property
    def is_final_for_student(self) -> bool:
        """False for INTERNAL_ERROR, which is retried and never counted as an attempt."""
        return self is not Verdict.INTERNAL_ERROR


# When several test cases fail differently, the submission's verdict is the most severe
# one present. Faults proven by a check outrank a plain wrong answer because they explain it.
SEVERITY = [
    Verdict.INTERNAL_ERROR,
    Verdict.COMPILE_ERROR,
    Verdict.DEADLOCK,
    Verdict.SYNC_ERROR,
    Verdict.MEMORY_ERROR,
    Verdict.RUNTIME_ERROR,
    Verdict.TIME_LIMIT,
    Verdict.WRONG_ANSWER,
    Verdict.ACCEPTED,
]


class NotRun(StrEnum):
    """A test case's outcome when it has no verdict: never a whole submission's (so never a `Verdict`,
    whose values the Submission model stores)."""

    NOT_RUN = "NOT_RUN"  # not run: an earlier test case hung (TIME_LIMIT or DEADLOCK) and judging stopped there


NOT_RUN = NotRun.NOT_RUN

# The test cases after a hang would only wait for the same hang: judging stops at these verdicts.
HANGS = (Verdict.TIME_LIMIT, Verdict.DEADLOCK)


def worst(verdicts) -> Verdict:
    """Return the most severe verdict of an iterable (ACCEPTED for an empty one)."""
    ranked = sorted(verdicts, key=SEVERITY.index)
    return ranked[0] if ranked else Verdict.ACCEPTED


class DiagnosticKind(StrEnum):
    """What a diagnostic reports; each maps to the verdict it implies."""

    DIVERGENT_BARRIER = "divergent_barrier"  # live threads of a block at different barriers
    WARP_MASK = "warp_mask"  # a warp operation's mask does not match the lanes reaching it
    RACE = "race"  # two unordered accesses to one shared/global location, one a write
    DEADLOCK = "deadlock"  # a barrier that can never complete
    OUT_OF_BOUNDS = "out_of_bounds"  # access outside a buffer or shared array
    MISALIGNED = "misaligned"  # misaligned access
    TIMEOUT = "timeout"  # ran past the time limit
    LAUNCH_ERROR = "launch_error"  # the launch was refused (cudaErrorInvalidConfiguration, ...)
    CUDA_ERROR = "cuda_error"  # any other CUDA error (trap, illegal instruction, ...)
    STACK_OVERFLOW = "stack_overflow"  # a thread overflowed its stack (deep recursion)
    UNINITIALIZED = "uninitialized"  # read of shared memory no thread wrote
    NOTE = "note"  # information only (e.g. printf output truncated)


DIAGNOSTIC_VERDICT = {
    DiagnosticKind.DIVERGENT_BARRIER: Verdict.SYNC_ERROR,
    DiagnosticKind.WARP_MASK: Verdict.SYNC_ERROR,
    DiagnosticKind.RACE: Verdict.SYNC_ERROR,
    DiagnosticKind.DEADLOCK: Verdict.DEADLOCK,
    DiagnosticKind.OUT_OF_BOUNDS: Verdict.MEMORY_ERROR,
    DiagnosticKind.MISALIGNED: Verdict.MEMORY_ERROR,
    DiagnosticKind.TIMEOUT: Verdict.TIME_LIMIT,
    DiagnosticKind.LAUNCH_ERROR: Verdict.RUNTIME_ERROR,
    DiagnosticKind.CUDA_ERROR: Verdict.RUNTIME_ERROR,
    DiagnosticKind.STACK_OVERFLOW: Verdict.RUNTIME_ERROR,
    DiagnosticKind.UNINITIALIZED: None,  # shown, but the output comparison decides
    DiagnosticKind.NOTE: None,
}


# ---- the rules: what a run means, what a submission's verdict is ----
# The imports are inside the functions: backends.base and results import this module's sets.

def case_verdict(outcome, expected: dict, atol: float, rtol: float):
    """(verdict, message, mismatch) of one run (a backends.base.RunOutcome) against the reference's
    outputs `expected` ({name: ndarray}): a fault first, else diagnostics, else the comparison.

    The message explains the verdict: a SYNC_ERROR's is its finding, even when the output differs too
    (the mismatch is kept: the page shows it below as a consequence, not as the reason). `mismatch` is a
    results.Mismatch or None. Raises PlatformError when the backend returned no value for an output.
    """
    from .backends.base import RunStatus
    from .compare import compare_output
    from .errors import PlatformError
    from .summary import mismatch_message
    from . import messages as M

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
        message = mismatch_message(mismatch)
    return verdict, message, mismatch


def submission_verdict(tests, diagnostics) -> Verdict:
    """The verdict of a whole submission: the most severe of its test cases' verdicts (cases not run
    left out) and of the verdicts its diagnostics imply (results.TestResult and results.Diagnostic lists)."""
    verdicts = [t.verdict for t in tests if t.verdict is not NOT_RUN]
    verdicts += [DIAGNOSTIC_VERDICT[d.kind] for d in diagnostics if DIAGNOSTIC_VERDICT.get(d.kind)]
    return worst(verdicts)
