"""Verdicts in the admin's submission list (grader.admin): shown, filtered and sorted under the
labels the site's own pages use (problems.templatetags.warpdrill.VERDICT_LABELS), not their codes;
the list's headers, filters and titles in the reader's language.
"""
from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from grader.models import Submission

from .conftest import body, make_user

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/grader/submission/"


@pytest.fixture
def admin_page(page, users):
    """A staff member of the Instructor group (the group's permissions come from problems/0002)."""
    client = page(None)
    client.force_login(make_user("ines", "Instructor", is_staff=True))
    return client


def verdict_cells(html: str) -> list[str]:
    return re.findall(r'<td class="field-verdict_shown">([^<]*)</td>', html)


def test_admin_list_shows_verdict_labels(admin_page, graded):
    """The changelist's verdict column shows 'Wrong answer' and 'Memory error' (오답, 메모리 오류 in
    Korean), never the codes."""
    html = body(admin_page.get(CHANGELIST))
    cells = verdict_cells(html)
    assert "Wrong answer" in cells and "Memory error" in cells
    assert not {"WRONG_ANSWER", "MEMORY_ERROR", "ACCEPTED"} & set(cells)
    assert not re.search(r">\s*(WRONG_ANSWER|MEMORY_ERROR|ACCEPTED)\s*<", html)
    korean = verdict_cells(body(admin_page.get(CHANGELIST, HTTP_ACCEPT_LANGUAGE="ko")))
    assert "오답" in korean and "메모리 오류" in korean


def test_admin_filters_verdicts_by_label(admin_page, graded):
    """The verdict filter lists every verdict by its label and keeps Django's ?verdict__exact= URL."""
    html = body(admin_page.get(CHANGELIST))
    assert '<a href="?verdict__exact=WRONG_ANSWER">Wrong answer</a>' in html
    assert '<a href="?verdict__exact=SYNC_ERROR">Sync error</a>' in html
    assert '<a href="?verdict__exact=INTERNAL_ERROR">Not graded (platform error)</a>' in html
    filtered = admin_page.get(CHANGELIST, {"verdict__exact": "WRONG_ANSWER"})
    assert filtered.status_code == 200
    assert [s.pk for s in filtered.context["cl"].result_list] == [graded["wrong_on_hidden"].pk]
    assert verdict_cells(body(filtered)) == ["Wrong answer"]


def test_admin_sorts_by_the_verdict_column(admin_page, graded):
    """The verdict column's header is sortable, and sorting orders the rows by verdict both ways."""
    first = admin_page.get(CHANGELIST)
    assert re.search(r'<th scope="col" class="sortable[^"]*column-verdict_shown', body(first))
    column = first.context["cl"].list_display.index("verdict_shown")
    expected = sorted(Submission.objects.values_list("verdict", flat=True))
    for order, rows in ((f"{column}", expected), (f"-{column}", expected[::-1])):
        response = admin_page.get(CHANGELIST, {"o": order})
        assert [s.verdict for s in response.context["cl"].result_list] == rows


def test_admin_change_form_shows_the_verdict_label(admin_page, graded):
    """A submission's change form shows its verdict as 'Memory error', read-only, and its title (the
    model's __str__) names the student and the verdict's label, never a user id or the code."""
    submission = graded["out_of_bounds_on_hidden"]
    html = body(admin_page.get(f"/admin/grader/submission/{submission.pk}/change/"))
    assert '<div class="readonly">Memory error</div>' in html
    assert '<div class="readonly">MEMORY_ERROR</div>' not in html
    title = f"#{submission.pk} {submission.problem_version} by alice: Memory error"
    assert str(submission) == title and title in html  # (the code is still in the stored result's JSON)
    assert f"by {submission.user_id}:" not in html and ": MEMORY_ERROR" not in html
    korean = body(admin_page.get(f"/admin/grader/submission/{submission.pk}/change/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert f"#{submission.pk} {submission.problem_version} (alice): 메모리 오류" in korean


def headers(html: str) -> list[str]:
    """The changelist's column headers, as shown."""
    cells = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells]


def test_admin_list_reads_in_korean(admin_page, graded):
    """In Korean the columns, the filters' titles, the date filter and the model's name are Korean:
    no USER, STATUS, 'status(으)로', 'Filter by created at' or 'submission'."""
    html = body(admin_page.get(CHANGELIST, HTTP_ACCEPT_LANGUAGE="ko"))
    shown = headers(html)
    for korean in ("사용자", "문제 버전", "상태", "판정", "백엔드", "채점 시도", "만든 시각", "채점 끝난 시각"):
        assert korean in shown, (korean, shown)
    assert not {"user", "problem version", "status", "backend", "tries", "created at", "finished at"} & {
        h.lower() for h in shown}
    for title in ("상태 기준", "판정 기준", "백엔드 기준"):
        assert title in html
    assert "(으)로" not in html
    assert "만든 시각 기준으로 거르기" in html and "Filter by" not in html
    assert "변경할 제출 선택" in html or "제출" in re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert not re.search(r"<title>[^<]*submission", html)


def test_admin_list_headers_in_english(admin_page, graded):
    """The English columns are the fields' verbose names (Django upper-cases them with CSS only)."""
    shown = headers(body(admin_page.get(CHANGELIST)))
    for english in ("User", "Problem version", "Status", "Verdict", "Backend", "Tries", "Created at", "Finished at"):
        assert english in shown, (english, shown)


def test_admin_change_form_keeps_the_sources_indentation(admin_page, graded):
    """An instructor reads the source read-only, in a <pre> whose text is the source as submitted
    (indentation, line breaks, escaped quotes), not collapsed by <br> line breaks; a superuser still edits
    it in a textarea."""
    import html as html_lib

    submission = graded["printf_on_hidden"]
    url = f"/admin/grader/submission/{submission.pk}/change/"
    html = body(admin_page.get(url))
    shown = re.search(r'<div class="readonly"><pre[^>]*>(.*?)</pre></div>', html, re.S)
    assert shown and html_lib.unescape(shown.group(1)) == submission.source
    assert "\n    int i = blockIdx.x" in html_lib.unescape(shown.group(1))
    assert 'name="source"' not in html
    superuser = User.objects.create_superuser("root", password="pass-1234-word")
    admin_page.force_login(superuser)
    editable = body(admin_page.get(url))
    assert re.search(r'<textarea name="source"', editable) and "source_shown" not in editable


def test_admin_sidebar_names_the_question_models_in_korean(admin_page, graded):
    """The Korean admin's index and sidebar name the practice questions' models in Korean
    ('연습 문제 변형', '연습 문제 시도'), not 'Question variants' / 'Question attempts'."""
    admin_page.force_login(User.objects.create_superuser("root", password="pass-1234-word"))
    korean = body(admin_page.get("/admin/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert "연습 문제 변형" in korean and "연습 문제 시도" in korean
    assert "Question variants" not in korean and "Question attempts" not in korean
    english = body(admin_page.get("/admin/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Question variants" in english and "Question attempts" in english
    sidebar = body(admin_page.get("/admin/practice/questionattempt/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert "연습 문제 변형" in sidebar and "Question variants" not in sidebar
