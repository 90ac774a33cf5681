"""Staff work (validation runs, rejudge previews) is sent at LOW_PRIORITY and a student's submission at
the default priority: on the Redis broker a waiting student's grading is taken before staff work that
was queued earlier (kombu's Redis transport keeps one list per priority step and reads them in order)."""
from __future__ import annotations

import pytest
from django.conf import settings

from grader.actions import LOW_PRIORITY
from grader.tasks import grade_submission

pytestmark = [pytest.mark.integration, pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")),
    reason="needs the Redis broker: export CELERY_BROKER_URL=redis://127.0.0.1:6379/15 as .ci/run does")]
QUEUE = "wd-priority-test"


def test_a_students_grading_is_taken_before_staff_work_queued_earlier():
    from celery import current_app

    for staff_id in (101, 102, 103):
        grade_submission.apply_async((staff_id,), queue=QUEUE, priority=LOW_PRIORITY)
    grade_submission.apply_async((7,), queue=QUEUE)  # a student's, sent last
    taken = []
    with current_app.connection_for_read() as conn:
        queue = conn.SimpleQueue(QUEUE, no_ack=True)
        try:
            for _ in range(4):
                message = queue.get(timeout=5)
                taken.append(message.decode()[0][0])
        finally:
            queue.clear()
            queue.close()
    assert taken == [7, 101, 102, 103]
