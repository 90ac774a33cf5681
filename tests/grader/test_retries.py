"""grader/retries.py: the platform-fault policy the grading and playground tasks share."""
from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from grader import retries


def _task(retried: int):
    calls = []

    def retry(exc, countdown):
        calls.append((exc, countdown))
        return RuntimeError("retry")

    return SimpleNamespace(request=SimpleNamespace(retries=retried), retry=retry), calls


def test_before_the_last_retry_the_row_is_marked_retrying_and_after_it_given_up():
    done = []
    task, _ = _task(2)
    assert retries.give_up_or_mark_retrying(task, 3, lambda: done.append("gave up"),
                                            lambda: done.append("retrying")) is False
    task, _ = _task(3)
    assert retries.give_up_or_mark_retrying(task, 3, lambda: done.append("gave up"),
                                            lambda: done.append("retrying")) is True
    assert done == ["retrying", "gave up"]


def test_the_retry_backs_off_exponentially():
    task, calls = _task(2)
    fault = ValueError("broker")
    with pytest.raises(RuntimeError):
        retries.retry_with_backoff(task, fault)
    assert calls == [(fault, 4)]


def test_a_sweep_warns_only_when_it_requeued_something(caplog):
    log = logging.getLogger("test.retries")
    with caplog.at_level(logging.WARNING, logger="test.retries"):
        assert retries.report_requeued(log, "stuck runs", []) == 0
        assert retries.report_requeued(log, "stuck runs", [4, 9]) == 2
    assert [r.getMessage() for r in caplog.records] == ["re-queued 2 stuck runs: [4, 9]"]
