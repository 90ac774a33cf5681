"""On Korean pages the removing actions read as removing, never as "내보내기" (Export): the problem
editor's wrong-solution checkbox (ticked, the file is deleted on save), a course's member rows and a
problem set's items."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


def _ko(client, url) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code == 200
    return response.content.decode()


def test_the_removing_actions_say_remove_in_korean(client_for, courses, people, problem):
    from homework import actions

    prof = client_for("prof")
    editor = _ko(prof, reverse("authoring:edit", args=["PP-A", problem.slug]))
    assert 'name="wrong-0-delete"> 저장할 때 삭제</label>' in editor
    manage = _ko(prof, reverse("courses:manage", args=["PP-A"]))
    assert ">제외</button>" in manage
    now = timezone.now()
    s = actions.create_set(courses["A"], people["prof"], title_en="Week 1", opens_at=now, due_at=now + timedelta(1))
    actions.add_item(s, family="occupancy.blocks_per_sm")
    assert ">제거</button>" in _ko(prof, reverse("homework:set", args=["PP-A", s.pk]))
    for page in (editor, manage):
        assert "내보내기" not in page
