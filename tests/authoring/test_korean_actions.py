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
    assert ">제외</a>" in manage  # it opens the confirmation, whose button removes
    member = courses["A"].memberships.get(user=people["stu"])
    confirm = _ko(prof, reverse("courses:member-remove", args=["PP-A", member.pk]))
    assert ">강좌에서 제외</button>" in confirm and "내보내기" not in confirm
    now = timezone.now()
    s = actions.create_set(courses["A"], people["prof"], title_en="Week 1", opens_at=now, due_at=now + timedelta(1))
    actions.add_item(s, family="occupancy.blocks_per_sm")
    assert ">제거</button>" in _ko(prof, reverse("homework:set", args=["PP-A", s.pk]))
    for page in (editor, manage):
        assert "내보내기" not in page


def test_the_editor_names_its_two_student_views_apart(client_for, courses, people, problem, settings):
    """The live page a published problem has and the preview of the version in the editor were
    "학생 화면으로 보기" and "학생 화면으로 미리 보기" side by side: now one opens the students' page,
    the other previews version N, each with a tooltip saying what it shows."""
    import re

    version = problem.versions.get()
    prof = client_for("prof")
    url = reverse("authoring:edit", args=["PP-A", problem.slug])
    assert 'id="open-live-page"' not in prof.get(url).content.decode()  # nothing published yet
    problem.current_version, problem.is_published = version, True  # published (its validation is not the point)
    problem.save()
    for lang, live, preview in (("en", "Open the students' page", "Preview version 1"),
                                ("ko", "학생용 문제 페이지 열기", "버전 1 미리 보기")):
        page = prof.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        labels = {m[0]: m[1].strip() for m in re.findall(r'id="(open-live-page|preview-as-student)"[^>]*>([^<]*)<', page)}
        assert labels == {"open-live-page": live, "preview-as-student": preview}, labels
        assert page.count('title="') >= 2


def test_the_history_compares_versions_not_problems(client_for, courses, people, problem):
    """The two columns choosing versions to compare were "이전" and "새 문제" ("new problem", the word of a
    problem nobody has tried): they name versions."""
    page = _ko(client_for("prof"), reverse("authoring:history", args=["PP-A", problem.slug]))
    assert "<th>이전 버전</th><th>새 버전</th>" in page and "새 문제" not in page
