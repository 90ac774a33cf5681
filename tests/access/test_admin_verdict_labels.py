"""Verdicts in the admin's submission list (grader.admin): shown, filtered and sorted under the
labels the site's own pages use (problems.templatetags.warpdrill.VERDICT_LABELS), not their codes.
"""
from __future__ import annotations

import re

import pytest

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
    """A submission's change form shows its verdict as 'Memory error', read-only. (Its title is the
    model's __str__, which still names the code.)"""
    html = body(admin_page.get(f"/admin/grader/submission/{graded['out_of_bounds_on_hidden'].pk}/change/"))
    assert '<div class="readonly">Memory error</div>' in html
    assert '<div class="readonly">MEMORY_ERROR</div>' not in html
