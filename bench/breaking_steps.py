"""The step logic of bench/breaking_point.py, plain Python: the next load, the break criteria, and
which limit broke and why.

No Django, no network: bench/breaking_point.py measures a step into a StepFigures, and
`judge_step` says whether a limit broke in it; tests/bench/test_breaking_steps.py tests these.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum


class Limit(str, Enum):
    """The limits a step can break, in the order `judge_step` names the first of several: a named
    cause seen in the errors explains the slowness that comes with it (a request that waits 10 s for
    a PostgreSQL connection also raises the p95), so causes come before symptoms."""

    POSTGRES_CONNECTIONS = "postgres connections"  # PoolTimeout, "too many connections" in the web's log
    BROKER = "broker"  # Redis refused or dropped a connection while a message was being sent
    CONNECTION_REFUSED = "connection refused"  # the web's listen socket refused or reset connections
    WEB_ERRORS = "web errors"  # 5xx or no answer within the client's timeout, with no named cause
    REJECTED = "rejected requests"  # 4xx over the error budget: the load script is wrong, or a rate limit
    WEB_LATENCY = "web latency"  # p95 over the threshold: the web workers (their CPU) cannot keep up
    GRADING_CAPACITY = "grading capacity"  # the grading backlog grows: kernels arrive faster than graded


# Log lines that name a cause, as the web and the worker write them (psycopg, Django, redis-py, kombu, gunicorn).
LOG_CAUSES: tuple[tuple[Limit, re.Pattern], ...] = (
    (Limit.POSTGRES_CONNECTIONS, re.compile(r"PoolTimeout|couldn't get a connection|too many connections|"
                                            r"remaining connection slots are reserved")),
    (Limit.BROKER, re.compile(r"redis\.exceptions\.(?:Connection|Timeout)Error|kombu\.exceptions\.OperationalError|"
                              r"max number of clients reached|Error 111 connecting")),
    (Limit.WEB_ERRORS, re.compile(r"WORKER TIMEOUT")),
)


def log_causes(text: str) -> Counter:
    """{Limit: lines of `text` (a slice of a service's log) that name it as a cause}."""
    counts: Counter = Counter()
    for line in text.splitlines():
        for limit, pattern in LOG_CAUSES:
            if pattern.search(line):
                counts[limit] += 1
                break
    return counts


@dataclass(frozen=True)
class Thresholds:
    """Where a step counts as broken."""

    p95_ms: float = 1000.0  # web p95 over this many milliseconds (every request of the step)
    error_rate: float = 0.01  # (5xx + no answer + refused) / requests over this share; 4xx likewise on their own
    queue_growth_per_min: float = 2.0  # the grading backlog's least-squares slope, submissions per minute
    queue_min_depth: int = 10  # ... and at least this many waiting at the step's end


@dataclass
class StepFigures:
    """What one step measured. Times are seconds from the step's start; latencies in ms or s as named."""

    students: int  # simulated students active during the step
    requests: int  # HTTP requests answered or failed during the step
    web_p50_ms: float | None
    web_p95_ms: float | None
    status_5xx: int = 0
    status_4xx: int = 0
    no_answer: int = 0  # timed out or closed without an answer
    refused: int = 0  # ConnectionRefusedError / ConnectionResetError at connect
    backlog: list[tuple[float, int]] = field(default_factory=list)  # (s, exam submissions not yet graded)
    log_causes: Counter = field(default_factory=Counter)  # {Limit: log lines naming it} during the step

    @property
    def error_rate(self) -> float:
        """(5xx + no answer + refused) / requests; 0 when there were no requests."""
        bad = self.status_5xx + self.no_answer + self.refused
        return bad / self.requests if self.requests else 0.0


@dataclass(frozen=True)
class Breach:
    limit: Limit
    why: str  # one sentence with the figures


@dataclass(frozen=True)
class StepVerdict:
    broken: bool
    breaches: tuple[Breach, ...]  # every limit broken in the step, first the one `Limit`'s order names

    @property
    def first(self) -> Breach | None:
        return self.breaches[0] if self.breaches else None


def slope_per_min(samples: list[tuple[float, int]]) -> float:
    """The least-squares slope of (seconds, depth) samples, in depth per minute; 0 with under two
    samples or all at one time."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_d = sum(d for _, d in samples) / n
    var = sum((t - mean_t) ** 2 for t, _ in samples)
    if var == 0:
        return 0.0
    return 60.0 * sum((t - mean_t) * (d - mean_d) for t, d in samples) / var


def judge_step(fig: StepFigures, th: Thresholds = Thresholds()) -> StepVerdict:
    """Which limits `fig` broke under `th`, ordered by `Limit` (named causes first).

    Errors over th.error_rate are attributed to what the logs and the client saw: PoolTimeout or
    "too many connections" lines -> POSTGRES_CONNECTIONS, Redis/kombu errors -> BROKER, refused
    connections -> CONNECTION_REFUSED, otherwise WEB_ERRORS. A cause seen in the logs also counts
    on its own when the error rate stays under the budget but the p95 broke (the slow requests were
    waiting for it). Any refused connection breaks the step.
    """
    found: dict[Limit, str] = {}
    rate = fig.error_rate
    over_p95 = fig.web_p95_ms is not None and fig.web_p95_ms > th.p95_ms
    named = {limit: n for limit, n in fig.log_causes.items() if n and limit is not Limit.WEB_ERRORS}
    if rate > th.error_rate or over_p95:
        for limit, n in named.items():
            found[limit] = f"{n} log line(s) name it ({limit.value}) while {rate:.1%} of requests failed" + (
                f" and the p95 was {fig.web_p95_ms:.0f} ms" if over_p95 else "")
    if fig.refused:
        found[Limit.CONNECTION_REFUSED] = f"{fig.refused} connection(s) refused or reset by the web's socket"
    if rate > th.error_rate and not named and not fig.refused:
        timeouts = fig.log_causes.get(Limit.WEB_ERRORS, 0)
        found[Limit.WEB_ERRORS] = (f"{rate:.1%} of {fig.requests} requests failed ({fig.status_5xx} 5xx, "
                                   f"{fig.no_answer} unanswered, {timeouts} gunicorn worker timeouts)")
    if fig.requests and fig.status_4xx / fig.requests > th.error_rate:
        found[Limit.REJECTED] = f"{fig.status_4xx} of {fig.requests} requests answered 4xx"
    if over_p95:
        found[Limit.WEB_LATENCY] = f"web p95 {fig.web_p95_ms:.0f} ms > {th.p95_ms:.0f} ms"
    growth = slope_per_min(fig.backlog)
    depth = fig.backlog[-1][1] if fig.backlog else 0
    if growth >= th.queue_growth_per_min and depth >= th.queue_min_depth and depth > fig.backlog[0][1]:
        found[Limit.GRADING_CAPACITY] = (f"the grading backlog grew {growth:.1f} per minute to {depth} waiting "
                                         f"(from {fig.backlog[0][1]})")
    breaches = tuple(Breach(limit, found[limit]) for limit in Limit if limit in found)
    return StepVerdict(bool(breaches), breaches)


def next_load(students: int, factor: float = 2.0, max_students: int | None = None) -> int | None:
    """The next step's students: `students` × `factor`, rounded, at least one more; None when that
    is over `max_students` (the run ends unbroken). Raises ValueError for a factor <= 1 or students < 1."""
    if factor <= 1 or students < 1:
        raise ValueError(f"need students >= 1 and factor > 1, not {students} and {factor}")
    nxt = max(students + 1, round(students * factor))
    return None if max_students is not None and nxt > max_students else nxt
