"""The step logic of bench/breaking_point.py (bench/breaking_steps.py): the next load, the break
criteria and which limit is named first. Plain Python: no database, no services."""
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from breaking_steps import (  # noqa: E402
    Limit, StepFigures, Thresholds, judge_step, log_causes, next_load, slope_per_min,
)


def healthy(**changes) -> StepFigures:
    fig = StepFigures(students=100, requests=1000, web_p50_ms=20.0, web_p95_ms=80.0,
                      backlog=[(0.0, 1), (20.0, 2), (40.0, 1), (60.0, 2)])
    for name, value in changes.items():
        setattr(fig, name, value)
    return fig


def test_a_healthy_step_breaks_nothing():
    """Low latency, no errors and a flat backlog: not broken, nothing named."""
    verdict = judge_step(healthy())
    assert not verdict.broken and verdict.first is None


def test_the_load_doubles_until_the_maximum():
    """50 -> 100 -> 200 with factor 2; a step past --max-students ends the run; a factor near 1 still adds one."""
    assert [next_load(50), next_load(100), next_load(200, 2, 400), next_load(400, 2, 400)] == [100, 200, 400, None]
    assert next_load(3, 1.1) == 4
    with pytest.raises(ValueError):
        next_load(10, 1.0)


def test_a_p95_over_the_threshold_is_web_latency():
    """p95 1,500 ms against 1,000 ms, no errors: the web tier's latency is the limit."""
    verdict = judge_step(healthy(web_p95_ms=1500.0), Thresholds(p95_ms=1000))
    assert verdict.broken and verdict.first.limit is Limit.WEB_LATENCY
    assert "1500 ms" in verdict.first.why


def test_errors_just_under_one_percent_do_not_break_but_over_do():
    """9 of 1,000 requests failing (0.9 %) is within the budget; 11 (1.1 %) is not."""
    assert not judge_step(healthy(status_5xx=9)).broken
    verdict = judge_step(healthy(status_5xx=6, no_answer=5))
    assert verdict.first.limit is Limit.WEB_ERRORS and "1.1%" in verdict.first.why


def test_pool_timeouts_in_the_log_name_postgres_before_the_latency_they_cause():
    """5xx over the budget, a p95 over the threshold and PoolTimeout lines in the web's log: the limit
    named first is PostgreSQL's connections; the latency is listed after it, and no anonymous 5xx."""
    fig = healthy(status_5xx=50, web_p95_ms=10_500.0, log_causes=Counter({Limit.POSTGRES_CONNECTIONS: 50}))
    verdict = judge_step(fig)
    assert [b.limit for b in verdict.breaches] == [Limit.POSTGRES_CONNECTIONS, Limit.WEB_LATENCY]


def test_a_broker_error_is_named_and_a_cause_alone_breaks_nothing():
    """Redis errors in the log with 5xx over the budget name the broker; the same lines with no
    failed request and a good p95 (a retry that worked) break nothing."""
    causes = Counter({Limit.BROKER: 3})
    assert judge_step(healthy(status_5xx=20, log_causes=causes)).first.limit is Limit.BROKER
    assert not judge_step(healthy(log_causes=causes)).broken


def test_one_refused_connection_breaks_the_step():
    """A refused connection is a limit even under the error budget (the listen backlog overflowed)."""
    verdict = judge_step(healthy(refused=1))
    assert verdict.first.limit is Limit.CONNECTION_REFUSED


def test_4xx_answers_are_rejected_requests_not_web_errors():
    """4xx over the budget (a wrong load script or a rate limit) is its own limit, not the web failing."""
    verdict = judge_step(healthy(status_4xx=50))
    assert [b.limit for b in verdict.breaches] == [Limit.REJECTED]


def test_a_growing_backlog_is_grading_capacity_and_a_shallow_one_is_not():
    """A backlog rising 0 -> 30 over a minute grows 30 per minute: grading capacity. One rising
    0 -> 6 grows too, but stays under queue_min_depth (10); one that falls back is not growing."""
    growing = [(float(t), t // 2) for t in range(0, 61, 5)]
    verdict = judge_step(healthy(backlog=growing))
    assert verdict.first.limit is Limit.GRADING_CAPACITY and "30.0 per minute" in verdict.first.why
    assert not judge_step(healthy(backlog=[(float(t), t // 10) for t in range(0, 61, 5)])).broken
    assert not judge_step(healthy(backlog=[(0.0, 12), (30.0, 40), (60.0, 12)])).broken


def test_slope_per_min_is_least_squares():
    """Depth = 2 + t/3 per second is 20 per minute; one sample or one instant has no slope."""
    assert slope_per_min([(t, 2 + t / 3) for t in (0.0, 3.0, 6.0, 9.0)]) == pytest.approx(20.0)
    assert slope_per_min([(1.0, 5)]) == 0.0 and slope_per_min([(1.0, 5), (1.0, 9)]) == 0.0


def test_log_causes_reads_what_psycopg_redis_and_gunicorn_write():
    """One count per line, from the messages the libraries really print."""
    text = "\n".join([
        "psycopg_pool.PoolTimeout: couldn't get a connection after 10.00 sec",
        'django.db.utils.OperationalError: connection failed: FATAL:  too many connections for role "wd"',
        "redis.exceptions.ConnectionError: Error 111 connecting to 127.0.0.1:6379. Connection refused.",
        "[CRITICAL] WORKER TIMEOUT (pid:1234)",
        "GET /exams/1/attempt/state/ 200",
    ])
    assert log_causes(text) == Counter({Limit.POSTGRES_CONNECTIONS: 2, Limit.BROKER: 1, Limit.WEB_ERRORS: 1})
