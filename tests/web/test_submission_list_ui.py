"""The submissions list and nav: "My submissions" is marked current only on pages of one's own
submissions; each submission's time is written in the one format; a test's time keeps its unit on
the same line."""
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from grader.models import Submission

from .conftest import graded_result

pytestmark = pytest.mark.django_db

NAV_MINE = re.compile(r'<a href="/submissions/"\s*(aria-current="page")?\s*>My submissions</a>')


def nav_mine_is_current(response) -> bool:
    match = NAV_MINE.search(response.content.decode())
    assert match, "the nav has no 'My submissions' link"
    return match.group(1) is not None


@pytest.fixture
def instructor_client(instructor):
    client = Client()
    client.force_login(instructor)
    return client


def test_nav_marks_my_submissions_only_on_my_own(problem, alice, instructor, alice_client, instructor_client,
                                                  make_submission):
    """The student's list and own submission page mark "My submissions"; the instructor's
    "All submissions" (?all=1) and a student's submission opened by the instructor do not, while
    the instructor's own list still does."""
    submission = make_submission(alice, problem, graded_result())
    list_url = reverse("grader:list")
    assert nav_mine_is_current(alice_client.get(list_url))
    assert nav_mine_is_current(alice_client.get(submission.get_absolute_url()))

    everyone = instructor_client.get(list_url + "?all=1")
    assert "All submissions" in everyone.content.decode()
    assert not nav_mine_is_current(everyone)
    assert not nav_mine_is_current(instructor_client.get(submission.get_absolute_url()))
    assert nav_mine_is_current(instructor_client.get(list_url))


def test_student_asking_for_all_still_sees_own_list_marked(problem, alice, alice_client, make_submission):
    """?all=1 means nothing to a student: the page is their own list, and the nav says so."""
    make_submission(alice, problem)
    assert nav_mine_is_current(alice_client.get(reverse("grader:list") + "?all=1"))


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_list_and_a_submission_write_when_in_the_one_format(problem, alice, make_submission, language):
    """Each submission's time reads "2026-12-05 20:08 KST", the one format of every page (it was "5 minutes
    ago" / "5분 전" here, "2026-12-05 20:08:05 KST" on the submission's page), in the reader's zone."""
    from accounts.core.times import format_when, zone_named
    from tests.timestamps import stamps

    fresh, older = make_submission(alice, problem), make_submission(alice, problem)
    Submission.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(minutes=5, seconds=5))
    older.refresh_from_db()
    client = Client(headers={"accept-language": language})
    client.cookies["wd_tz"] = "Asia/Seoul"
    client.force_login(alice)
    html = client.get(reverse("grader:list")).content.decode()
    times = re.findall(r"<time [^>]*>([^<]*)</time>", html)
    seoul = zone_named("Asia/Seoul")
    assert times == [format_when(fresh.created_at, seoul), format_when(older.created_at, seoul)]  # newest first
    assert "ago" not in html and "분 전" not in html
    stamps(html)
    page = client.get(older.get_absolute_url()).content.decode()
    assert format_when(older.created_at, seoul) in stamps(page)


def test_test_times_do_not_wrap():
    """The tests table's time cells ("27.5 ms") are nowrap in the stylesheet."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
    assert re.search(r"\.tests-table \.num \{[^}]*white-space: nowrap", css)
