"""The submissions list and nav: "My submissions" is marked current only on pages of one's own
submissions; work submitted less than a minute ago reads "just now"; a test's time keeps its unit
on the same line."""
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


@pytest.mark.parametrize("language, just_now, old", [("en", "just now", "5 minutes ago"), ("ko", None, "5분")])
def test_just_submitted_reads_just_now(problem, alice, make_submission, language, just_now, old):
    """A submission made seconds ago reads "just now", not "0 minutes ago" (nor "0분"); one made
    5 minutes ago keeps its age."""
    fresh, older = make_submission(alice, problem), make_submission(alice, problem)
    Submission.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(minutes=5, seconds=5))
    client = Client(headers={"accept-language": language})
    client.force_login(alice)
    html = client.get(reverse("grader:list")).content.decode()
    assert "0 minutes" not in html and "0\xa0minutes" not in html and "0분" not in html
    assert old in html.replace("\xa0", " ")
    times = re.findall(r"<time [^>]*>([^<]*)</time>", html)
    assert len(times) == 2
    if just_now:
        assert times[0] == just_now  # newest first


def test_test_times_do_not_wrap():
    """The tests table's time cells ("27.5 ms") are nowrap in the stylesheet."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
    assert re.search(r"\.tests-table \.num \{[^}]*white-space: nowrap", css)
