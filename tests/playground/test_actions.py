"""The playground's write path: a run stuck in the queue or under a dead worker is sent again once
per deadline; a final one never is."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from playground import actions
from playground.models import PlaygroundRun, RunState

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = [{"name": "out", "kind": "output", "dtype": "int32", "size": "4"}]


def test_stuck_runs_are_sent_again_once_and_final_ones_never(monkeypatch, settings):
    settings.WARPDRILL_STUCK_AFTER_S = 600
    sent = []
    monkeypatch.setattr(actions, "_send", sent.append)
    user = User.objects.create_user("alice")
    runs = {name: actions.create_run(user, "__global__ void k(int* out) {}", "", ROWS, "1", "4")
            for name in ("waiting", "fresh", "dead-worker", "done")}
    assert len(sent) == 4  # each sent once after its commit
    sent.clear()
    now = timezone.now()
    old = now - timedelta(seconds=601)
    PlaygroundRun.objects.filter(pk=runs["waiting"].pk).update(queued_at=old)
    PlaygroundRun.objects.filter(pk=runs["dead-worker"].pk).update(state=RunState.RUNNING, started_at=old)
    PlaygroundRun.objects.filter(pk=runs["done"].pk).update(state=RunState.DONE, queued_at=old, started_at=old)

    assert sorted(actions.requeue_stuck_runs(now)) == sorted([runs["waiting"].pk, runs["dead-worker"].pk])
    assert sorted(sent) == sorted([runs["waiting"].pk, runs["dead-worker"].pk])
    assert PlaygroundRun.objects.get(pk=runs["dead-worker"].pk).state == RunState.QUEUED
    assert actions.requeue_stuck_runs(now) == []  # queued again just now: not stuck before the next deadline
    assert PlaygroundRun.objects.get(pk=runs["done"].pk).state == RunState.DONE
